"""What you copy is what you can see: a short notice with the count, every copy whole in `c`."""

from collections.abc import Callable
from pathlib import Path

import pyperclip
import pytest
from textual.containers import Vertical
from textual.widgets import OptionList, TextArea

from tests.pilot_helpers import wait_until
from tui_reader.core.config import Config
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.copied_screen import CopiedScreen

LONG = "https://example.org/" + "a-very-long-path/" * 20  # 360 characters

pytestmark = pytest.mark.usefixtures("unhurried_reading")


@pytest.fixture
def copied(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """pyperclip standing in for a system clipboard: what it was given."""
    texts: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", texts.append)
    return texts


def notices(app: ReaderApp) -> list[str]:
    return [notification.message for notification in app._notifications]


async def test_copying_three_links_says_three_and_c_shows_them_whole(
    write_seed: Callable[..., Path], copied: list[str]
) -> None:
    from tests.pilot_helpers import store_from

    store = store_from(write_seed(f"First paper, see {LONG}", "Second.", "Third [/b] paper."))
    app = ReaderApp(Opening(store))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("A", "y")  # every paper marked: one link each
        assert len(copied[-1].splitlines()) == 3
        assert notices(app)[-1] == "Copied 3 links to the clipboard · c shows them"
        await pilot.press("escape", "y")
        assert notices(app)[-1] == "Copied 1 link to the clipboard · c shows it"
        await pilot.press("c")
        assert isinstance(app.screen, CopiedScreen)
        options = app.screen.query_one(OptionList)
        assert options.option_count == 2
        assert "1 link" in str(options.get_option_at_index(0).prompt)  # newest first
        text = app.screen.query_one(TextArea)
        assert text.read_only and text.text == LONG  # whole, not cut
        await pilot.press("down")
        assert text.text == copied[0] and len(text.text.splitlines()) == 3
        await pilot.press("y")  # copy the chosen one again
        assert copied[-1] == copied[0]
        assert options.option_count == 3
        await pilot.press("tab", "f7", "ctrl+c")  # select all of the text, copy the selection
        assert copied[-1] == copied[0]
        await pilot.press("escape")
        assert not isinstance(app.screen, CopiedScreen)
        assert len(app.copy_log.copies) == 4


async def test_without_a_system_clipboard_the_notice_names_osc52(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(text: str) -> None:
        raise pyperclip.PyperclipException("could not find a copy/paste mechanism")

    monkeypatch.setattr(pyperclip, "copy", fail)
    app = ReaderApp(Opening(seed_store), config=Config(keys={"copied": "C"}))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("Y", "4")  # the BibTeX entry (after its one link and 2 forms)
        await wait_until(pilot, lambda: app.copy_log.copies, "the copy")
        assert app.clipboard.startswith("@")  # Textual's record of what OSC 52 sent
        expected = "Sent 1 BibTeX entry to the terminal (OSC 52) · C shows it"
        assert notices(app)[-1] == expected
        await pilot.press("C")
        assert app.screen.query_one(TextArea).text == app.clipboard


async def test_c_with_nothing_copied_says_how_to_copy(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        assert isinstance(app.screen, CopiedScreen)
        assert not app.screen.query(TextArea)
        assert app.screen.query_one(Vertical).region.height == 3  # a line, not a screenful
        await pilot.press("escape")
        assert not isinstance(app.screen, CopiedScreen)
