"""Dialogs that keep what was typed, say where files go, and are not covered by old notices."""

from pathlib import Path

import pytest
from textual.widgets import Input, Static, TextArea

from tests.pilot_helpers import wait_until
from tui_reader.core.headline import HEADLINE_MAX
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.copy_picker import CopyPicker
from tui_reader.ui.dialogs import ConfirmScreen, PromptScreen
from tui_reader.ui.note_editor import NoteEditor
from tui_reader.ui.tags_screen import TagsScreen


def notices(app: ReaderApp) -> list[str]:
    return [notification.message for notification in app._notifications]


def prompt_error(app: ReaderApp) -> str:
    return str(app.screen.query_one(".dialog-error", Static).content)


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


async def test_no_to_replace_returns_to_the_name_as_typed(
    seed_store: PaperStore, in_tmp: Path
) -> None:
    (in_tmp / "list.md").write_text("mine\n", encoding="utf-8")
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E", "ctrl+u", *"list.md", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        question = str(app.screen.query_one(Static).content)
        assert question == f"{in_tmp / 'list.md'} exists. Replace it?"
        await pilot.press("n")
        assert isinstance(app.screen, PromptScreen)
        assert app.screen.query_one(Input).value == "list.md"
        assert (in_tmp / "list.md").read_text(encoding="utf-8") == "mine\n"
        await pilot.press("backspace", "backspace", *"csv", "enter")
        assert not isinstance(app.screen, PromptScreen)
        assert (in_tmp / "list.csv").exists()
        assert notices(app)[-1] == f"Wrote 38 papers to {in_tmp / 'list.csv'}"
        await pilot.press("E", "ctrl+u", *"list.md", "enter", "enter")  # typed ahead
        assert isinstance(app.screen, ConfirmScreen), "an Enter replaced the file"
        assert "Enter" not in str(app.screen.query(Static)[1].content)
        assert (in_tmp / "list.md").read_text(encoding="utf-8") == "mine\n"
        await pilot.press("y")
        assert not isinstance(app.screen, PromptScreen)
        assert (in_tmp / "list.md").read_text(encoding="utf-8").startswith("# Reading list")


