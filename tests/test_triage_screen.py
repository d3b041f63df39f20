"""The triage screen, driven by keys as a reader would, inside a small app."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyperclip
import pytest
from textual.app import App
from textual.content import Content
from textual.style import Style
from textual.widgets import Input, Static

from tests.pilot_helpers import work_shown
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.paper import Paper
from tui_reader.core.references import links_of
from tui_reader.core.store import PaperStore
from tui_reader.core.triage import Triage, filter_key, load_places
from tui_reader.ui.dialogs import PromptScreen
from tui_reader.ui.library_sync import LibrarySync
from tui_reader.ui.triage_screen import TriageScreen

from .pilot_helpers import wait_until

HOSTILE = "A [/b] study of [CLS] tokens with \x1b]52;c;aGk=\x07 in it, over $\\alpha$-mixing data."


class Host(App[None]):
    """An app that opens a triage at once and keeps what it was dismissed with; it saves
    the library as the reader does."""

    def __init__(self, library: Library, triage: Callable[[LibrarySync], TriageScreen]) -> None:
        super().__init__()
        self.triage_screen = triage(LibrarySync(library, self))
        self.reached: list[str | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.triage_screen, self.reached.append)


def make_papers(count: int, folder: Path) -> list[Paper]:
    """Papers read from a file, as the reader reads them: the first one hostile."""
    texts = [HOSTILE] + [f"Paper {n} proposes a method for problem {n}." for n in range(1, count)]
    path = folder / "papers.txt"
    path.write_text("Test\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    return load_paths([path]).papers


def open_triage(
    papers: list[Paper], library: Library, places: Path, **options: Any
) -> tuple[Host, TriageScreen]:
    def triage(sync: LibrarySync) -> TriageScreen:
        return TriageScreen(
            PaperStore(papers).view(),
            sync,
            query=options.pop("query", "proposes"),
            sort="relevance",
            search_template="https://example.org/?q={query}",
            places=places,
            **options,
        )

    host = Host(library, triage)
    return host, host.triage_screen


def body(screen: TriageScreen) -> str:
    content = screen.query_one("#triage-body", Static).content
    assert isinstance(content, Content)
    return content.plain


def progress(screen: TriageScreen) -> str:
    content = screen.query_one("#triage-progress", Static).content
    assert isinstance(content, Content)
    return content.plain


def on_disk(path: Path) -> Library:
    library, messages = Library.open(path)
    assert messages == []
    return library


@pytest.fixture
def places(tmp_path: Path) -> Path:
    return tmp_path / "state" / "triage.json"


async def test_one_key_per_decision_saved_and_undone(
    private_library: Path, places: Path, tmp_path: Path
) -> None:
    papers = make_papers(5, tmp_path)
    library, _ = Library.open(private_library)
    library.set_read([papers[1].id], True)
    app, screen = open_triage(papers, library, places)
    async with app.run_test(size=(100, 30)) as pilot:
        assert progress(screen) == "1 of 5 · 0 kept · 0 skipped · 0 later"
        shown = body(screen)
        assert "A [/b] study of [CLS] tokens" in shown and "α-mixing" in shown  # typeset
        assert "\x1b" not in shown
        await pilot.press("enter", "x", "l")
        assert progress(screen) == "4 of 5 · 1 kept · 1 skipped · 1 later"
        assert "Paper 4 proposes" in body(screen)
        await work_shown(pilot)
        saved = on_disk(private_library)
        a, b, c = papers[0].id, papers[2].id, papers[3].id  # papers[1] was read: it comes last
        assert saved.is_bookmarked(a) and saved.is_read(a)
        assert saved.is_read(b) and not saved.is_bookmarked(b)
        assert saved.tags(c) == ["later"] and not saved.is_read(c)
        await pilot.press("u")
        assert progress(screen) == "3 of 5 · 1 kept · 1 skipped · 0 later"
        assert "Paper 3 proposes" in body(screen)
        await work_shown(pilot)
        assert on_disk(private_library).tags(c) == []
        await pilot.press("x", "x", "x")
        assert progress(screen) == "all 5 papers triaged · 1 kept · 4 skipped · 0 later"
        assert "Every paper is triaged" in body(screen)
        await pilot.press("escape")
        await work_shown(pilot)
    assert app.reached == [papers[1].id]  # the last paper, once all are done


async def test_the_next_paper_is_typeset_before_its_key(
    private_library: Path, places: Path, tmp_path: Path
) -> None:
    papers = make_papers(3, tmp_path)
    library, _ = Library.open(private_library)
    app, screen = open_triage(papers, library, places)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(
            pilot,
            lambda: screen.ahead is not None and screen.ahead[0] == papers[1].id,
            "the second paper typeset ahead",
        )
        assert screen.ahead is not None
        prepared = screen.ahead[2]
        await pilot.press("x")
        assert screen.query_one("#triage-body", Static).content is prepared
        assert "Paper 1 proposes" in body(screen)


async def test_quick_tags_from_the_config(
    private_library: Path, places: Path, tmp_path: Path
) -> None:
    papers = make_papers(3, tmp_path)
    library, _ = Library.open(private_library)
    app, screen = open_triage(papers, library, places, quick_tags=["to-read", "method"])
    async with app.run_test(size=(100, 30)) as pilot:
        assert "1 #to-read   2 #method" in str(screen.query_one("#triage-keys", Static).content)
        await pilot.press("2")
        assert library.tags(papers[0].id) == ["method"] and library.is_read(papers[0].id)
        assert progress(screen) == "2 of 3 · 0 kept · 0 skipped · 0 later · 1 tagged"
        await pilot.press("3")
        assert progress(screen).startswith("2 of 3"), "no third quick tag: nothing decided"
        assert any("No quick tag 3" in n.message for n in app._notifications)


@pytest.mark.parametrize("leave", ["escape", "q"])
async def test_leaving_and_coming_back_goes_on_where_it_stopped(
    private_library: Path, places: Path, tmp_path: Path, leave: str
) -> None:
    papers = make_papers(6, tmp_path)
    library, _ = Library.open(private_library)
    app, screen = open_triage(papers, library, places)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "l", "x")
        await pilot.press(leave)
        await work_shown(pilot)
    assert app.reached == [papers[3].id]
    assert load_places(places)[filter_key("proposes", "relevance", private_library)].position == 3
    again, screen = open_triage(papers, library, places)
    async with again.run_test(size=(100, 30)) as pilot:
        assert progress(screen) == "4 of 6 · 1 kept · 1 skipped · 1 later"
        assert "Paper 3 proposes" in body(screen)
    other, screen = open_triage(papers, library, places, query="another filter")
    async with other.run_test(size=(100, 30)) as pilot:
        assert progress(screen).startswith("1 of 6"), "each filter has its own place"
        assert screen.triage.papers[0] == papers[1]  # unread first: the one left for later


async def test_quitting_with_the_triage_open_keeps_the_place(
    private_library: Path, places: Path, tmp_path: Path
) -> None:
    papers = make_papers(4, tmp_path)
    library, _ = Library.open(private_library)
    app, _ = open_triage(papers, library, places)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("x", "x")
        await work_shown(pilot)
        app.exit()
    assert load_places(places)[filter_key("proposes", "relevance", private_library)].position == 2


async def test_a_triage_killed_before_it_was_ever_left_is_taken_up_past_its_decisions(
    private_library: Path, places: Path, tmp_path: Path
) -> None:
    """Its place was kept only when it was left: killed in it, the reader started the
    triage over, "1 of 6 · 0 kept · 0 skipped", its decisions neither passed over nor counted."""
    papers = make_papers(6, tmp_path)
    library, _ = Library.open(private_library)
    app, screen = open_triage(papers, library, places)
    key = filter_key("proposes", "relevance", private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("x", "enter", "x")
        await work_shown(pilot)
        kept = load_places(places)[key]  # as a reader killed now leaves it
        assert (kept.position, kept.decisions) == (0, {})
        again = Triage(PaperStore(papers).view(), library, kept)
        assert again.progress() == "4 of 6 · 1 kept · 2 skipped · 0 later"
        assert again.current == screen.triage.current
        app.exit()
    assert load_places(places)[key].position == 3  # left: its own place


async def test_tags_edited_in_triage_are_undone_first(
    private_library: Path, places: Path, tmp_path: Path
) -> None:
    papers = make_papers(3, tmp_path)
    library, _ = Library.open(private_library)
    app, screen = open_triage(papers, library, places)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("x", "t")
        await wait_until(pilot, lambda: isinstance(app.screen, PromptScreen), "the tag prompt")
        app.screen.query_one(Input).value = "idea"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen, "the triage again")
        assert library.tags(papers[1].id) == ["idea"]
        assert "#idea" in body(screen)
        await pilot.press("u")
        assert library.tags(papers[1].id) == [] and "Paper 1 proposes" in body(screen)
        await pilot.press("u")
        assert "A [/b] study" in body(screen) and not library.is_read(papers[0].id)


async def test_y_copies_the_link_and_a_click_opens_this_papers_link(
    private_library: Path, places: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    opened: list[str] = []
    monkeypatch.setattr(
        "tui_reader.ui.triage_screen.open_in_browser", lambda url: opened.append(url)
    )
    papers = make_papers(2, tmp_path)
    library, _ = Library.open(private_library)
    app, screen = open_triage(papers, library, places)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("y")
        assert copied == [links_of(papers[0], "https://example.org/?q={query}")[0]]
        assert any(n.message.startswith("Copied 1 link") for n in app._notifications)
        content = screen.query_one("#triage-body", Static).content
        assert isinstance(content, Content)
        styles = [span.style for span in content.spans if isinstance(span.style, Style)]
        clicks = {style.meta["@click"] for style in styles if "@click" in style.meta}
        assert clicks == {"screen.open_link(1)"}  # this paper's link, not the list's
        await pilot.press("o")
        assert opened == [copied[0]]
