"""The header says when a save is in flight or failing, and what a look at the file found."""

import threading
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.pilot_helpers import wait_until, work_done
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.dialogs import ConfirmByEnter


async def test_a_slow_save_is_shown_in_the_header_until_it_is_done(
    seed_store: PaperStore, private_library: Path
) -> None:
    library, _ = Library.open(private_library)
    release = threading.Event()
    save = library.save

    def slow_save(fold: bool = False) -> list[str]:
        release.wait(10)  # another program holds the lock, say
        return save(fold)

    library.save = slow_save  # type: ignore[method-assign]
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test() as pilot:
        await work_done(app)
        await pilot.press("b")
        await wait_until(
            pilot, lambda: "saving…" in app.workspace.sub_title, "the saving indicator"
        )
        release.set()
        await wait_until(
            pilot, lambda: "saving…" not in app.workspace.sub_title, "the save to finish"
        )
    assert Library.open(private_library)[0].is_bookmarked(seed_store[0].id)


async def test_a_library_that_cannot_be_saved_says_so_in_the_header(
    seed_store: PaperStore, tmp_path: Path
) -> None:
    library, _ = Library.open(tmp_path / "no such folder" / "library.json")
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test() as pilot:
        await work_done(app)
        await pilot.press("b")
        await wait_until(
            pilot, lambda: "not saved" in app.workspace.sub_title, "the failure in the header"
        )


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_quitting_with_changes_that_could_not_be_saved_asks_first(
    seed_store: PaperStore, tmp_path: Path, key: str
) -> None:
    """The failure was said once, maybe an hour before: q quit at once and the session's
    changes were gone."""
    library, _ = Library.open(tmp_path / "no such folder" / "library.json")
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test() as pilot:
        await work_done(app)
        await pilot.press("b")
        await wait_until(pilot, lambda: "not saved" in app.workspace.sub_title, "the failure")
        await pilot.press(key)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmByEnter), "the question")
        assert "could not be saved" in str(app.screen.query_one(Static).content)
        await pilot.press("n")  # stays: the changes can still be exported or saved
        await wait_until(pilot, lambda: app.screen is app.workspace, "the reader again")
        assert app.is_running
        await pilot.press(key)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmByEnter), "the question")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.is_running, "the reader to quit")


async def test_damage_found_while_the_reader_is_open_is_told(
    seed_store: PaperStore, private_library: Path
) -> None:
    library, _ = Library.open(private_library)
    library.change_tags([seed_store[0].id], add=["kept"])
    library.save(fold=True)
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test() as pilot:
        await work_done(app)
        private_library.write_text("garbage", encoding="utf-8")  # damaged by another program
        await wait_until(
            pilot,
            lambda: any("was damaged" in str(n.message) for n in app._notifications),
            "the notice of the damaged file",
        )
    assert Library.open(private_library)[0].tags(seed_store[0].id) == ["kept"]
