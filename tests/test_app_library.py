"""Tags, bookmarks, notes, marks and read state, driven through the app as a user would."""

import subprocess
import sys
from pathlib import Path

import pytest
from textual.notifications import Notification
from textual.widgets import Input, Static, TextArea

from tests.pilot_helpers import work_shown
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui import app as app_module
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.dialogs import ConfirmScreen, PromptScreen
from tui_reader.ui.note_editor import NoteEditor
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.tags_screen import TagsScreen
from tui_reader.ui.timings import Timings

from .pilot_helpers import detail, lines, rows, wait_until


def reader(store: PaperStore, path: Path, timings: Timings | None = None) -> ReaderApp:
    library, messages = Library.open(path)
    return ReaderApp(Opening(store, messages=messages), library, timings=timings)


def saved(path: Path) -> dict:
    """What another program reading the library file sees, by paper."""
    library, messages = Library.open(path)
    assert messages == []
    return {
        paper_id: {
            "bookmarked": library.is_bookmarked(paper_id),
            "read": library.is_read(paper_id),
            "note": library.note(paper_id),
            "tags": dict.fromkeys(library.tags(paper_id)),
        }
        for paper_id in library.paper_ids()
    }


@pytest.fixture(autouse=True)
def slow_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    # Papers become read only in the test that waits for it.
    monkeypatch.setattr(app_module, "READ_AFTER", 60.0)


