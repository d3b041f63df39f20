"""Two machines, one library: `tui-reader library merge OTHER` folds a copy in."""

import json
import shutil
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tui_reader.core import library_file
from tui_reader.core.library import Library, LibraryError

A, B, C = "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"


def library_at(path: Path) -> Library:
    library, messages = Library.open(path)
    assert messages == []
    return library


def test_two_copies_edited_apart_are_merged_with_the_later_change_winning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop, desktop = tmp_path / "laptop" / "library.json", tmp_path / "desktop" / "library.json"
    laptop.parent.mkdir()
    start = library_at(laptop)
    start.change_tags([A], add=["to-read", "old"])
    start.set_bookmarked([B], True)
    start.save(fold=True)
    shutil.copytree(laptop.parent, desktop.parent)  # the copy synced to the other machine

    on_laptop = library_at(laptop)
    on_laptop.change_tags([A], remove=["old"])
    on_laptop.set_note(C, "from the laptop")
    on_laptop.save()
    on_desktop = library_at(desktop)
    on_desktop.change_tags([A], add=["desk"])
    on_desktop.set_bookmarked([B], False)
    on_desktop.set_note(C, "from the desktop, later")
    on_desktop.save()  # in the desktop's journal only: the copy's journal counts too

    code, out, err = run(capsys, "library", "merge", str(desktop), "--library", str(laptop))
    assert (code, err) == (0, "")
    assert out.endswith("3 papers changed: 1 tag added, 1 bookmark changed, 1 note changed\n"), (
        "the laptop had removed #old already"
    )
    merged = library_at(laptop)
    assert merged.tags(A) == ["desk", "to-read"], "the laptop's removal of #old stays"
    assert not merged.is_bookmarked(B)
    assert merged.note(C) == "from the desktop, later"
    assert json.loads(desktop.read_text(encoding="utf-8")) == json.loads(
        (tmp_path / "laptop" / "library.json.bak").read_text(encoding="utf-8")
    ), "the copy is only read"

    code, out, _ = run(capsys, "library", "merge", str(desktop), "--library", str(laptop))
    assert code == 0 and "nothing changed" in out, "merging again changes nothing"


def test_a_copy_with_merge_conflict_markers_is_refused_and_nothing_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "library.json"
    library = library_at(mine)
    library.change_tags([A], add=["kept"])
    library.save(fold=True)
    before = mine.read_bytes()
    other = tmp_path / "other.json"
    other.write_text('<<<<<<< HEAD\n{"version": 1}\n=======\n{}\n>>>>>>> theirs\n', "utf-8")
    code, out, err = run(capsys, "library", "merge", str(other), "--library", str(mine))
    assert code == 2 and out == ""
    assert err == (
        f"tui-reader: {other} cannot be merged: it holds merge-conflict markers (<<<<<<< at "
        "line 1): resolve the conflict first, or merge each side\n"
    ), "it said only that it was not valid JSON"
    assert mine.read_bytes() == before
    assert not library_file.journal_path(mine).exists()


def conflicted(path: Path) -> int:
    """Leave the library as git leaves a merge it could not finish; the marker's line."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(n for n, line in enumerate(lines) if '"tags"' in line) + 1  # the tags' line
    ours, theirs = lines[at], lines[at].replace("kept", "theirs")
    lines[at : at + 1] = ["<<<<<<< HEAD\n", ours, "=======\n", theirs, ">>>>>>> other\n"]
    path.write_text("".join(lines), encoding="utf-8")
    return at + 1


def test_a_library_left_with_merge_conflict_markers_is_read_around_never_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was taken for damage: moved aside as library.json.corrupt-..., and rebuilt from
    its backup, the merge left for git lost from sight."""
    mine = tmp_path / "library.json"
    library = library_at(mine)
    library.change_tags([A], add=["kept"])
    library.save(fold=True)
    library.change_tags([B], add=["later"])
    library.save(fold=True)  # the first is the backup
    line = conflicted(mine)
    left = mine.read_bytes()
    opened, messages = Library.open(mine)
    assert messages == [
        f"{mine} is left as it is: it holds merge-conflict markers (<<<<<<< at line {line}): "
        "resolve the conflict first, or merge each side; restored the previous version from "
        "library.json.bak",
    ]
    assert opened.blocked == f"{mine} holds merge-conflict markers"
    assert opened.tags(A) == ["kept"]
    opened.change_tags([A], add=["more"])
    with pytest.raises(LibraryError, match="holds merge-conflict markers"):
        opened.save()
    assert mine.read_bytes() == left
    assert not list(tmp_path.glob("library.json.corrupt-*"))
    code, out, err = run(capsys, "tags", "--library", str(mine))  # a command says so too
    assert (code, out) == (0, "kept\t1\nlater\t1\n")
    assert f"<<<<<<< at line {line}" in err
    assert mine.read_bytes() == left


