"""Tags and states in the filter: a #tag completes as it is typed (→ accepts), finds the tags
it starts while typed, and a tag no paper has is said to be one, as is a field no paper has; a
state filter being typed (`is:bookm`) is the filter it will be, shown in the header and
completed (→ or Tab accepts), never the words "is" and "bookm"."""

from pathlib import Path

import pytest
from textual.widgets import OptionList

from tests.pilot_helpers import rows, type_filter, wait_until, work_done
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.tags_screen import TagsScreen


@pytest.fixture
def app(seed_store: PaperStore, private_library: Path) -> ReaderApp:
    library, _ = Library.open(private_library)
    library.change_tags([seed_store[2].id], ["to-read"])
    library.change_tags([seed_store[4].id], ["theory"])
    return ReaderApp(Opening(seed_store), library)


async def test_a_tag_being_typed_finds_the_tags_it_starts(
    app: ReaderApp, seed_store: PaperStore
) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await type_filter(pilot, "#to")
        assert list(app.workspace.paper_list.papers) == [seed_store[2]]
        await type_filter(pilot, " ")  # typed whole: no paper has #to
        assert list(app.workspace.paper_list.papers) == []


async def test_a_tag_completes_and_right_accepts(app: ReaderApp, seed_store: PaperStore) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("slash", *"is:unread", "space", "exclamation_mark", "number_sign", "t")
        filter_input = app.workspace.filter_input
        await wait_until(
            pilot, lambda: filter_input._suggestion == "is:unread !#theory", "a suggestion"
        )
        await pilot.press("h", "e", "right")
        assert filter_input.value == "is:unread !#theory"


async def test_a_tag_no_paper_has_is_said(app: ReaderApp) -> None:
    async with app.run_test(size=(160, 30)) as pilot:
        await type_filter(pilot, "#nosuchtag ")
        assert rows(app) == ["No paper has the tag #nosuchtag"]
        await pilot.press("backspace", "backspace")
        await work_done(app)
        await pilot.pause()
        assert rows(app) == ["No paper has a tag starting with #nosuchta"]
        await pilot.press("ctrl+u", *"#theory", "space", *"zzzqqq")
        await work_done(app)
        await pilot.pause()
        assert rows(app) == ["No papers match “#theory zzzqqq”"]


async def test_a_field_no_paper_has_is_said(app: ReaderApp) -> None:
    """The seeds have no year, date or categories: `year:2020` said only that no paper
    matched it."""
    async with app.run_test(size=(160, 30)) as pilot:
        await type_filter(pilot, "year:2020 ")
        assert rows(app) == ["No paper has a year"]
        await pilot.press("ctrl+u", *"graphs !cat:cs after:2020", "space")
        await work_done(app)
        await pilot.pause()
        assert rows(app) == ["No paper has a date"]  # a negated filter is no reason


async def test_the_tags_picker_says_how_many_of_a_tags_papers_are_here(
    app: ReaderApp, seed_store: PaperStore
) -> None:
    app.library.change_tags(["2401.00001", "2401.00002"], ["theory"])  # papers not loaded
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("T")
        await wait_until(pilot, lambda: isinstance(app.screen, TagsScreen), "the picker")
        shown = [str(option.prompt) for option in app.screen.query_one(OptionList).options]
        assert [" ".join(line.split()) for line in shown] == [
            "#theory 3 papers, 1 here",
            "#to-read 1 paper",
        ]


async def test_a_state_filter_being_typed_is_the_filter_it_will_be(
    app: ReaderApp, seed_store: PaperStore
) -> None:
    """It was searched as the words "is" and "bookm": no papers, and the header silent."""
    app.library.set_bookmarked([seed_store[7].id], True)
    async with app.run_test(size=(160, 30)) as pilot:
        await type_filter(pilot, "is:bookm")
        assert list(app.workspace.paper_list.papers) == [seed_store[7]]
        assert app.workspace.sub_title.startswith("1 of 38 papers · is:bookm → is:bookmarked")
        filter_input = app.workspace.filter_input
        await wait_until(pilot, lambda: filter_input._suggestion == "is:bookmarked", "completion")
        await pilot.press("tab")
        assert filter_input.value == "is:bookmarked"
        assert app.focused is filter_input
        await pilot.press("tab")  # nothing left to complete: the next pane
        assert app.focused is app.workspace.paper_list


async def test_a_state_filter_that_could_be_several_keeps_the_papers_of_the_rest(
    app: ReaderApp,
) -> None:
    async with app.run_test(size=(160, 30)) as pilot:
        await type_filter(pilot, "diffusion")
        before = list(app.workspace.paper_list.papers)
        await type_filter(pilot, " is:")
        assert list(app.workspace.paper_list.papers) == before
        assert " · is: → is:bookmarked, is:read, is:unread, is:new" in app.workspace.sub_title


async def test_a_state_filter_typed_in_full_close_to_one_asks_which(app: ReaderApp) -> None:
    async with app.run_test(size=(160, 30)) as pilot:
        await type_filter(pilot, "is:bookm ")
        assert app.workspace.sub_title.startswith(
            "0 of 38 papers · is:bookm is not a filter: did you mean is:bookmarked?"
        )
