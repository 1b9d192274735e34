"""What every concern shares: form fields for a game's options, spreadsheet cells, the engine's
messages in the reader's language."""
