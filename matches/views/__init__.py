"""Pages, one module per concern: ``scoring`` (the scorepad and its match pages) and
``records`` (match records in and out)."""
