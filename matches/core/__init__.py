"""What every concern shares: form fields for a game's options, spreadsheet cells, the engine's
messages in the reader's language, fewer runs of the cycle collector while a batch is stored."""
