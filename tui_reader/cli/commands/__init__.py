"""The commands for scripts, a module each, listed in tui_reader.cli.registry."""
