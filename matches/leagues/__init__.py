"""League seasons: divisions, entrants, fixtures and their sign-off, tables, the season's files."""