async def test_b_toggles_a_bookmark_shown_in_row_and_detail(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b")
        await work_shown(pilot)
        assert lines(app)[0][1] == "★"
        assert "★ bookmarked" in detail(app)
        assert saved(private_library)[seed_store[0].id]["bookmarked"] is True
        await pilot.press("b")
        await work_shown(pilot)
        assert lines(app)[0][1] == " "
        assert "bookmarked" not in detail(app)
        assert saved(private_library)[seed_store[0].id]["bookmarked"] is False


async def test_t_edits_tags_with_completion(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.press("t")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"To-Read rl/theory", "enter")
        await work_shown(pilot)
        assert app.library.tags(seed_store[0].id) == ["rl/theory", "to-read"]
        told = [notification.message for notification in app._notifications]
        assert told[-1] == "Tags are kept in lower case: #to-read"
        assert lines(app)[0].rstrip().endswith("#rl/theory #to-read")
        assert "#rl/theory  #to-read" in detail(app)

        await pilot.press("j", "t")
        await pilot.press("t", "o", "right", "enter")  # "to" completes to "to-read"
        await work_shown(pilot)
        assert app.library.tags(seed_store[1].id) == ["to-read"]

        await pilot.press("k", "t")
        assert app.screen.query_one(Input).value == "rl/theory to-read "
        await pilot.press(*["backspace"] * 8, "enter")  # remove "to-read"
        await work_shown(pilot)
        assert app.library.tags(seed_store[0].id) == ["rl/theory"]
        assert saved(private_library)[seed_store[0].id]["tags"].keys() == {"rl/theory"}


async def test_an_invalid_tag_is_refused_in_the_prompt(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("t", *"good [bad]", "enter")
        assert isinstance(app.screen, PromptScreen)
        assert "Not a tag: [bad]" in str(app.screen.query(".dialog-error").first().content)
        long = "w" * 41
        await pilot.press(*f" {long} -x!", "enter")
        said = str(app.screen.query(".dialog-error").first().content)
        why = "(tags are words; - _ . / + allowed)"
        assert said == f"Not a tag: [bad] -x! {why}; {long} (tags are at most 40 characters)"
        await pilot.press("escape")
        await work_shown(pilot)
        assert app.library.tags(seed_store[0].id) == []


async def test_space_marks_and_tags_and_bookmarks_apply_to_all_marked(
    seed_store, private_library
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "j", "space")  # marks papers 0 and 2
        assert app.workspace.sub_title == "38 papers · 2 marked"
        assert [line[0] for line in lines(app)[:4]] == ["▌", " ", "▌", " "]
        await pilot.press("t", *"related-work", "enter")
        await pilot.press("b")
        await work_shown(pilot)
        ids = [seed_store[0].id, seed_store[2].id]
        assert app.library.tag_counts() == {"related-work": 2}
        assert all(app.library.is_bookmarked(i) for i in ids)
        assert not app.library.is_bookmarked(seed_store[1].id)
        await pilot.press("t", *"-related-work new", "enter")
        await work_shown(pilot)
        assert app.library.tag_counts() == {"new": 2}
        await pilot.press("escape")
        assert app.query_one(PaperList).marked == set()
        assert app.workspace.sub_title == "38 papers"


async def test_mark_all_shown(seed_store, private_library, monkeypatch) -> None:
    every = list(seed_store)
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        # Marking and acting on the marked read ids, never every paper built (a million: 40 s).
        monkeypatch.setattr(type(seed_store), "__iter__", lambda _: iter(()))
        await pilot.press("slash", *"diffusion", "enter")
        await work_shown(pilot)
        await pilot.press("A", "b")
        await work_shown(pilot)
        shown = {p.id for p in app.query_one(PaperList).papers}
        assert app.query_one(PaperList).marked == shown
        assert {i for i in shown if app.library.is_bookmarked(i)} == shown
        assert sum(app.library.is_bookmarked(p.id) for p in every) == len(shown)
        told = [n.message for n in app._notifications]
        assert told[-1] == f"{len(shown)} marked papers bookmarked (u undoes)"
        await pilot.press("r")
        await work_shown(pilot)
        assert all(app.library.is_read(i) for i in shown)
        assert [n.message for n in app._notifications][-1].endswith("marked papers read (u undoes)")
        await pilot.press("u", "u")  # the marks stay: both steps undone
        await work_shown(pilot)
        assert not any(app.library.is_read(i) or app.library.is_bookmarked(i) for i in shown)


async def test_n_edits_a_multi_line_note(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("n")
        assert isinstance(app.screen, NoteEditor)
        await pilot.press(*"Compare with [b]ours[/b]", "enter", *"second line")
        await pilot.press("escape")
        await work_shown(pilot)
        note = "Compare with [b]ours[/b]\nsecond line"
        assert app.library.note(seed_store[0].id) == note
        assert f"Note\n{note}" in detail(app)
        await pilot.press("n")
        assert app.screen.query_one(TextArea).text == note
        await pilot.press(*", and more")  # added at its end
        await pilot.press("ctrl+s")
        assert saved(private_library)[seed_store[0].id]["note"] == note + ", and more"


async def test_r_toggles_read(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        assert lines(app)[1][2] == "•"
        await pilot.press("j", "r")
        await work_shown(pilot)
        assert app.library.is_read(seed_store[1].id)
        await pilot.press("r")
        await work_shown(pilot)
        assert not app.library.is_read(seed_store[1].id)
        assert lines(app)[1][2] == "•"


async def test_passing_over_papers_does_not_read_them(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j", "j", "j", "j")
        assert not any(app.library.is_read(p.id) for p in seed_store)


async def test_u_undoes_one_change_at_a_time(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        first = seed_store[0].id
        await pilot.press("b", "t", *"x", "enter", "n", *"hello", "escape")
        await work_shown(pilot)
        await pilot.press("j", "u")  # the note of the paper above is undone, and named
        await work_shown(pilot)
        assert app.library.note(first) == "" and app.library.tags(first) == ["x"]
        told = f"Undone: note · “{seed_store[0].headline}”"
        assert any(n.message == told for n in app._notifications)
        await pilot.press("u")
        await work_shown(pilot)
        assert app.library.tags(first) == [] and app.library.is_bookmarked(first)
        await pilot.press("u")
        await work_shown(pilot)
        assert not app.library.is_bookmarked(first)
        assert saved(private_library)[first]["bookmarked"] is False
        await pilot.press("u")
        assert any("Nothing to undo" in n.message for n in app._notifications)


async def test_a_note_saved_by_another_reader_while_one_is_written_is_kept(
    seed_store, private_library
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        first = seed_store[0].id
        await pilot.press("n", *"from A")
        other = Library.open(private_library)[0]
        other.set_note(first, "from B", "")
        other.save()
        await pilot.press("escape")
        await work_shown(pilot)
        await wait_until(pilot, lambda: not app.library_sync.saving, "the note saved")
        assert saved(private_library)[first]["note"] == "from B\n\nfrom A"
        assert any("yours after it" in n.message for n in app._notifications)
        await pilot.press("u")
        await work_shown(pilot)
        await wait_until(pilot, lambda: not app.library_sync.saving, "the undo saved")
        assert saved(private_library)[first]["note"] == "from B"


async def test_state_filters_in_the_query(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b", "t", *"to-read", "enter", "j", "t", *"to-read done", "enter")
        await pilot.press("j", "n", *"a note", "escape")
        await work_shown(pilot)
        for query, count in [
            ("#to-read", 2),
            ("#to-read !#done", 1),
            ("is:bookmarked", 1),
            ("has:note", 1),
            ("is:unread", 35),  # the three bookmarked, tagged or annotated are read
            ("#to-read diffusion", 0),
            ("#to-read robot", 1),
        ]:
            app.query_one(Input).value = query
            await work_shown(pilot)
            assert app.workspace.sub_title == f"{count} of 38 papers", query
        app.query_one(Input).value = "#to-read"
        await work_shown(pilot)
        await pilot.press("enter", "t", *["backspace"] * 8, "enter")  # untag the first: it leaves
        await work_shown(pilot)
        assert app.workspace.sub_title == "1 of 38 papers"


async def test_tags_view_filters_renames_and_deletes(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("t", *"todo", "enter", "j", "t", *"todo other", "enter")
        await work_shown(pilot)
        await pilot.press("T")
        assert isinstance(app.screen, TagsScreen)
        await pilot.press("enter")  # "other" sorts first
        await work_shown(pilot)
        assert app.query_one(Input).value == "#other"
        assert app.workspace.sub_title == "1 of 38 papers"

        await pilot.press("T", "down", "r")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*["backspace"] * 4, *"to-read", "enter")
        await work_shown(pilot)
        assert app.library.tag_counts() == {"other": 1, "to-read": 2}

        await pilot.press("T", "d", "enter")  # only y says yes, as for a file replaced
        assert isinstance(app.screen, ConfirmScreen)
        assert app.library.tag_counts() == {"other": 1, "to-read": 2}
        await pilot.press("n")
        assert app.library.tag_counts() == {"other": 1, "to-read": 2}
        await pilot.press("T", "d", "y")
        await work_shown(pilot)
        assert app.library.tag_counts() == {"to-read": 2}
        assert saved(private_library)[seed_store[1].id]["tags"].keys() == {"to-read"}
        await pilot.press("u")
        await work_shown(pilot)
        assert app.library.tag_counts() == {"other": 1, "to-read": 2}

        # Onto a tag in use: the two were joined without a word.
        await pilot.press("T", "r", "ctrl+u", *"to-read", "enter", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        assert str(app.screen.query(Static)[0].content) == (
            "#to-read is the tag of 2 papers already. Give it to the 1 paper tagged #other (one "
            "tag of the two)?"
        )
        await pilot.press("n", "escape")
        assert app.library.tag_counts() == {"other": 1, "to-read": 2}
        await pilot.press("T", "r", "ctrl+u", *"to-read", "enter", "y")
        await work_shown(pilot)
        assert app.library.tag_counts() == {"to-read": 2}
        told = [n.message for n in app._notifications]
        assert told[-1] == "Joined #other to #to-read (u undoes)"


async def test_everything_is_there_after_a_restart(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b", "t", *"keep", "enter", "n", *"remember", "escape", "j", "r")
        await work_shown(pilot)
    again = reader(seed_store, private_library)
    async with again.run_test(size=(100, 30)):
        first, second = seed_store[0].id, seed_store[1].id
        assert again.library.is_bookmarked(first)
        assert again.library.tags(first) == ["keep"]
        assert again.library.note(first) == "remember"
        assert again.library.is_read(second)
        assert lines(again)[0][1] == "★"


async def test_changes_from_the_command_line_appear_in_the_open_app(
    seed_store, private_library
) -> None:
    app = reader(seed_store, private_library, Timings(reload_every=0.1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b")
        await work_shown(pilot)
        command = [sys.executable, "-m", "tui_reader", "tag", seed_store[0].id, "from-cli"]
        subprocess.run(command, check=True, capture_output=True, timeout=60)
        await wait_until(pilot, lambda: app.library.tags(seed_store[0].id), "the change seen")
        await work_shown(pilot)
        assert app.library.tags(seed_store[0].id) == ["from-cli"]
        assert "#from-cli" in detail(app)
        assert app.library.is_bookmarked(seed_store[0].id)
    assert Library.open(private_library)[0].is_bookmarked(seed_store[0].id)


async def test_damaged_library_is_reported_in_the_app(seed_store, private_library) -> None:
    private_library.write_text('{"papers": { not json', encoding="utf-8")
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        shown = [str(text.content) for text in app.screen.query("ProblemsScreen Static")]
        assert any("was damaged (it is not valid JSON" in m for m in shown), shown
        assert list(private_library.parent.glob("library.json.corrupt-*"))


async def test_unsaveable_library_warns_once_and_keeps_changes(seed_store, tmp_path) -> None:
    app = reader(seed_store, tmp_path / "missing" / "library.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b", "j", "b")
        await work_shown(pilot)
        warnings = [n for n in app._notifications if isinstance(n, Notification)]
        assert sum("cannot be saved" in n.message for n in warnings) == 1
        assert app.library.is_bookmarked(seed_store[0].id)
        assert app.library.is_bookmarked(seed_store[1].id)


async def test_paper_keys_do_nothing_without_a_paper(seed_store, private_library) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("slash", *"zzzqqqxx", "enter", "b", "t", "n", "r")
        await work_shown(pilot)
        assert app.screen is app.screen_stack[0]
        assert rows(app) == ["No papers match “zzzqqqxx”"]
        assert app.library.paper_ids() == []
