"""SVG snapshots of every screen (pytest-textual-snapshot).

After a deliberate change to the look, review the new pictures and run
`pytest tests/test_snapshots.py --snapshot-update`.
"""

from dataclasses import replace
from datetime import datetime

import pyperclip
import pytest

from tests.pilot_helpers import at_rest, settled, wait_until, work_done
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.ui import app as app_module
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.problems_screen import ProblemsScreen
from tui_reader.ui.timings import Timings

RELATED_AT_ONCE = Timings(related_after=0.01)  # so that each picture is the same


@pytest.fixture(autouse=True)
def no_timing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing read by the clock, so each picture is the same."""
    monkeypatch.setattr(app_module, "READ_AFTER", 3600)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_main_screen(snap_compare, seed_store, size: tuple[int, int]) -> None:
    async def filter_and_read(pilot) -> None:
        await at_rest(pilot)
        await pilot.press("slash", *"regret bound", "enter")
        await at_rest(pilot)

    assert snap_compare(
        ReaderApp(Opening(seed_store), timings=RELATED_AT_ONCE),
        terminal_size=size,
        run_before=filter_and_read,
    )


def test_main_screen_light_theme(snap_compare, seed_store) -> None:
    async def light(pilot) -> None:
        pilot.app.theme = "textual-light"
        await at_rest(pilot)
        await pilot.press("slash", *"diffusion", "enter", "j")
        await at_rest(pilot)

    assert snap_compare(
        ReaderApp(Opening(seed_store), timings=RELATED_AT_ONCE),
        terminal_size=(120, 36),
        run_before=light,
    )


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (200, 50)])
def test_help_screen(snap_compare, seed_store, size: tuple[int, int]) -> None:
    async def open_help(pilot) -> None:
        await at_rest(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(
        ReaderApp(Opening(seed_store), timings=RELATED_AT_ONCE),
        terminal_size=size,
        run_before=open_help,
    )


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
def test_reading_mode(snap_compare, seed_store, size: tuple[int, int]) -> None:
    async def read(pilot) -> None:
        await at_rest(pilot)
        await pilot.press("z")
        await pilot.pause()

    assert snap_compare(
        ReaderApp(Opening(seed_store), timings=RELATED_AT_ONCE), terminal_size=size, run_before=read
    )


def test_stacked_layout(snap_compare, seed_store) -> None:
    """Just under 100 columns the detail pane sits below the list."""

    async def stacked(pilot) -> None:
        await at_rest(pilot)
        await pilot.press("j", "j")
        await at_rest(pilot)

    assert snap_compare(
        ReaderApp(Opening(seed_store), timings=RELATED_AT_ONCE),
        terminal_size=(99, 40),
        run_before=stacked,
    )


# The dialogs and screens over the main one, each opened by its keys (README), at 100 x 32.
DIALOGS = {
    "tags_view": (("b", "t", *"method", "enter"), ("T",)),
    "copy_picker": ((), ("Y",)),
    "tag_editor": ((), ("t", *"rl theory")),
    "note_editor": ((), ("n", *"Read [/b] again \\[CLS]")),
    "export_dialog": ((), ("E",)),  # the name it suggests, in the folder it names
    "copied_log": (("y",), ("c",)),
    "triage": (("slash", *"bandit", "enter"), ("I",)),
    "feeds": (("slash", *"bandit", "enter", "S", *"bandits", "enter"), ("F",)),
    "pipe_picker": ((), ("vertical_line",)),
}


@pytest.fixture
def same_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy goes to a stand-in clipboard, the export dialog names the folder "/", and the
    pipe picker the config file /config.toml."""
    monkeypatch.setattr(pyperclip, "copy", lambda text: None)
    monkeypatch.chdir("/")
    monkeypatch.setenv("TUI_READER_CONFIG", "/config.toml")


@pytest.mark.usefixtures("same_everywhere")
@pytest.mark.parametrize("dialog", DIALOGS)
def test_dialog(snap_compare, seed_store, dialog: str) -> None:
    before, keys = DIALOGS[dialog]

    async def open_dialog(pilot) -> None:
        await at_rest(pilot)
        await pilot.press(*before)
        await work_done(pilot.app)
        await settled(pilot)
        log = pilot.app.copy_log
        log.copies = [replace(copy, at=datetime(2026, 1, 2, 9, 30)) for copy in log.copies]
        await pilot.press(*keys)
        await work_done(pilot.app)
        await pilot.pause()

    assert snap_compare(
        ReaderApp(Opening(seed_store), timings=RELATED_AT_ONCE),
        terminal_size=(100, 32),
        run_before=open_dialog,
    )


def test_start_problems(snap_compare, seed_store) -> None:
    problems = [
        "config.toml line 1: there is no theme 'nosuch'",
        "config.toml line 5: [keys] teleport: no such action (the README lists them)",
        "papers.jsonl: line 3 is not JSON [/b] (skipped)",
    ]

    async def shown(pilot) -> None:
        await at_rest(pilot)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ProblemsScreen), "problems")
        await pilot.pause()

    app = ReaderApp(Opening(seed_store, messages=problems), Library(None), timings=RELATED_AT_ONCE)
    assert snap_compare(app, terminal_size=(100, 32), run_before=shown)
