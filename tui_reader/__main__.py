"""`tui-reader` and `python -m tui_reader`: the command as the shell starts it."""

from tui_reader import startup


def main() -> int:
    startup.hold_collector()  # until the reader has drawn, or the command's modules are in
    from tui_reader.cli.program import main as run_command

    return run_command()


if __name__ == "__main__":
    raise SystemExit(main())
