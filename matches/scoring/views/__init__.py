"""Scoring's pages: ``play`` (new match, match page, scorepad, phones) and ``lifecycle``
(abandon, resume, rename, rematch, delete)."""
