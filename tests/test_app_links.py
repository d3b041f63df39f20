"""Copying, opening and exporting links from the app, with and without a clipboard or display."""

import json
import threading
import webbrowser
from pathlib import Path
from typing import Any

import bibtexparser
import pyperclip
import pytest
from textual.content import Content
from textual.widgets import Static

from tests.pilot_helpers import wait_until, work_done
from tui_reader.core.config import Config
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui import flows
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.copy_picker import CopyPicker
from tui_reader.ui.dialogs import ConfirmScreen, PromptScreen
from tui_reader.ui.paper_list import PaperList

from .pilot_helpers import detail

RL4RLA = 17  # the seed paper whose text links to https://github.com/Tim-Xiong/RL4RLA


class Clipboard:
    """pyperclip standing in for a working system clipboard."""

    def __init__(self) -> None:
        self.text: str | None = None

    def copy(self, text: str) -> None:
        self.text = text


@pytest.fixture
def system_clipboard(monkeypatch: pytest.MonkeyPatch) -> Clipboard:
    clipboard = Clipboard()
    monkeypatch.setattr(pyperclip, "copy", clipboard.copy)
    return clipboard


@pytest.fixture
def no_system_clipboard(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(text: str) -> None:
        raise pyperclip.PyperclipException("could not find a copy/paste mechanism")

    monkeypatch.setattr(pyperclip, "copy", fail)


@pytest.fixture
def no_display(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    opened: list[str] = []
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(webbrowser, "open", lambda url, new=0: opened.append(url) or True)
    return opened


def messages(app: ReaderApp) -> list[str]:
    return [notification.message for notification in app._notifications]


async def goto(pilot, index: int) -> None:
    """Choose the paper and wait for the detail pane to show it (it follows a pause)."""
    pilot.app.query_one(PaperList).choose(index)
    headline = pilot.app.store[index].headline

    def shown() -> bool:
        body = pilot.app.query_one("#detail-body", Static).content
        return isinstance(body, Content) and detail(pilot.app).startswith(headline)

    await wait_until(pilot, shown, "the paper shown")


async def test_y_copies_the_primary_link_to_the_system_clipboard(
    seed_store: PaperStore, system_clipboard: Clipboard
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, RL4RLA)
        await pilot.press("y")
        assert system_clipboard.text == "https://github.com/Tim-Xiong/RL4RLA"
        assert messages(app)[-1] == "Copied 1 link to the clipboard · c shows it"
        await pilot.press("k", "y")  # no URL in its text: the search link
        assert system_clipboard.text.startswith("https://scholar.google.com/scholar?q=")


async def test_without_a_system_clipboard_osc52_is_used_and_the_text_shown(
    seed_store: PaperStore, no_system_clipboard: None
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, RL4RLA)
        await pilot.press("y")
        assert app.clipboard == "https://github.com/Tim-Xiong/RL4RLA"
        assert messages(app)[-1] == "Sent 1 link to the terminal (OSC 52) · c shows it"


async def test_picker_copies_each_form_by_digit_or_enter(
    seed_store: PaperStore, system_clipboard: Clipboard
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, RL4RLA)
        paper = seed_store[RL4RLA]
        await pilot.press("Y")
        assert isinstance(app.screen, CopyPicker)
        await pilot.press("2")  # the search link
        assert system_clipboard.text.startswith("https://scholar.google.com/scholar?q=")
        await pilot.press("Y", "3")
        assert system_clipboard.text == (
            "[RL4RLA: a general RL framework that automates the discovery of interpretable, "
            "symbolic RLA…](https://github.com/Tim-Xiong/RL4RLA)"
        )
        await pilot.press("Y", "4")
        # A seed has no year (its file's first line names no venue and gives no year).
        assert system_clipboard.text.endswith("algorithms. https://github.com/Tim-Xiong/RL4RLA")
        await pilot.press("Y", "down", "down", "down", "down", "enter")  # the BibTeX entry
        entry = bibtexparser.parse_string(system_clipboard.text).entries[0]
        assert entry.fields_dict["url"].value == "https://github.com/Tim-Xiong/RL4RLA"
        await pilot.press("Y", "6")
        assert system_clipboard.text == paper.abstract
        await pilot.press("Y", "escape")
        assert not isinstance(app.screen, CopyPicker)


async def test_with_papers_marked_the_choice_applies_to_each(
    seed_store: PaperStore, system_clipboard: Clipboard
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "space", "Y", "2")  # Markdown links of papers 0 and 1
        assert system_clipboard.text.count("\n") == 1
        assert system_clipboard.text.startswith("[LOAM: LLM-based design")
        await pilot.press("Y", "4")  # BibTeX: one entry each
        assert len(bibtexparser.parse_string(system_clipboard.text).entries) == 2
        await pilot.press("y")
        assert len(system_clipboard.text.splitlines()) == 2


async def test_o_on_a_machine_without_a_display_copies_instead(
    seed_store: PaperStore, system_clipboard: Clipboard, no_display: list[str]
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, RL4RLA)
        await pilot.press("o")
        assert no_display == []
        assert system_clipboard.text == "https://github.com/Tim-Xiong/RL4RLA"
        assert messages(app)[-1].startswith("Not opening a browser: there is no display")


async def test_o_opens_the_link_where_there_is_a_display(
    seed_store: PaperStore, no_display: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.BackgroundBrowser("firefox"))
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, RL4RLA)
        await pilot.press("Y", "down", "o")  # open the second link from the picker
        assert no_display[-1].startswith("https://scholar.google.com/scholar?q=")
        await pilot.press("o")
        assert no_display[-1] == "https://github.com/Tim-Xiong/RL4RLA"


async def test_links_in_the_detail_pane_are_numbered_and_clickable(
    seed_store: PaperStore, no_display: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.BackgroundBrowser("firefox"))
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 50)) as pilot:
        await goto(pilot, RL4RLA)
        text = detail(app)
        assert " 1 https://github.com/Tim-Xiong/RL4RLA\n 2 https://scholar.google.com" in text
        await app.run_action("screen.open_link(2)")
        assert no_display[-1].startswith("https://scholar.google.com/scholar?q=")


