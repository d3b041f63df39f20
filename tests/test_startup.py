"""Process-wide tuning lives in tui_reader/startup.py, set by the command before Textual loads."""

import gc
import os
import subprocess
import sys

import pytest

from tests.pilot_helpers import rows
from tui_reader import startup
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp


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
        "import tui_reader.cli.program\n"
        "assert 'textual' in sys.modules\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=60)
    script = (
        "import sys\n"
        "import tui_reader.cli.program\n"
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
        "import tui_reader.cli.program, tui_reader.ui.app\n"
        f"print([name for name in {later!r} if name in sys.modules])\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert found.stdout.strip() == "[]"


def test_the_command_holds_the_collector_until_its_modules_are_in() -> None:
    """Importing the reader's modules made Python's collector pass 187 times (60-80 ms of a
    start); the command holds it off, then gives it back with what the start made frozen."""
    script = (
        "import gc, sys\n"
        "passes = []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and passes.append(1))\n"
        "from tui_reader import startup, __main__ as command\n"
        "hold, release = startup.hold_collector, startup.release_collector\n"
        "def held():\n"
        "    hold()\n"
        "    passes.clear()\n"
        "def released():\n"
        "    print('passes while held', len(passes), 'enabled', gc.isenabled())\n"
        "    release()\n"
        "    print('frozen', gc.get_freeze_count() > 0, 'enabled', gc.isenabled())\n"
        "startup.hold_collector, startup.release_collector = held, released\n"
        "sys.argv = ['tui-reader', 'library', '--help']\n"
        "try:\n"
        "    command.main()\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    lines = [line for line in shown.stdout.splitlines() if line.startswith(("passes", "frozen"))]
    assert lines == ["passes while held 0 enabled False", "frozen True enabled True"]


def test_releasing_a_collector_not_held_changes_nothing() -> None:
    assert gc.isenabled()
    startup.release_collector()
    assert gc.isenabled()
    startup.hold_collector()
    try:
        assert not gc.isenabled()
    finally:
        startup.release_collector()
    assert gc.isenabled()


async def test_the_reader_gives_the_collector_back_once_drawn(seed_store: PaperStore) -> None:
    startup.hold_collector()  # as the command does before importing the reader
    try:
        app = ReaderApp(Opening(seed_store))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert rows(app)[0].startswith("LOAM")
            assert gc.isenabled()
    finally:
        startup.release_collector()
