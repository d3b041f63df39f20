"""Read state: a paper is read once the reader has rested on it after moving to it or opening it
(never only because it was under the cursor at start), after the config's read_after; R reads
every paper shown, and u undoes that."""

from pathlib import Path

import pytest

from tests.pilot_helpers import lines, type_filter, wait_until
from tui_reader.core.config import Config
from tui_reader.core.library import Library
from tui_reader.core.session import Session
from tui_reader.core.store import PaperStore
from tui_reader.ui import app as app_module
from tui_reader.ui.app import ReaderApp

QUICK = 0.1  # seconds: read_after in these tests
LONGER = 0.6  # seconds: several times QUICK, for what must not happen


@pytest.fixture(autouse=True)
def quick_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The delay of a reader given no config."""
    monkeypatch.setattr(app_module, "READ_AFTER", QUICK)


def reader(
    store: PaperStore, path: Path, read_after: float | None = None, session: Session | None = None
) -> ReaderApp:
    """A reader over its own library; with the config's `read_after` when one is given."""
    library, messages = Library.open(path)
    config = None if read_after is None else Config(read_after=read_after)
    return ReaderApp(store, library, messages, config=config, session=session)


async def test_the_paper_under_the_cursor_at_start_is_not_read(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(LONGER)
        assert not app.library.is_read(seed_store[0].id)


async def test_nor_the_paper_a_restored_session_puts_there(
    seed_store: PaperStore, private_library: Path
) -> None:
    session = Session("", seed_store[5].id, "relevance", "textual-dark")
    app = reader(seed_store, private_library, session=session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(
            pilot, lambda: app.workspace.paper_list.cursor == 5, "the session restored"
        )
        await pilot.pause(LONGER)
        assert not app.library.is_read(seed_store[5].id)


async def test_nor_the_first_result_of_a_filter(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await type_filter(pilot, "diffusion")
        await pilot.pause(LONGER)
        assert not any(app.library.is_read(paper.id) for paper in seed_store)


async def test_a_paper_moved_to_is_read_after_the_configs_read_after(
    seed_store: PaperStore, private_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "READ_AFTER", 60.0)
    app = reader(seed_store, private_library, read_after=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j")
        await wait_until(pilot, lambda: app.library.is_read(seed_store[1].id), "paper 2 read")
        await wait_until(pilot, lambda: lines(app)[1][2] == " ", "its unread dot gone")
        assert not app.library.is_read(seed_store[0].id)


async def test_the_paper_under_the_cursor_at_start_is_read_once_opened(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(LONGER)
        assert not app.library.is_read(seed_store[0].id)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.library.is_read(seed_store[0].id), "paper 1 read")


async def test_read_after_0_never_reads_by_itself(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library, read_after=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j", "enter")
        await pilot.pause(LONGER)
        assert not any(app.library.is_read(paper.id) for paper in seed_store)
        await pilot.press("r")
        assert app.library.is_read(seed_store[1].id)


async def test_capital_r_reads_every_paper_shown_and_u_undoes_it(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library, read_after=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j", "r")  # one read before
        await type_filter(pilot, "diffusion")
        await pilot.press("enter", "R")
        shown = list(app.workspace.paper_list.papers)
        assert shown and all(app.library.is_read(paper.id) for paper in shown)
        others = [paper for paper in seed_store if paper not in shown and paper != seed_store[1]]
        assert not any(app.library.is_read(paper.id) for paper in others)
        assert app._notifications and list(app._notifications)[-1].message == (
            f"Marked {len(shown)} papers read (u undoes)"
        )
        await wait_until(pilot, lambda: all(line[2] == " " for line in lines(app)), "no dots")
        await pilot.press("u")
        assert not any(app.library.is_read(paper.id) for paper in shown)
        assert app.library.is_read(seed_store[1].id)
