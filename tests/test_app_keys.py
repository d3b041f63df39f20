"""Keys sent in one burst, as a paste, a fast typist or `tmux send-keys` delivers them: every
key acts, in the order it was sent, in the place it was meant for."""

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tests.pilot_helpers import keys_handled, ready, wait_until
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui import filtering
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.dialogs import PromptScreen
from tui_reader.ui.note_editor import NoteEditor
from tui_reader.ui.ordered_keys import keys_sent
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.timings import Timings
from tui_reader.ui.workspace import Workspace

CHARACTERS = {"space": " ", "slash": "/", "full_stop": "."}


def burst(app: ReaderApp, *keys: str) -> None:
    """Send the keys as the terminal does: all at once, none waiting for the app to answer
    the one before (Pilot's `press` waits for the app between keys)."""
    for key in keys:
        character = key if len(key) == 1 else CHARACTERS.get(key)
        app.post_message(events.Key(key, character))


async def typed(pilot: Pilot[Any], field: Input, text: str) -> None:
    await wait_until(pilot, lambda: field.value == text, f"{text!r} typed")


async def test_text_typed_right_after_ctrl_u_replaces_the_filter(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        burst(app, "slash", *"old", "ctrl+u", *"agent")
        filter_input = app.query_one("#filter", Input)
        await wait_until(pilot, lambda: filter_input.value == "agent", "the filter to be agent")
        await keys_handled(pilot)
        assert filter_input.value == "agent"
        burst(app, *" grpah", "backspace", "backspace", "backspace", *"aph", "home", "delete")
        await wait_until(pilot, lambda: filter_input.value == "gent graph", "editing keys")
        await keys_handled(pilot)
        assert app.workspace.shown_query == "gent graph"


async def test_a_name_typed_after_ctrl_u_in_the_export_dialog(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(5):  # it failed about one time in five
            await pilot.press("E")
            assert isinstance(app.screen, PromptScreen)
            prompt = app.screen.query_one(Input)
            burst(app, "ctrl+u", *"list.bib")
            await typed(pilot, prompt, "list.bib")
            await keys_handled(pilot)
            assert prompt.value == "list.bib"
            await pilot.press("escape")


async def test_ten_j_in_the_detail_pane_scroll_ten_lines(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(60, 20)) as pilot:
        detail_pane = app.query_one(DetailPane)
        await pilot.press("enter")
        assert app.focused is detail_pane and detail_pane.max_scroll_y >= 12
        burst(app, *"j" * 10)
        await wait_until(pilot, lambda: detail_pane.scroll_offset.y == 10, "ten lines scrolled")
        burst(app, "k", "k", "k")
        await wait_until(pilot, lambda: detail_pane.scroll_offset.y == 7, "three lines back")
        burst(app, "g", "j", "j")
        await wait_until(pilot, lambda: detail_pane.scroll_offset.y == 2, "top, then two down")


async def test_keys_after_enter_scroll_the_paper_opened(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        detail_pane, paper_list = app.query_one(DetailPane), app.query_one(PaperList)
        await wait_until(pilot, lambda: detail_pane.max_scroll_y >= 4, "the first paper shown")
        burst(app, "enter", "j", "j", "j", "j")
        await wait_until(pilot, lambda: detail_pane.scroll_offset.y == 4, "four lines scrolled")
        await keys_handled(pilot)
        assert paper_list.cursor == 0 and app.focused is detail_pane


async def test_letters_after_t_reach_the_tag_editor(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        burst(app, "t", *"to-read")
        await wait_until(pilot, lambda: isinstance(app.screen, PromptScreen), "the tag editor")
        prompt = app.screen.query_one(Input)
        await wait_until(pilot, lambda: prompt.value == "to-read", "the tag typed")
        burst(app, "enter")
        await wait_until(pilot, lambda: app.library.tags(seed_store[0].id), "the tag saved")
        assert app.library.tags(seed_store[0].id) == ["to-read"]


async def test_letters_after_n_reach_the_note_editor(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        burst(app, "j", "n", *"Read", "space", *"later")
        await wait_until(pilot, lambda: isinstance(app.screen, NoteEditor), "the note editor")
        area = app.screen.query_one(TextArea)
        await wait_until(pilot, lambda: area.text == "Read later", "the note typed")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.library.note(seed_store[1].id), "the note saved")
        assert app.library.note(seed_store[1].id) == "Read later"


async def test_a_file_name_after_e_reaches_the_export_dialog(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        burst(app, "E", "ctrl+u", *"mine", "full_stop", *"csv")
        await wait_until(pilot, lambda: isinstance(app.screen, PromptScreen), "the dialog")
        prompt = app.screen.query_one(Input)
        await wait_until(pilot, lambda: prompt.value == "mine.csv", "the name typed")


async def test_list_keys_before_slash_move_the_cursor(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        burst(app, "j", "j", "slash", *"graph")
        await typed(pilot, app.query_one("#filter", Input), "graph")
        await keys_handled(pilot)
        assert app.query_one(PaperList).papers  # the list went on to show the query's papers
        burst(app, "escape", "escape", "j", "j", "j")
        await wait_until(pilot, lambda: app.query_one(PaperList).cursor == 5, "the cursor on 5")


async def test_other_text_fields_edit_as_textual_has_them(seed_store: PaperStore) -> None:
    """The command palette's field is Textual's: its keys go the way Textual sends them."""
    from textual.command import CommandPalette

    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        field = app.screen.query_one(Input)
        burst(app, *"sortt", "backspace")
        await typed(pilot, field, "sort")


async def test_keys_after_enter_move_in_the_list_of_what_was_typed(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        await ready(pilot)
        burst(app, "slash", *"regret", "enter", "j", "j")
        await wait_until(pilot, lambda: app.workspace.shown_query == "regret", "the results")
        await keys_handled(pilot)
        assert len(paper_list.papers) == 3  # the papers holding "regret", not all 38
        assert paper_list.cursor == 2


async def test_keys_sent_after_a_dialog_closes_go_to_the_list(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store), Library(None))
    async with app.run_test(size=(100, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        burst(app, "t", "ctrl+u", *"tag", "enter", "j")
        await wait_until(pilot, lambda: paper_list.cursor == 1, "the j after Enter")
        await keys_handled(pilot)
        assert app.library.tags(seed_store[0].id) == ["tag"]
        burst(app, "n", *"text", "ctrl+s", "j")
        await wait_until(pilot, lambda: paper_list.cursor == 2, "the j after Ctrl+S")
        await keys_handled(pilot)
        assert app.library.note(seed_store[1].id) == "text"
        assert isinstance(app.screen, Workspace)


async def test_keys_sent_after_a_picker_chooses_go_where_it_leads(seed_store: PaperStore) -> None:
    library = Library(None)
    library.change_tags([seed_store[2].id, seed_store[5].id], add=["keep"])
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test(size=(100, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        await ready(pilot)
        burst(app, "T", "enter", "j")  # the tags picker, its first tag, then down the list
        await wait_until(pilot, lambda: app.workspace.shown_query == "#keep", "the tag's papers")
        await keys_handled(pilot)
        assert isinstance(app.screen, Workspace)
        assert len(paper_list.papers) == 2
        assert paper_list.cursor == 1  # the j reached the picker as it closed


async def test_a_completion_accepted_in_a_burst_is_the_tag_saved(seed_store: PaperStore) -> None:
    library = Library(None)
    library.change_tags([seed_store[3].id], add=["benchmark"])
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        burst(app, "t", *"be", "right", "enter")  # → before Textual's completion came
        await wait_until(pilot, lambda: isinstance(app.screen, Workspace), "the prompt closed")
        await keys_handled(pilot)
        assert library.tags(seed_store[0].id) == ["benchmark"]
        burst(app, "t", *"xy", "left", "right", "z", "enter")  # no completion: → moves
        await wait_until(pilot, lambda: library.tags(seed_store[0].id) != ["benchmark"], "saved")
        await keys_handled(pilot)
        assert library.tags(seed_store[0].id) == ["benchmark", "xyz"]


async def test_escape_and_a_letter_sent_together_are_two_keys(seed_store: PaperStore) -> None:
    """A terminal sends Alt+j as Escape then j: Escape and j typed in a burst arrive as
    Alt+j, which nothing binds, and the j was lost."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        await ready(pilot)
        burst(app, "j", "j")
        app.post_message(events.Key("alt+j", "j"))  # as Textual reads "\x1bj"
        await wait_until(pilot, lambda: paper_list.cursor == 3, "the j after Escape")
        field = app.workspace.filter_input
        await pilot.press("slash", *"abc", "escape", "j")  # one key at a time
        slowly = (field.value, app.focused)
        await pilot.press("escape", "escape")
        burst(app, "slash", *"abc")
        app.post_message(events.Key("alt+j", "j"))
        await keys_handled(pilot)
        assert (field.value, app.focused) == slowly


def test_an_alt_key_the_config_binds_stays_itself() -> None:
    alt_j = events.Key("alt+j", "j")
    assert [key.key for key in keys_sent(alt_j, set())] == ["escape", "j"]
    assert [key.key for key in keys_sent(events.Key("alt+slash", "/"), set())] == [
        "escape",
        "slash",
    ]
    assert keys_sent(alt_j, {"alt+j"}) == [alt_j]
    assert keys_sent(events.Key("alt+up", None), set())[0].key == "alt+up"
    assert keys_sent(events.Key("alt+backspace", "\x7f"), set())[0].key == "alt+backspace"


async def test_keys_after_enter_wait_for_a_slow_search_without_freezing_the_screen(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phrase among a million papers takes a second or more: searched on the screen's
    thread when Enter left the filter, it froze the screen that long."""
    search = filtering.search_papers
    released, order = threading.Event(), []

    def slow(*arguments: Any, **keywords: Any) -> Any:
        if arguments[1] == "regret":
            released.wait(10)  # a search on the screen's thread holds it up this long
            order.append("searched")
        return search(*arguments, **keywords)

    monkeypatch.setattr(filtering, "search_papers", slow)
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        await ready(pilot)
        burst(app, "slash", *"regret", "enter", "j", "j")
        field = app.workspace.filter_input

        def left() -> bool:
            return field.value == "regret" and app.focused is paper_list

        await wait_until(pilot, left, "Enter left the filter")
        order.append("Enter acted")
        released.set()
        await wait_until(pilot, lambda: paper_list.cursor == 2, "the j j in the results")
        assert order == ["Enter acted", "searched"]  # Enter acted while the search went on
        assert app.workspace.shown_query == "regret" and len(paper_list.papers) == 3


@pytest.fixture
def regret_held_up(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The search for "regret" waits until the event is set (at the end, at the latest)."""
    search = filtering.search_papers
    answer = threading.Event()

    def held_up(*arguments: Any, **keywords: Any) -> Any:
        if arguments[1] == "regret":
            answer.wait(10)
        return search(*arguments, **keywords)

    monkeypatch.setattr(filtering, "search_papers", held_up)
    yield answer
    answer.set()


async def test_keys_wait_for_a_search_held_up_only_once(
    seed_store: PaperStore, regret_held_up: threading.Event
) -> None:
    """Past the results' wait a key acts on the list shown, and the keys after it wait no
    more: each waited again, and a burst of three took three times as long."""
    app = ReaderApp(Opening(seed_store), timings=Timings(results_wait=0.4))
    async with app.run_test(size=(100, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        await ready(pilot)
        burst(app, "slash", *"regret", "enter", "j")
        await wait_until(pilot, lambda: paper_list.cursor == 1, "the j past one wait")
        app.workspace.timings = Timings(results_wait=3600.0)  # a wait again: no end
        burst(app, "j", "j")
        await wait_until(pilot, lambda: paper_list.cursor == 3, "the j j waiting no more")
        regret_held_up.set()
        await wait_until(pilot, lambda: app.workspace.shown_query == "regret", "the results")


async def test_a_key_waiting_for_results_as_the_reader_closes_ends_quietly(
    seed_store: PaperStore, regret_held_up: threading.Event
) -> None:
    """A key waiting for a search's results when the reader closed asked for the screen on
    top of none, and the reader ended in a ScreenStackError."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        burst(app, "slash", *"regret", "enter", "j")
        await pilot.pause(0.1)  # the j waits for the results
        app.exit()
    regret_held_up.set()  # the search ends once the reader has closed


async def test_an_alt_key_in_a_dialog_is_not_escape(seed_store: PaperStore) -> None:
    """In a prompt, Escape cancels what was typed: Alt+u read as Escape then u cancelled the
    prompt and undid the last change."""
    library = Library(None)
    library.change_tags([seed_store[0].id], add=["keep"])
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await pilot.press("b")  # a change that u would undo
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, PromptScreen), "the prompt")
        app.post_message(events.Key("alt+u", "u"))
        await keys_handled(pilot)
        assert isinstance(app.screen, PromptScreen)
        assert library.is_bookmarked(seed_store[0].id)