def test_a_library_beginning_with_a_conflict_marker_is_a_library_mid_merge(
    tmp_path: Path,
) -> None:
    """Not "text, but not a library's JSON", which says nothing of what to do."""
    mine = tmp_path / "library.json"
    mine.write_text('<<<<<<< HEAD\n{"version": 1}\n=======\n{}\n>>>>>>> theirs\n', "utf-8")
    _, messages = Library.open(mine)
    assert messages[0].startswith(
        f"{mine} is left as it is: it holds merge-conflict markers (<<<<<<< at line 1)"
    )


@pytest.mark.parametrize("which", ["itself", "missing", "folder", "fifo"])
def test_what_cannot_be_a_copy_is_named(
    which: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    mine = tmp_path / "library.json"
    other = {
        "itself": mine,
        "missing": tmp_path / "missing.json",
        "folder": tmp_path,
        "fifo": tmp_path / "fifo",
    }[which]
    if which == "fifo":
        os.mkfifo(other)
    code, _, err = run(capsys, "library", "merge", str(other), "--library", str(mine))
    assert code == 2 and err.count("\n") == 1 and str(other) in err


def test_a_note_saved_elsewhere_while_one_was_written_here_is_kept(tmp_path: Path) -> None:
    """Two readers on one paper: A saved its note while B's editor was open; B's later save
    replaced it, unsaid (it was only in the journal)."""
    path = tmp_path / "library.json"
    here, there = Library.open(path)[0], Library.open(path)[0]
    started_from = here.note("aaaaaaaaaaaa")
    there.set_note("aaaaaaaaaaaa", "long careful note written in A")
    there.save()
    here.reload_if_changed()
    assert here.set_note("aaaaaaaaaaaa", "quick B", started_from)
    assert here.note("aaaaaaaaaaaa") == "long careful note written in A\n\nquick B"
    here.save()
    assert Library.open(path)[0].note("aaaaaaaaaaaa") == here.note("aaaaaaaaaaaa")
    # Written from what was saved: replaced, as any edit is.
    assert here.set_note("aaaaaaaaaaaa", "rewritten", here.note("aaaaaaaaaaaa"))
    assert here.note("aaaaaaaaaaaa") == "rewritten"
    assert here.set_note("aaaaaaaaaaaa", "rewritten, then more", "rewritten")
    assert here.note("aaaaaaaaaaaa") == "rewritten, then more"


@pytest.mark.parametrize(
    ("theirs", "ours", "kept"),
    [
        ("S\nfrom B", "S\nfrom A", "S\nfrom B\n\nfrom A"),  # both added to S: S once
        ("from B", "", "from B"),  # ours cleared: theirs kept, no blank lines after it
        ("ok", "looks ok to me", "ok\n\nlooks ok to me"),  # theirs inside ours, by chance
    ],
)
def test_notes_written_from_the_same_start_keep_what_each_added(
    tmp_path: Path, theirs: str, ours: str, kept: str
) -> None:
    path = tmp_path / "library.json"
    here, there = Library.open(path)[0], Library.open(path)[0]
    start = "S" if theirs.startswith("S") else ""
    for library in (here, there):
        library.set_note("aaaaaaaaaaaa", start)
    there.set_note("aaaaaaaaaaaa", theirs, start)
    there.save()
    here.reload_if_changed()
    here.set_note("aaaaaaaaaaaa", ours, start)
    assert here.note("aaaaaaaaaaaa") == kept
    here.undo()
    assert here.note("aaaaaaaaaaaa") == theirs


def test_a_saved_search_of_the_copy_whose_time_is_not_valid_is_merged_as_opening_it_reads_it(
    tmp_path: Path,
) -> None:
    """A time that is not one counts as the oldest change: a search this library lacks is
    taken whatever its time, by every merge; merging a copy dropped it."""
    copy = tmp_path / "copy" / "library.json"
    copy.parent.mkdir()
    searches = {"agents": {"query": "agent planning", "query_at": "not a time"}}
    copy.write_text(json.dumps({"version": 1, "papers": {}, "searches": searches}))
    assert Library.open(copy, read_only=True)[0].saved_searches() == {"agents": "agent planning"}
    library = library_at(tmp_path / "library.json")
    report = library.merge_copy(copy)
    assert report.searches == 1
    assert library.saved_searches() == {"agents": "agent planning"}
    library.save()
    assert library_at(tmp_path / "library.json").saved_searches() == {"agents": "agent planning"}


def test_a_note_saved_elsewhere_not_yet_read_here_is_kept_when_this_one_is_saved(
    tmp_path: Path,
) -> None:
    """Two readers' editors open on one paper's note: B saves first, and A's editor closes
    before A has read B's note from the files; A's save (stamped later) replaced it."""
    path = tmp_path / "library.json"
    here, there = Library.open(path)[0], Library.open(path)[0]
    for library in (here, there):
        library.set_note(A, "S")
        library.save()
    there.reload_if_changed()
    here.reload_if_changed()
    there.set_note(A, "S\n\nfrom B", "S")
    there.save()
    assert here.set_note(A, "S\n\nfrom A", "S")  # B's note not read here yet
    assert here.note(A) == "S\n\nfrom A"
    assert here.save() == [
        f"{path}: a note saved elsewhere while you wrote yours is kept, with yours after it"
    ]
    assert here.note(A) == "S\n\nfrom B\n\nfrom A"
    assert Library.open(path)[0].note(A) == "S\n\nfrom B\n\nfrom A"
    there.reload_if_changed()
    assert there.note(A) == "S\n\nfrom B\n\nfrom A"
    # The undo of A's edit takes back what A added, not B's note.
    assert here.undo() is not None
    assert here.note(A) == "S\n\nfrom B"


def test_a_note_saved_elsewhere_after_this_one_was_written_is_joined_to_it(
    tmp_path: Path,
) -> None:
    """A's note is written first, B's (stamped later, from the same start) saved before A's:
    B's would win every merge, and A's be lost, were they not joined."""
    path = tmp_path / "library.json"
    here, there = Library.open(path)[0], Library.open(path)[0]
    here.set_note(A, "from A", "")
    there.set_note(A, "from B", "")
    there.save()
    here.reload_if_changed()  # a look at the files, as the reader's every 2 s, joins them too
    assert here.note(A) == "from B\n\nfrom A"
    here.save()
    assert Library.open(path)[0].note(A) == "from B\n\nfrom A"


def test_a_note_edited_twice_before_it_is_saved_clashes_with_nothing_saved_before_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "library.json"
    here = Library.open(path)[0]
    here.set_note(A, "first", "")
    here.set_note(A, "first, then more", "first")
    assert here.save() == []
    assert Library.open(path)[0].note(A) == "first, then more"
    # Saved: a later note written from it elsewhere replaces it, as any edit does.
    there = Library.open(path)[0]
    there.set_note(A, "rewritten", "first, then more")
    there.save()
    assert here.reload_if_changed().messages == []
    assert here.note(A) == "rewritten"


def test_an_undo_leaves_a_note_changed_elsewhere_since_as_it_is(tmp_path: Path) -> None:
    """A writes a note and B adds to it; A's undo cleared B's addition too."""
    path = tmp_path / "library.json"
    here, there = Library.open(path)[0], Library.open(path)[0]
    here.change_tags([A], add=["cats"])
    here.set_note(A, "X from A", "")
    here.save()
    there.reload_if_changed()
    there.set_note(A, "X from A and Y from B", "X from A")
    there.save()
    here.reload_if_changed()
    undone = here.undo()
    assert undone is not None
    assert undone.undone == "note (left as changed elsewhere since: the note)"
    assert here.note(A) == "X from A and Y from B"
    here.save()
    assert Library.open(path)[0].note(A) == "X from A and Y from B"
    undone = here.undo()  # a field no one else changed is undone as ever
    assert undone is not None and undone.left == [] and here.tags(A) == []
