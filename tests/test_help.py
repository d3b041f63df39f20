"""The help screen (?) fits the terminal: all of it at 120x30 or 100x36 and up, the main keys at
80x24."""

import re
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.help_screen import CLOSE_HINT, HelpScreen, lay_out

MAIN = ("Filter", "Bookmark", "Tags", "Note", "Copy link", "Undo", "Quit", "Next paper",
        "Previous paper", "Read", "Mark / unmark", "Scroll down", "Back to the list")  # fmt: skip
EVERY = (*MAIN, "Related paper 1…5", "Wider list", "Clear filter", "Choose a paper or pane")

pytestmark = pytest.mark.usefixtures("unhurried_reading")


def shown(app: ReaderApp) -> tuple[list[str], list[str]]:
    """The help's lines in sight without scrolling, and all its lines."""
    scroll = app.screen.query_one(VerticalScroll)
    text = app.screen.query_one("#help-keys", Static).content
    assert isinstance(text, Content)
    lines = text.plain.splitlines()
    return lines[: scroll.size.height], lines


@pytest.mark.parametrize("size", [(120, 30), (100, 36), (200, 50)])
async def test_help_shows_every_key_without_scrolling(
    seed_store: PaperStore, size: tuple[int, int]
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one(Vertical).border_title == CLOSE_HINT
        visible, every = shown(app)
        assert visible == every
        assert app.screen.query_one(VerticalScroll).max_scroll_y == 0
        for description in EVERY:
            assert any(description in line for line in visible), description


async def test_help_at_80x24_shows_the_main_keys_and_how_to_close_on_top(
    seed_store: PaperStore,
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        box = app.screen.query_one(Vertical)
        assert box.region.y == 0 and box.region.height == 24
        assert str(box.border_title).startswith(CLOSE_HINT)
        visible, every = shown(app)
        for description in MAIN:
            assert any(description in line for line in visible), description
        if visible != every:
            assert str(box.border_title).endswith("↓ more below")
            await pilot.press("j", "j", "j", "j", "j")
            scroll = app.screen.query_one(VerticalScroll)
            assert scroll.scroll_y > 0
            await pilot.press(*["j"] * 60)  # to the end: nothing more below
            await pilot.pause()
            assert scroll.scroll_y == scroll.max_scroll_y
            assert str(box.border_title) == CLOSE_HINT
            await pilot.press("k")
            await pilot.pause()
            assert str(box.border_title).endswith("↓ more below")
        await pilot.press("q")
        assert not isinstance(app.screen, HelpScreen)


def test_columns_fill_the_height_first_when_not_all_fits() -> None:
    keys = [("A", [(f"a{n}", f"thing {n}") for n in range(10)]), ("B", [("x", "other")])]
    columns, width = lay_out(keys, 200, 100)
    assert len(columns) == 1  # all fits in one column: no need for more
    assert width == len("a0  thing 0")
    columns, _ = lay_out(keys, 80, 6)
    assert [len(column) for column in columns[:-1]] == [6]
    assert columns[1][0].plain == "A (continued)"
    assert columns[-1][-2:][1].plain.startswith("x")
    # Numbered rows, such as the related papers, take one line.
    columns, _ = lay_out([("R", [(str(n), f"Related paper {n}") for n in range(1, 6)])], 80, 20)
    assert [line.plain.split() for line in columns[0]] == [
        ["R"],
        ["1…5", "Related", "paper", "1…5"],
    ]


README = Path(__file__).parent.parent / "README.md"
README_KEYS = {"Enter": "enter", "Escape": "escape", "Tab": "tab", "Shift+Tab": "shift+tab",
               "Space": "space", "PageDown": "pagedown", "PageUp": "pageup", "Home": "home",
               "End": "end", "↓": "down", "↑": "up", "→": "right", "←": "left"}  # fmt: skip


def readme_keys(app: ReaderApp) -> set[str]:
    """The keys the first column of README's key table names (not the pickers' own), as
    the footer and help name them."""
    section = README.read_text(encoding="utf-8").split("\n## Keys\n")[1].split("\n## ")[0]
    names = set()
    for row in section.splitlines():
        cells = row.replace("\\|", "¦").split("|")
        if len(cells) > 3 and not cells[2].strip().startswith("pickers"):
            names |= {name.replace("¦", "|") for name in re.findall(r"`([^`]+)`", cells[1])}
            for first, last in re.findall(r"`(\d)` … `(\d)`", cells[1]):
                names |= {str(n) for n in range(int(first), int(last) + 1)}
    return {
        name if len(name) == 1 and name not in README_KEYS else
        app.get_key_display(Binding(README_KEYS.get(name, name.lower()), ""))
        for name in names
    }  # fmt: skip


async def test_help_lists_every_key_readme_lists_and_readme_every_key_of_help(
    seed_store: PaperStore,
) -> None:
    """Help left out Ctrl+P, Ctrl+Q, Ctrl+U and → (README listed them), README the filter's ↑."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.keys
        in_help = {
            name for group, rows in table if group != "Mouse" for keys, _ in rows
            for name in keys.split()
        }  # fmt: skip
        in_readme = readme_keys(app)
        assert {"^p", "^q", "^u", "→"} <= in_readme
        assert in_readme - in_help == set()
        assert in_help - in_readme == set()