async def test_search_link_template_is_used(seed_store: PaperStore, system_clipboard) -> None:
    app = ReaderApp(
        Opening(seed_store), config=Config(search_url="https://search.example/?q={query}")
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("y")
        assert system_clipboard.text.startswith("https://search.example/?q=LOAM%3A+LLM-based")


async def test_the_screen_answers_while_an_export_is_written(
    seed_store: PaperStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """References of thousands of papers take seconds: written on the screen's loop, they
    held every key until done."""
    monkeypatch.chdir(tmp_path)
    release = threading.Event()
    render = flows.render_export

    def slow_render(*arguments: Any) -> str:
        release.wait(5)
        return render(*arguments)

    monkeypatch.setattr(flows, "render_export", slow_render)
    app = ReaderApp(Opening(seed_store))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await work_done(app)
            await pilot.press("E", "enter", "j")
            paper_list = app.query_one(PaperList)
            await wait_until(pilot, lambda: paper_list.cursor == 1, "the j", timeout=2)
            assert not (tmp_path / "reading-list.md").exists()
            release.set()
            await wait_until(pilot, (tmp_path / "reading-list.md").exists, "the export")
    finally:
        release.set()


async def test_export_from_the_app(seed_store: PaperStore, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    library, _ = Library.open(tmp_path / "library.json")
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("slash", *"diffusion", "enter")
        await work_done(app)
        await pilot.press("E")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press("enter")  # reading-list.md with the papers shown
        await wait_until(pilot, (tmp_path / "reading-list.md").exists, "the export")
        text = (tmp_path / "reading-list.md").read_text()
        shown = len(app.query_one("#papers").papers)
        assert text.startswith(f"# Reading list ({shown} papers)")
        await pilot.press("space", "E", "end", *["backspace"] * 2, *"bib", "enter")
        await wait_until(pilot, (tmp_path / "reading-list.bib").exists, "the export")
        entries = bibtexparser.parse_string((tmp_path / "reading-list.bib").read_text()).entries
        assert len(entries) == 1
        await pilot.press("E", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert text == (tmp_path / "reading-list.md").read_text()


async def test_the_export_dialog_refuses_the_library_in_use_and_the_papers_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    papers = tmp_path / "papers.json"
    papers.write_text(json.dumps([{"title": "Bandits", "abstract": "Bandits with regret."}]))
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.set_bookmarked(["x"], True)
    library.save()
    before = {file: file.read_bytes() for file in (papers, path)}
    app = ReaderApp(Opening(load_paths([papers]).papers), library)
    async with app.run_test(size=(100, 30)) as pilot:
        await work_done(app)
        for name, said in (("library.json", "is the library in use"), ("papers.json", "holds")):
            await pilot.press("E", "ctrl+u", *name, "enter")
            assert isinstance(app.screen, PromptScreen)  # not "Replace it?"
            error = str(app.screen.query_one(".dialog-error", Static).render())
            assert said in error, error
            await pilot.press("escape")
    assert {file: file.read_bytes() for file in before} == before
