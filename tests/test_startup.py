"""Process-wide tuning lives in tui_reader/startup.py, set by the command before Textual loads."""

import os
import subprocess
import sys

import pytest

from tui_reader import startup


def test_frame_rate_is_set_unless_the_user_chose_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEXTUAL_FPS", raising=False)
    startup.set_frame_rate()
    assert os.environ["TEXTUAL_FPS"] == startup.FRAME_RATE
    monkeypatch.setenv("TEXTUAL_FPS", "30")
    startup.set_frame_rate()
    assert os.environ["TEXTUAL_FPS"] == "30"


def test_loading_turns_are_shorter_and_then_restored() -> None:
    before = sys.getswitchinterval()
    try:
        with startup.loading_turns():
            assert sys.getswitchinterval() == pytest.approx(startup.LOADING_SWITCH_INTERVAL)
        assert sys.getswitchinterval() == pytest.approx(startup.SEARCH_SWITCH_INTERVAL)
    finally:
        sys.setswitchinterval(before)


def test_the_reader_runs_at_its_frame_rate() -> None:
    """The command sets the rate before Textual is imported, and the UI package no longer
    sets it behind the caller's back."""
    script = (
        "import os, sys, argparse\n"
        "import tui_reader.ui.app\n"
        "assert 'TEXTUAL_FPS' not in os.environ, 'the ui package set the frame rate'\n"
        "import tui_reader.cli as cli\n"
        "assert 'textual' in sys.modules\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=60)
    script = (
        "import sys\n"
        "import tui_reader.cli\n"
        "assert 'textual' not in sys.modules, 'the command imported Textual before its rate'\n"
    )
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=60)


def test_a_start_leaves_what_it_does_not_use_unimported() -> None:
    """What only a search, a save, a paper without a title or math on screen needs is
    imported then: each of these took 10-40 ms of every start."""
    later = [
        "filelock",
        "rapidfuzz",
        "markdown_it",
        "tui_reader.core.headline",
        "tui_reader.core.latex_math",
    ]
    script = (
        "import sys\n"
        "import tui_reader.cli, tui_reader.ui.app\n"
        f"print([name for name in {later!r} if name in sys.modules])\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert found.stdout.strip() == "[]"
