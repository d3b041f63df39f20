"""The `tui-reader` command: the reader, and the commands for scripts that share its library
(`program.main`; each command a module of `commands/`, listed in `registry`)."""
