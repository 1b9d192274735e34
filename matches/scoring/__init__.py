"""A match at the table: the scorepad and its taps, the match page, scorer phones, the change
log, the kept engine, and a match's lifecycle (abandon, resume, rename, rematch, delete)."""
