"""Scoring's forms: ``play`` (a new match, the scorepad's entries) and ``lifecycle`` (rename,
rematch)."""
