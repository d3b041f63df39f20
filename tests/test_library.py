import json
import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import as_nobody
from tui_reader.core import library_file
from tui_reader.core.library import (
    Library,
    LibraryError,
    default_path,
    normalise_tag,
    valid_tags,
)
from tui_reader.core.library_merge import merge_entry

A, B, C = "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"


def open_library(path: Path) -> Library:
    library, messages = Library.open(path)
    assert messages == []
    return library


def test_changes_round_trip_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library = open_library(path)
    library.set_bookmarked([A], True)
    library.change_tags([A, B], add=["to-read", "RL/Theory"])
    library.set_note(A, "Why: compare with\nour baseline. [/b] stays text")
    library.set_read([B], True)
    assert library.save() == []

    again = open_library(path)
    assert again.is_bookmarked(A) and not again.is_bookmarked(B)
    assert again.tags(A) == again.tags(B) == ["rl/theory", "to-read"]
    assert again.note(A) == "Why: compare with\nour baseline. [/b] stays text"
    assert again.is_read(B) and not again.is_read(A)
    assert again.tag_counts() == {"rl/theory": 2, "to-read": 2}


def test_file_is_versioned_indented_sorted_and_stable(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library = open_library(path)
    library.change_tags([B, A], add=["x"])
    library.save()
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["version"] == 1
    assert list(data["papers"]) == [A, B]
    assert set(data["papers"][A]) == {"tags"}
    assert text == json.dumps(data, indent=2, sort_keys=True) + "\n"
    open_library(path).save()
    assert path.read_text(encoding="utf-8") == text


def test_entries_of_papers_not_open_are_kept_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    foreign = {"tags": {"old": "2020-01-01T00:00:00.000000Z"}, "future_field": [1, 2]}
    path.write_text(json.dumps({"version": 1, "papers": {C: foreign}}), encoding="utf-8")
    library = open_library(path)
    library.set_bookmarked([A], True)
    library.save()
    assert json.loads(path.read_text(encoding="utf-8"))["papers"][C] == foreign


def test_tags_another_program_wrote_in_capitals_or_decomposed_are_the_tags_typed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "library.json"
    early, late = "2026-01-01T00:00:00.000000Z", "2026-02-01T00:00:00.000000Z"
    tags = {"Cafe\u0301": early, "ML": early, "ml": late, "Done": early}
    entry = {"tags": tags, "removed_tags": {"DONE": late}}
    path.write_text(json.dumps({"version": 1, "papers": {A: entry}}), encoding="utf-8")
    library = open_library(path)
    assert library.tags(A) == ["café", "ml"]  # done: removed later than it was added
    assert library.change_tags([A], remove=["café"])
    library.save()
    assert open_library(path).tags(A) == ["ml"]


def test_previous_version_is_kept_as_bak(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library = open_library(path)
    library.set_bookmarked([A], True)
    library.save()
    first = path.read_text(encoding="utf-8")
    library.set_bookmarked([B], True)
    library.save()
    assert (tmp_path / "library.json.bak").read_text(encoding="utf-8") == first


def test_two_writers_keep_each_others_changes(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    first, second = open_library(path), open_library(path)
    first.change_tags([A], add=["from-first"])
    first.set_bookmarked([A], True)
    first.save()
    second.change_tags([A], add=["from-second"])
    second.set_note(B, "second's note")
    second.save()
    first.change_tags([C], add=["later"])
    first.save()
    final = open_library(path)
    assert final.tags(A) == ["from-first", "from-second"]
    assert final.is_bookmarked(A)
    assert final.note(B) == "second's note"
    assert final.tags(C) == ["later"]
    assert first.tags(A) == ["from-first", "from-second"], "a save takes in the other's changes"


def test_later_change_of_a_field_wins_and_removals_survive(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    setup = open_library(path)
    setup.change_tags([A], add=["keep", "drop"])
    setup.save()
    first, second = open_library(path), open_library(path)
    first.change_tags([A], remove=["drop"])
    second.change_tags([A], add=["new"])
    second.set_bookmarked([A], True)
    first.set_bookmarked([A], False)  # a no-op: first never saw the bookmark
    first.save()
    second.save()
    first.save()
    assert open_library(path).tags(A) == ["keep", "new"]
    assert open_library(path).is_bookmarked(A)


def test_reload_takes_in_another_writers_changes(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    reader, writer = open_library(path), open_library(path)
    assert not reader.reload_if_changed()
    writer.change_tags([A], add=["seen"])
    writer.save()
    assert reader.reload_if_changed()
    assert reader.tags(A) == ["seen"]
    assert not reader.reload_if_changed()


def test_merge_is_order_independent_for_tags() -> None:
    ours = {"tags": {"a": "2026-01-02"}, "removed_tags": {"b": "2026-01-03"}}
    theirs = {"tags": {"b": "2026-01-01", "c": "2026-01-01"}, "removed_tags": {"a": "2026-01-01"}}
    expected = {
        "tags": {"a": "2026-01-02", "c": "2026-01-01"},
        "removed_tags": {"b": "2026-01-03"},
    }
    assert merge_entry(ours, theirs) == merge_entry(theirs, ours) == expected


stamps = st.sampled_from(["2026-01-01", "2026-01-02", "2026-01-03"])
tag_maps = st.dictionaries(st.sampled_from(["x", "y", "z"]), stamps, max_size=3)
entries = st.fixed_dictionaries({"tags": tag_maps, "removed_tags": tag_maps})


@given(entries, entries, entries)
def test_merge_is_commutative_associative_and_idempotent(a, b, c) -> None:
    def tags(entry):
        return sorted(entry.get("tags", {}))

    assert tags(merge_entry(a, b)) == tags(merge_entry(b, a))
    assert tags(merge_entry(merge_entry(a, b), c)) == tags(merge_entry(a, merge_entry(b, c)))
    assert tags(merge_entry(a, a)) == tags(merge_entry(a, {}))


def test_undo_steps_back_one_change_at_a_time(tmp_path: Path) -> None:
    library = open_library(tmp_path / "library.json")
    library.change_tags([A, B], add=["t"])
    library.set_bookmarked([A], True)
    library.set_note(A, "note")
    library.set_note(A, "note, edited")
    library.set_read([A], True)
    assert library.undo().description == "note"
    assert library.note(A) == "note"
    assert library.undo().description == "note"
    assert library.note(A) == ""
    assert library.undo().description == "bookmark 1 paper"
    assert not library.is_bookmarked(A)
    undone = library.undo()
    assert (undone.description, undone.paper_ids) == ("tags of 2 papers", [A, B])
    assert library.tags(A) == library.tags(B) == []
    assert library.undo() is None
    assert library.is_read(A), "read state is not undone"


def test_a_paper_read_by_the_step_that_changed_it_is_unread_by_its_undo(tmp_path: Path) -> None:
    """Bookmarking reads a paper: undoing the bookmark left it read, and it left is:unread."""
    library = open_library(tmp_path / "library.json")
    library.set_bookmarked([A], True)
    assert library.set_read([A], True, in_step=True)
    assert library.set_read([B], True, in_step=True)  # not changed by the step: read alone
    assert library.is_read(A) and library.is_read(B)
    assert library.undo().description == "bookmark 1 paper"
    assert not library.is_bookmarked(A) and not library.is_read(A)
    assert library.is_read(B) and library.undo() is None


def test_undone_change_is_saved_and_wins_over_the_original(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library = open_library(path)
    library.change_tags([A], add=["oops"])
    library.save()
    library.undo()
    library.save()
    assert open_library(path).tags(A) == []


def test_no_op_changes_are_not_undo_steps(tmp_path: Path) -> None:
    library = open_library(tmp_path / "library.json")
    assert not library.set_bookmarked([A], False)
    assert not library.change_tags([A], remove=["absent"])
    assert not library.can_undo
    assert library.paper_ids() == []


def test_rename_and_delete_a_tag_everywhere(tmp_path: Path) -> None:
    library = open_library(tmp_path / "library.json")
    library.change_tags([A, B], add=["todo"])
    library.change_tags([C], add=["other"])
    library.rename_tag("todo", "to-read")
    assert library.tag_counts() == {"other": 1, "to-read": 2}
    library.delete_tag("to-read")
    assert library.tag_counts() == {"other": 1}
    assert library.undo().description == "delete #to-read"
    assert library.undo().description == "rename #todo to #to-read"
    assert library.tag_counts() == {"other": 1, "todo": 2}


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("to-read", "to-read"),
        ("RL/Theory", "rl/theory"),
        ("  done ", "done"),
        ("café", "café"),
        ("Cafe\u0301", "café"),  # e and a combining acute: the same tag as é
        ("x" * 40, "x" * 40),
        ("two words", None),
        ("#hash", None),
        ("-lead", None),
        ("", None),
        ("[/b]", None),
        ("x" * 41, None),
    ],
)
def test_tags_are_lower_case_words(text: str, tag: str | None) -> None:
    assert normalise_tag(text) == tag


def test_an_invalid_tag_is_refused_with_its_name(tmp_path: Path) -> None:
    library = open_library(tmp_path / "library.json")
    with pytest.raises(ValueError, match="not a tag: 'two words'"):
        library.change_tags([A], add=["ok", "two words"])
    assert library.tags(A) == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("w" * 41, "tags are at most 40 characters"),
        ("w!" * 30, "tags are words; - _ . / + allowed"),
    ],
)
def test_a_tag_refused_says_why(text: str, why: str) -> None:
    """A tag too long was said to be no word."""
    with pytest.raises(ValueError) as refused:
        valid_tags([text])
    assert str(refused.value) == f"not a tag: {text!r} ({why})"


DAMAGED = {
    "empty": (b"", "it is empty"),
    "truncated": (b'{"version": 1, "papers": {"aaaa', "it is not valid JSON"),
    "not JSON": (b"tags: to-read\n", "it is not valid JSON"),
    "not UTF-8": (b'{"version": 1, "papers": {"\xff": {}}}', "it is not UTF-8 text"),
    "no version": (b'{"papers": {}}', "it has no library version"),
    "a list": (b"[1, 2]", "it has no library version"),
    "bad papers": (b'{"version": 1, "papers": []}', "its papers are not an object"),
    "deep": (b'{"version": 1, "papers": ' + b"[" * 100_000 + b"}", "it is not valid JSON"),
    "huge number": (b'{"version": 1' + b"1" * 5000 + b"}", "it is not valid JSON"),
}


@pytest.mark.parametrize("kind", DAMAGED)
def test_damaged_file_is_moved_aside_and_the_bak_restored(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "library.json"
    good = open_library(path)
    good.change_tags([A], add=["precious"])
    good.save()
    good.change_tags([A], add=["newer"])
    good.save()  # library.json.bak now holds the "precious" version
    content, problem = DAMAGED[kind]
    path.write_bytes(content)

    library, messages = Library.open(path)
    assert len(messages) == 1
    assert problem in messages[0] and "moved to library.json.corrupt-" in messages[0]
    assert "restored the previous version from library.json.bak" in messages[0]
    # The backup and the journal of changes since it add up to everything saved.
    assert library.tags(A) == ["newer", "precious"]
    (moved,) = tmp_path.glob("library.json.corrupt-*")
    assert moved.read_bytes() == content
    assert open_library(path).tags(A) == ["newer", "precious"], "written back at once"


def test_damaged_file_and_bak_start_empty(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    path.write_text("{", encoding="utf-8")
    library_file.backup_path(path).write_text("also broken", encoding="utf-8")
    library, messages = Library.open(path)
    assert "starting with an empty library" in messages[0]
    assert library.paper_ids() == []


def test_a_damaged_file_whose_journal_rebuilds_it_says_so(tmp_path: Path) -> None:
    """It said "starting with an empty library", then every tag came back from the journal."""
    path = tmp_path / "library.json"
    library = open_library(path)
    library.change_tags([A], add=["first"])
    library.save()
    library.change_tags([A], add=["kept"])
    library.save()
    assert library_file.journal_path(path).stat().st_size, "a line in the journal"
    path.write_text("{", encoding="utf-8")
    library_file.backup_path(path).unlink(missing_ok=True)
    library, messages = Library.open(path)
    assert messages[0].endswith("; rebuilt from what library.json.journal holds")
    assert library.tags(A) == ["kept"]  # what the damaged snapshot held is in its copy


def test_file_damaged_while_open_is_moved_aside_at_the_next_save(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library = open_library(path)
    library.change_tags([A], add=["mine"])
    library.save()
    path.write_text("garbage", encoding="utf-8")
    library.change_tags([B], add=["also-mine"])
    messages = library.save()
    assert "was damaged (it is not valid JSON" in messages[0]
    assert "restored the previous version from library.json.bak" in messages[0]
    assert (next(tmp_path.glob("library.json.corrupt-*"))).read_text() == "garbage"
    assert open_library(path).tag_counts() == {"also-mine": 1, "mine": 1}


@pytest.mark.skipif(os.geteuid() == 0 and os.name == "posix", reason="root ignores permissions")
def test_read_only_directory_keeps_changes_in_memory(tmp_path: Path) -> None:
    _read_only_directory_keeps_changes(tmp_path)


def _read_only_directory_keeps_changes(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "library.json"
    good = open_library(path)
    good.change_tags([A], add=["before"])
    good.save()
    folder.chmod(0o555)
    try:
        library = open_library(path)
        library.change_tags([A], add=["after"])
        with pytest.raises(LibraryError, match="Permission denied"):
            library.save()
        assert library.tags(A) == ["after", "before"]
        assert open_library(path).tags(A) == ["before"]
    finally:
        folder.chmod(0o755)


def test_read_only_directory_as_another_user() -> None:
    """The same as above where tests run as root (as in CI): drop to nobody in a child."""
    if os.geteuid() != 0:
        pytest.skip("covered by test_read_only_directory_keeps_changes_in_memory")
    shared = Path(tempfile.mkdtemp())  # pytest's own folders are closed to other users
    shared.chmod(0o777)
    try:
        as_nobody(lambda: _read_only_directory_keeps_changes(shared))
    finally:
        shutil.rmtree(shared)


def test_missing_directory_cannot_save(tmp_path: Path) -> None:
    library = open_library(tmp_path / "no" / "such" / "library.json")
    library.set_bookmarked([A], True)
    with pytest.raises(LibraryError, match="the folder does not exist"):
        library.save()
    assert library.is_bookmarked(A)


def test_library_without_a_file_never_saves() -> None:
    library, messages = Library.open(None)
    library.set_bookmarked([A], True)
    assert library.save() == messages == []


def test_default_path_honours_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TUI_READER_LIBRARY", str(tmp_path / "mine.json"))
    assert default_path() == tmp_path / "mine.json"
    monkeypatch.delenv("TUI_READER_LIBRARY")
    assert default_path().name == "library.json"
    assert "tui-reader" in str(default_path())


def test_unsaved_changes_are_known(tmp_path: Path) -> None:
    library = open_library(tmp_path / "library.json")
    assert not library.has_unsaved_changes
    library.set_bookmarked([A], True)
    assert library.has_unsaved_changes
    library.save()
    assert not library.has_unsaved_changes
    library.set_bookmarked([A], True)  # no change
    assert not library.has_unsaved_changes


def test_session_round_trip_and_bad_files(tmp_path: Path) -> None:
    from tui_reader.core.session import Session, load_session, save_session

    path = tmp_path / "state" / "session.json"
    assert load_session(path) == Session()
    save_session(path, Session("q", "abc", "headline", "nord"))
    assert load_session(path) == Session("q", "abc", "headline", "nord")
    path.write_text("{}", encoding="utf-8")
    assert load_session(path) == Session()
    path.write_text('{"query": 3, "sort": "file", "extra": 1}', encoding="utf-8")
    assert load_session(path) == Session(sort="file")


def test_tag_counts_look_papers_up_without_holding_the_library() -> None:
    """Counting the tags of the papers loaded looks each one up in the store: another
    thread saving the library waited for all of it."""
    library = Library(None)
    library.change_tags(["a", "b"], add=["keep"])
    other_thread_got_in: list[bool] = []

    def among(paper_id: str) -> bool:
        def save() -> None:
            got = library._state.lock.acquire(timeout=1)
            other_thread_got_in.append(got)
            if got:
                library._state.lock.release()

        thread = threading.Thread(target=save)
        thread.start()
        thread.join()
        return paper_id == "a"

    assert library.tag_counts(among) == {"keep": 1}
    assert other_thread_got_in == [True, True]
