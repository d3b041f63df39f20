"""The Textual app over the core (process-wide tuning is in tui_reader.startup)."""
