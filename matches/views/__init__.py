"""Pages, one module per concern: ``scoring`` (the new match, the scorepad, joining it),
``management`` (a match's names, abandoning, resuming, deleting, its rematch),
``records`` (match records in and out), ``history`` (finished matches), ``clubs``,
``leagues`` and ``accounts``. Each parses its input, calls one service and renders."""
