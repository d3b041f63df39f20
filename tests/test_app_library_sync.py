"""One library sync for every screen: a save that fails is told once wherever the change was
made (the list, triage, the feeds), the header says "not saved" and a quit asks first; once
saving works again the reader says so, and the header follows."""

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from tests.pilot_helpers import ready, wait_until, work_done
from tui_reader.core.config import Config
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.dialogs import ConfirmByEnter, ConfirmScreen
from tui_reader.ui.feeds_screen import FeedsScreen
from tui_reader.ui.triage_screen import TriageScreen

WARNING = "Changes cannot be saved"


def unsaveable(tmp_path: Path) -> Path:
    """A library file in a folder that does not exist (yet): every save fails."""
    return tmp_path / "missing" / "library.json"


class Reader(ReaderApp):
    """The reader, remembering every notice it gave (a dialog opening clears those shown)."""

    def __init__(self, store: PaperStore, library: Library) -> None:
        super().__init__(Opening(store), library, config=Config(read_after=0))
        self.notices: list[str] = []

    def notify(self, message: str, **options: Any) -> None:
        self.notices.append(message)
        super().notify(message, **options)


def reader(store: PaperStore, library: Library) -> Reader:
    return Reader(store, library)


def told(app: Reader, words: str) -> int:
    """How many notices said `words`."""
    return sum(words in notice for notice in app.notices)


async def quit_asks(pilot: Pilot[None], app: Reader) -> None:
    """q asks first; answered no, the reader stays."""
    await pilot.press("q")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmByEnter), "the question")
    assert "could not be saved" in str(app.screen.query_one(Static).content)
    await pilot.press("n")
    await wait_until(pilot, lambda: app.screen is app.workspace, "the reader again")


async def test_a_decision_triage_cannot_save_is_known_to_the_list_and_the_quit(
    seed_store: PaperStore, tmp_path: Path
) -> None:
    """Triage told its failure itself, once per visit, and the list knew nothing: no "not
    saved" in the header, and q quit at once, losing the decisions."""
    library, _ = Library.open(unsaveable(tmp_path))
    app = reader(seed_store, library)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await pilot.press("I")
        await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen), "triage")
        await pilot.press("enter", "x")
        await work_done(app)
        await wait_until(pilot, lambda: told(app, WARNING) == 1, "the failure told")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list again")
        await wait_until(pilot, lambda: "not saved" in app.workspace.sub_title, "the header")
        await pilot.press("b")  # fails too: told once already
        await work_done(app)
        await quit_asks(pilot, app)
        assert told(app, WARNING) == 1


async def test_a_search_the_feeds_cannot_delete_for_good_is_known_to_the_list(
    seed_store: PaperStore, tmp_path: Path
) -> None:
    """The feeds told every failure, and the list knew none."""
    library, _ = Library.open(unsaveable(tmp_path))
    library.save_search("diffusion", "diffusion")
    library.save_search("bandits", "bandit")
    app = reader(seed_store, library)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FeedsScreen), "the feeds")
        for searches_left in (1, 0):
            await pilot.press("d")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "asked")
            await pilot.press("enter")
            await work_done(app)
            assert len(library.saved_searches()) == searches_left
        assert told(app, WARNING) == 1
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list")
        await wait_until(pilot, lambda: "not saved" in app.workspace.sub_title, "the header")
        await quit_asks(pilot, app)


async def test_saving_again_after_a_failure_is_told_from_triage_too(
    seed_store: PaperStore, tmp_path: Path
) -> None:
    """The list said "Saved again"; triage never did, and its "cannot be saved" stood."""
    path = unsaveable(tmp_path)
    library, _ = Library.open(path)
    app = reader(seed_store, library)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await pilot.press("b")  # fails in the list
        await work_done(app)
        await wait_until(pilot, lambda: "not saved" in app.workspace.sub_title, "the header")
        path.parent.mkdir()  # the folder is back
        await pilot.press("I")
        await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen), "triage")
        await pilot.press("l")  # saves in triage (put off: the list's bookmark stays)
        await work_done(app)
        await wait_until(pilot, lambda: told(app, f"Saved again to {path}") == 1, "said")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list again")
        await wait_until(pilot, lambda: "not saved" not in app.workspace.sub_title, "header")
        assert told(app, WARNING) == 1
    saved, _ = Library.open(path)
    assert saved.is_bookmarked(seed_store[0].id) and saved.tags(seed_store[0].id) == ["later"]
