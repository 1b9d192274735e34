"""Scoring's reads: ``play`` (a match, its changes and phones) and ``outcome`` (how a match
ended, for the pages that manage it)."""
