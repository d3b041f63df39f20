"""The feeds panel and the prompt that saves a filter, driven by keys inside a small app."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static

from tui_reader.core.engine import SearchEngine
from tui_reader.core.feeds import feed_numbers
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.paper_columns import columns_of
from tui_reader.core.search_service import build_index
from tui_reader.core.store import PaperStore
from tui_reader.resources import bundled
from tui_reader.ui.dialogs import ConfirmScreen, PromptScreen
from tui_reader.ui.feeds_screen import FeedsScreen, save_search_prompt
from tui_reader.ui.library_sync import LibrarySync

from .pilot_helpers import wait_until, work_done


class Host(App[None]):
    """An app that opens a dialog at once and keeps what it was dismissed with."""

    def __init__(self, dialog: Screen[Any] | Callable[["Host"], Screen[Any]]) -> None:
        """`dialog`, or what makes it for the app (one that saves the library as the
        reader does)."""
        super().__init__()
        self.dialog = dialog if isinstance(dialog, Screen) else dialog(self)
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.results.append)


@pytest.fixture
def seeds() -> PaperStore:
    return load_paths([bundled("seeds")]).papers


@pytest.fixture
def index(seeds: PaperStore) -> SearchEngine:
    return build_index(seeds)


def rows(screen: FeedsScreen) -> list[str]:
    option_list = screen.query_one(OptionList)
    prompts = (option_list.get_option_at_index(n).prompt for n in range(option_list.option_count))
    return [prompt.plain if isinstance(prompt, Content) else str(prompt) for prompt in prompts]


def hint(screen: Screen[Any]) -> str:
    content = screen.query_one(".dialog-hint", Static).content
    assert isinstance(content, Content)
    return content.plain


def opened(path: Path) -> Library:
    library, messages = Library.open(path)
    assert messages == []
    return library


async def test_the_panel_counts_and_follows_what_is_read(
    private_library: Path,
    seeds: PaperStore,
    index: SearchEngine,
) -> None:
    library = opened(private_library)
    library.save_search("rl [/b]", "reinforcement learning")
    library.save_search("starred", "is:bookmarked")
    rl = [seeds[int(n)].id for n in feed_numbers(index, "reinforcement learning", library, seeds)]
    app = Host(
        lambda app: FeedsScreen(LibrarySync(library, app), seeds, lambda: index, recount_every=0.1)
    )
    screen = app.dialog
    assert isinstance(screen, FeedsScreen)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "…" not in rows(screen)[0], "rl counted")
        assert rows(screen)[0].split() == [
            "rl", "[/b]", str(len(rl)), "/", str(len(rl)), "reinforcement", "learning",
        ]  # fmt: skip
        assert rows(screen)[1].split()[:4] == ["starred", "0", "/", "0"]
        library.set_read(rl[:2], True)  # as the reader (or another program) reads them
        library.set_bookmarked([rl[0]], True)
        await wait_until(
            pilot,
            lambda: rows(screen)[0].split()[2:5] == [str(len(rl) - 2), "/", str(len(rl))],
            "the unread count to follow",
        )
        await wait_until(
            pilot, lambda: rows(screen)[1].split()[1:4] == ["0", "/", "1"], "the bookmark counted"
        )
        await pilot.press("enter")
    assert app.results == ["reinforcement learning"]


async def test_counts_wait_for_the_index_and_follow_papers_loading(
    private_library: Path, seeds: PaperStore
) -> None:
    library = opened(private_library)
    library.save_search("rl", "reinforcement learning")
    library.save_search("unread", "is:unread")
    loaded = PaperStore(seeds[:10])  # more arrive while the panel is open
    ready: list[SearchEngine] = []
    app = Host(
        lambda app: FeedsScreen(
            LibrarySync(library, app),
            loaded,
            lambda: ready[0] if ready else None,
            recount_every=0.1,
        )
    )
    screen = app.dialog
    assert isinstance(screen, FeedsScreen)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "10 / 10" in rows(screen)[1], "the state query counted")
        assert rows(screen)[0].split()[:2] == ["rl", "…"]
        loaded.extend(columns_of(seeds[10:]))
        ready.append(build_index(seeds))
        await wait_until(pilot, lambda: "38 / 38" in rows(screen)[1], "the papers loaded since")
        await wait_until(pilot, lambda: "…" not in rows(screen)[0], "rl counted once indexed")


async def test_d_deletes_a_search_after_asking(
    private_library: Path, seeds: PaperStore, index: SearchEngine
) -> None:
    """Only Enter says yes: the panel opens by itself at start, and "dynamic" typed then
    deleted a search with its d and its y."""
    library = opened(private_library)
    library.save_search("first", "diffusion")
    library.save_search("second", "bandit")
    app = Host(lambda app: FeedsScreen(LibrarySync(library, app), seeds, lambda: index))
    screen = app.dialog
    assert isinstance(screen, FeedsScreen)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")  # not an answer here
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is screen, "the panel again")
        assert list(library.saved_searches()) == ["first", "second"]
        await pilot.press("down", "d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen, "the panel again")
        assert [row.split()[0] for row in rows(screen)] == ["first"]
        told = [notice.message for notice in app._notifications]
        assert told == ["Deleted the saved search “second”: u undoes it"]
        await work_done(app)
        assert opened(private_library).saved_searches() == {"first": "diffusion"}
        await pilot.press("d", "enter")
        await wait_until(pilot, lambda: not rows(screen), "no searches left")
        assert hint(screen).startswith("No saved searches yet: S saves the filter")
        await pilot.press("escape")
    assert app.results == [None]


async def test_the_save_prompt_checks_the_name_and_asks_before_replacing(
    private_library: Path,
) -> None:
    library = opened(private_library)
    library.save_search("bandits", "bandit regret")
    app = Host(save_search_prompt(library, " bandit !#done "))
    async with app.run_test(size=(100, 30)) as pilot:
        prompt = app.screen
        assert isinstance(prompt, PromptScreen)
        await pilot.press("enter")
        error = prompt.query_one(".dialog-error", Static).content
        assert str(error).startswith("A name is a few words")
        prompt.query_one(Input).value = "bandits"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        question = app.screen.query(Static).first().content
        assert str(question) == "“bandits” finds “bandit regret”. Make it find “bandit !#done”?"
        await pilot.press("y")
        await wait_until(pilot, lambda: app.results, "the prompt closed")
    assert app.results == ["bandits"]