async def test_a_missing_folder_is_said_in_the_prompt_which_stays_open(
    seed_store: PaperStore, in_tmp: Path
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E", "ctrl+u", *"nowhere/list.md", "enter")
        assert isinstance(app.screen, PromptScreen)
        assert prompt_error(app) == f"There is no folder {in_tmp / 'nowhere'}"
        assert app.screen.query_one(Input).value == "nowhere/list.md"
        (in_tmp / "nowhere").mkdir()
        await pilot.press("enter")
        assert not isinstance(app.screen, PromptScreen)
        assert (in_tmp / "nowhere" / "list.md").exists()


async def test_a_folder_is_said_to_be_one_before_any_question_of_replacing(
    seed_store: PaperStore, in_tmp: Path
) -> None:
    (in_tmp / "notes.md").mkdir()
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E", "ctrl+u", *"notes.md", "enter")
        assert isinstance(app.screen, PromptScreen)
        assert prompt_error(app) == f"{in_tmp / 'notes.md'} is a folder: name a file"
        assert (in_tmp / "notes.md").is_dir()


async def test_the_export_name_offered_is_selected_so_typing_replaces_it(
    seed_store: PaperStore, in_tmp: Path
) -> None:
    """Typed after E, "mine.csv" made "reading-list.mdmine.csv", refused for its ending."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E", *"mine.csv", "enter")
        await wait_until(pilot, (in_tmp / "mine.csv").exists, "the export")
        await pilot.press("E", "end", "backspace", "backspace", *"bib", "enter")  # refined
        await wait_until(pilot, (in_tmp / "reading-list.bib").exists, "the export")
        assert not (in_tmp / "reading-list.md").exists()


async def test_the_tag_being_renamed_is_selected_and_a_paper_s_tags_are_not(
    seed_store: PaperStore,
) -> None:
    app = ReaderApp(Opening(seed_store))
    app.library.change_tags([seed_store[0].id], ["draft"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("T", "r")
        await wait_until(pilot, lambda: isinstance(app.screen, PromptScreen), "the prompt")
        await pilot.press(*"final", "enter")
        await wait_until(pilot, lambda: "final" in app.library.tag_counts(), "the rename")
        await pilot.press("t", *"more")  # its tags, to add to
        assert app.screen.query_one(Input).value == "final more"


async def test_the_prompt_says_where_a_bare_name_goes(seed_store: PaperStore, in_tmp: Path) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E")
        hint = str(app.screen.query_one(".dialog-hint", Static).content)
        assert str(in_tmp) in hint


async def test_the_note_editor_says_u_undoes_the_note_once_it_is_closed(
    seed_store: PaperStore,
) -> None:
    """Its hint said "u undoes it", but u in the editor is a letter of the note."""
    app = ReaderApp(Opening(seed_store), Library(None))
    paper = seed_store[0]
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NoteEditor), "the note editor")
        hint = str(app.screen.query_one(".dialog-hint", Static).content)
        assert hint.endswith("u undoes it once closed.")
        await pilot.press("u", "escape")
        await wait_until(pilot, lambda: app.library.note(paper.id) == "u", "the note saved")
        await pilot.press("u")
        await wait_until(pilot, lambda: app.library.note(paper.id) == "", "the note undone")


async def test_old_notices_do_not_show_under_a_dialog(seed_store: PaperStore, in_tmp: Path) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("u")  # "Nothing to undo"
        assert notices(app) == ["Nothing to undo"]
        await pilot.press("t")
        assert isinstance(app.screen, PromptScreen)
        await wait_until(pilot, lambda: not notices(app), "the notice gone")
        await pilot.press("escape", "E", "enter")
        await wait_until(pilot, lambda: notices(app), "the export")
        assert notices(app) == [f"Wrote 38 papers to {in_tmp / 'reading-list.md'}"]


LATEX_TITLE = (
    r"$\alpha$-divergences for \emph{Schr\"odinger} multi--task bridges --- ``robust'' priors, "
    + "and a title that goes on " * 6
)


def dialog_title(app: ReaderApp) -> str:
    return str(app.screen.query(Static).first().content)


async def test_a_dialog_names_its_paper_by_its_headline_as_the_list_shows_it_and_cut() -> None:
    """A title's LaTeX was shown raw in the dialogs' titles, and a long one took lines; its
    `--` and `---` were kept where the list shows en and em dashes."""
    paper = Paper.from_abstract("Text.", "C", Path("x.jsonl"), title=LATEX_TITLE)
    app = ReaderApp(Opening(PaperStore([paper])), Library(None))
    named = "“α-divergences for Schrödinger multi–task bridges — “robust” priors, and a title"
    async with app.run_test(size=(120, 30)) as pilot:
        for key, kind, says in (("t", PromptScreen, "Tags of "), ("n", NoteEditor, "Note on ")):
            await pilot.press(key)
            await wait_until(pilot, lambda kind=kind: isinstance(app.screen, kind), "the dialog")
            title = dialog_title(app)
            assert title.startswith(says + named), title
            assert title.endswith("…”") and len(title) <= len(says) + 2 + HEADLINE_MAX, title
            await pilot.press("escape")
        await pilot.press("Y")
        await wait_until(pilot, lambda: isinstance(app.screen, CopyPicker), "the copy picker")
        assert dialog_title(app).startswith("Copy from " + named)


async def test_tall_dialogs_keep_their_title_and_key_hints_on_a_small_screen() -> None:
    """At 60x15 the note editor's hint, the tags' title and keys and the copy picker's last
    line were cut off: the box grew past the screen."""
    paper = Paper.from_abstract("Text.", "C", Path("x.jsonl"), title="A long title " * 8)
    app = ReaderApp(Opening(PaperStore([paper])), Library(None))
    app.library.change_tags([paper.id], [f"tag{n}" for n in range(25)])

    def fits() -> bool:
        box = app.screen.children[0]  # the dialog's box
        title, *_, hint = box.query_children(Static)
        inside = box.content_region
        return (
            app.screen.region.contains_region(box.region)
            and inside.contains_region(title.region)
            and inside.contains_region(hint.region)
        )

    async with app.run_test(size=(60, 15)) as pilot:
        for key, kind in (("n", NoteEditor), ("T", TagsScreen), ("Y", CopyPicker)):
            await pilot.press(key)
            await wait_until(pilot, lambda kind=kind: isinstance(app.screen, kind), "the dialog")
            await wait_until(pilot, fits, f"the whole {kind.__name__} on screen")
            await pilot.press("escape")
        await pilot.resize_terminal(100, 40)
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NoteEditor), "the note editor")
        await pilot.pause()
        assert app.screen.query_one(TextArea).outer_size.height == 12  # room: as tall as ever
