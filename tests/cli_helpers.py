"""Running the command line from tests: in this process (its status, output and errors) or
in a process of its own.

Tests import these from here, never from another test module.
"""

import subprocess
import sys
from collections.abc import Callable, Sequence

import pytest

from tui_reader.cli.program import main


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """The exit status, stdout and stderr of the command, run in this process."""
    try:
        status = main(list(arguments))
    except SystemExit as stop:  # argparse's own errors
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def command(name: str) -> Callable[[Sequence[str]], int]:
    """`tui-reader NAME ARGUMENTS...` run in this process: its exit status."""
    return lambda arguments: main([name, *arguments])


def run_process(*arguments: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own: a hang fails the test instead of stopping it."""
    return subprocess.run(
        [sys.executable, "-m", "tui_reader", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
