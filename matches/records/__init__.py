"""Match records: files in and out, imports run as background tasks, the whole-site backup."""
