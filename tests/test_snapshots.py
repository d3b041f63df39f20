"""SVG snapshots of the main screen (pytest-textual-snapshot).

After a deliberate change to the look, review the new pictures and run
`pytest tests/test_snapshots.py --snapshot-update`.
"""

import pytest

from tests.pilot_helpers import related_shown
from tui_reader.ui import app as app_module
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.paper_list import PaperList


@pytest.fixture(autouse=True)
def no_timing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Related papers at once and nothing read by the clock, so each picture is the same."""
    monkeypatch.setattr(app_module, "RELATED_AFTER", 0.01)
    monkeypatch.setattr(app_module, "READ_AFTER", 3600)


async def settle(pilot) -> None:
    """Wait for the search, then for the related papers of the paper shown."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()  # the results reach the list
    await related_shown(pilot, pilot.app.query_one(PaperList).current.id)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_main_screen(snap_compare, seed_store, size: tuple[int, int]) -> None:
    async def filter_and_read(pilot) -> None:
        await settle(pilot)
        await pilot.press("slash", *"regret bound", "enter")
        await settle(pilot)

    assert snap_compare(ReaderApp(seed_store), terminal_size=size, run_before=filter_and_read)


def test_main_screen_light_theme(snap_compare, seed_store) -> None:
    async def light(pilot) -> None:
        pilot.app.theme = "textual-light"
        await settle(pilot)
        await pilot.press("slash", *"diffusion", "enter", "j")
        await settle(pilot)

    assert snap_compare(ReaderApp(seed_store), terminal_size=(120, 36), run_before=light)


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (200, 50)])
def test_help_screen(snap_compare, seed_store, size: tuple[int, int]) -> None:
    async def open_help(pilot) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(ReaderApp(seed_store), terminal_size=size, run_before=open_help)


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
def test_reading_mode(snap_compare, seed_store, size: tuple[int, int]) -> None:
    async def read(pilot) -> None:
        await settle(pilot)
        await pilot.press("z")
        await pilot.pause()

    assert snap_compare(ReaderApp(seed_store), terminal_size=size, run_before=read)
