"""Scoring's writes: ``play`` (a match and its taps, scorer phones, a record's import),
``lifecycle`` (abandon, resume, rename, rematch, delete) and ``closure`` (the check that
closes a match to every write)."""
