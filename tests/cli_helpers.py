"""Running the command line from tests: in this process (its status, output and errors) or
in a process of its own.

Tests import these from here, never from another test module.
"""

import subprocess
import sys

import pytest

from tui_reader import cli


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """The exit status, stdout and stderr of the command, run in this process."""
    try:
        status = cli.main(list(arguments))
    except SystemExit as stop:  # argparse's own errors
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def run_process(*arguments: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own: a hang fails the test instead of stopping it."""
    return subprocess.run(
        [sys.executable, "-m", "tui_reader", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
