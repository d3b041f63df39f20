"""The library survives damage, odd paths, clocks that disagree and hand-edited files."""

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import filelock
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.cli_helpers import run
from tests.pilot_helpers import wait_until
from tui_reader.core import library_file
from tui_reader.core.library import Library, LibraryError, LibraryPathError
from tui_reader.core.loading import load_paths
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp

A, B, C = "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"
SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def seed_ids() -> list[str]:
    return [paper.id for paper in load_paths([SEEDS]).papers]


def damage(path: Path) -> None:
    """What `head -c 100 library.json > t && mv t library.json` does."""
    path.write_bytes(path.read_bytes()[:100])


def test_a_recovered_library_is_written_back_at_once_through_the_commands(
    private_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, third = seed_ids()[:3]
    assert run(capsys, "tag", first, "alpha", "beta", "gamma")[0] == 0
    assert run(capsys, "tag", second, "delta")[0] == 0
    damage(private_library)
    damaged = private_library.read_bytes()

    # A command that only reads reads around the damage and leaves every file as it is.
    code, out, err = run(capsys, "tags")
    assert code == 0
    assert "is damaged" in err and "left as it is" in err
    assert out.split() == ["alpha", "1", "beta", "1", "delta", "1", "gamma", "1"]
    assert private_library.read_bytes() == damaged
    assert not list(private_library.parent.glob("*.corrupt-*"))
    # The first command that writes repairs it, at once.
    code, _, err = run(capsys, "bookmark", first)
    assert code == 0 and "was damaged" in err and "restored the previous version" in err
    code, out, err = run(capsys, "tags")
    assert (code, err) == (0, "")
    assert out.split() == ["alpha", "1", "beta", "1", "delta", "1", "gamma", "1"]
    run(capsys, "tag", third, "epsilon")
    run(capsys, "tag", third, "zeta")
    library, messages = Library.open(private_library)
    assert messages == []
    assert library.tag_counts() == dict.fromkeys(
        ["alpha", "beta", "delta", "epsilon", "gamma", "zeta"], 1
    )
    # The backup and its journal add up to what the library held when it was last written.
    backup, _ = Library.open(library_file.backup_path(private_library))
    assert set(backup.tag_counts()) >= {"alpha", "beta", "gamma", "delta"}


async def test_a_recovered_library_is_written_back_at_once_through_the_app(
    private_library: Path,
) -> None:
    first, second = seed_ids()[:2]
    library, _ = Library.open(private_library)
    library.change_tags([first], add=["alpha", "beta", "gamma"])
    library.save()
    library.change_tags([second], add=["delta"])
    library.save()
    damage(private_library)

    library, messages = Library.open(private_library)
    loaded = load_paths([SEEDS])
    app = ReaderApp(
        Opening(PaperStore(loaded.papers, loaded.collections), messages=messages), library
    )
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: len(app.screen_stack) > 1, "the warning's dialog")
        await pilot.press("q")
    again, messages = Library.open(private_library)
    assert messages == []
    assert again.tag_counts() == {"alpha": 1, "beta": 1, "delta": 1, "gamma": 1}


@pytest.mark.parametrize("special", ["/dev/null", "fifo"])
def test_a_device_or_fifo_is_refused_and_never_moved(
    special: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(special)
    if special == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)
    before = sorted(tmp_path.iterdir())
    code, _out, err = run(capsys, "tags", "--library", str(path))
    assert code == 2
    assert err.count("\n") == 1 and "not a regular file" in err and str(path) in err
    assert sorted(tmp_path.iterdir()) == before, "nothing moved, nothing created"
    assert Path("/dev/null").is_char_device()
    with pytest.raises(LibraryPathError):
        Library.open(path)


def test_a_fifo_library_never_hangs_the_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "library.json"
    os.mkfifo(fifo)
    result = subprocess.run(
        [sys.executable, "-m", "tui_reader", "--library", str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "is a FIFO (named pipe), not a regular file" in result.stderr


def test_a_symlinked_library_is_written_through_to_its_target(tmp_path: Path) -> None:
    target = tmp_path / "synced" / "library.json"
    target.parent.mkdir()
    link = tmp_path / "library.json"
    link.symlink_to(target)
    for number in range(3):
        library, _ = Library.open(link)
        library.change_tags([A], add=[f"t{number}"])
        library.save(fold=True)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert Library.open(target)[0].tags(A) == ["t0", "t1", "t2"]


def test_symlinked_journals_are_written_through_never_moved_or_replaced(tmp_path: Path) -> None:
    """A fold moved the journal's link to the backup's place, and replaced the backup
    journal's link with a file."""
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.change_tags([A], add=["first"])
    library.save(fold=True)  # a snapshot and a backup
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    journal, backup_journal = (
        library_file.journal_path(p) for p in (path, path.with_suffix(".json.bak"))
    )
    for link in (journal, backup_journal):
        (elsewhere / link.name).touch()
        link.unlink(missing_ok=True)
        link.symlink_to(elsewhere / link.name)
    for number in range(3):
        library.change_tags([A], add=[f"t{number}"])
        library.save(fold=number == 1)
    assert all(link.is_symlink() for link in (journal, backup_journal))
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("library.")) == [
        "library.json", "library.json.bak", "library.json.bak.journal", "library.json.journal",
        "library.json.lock",
    ]  # fmt: skip
    assert Library.open(path)[0].tags(A) == ["first", "t0", "t1", "t2"]
    path.write_text("{damaged")  # rebuilt from the backup and its journal, through the links
    assert Library.open(path)[0].tags(A) == ["first", "t0", "t1", "t2"]


def test_a_folder_at_the_backup_journals_place_is_named(tmp_path: Path) -> None:
    """A fold said "library.json.journal: Is a directory" of the folder beside it."""
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.change_tags([A], add=["first"])
    library.save(fold=True)
    folder = library_file.journal_path(library_file.backup_path(path))
    folder.mkdir()
    library.change_tags([A], add=["second"])
    library.save()
    with pytest.raises(LibraryError, match=f"^{folder}: is a folder, not a file$"):
        library.save(fold=True)
    assert folder.is_dir() and Library.open(path)[0].tags(A) == ["first", "second"]


def saved_one_by_one(path: Path, *tagged: tuple[str, str]) -> Library:
    """A library that saved each (paper, tag) in turn: its journal holds them."""
    library, _ = Library.open(path)
    for paper_id, tag in tagged:
        library.change_tags([paper_id], add=[tag])
        library.save()
    return library


def test_a_save_failing_half_written_leaves_no_torn_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk left `{"entry":{"` in the journal: every later reading warned of an
    entry it could not read, a change never acknowledged."""
    path = tmp_path / "library.json"
    library = saved_one_by_one(path, (A, "kept"), (B, "kept"))
    journal = library_file.journal_path(path)
    before = journal.read_bytes()
    write = os.write

    def disk_full(descriptor: int, data: bytes) -> int:
        if write(descriptor, bytes(data[:10])):
            raise OSError(28, "No space left on device")
        return 0

    monkeypatch.setattr(library_file.os, "write", disk_full)
    library.change_tags([A], add=["lost"])
    with pytest.raises(LibraryError, match="No space left"):
        library.save()
    monkeypatch.undo()
    assert journal.read_bytes() == before
    again, messages = Library.open(path)
    assert (messages, again.tags(A), again.tags(B)) == ([], ["kept"], ["kept"])
    library.save()  # the change kept for the session, saved once there is room
    assert Library.open(path)[0].tags(A) == ["kept", "lost"]


def test_a_read_only_library_is_never_replaced(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.change_tags([A], add=["kept"])
    library.save()
    path.chmod(0o444)
    before = path.read_bytes(), path.stat().st_ino
    library, messages = Library.open(path)
    assert (messages, library.blocked) == ([], f"{path} is read-only")
    library.change_tags([A], add=["new"])
    with pytest.raises(LibraryError, match="read-only"):
        library.save()
    assert (path.read_bytes(), path.stat().st_ino) == before
    assert not library_file.journal_path(path).exists()
    reading, told = Library.open(path, read_only=True)  # `list`: nothing to keep, nothing said
    assert (told, reading.blocked, reading.tags(A)) == ([], None, ["kept"])


def test_a_library_made_writable_again_is_saved_to_with_what_waited(tmp_path: Path) -> None:
    """A reader that found its library read-only never saved again once it was writable:
    its changes, kept for the session, were lost at the quit."""
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.change_tags([A], add=["kept"])
    library.save()
    path.chmod(0o444)
    library, _ = Library.open(path)
    library.change_tags([A], add=["waited"])
    with pytest.raises(LibraryError, match="read-only"):
        library.save()
    path.chmod(0o644)
    writer, _ = Library.open(path)  # another program's change meanwhile
    writer.set_bookmarked([B], True)
    writer.save()
    library.change_tags([B], add=["then"])
    assert library.save() == [] and library.blocked is None
    again, _ = Library.open(path)
    assert (again.tags(A), again.tags(B), again.is_bookmarked(B)) == (
        ["kept", "waited"],
        ["then"],
        True,
    )


def test_a_library_that_cannot_be_read_is_told_by_a_reading_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opened to be written, what cannot be read is why nothing can be saved, told by
    whoever tries; opened to be read, nothing else tells it."""
    path = tmp_path / "library.json"
    Library.open(path)[0].save()

    def refused(file: Path) -> str:
        raise PermissionError(13, "Permission denied", str(file))

    monkeypatch.setattr(library_file, "read_text", refused)
    why = f"{path} cannot be read: Permission denied"
    library, messages = Library.open(path)
    assert (messages, library.blocked) == ([], why)
    assert Library.open(path, read_only=True)[1] == [why]


def test_a_damaged_library_another_program_holds_locked_is_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui_reader.core.library_disk.LOCK_TIMEOUT", 0.1)
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.change_tags([A], add=["kept"])
    library.save(fold=True)
    damage(path)
    before = path.read_bytes(), path.stat().st_ino
    with filelock.FileLock(f"{path}.lock"):  # another program, mending it or writing
        library, messages = Library.open(path)
        assert (messages, library.blocked) == ([], f"{path} is locked by another program")
        library.change_tags([A], add=["waited"])
        with pytest.raises(LibraryError, match="locked by another program"):
            library.save()
    assert (path.read_bytes(), path.stat().st_ino) == before
    library.save()  # the lock let go: read (and mended) as an opening would, then saved
    assert Library.open(path)[0].tags(A) == ["kept", "waited"]


def test_a_save_costs_one_change_not_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.set_read([f"{n:012d}" for n in range(20_000)], True)
    library.save()
    snapshot = path.stat()
    for number in range(20):
        library.change_tags([A], add=[f"t{number}"])
        library.save()
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == (snapshot.st_ino, snapshot.st_mtime_ns)
    journal = library_file.journal_path(path).read_text(encoding="utf-8").splitlines()
    assert len(journal) == 20, "one line a change"
    assert Library.open(path)[0].tags(A) == sorted(f"t{n}" for n in range(20))


def test_the_journal_is_folded_into_the_snapshot_as_it_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui_reader.core.library_disk.FOLD_AT", 2000)  # about 20 changes
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    for number in range(100):
        library.set_note(A, f"note {number}")
        library.save()
    assert library_file.journal_path(path).stat().st_size < 2500
    folded = json.loads(path.read_text(encoding="utf-8"))["papers"][A]["note"]
    assert folded != "note 0"
    assert Library.open(path)[0].note(A) == "note 99"


def test_a_torn_journal_line_is_fenced_off_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library = saved_one_by_one(path, (A, "first"), (A, "second"))
    with library_file.journal_path(path).open("ab") as journal:
        journal.write(b'{"v": 1, "id": "aaaa')  # a writer killed mid-line
    library.change_tags([A], add=["third"])
    library.save()
    again, messages = Library.open(path)
    assert again.tags(A) == ["first", "second", "third"]
    assert "could not be read" in messages[0] and "library.json.rejected" in messages[0]


def stamp(delta: timedelta) -> str:
    return (datetime.now(timezone.utc) + delta).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@pytest.mark.parametrize(
    "when",
    [timedelta(hours=12), timedelta(days=3650), "9999-12-31T23:59:59.999999Z", "yesterday", "",
     12],
    ids=["12 hours ahead", "10 years ahead", "the end of time", "garbage", "empty", "a number"],
)  # fmt: skip
def test_an_explicit_change_wins_over_any_time_it_sees(
    when: object, private_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = seed_ids()[0]
    if isinstance(when, timedelta):
        when = stamp(when)
    entry = {"tags": {"skewed": when}, "bookmarked": True, "bookmarked_at": when}
    data = {"version": 1, "papers": {paper: entry}}
    private_library.write_text(json.dumps(data), encoding="utf-8")
    assert run(capsys, "untag", paper, "skewed")[0] == 0
    assert run(capsys, "unbookmark", paper)[0] == 0
    library, _ = Library.open(private_library)
    assert library.tags(paper) == [] and not library.is_bookmarked(paper)


def test_a_byte_order_mark_is_not_damage(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    data = {"version": 1, "papers": {A: {"tags": {"x": stamp(timedelta())}}}}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode())
    library, messages = Library.open(path)
    assert (messages, library.tags(A)) == ([], ["x"])


def test_a_library_from_a_newer_version_is_read_but_never_written(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    data = {"version": 2, "papers": {A: {"tags": {"x": stamp(timedelta())}}}, "new": [1]}
    text = json.dumps(data)
    path.write_text(text, encoding="utf-8")
    library, messages = Library.open(path)
    assert library.tags(A) == ["x"]
    assert messages == [] and "written by a newer tui-reader (version 2)" in str(library.blocked)
    library.change_tags([A], add=["y"])
    with pytest.raises(LibraryError, match="newer tui-reader"):
        library.save()
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in tmp_path.glob("library.json*")) == ["library.json"]


def test_a_bad_journal_line_is_said_by_a_reading_that_leaves_it_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.change_tags([A], add=["kept"])
    library.save()
    change = {"entry": {"tags": {"after": stamp(timedelta())}}, "id": A, "v": 1}
    with library_file.journal_path(path).open("a", encoding="utf-8") as lines:
        lines.write(f"garbage in the middle\n{json.dumps(change)}\n")
    before = {file.name: file.read_bytes() for file in tmp_path.glob("library.json*")}
    read, messages = Library.open(path, read_only=True)
    assert read.tags(A) == ["after", "kept"]
    assert messages == [
        f"{path}: 1 entry could not be read (library.json.journal, line 1: not a valid change); "
        "left as it is"
    ]
    assert {file.name: file.read_bytes() for file in tmp_path.glob("library.json*")} == before


def test_one_bad_entry_is_kept_aside_and_the_rest_loads(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    good = {"tags": {"fine": stamp(timedelta())}}
    data = {"version": 1, "papers": {A: good, B: {"bookmarked": "yes"}}}
    path.write_text(json.dumps(data), encoding="utf-8")
    library, messages = Library.open(path)
    assert library.tags(A) == ["fine"]
    assert "1 entry could not be read and was kept aside in library.json.rejected" in messages[0]
    assert "bookmarked of paper bbbbbbbbbbbb is not a bool" in messages[0]
    (kept,) = library_file.rejected_path(path).read_text(encoding="utf-8").splitlines()
    assert json.loads(kept)["value"] == {"bookmarked": "yes"}
    assert Library.open(path)[1] == [], "kept aside once, then the file is clean"


def test_escapes_in_a_copy_never_reach_the_screen(tmp_path: Path) -> None:
    """A library written by another program, or merged from a copy, held a note with an
    escape that set the clipboard and a tag that coloured the screen: the note keeps its
    text without the control characters, the entry with the tag is kept aside (as
    `tui-reader tag` refuses such a tag)."""
    now = stamp(timedelta())
    note = "Read \x1b]52;c;SGFja2Vk\x07this\x1b[31m twice\u202e.\nLine two\ud800"
    papers = {A: {"note": note, "note_at": now}, B: {"tags": {"evil\x1b[31mred": now}}}
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps({"version": 1, "papers": papers}), encoding="utf-8")
    merged = Library.open(tmp_path / "library.json")[0]
    report = merged.merge_copy(copy)
    opened, messages = Library.open(copy)
    assert "a tag of paper bbbbbbbbbbbb holds control characters" in messages[0]
    assert report.skipped == 1
    for library in (merged, opened):
        assert library.note(A) == "Read this twice.\nLine two\ufffd"
        assert library.tags(B) == []
    library = Library.open(tmp_path / "mine.json")[0]
    library.set_note(A, "typed \x1b[2J here")
    assert library.note(A) == "typed  here"
    library.set_note(A, "pasted from Windows\r\nand an old Mac\rline: spoof\r")
    assert library.note(A) == "pasted from Windows\nand an old Mac\nline: spoof\n"


def test_a_duplicate_papers_key_is_merged_not_emptied(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    now = stamp(timedelta())
    path.write_text(
        f'{{"version": 1, "papers": {{"{A}": {{"tags": {{"one": "{now}"}}}}}},'
        f' "papers": {{"{B}": {{"tags": {{"two": "{now}"}}}}}}}}',
        encoding="utf-8",
    )
    library, messages = Library.open(path)
    assert (library.tags(A), library.tags(B)) == (["one"], ["two"])
    assert messages == ["library.json held its papers 2 times; all were merged"]


def test_an_invalid_tag_in_the_file_can_still_be_removed(
    private_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = seed_ids()[0]
    data = {"version": 1, "papers": {paper: {"tags": {"Not A Tag!": stamp(timedelta())}}}}
    private_library.write_text(json.dumps(data), encoding="utf-8")
    assert run(capsys, "untag", paper, "Not A Tag!")[0] == 0
    assert Library.open(private_library)[0].tags(paper) == []


def test_temporary_files_of_another_target_are_left_alone(tmp_path: Path) -> None:
    other = tmp_path / ".a.json-inflight.tmp"
    other.write_text("another writer's file", encoding="utf-8")
    library, _ = Library.open(tmp_path / "b.json")
    library.change_tags([A], add=["x"])
    library.save(fold=True)
    assert other.exists()


def test_a_backup_that_is_a_folder_is_named(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library_file.backup_path(path).mkdir()
    library, _ = Library.open(path)
    library.change_tags([A], add=["x"])
    messages = library.save()
    assert messages == [f"{path}.bak: is a folder, not a file; the backup was not updated"]
    assert Library.open(path)[0].tags(A) == ["x"]


def test_a_backup_is_never_replaced_by_one_that_holds_less_unannounced(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.change_tags([A, B], add=["x"])
    library.save(fold=True)
    library.save(fold=True)  # the backup now holds A and B
    # Edited by hand to hold A alone:
    path.write_text(json.dumps({"version": 1, "papers": {A: {"tags": {"x": ""}}}}), "utf-8")
    fresh, _ = Library.open(path)
    messages = fresh.save(fold=True)
    assert "library.json.bak held 1 paper that the library no longer has" in messages[0]
    (kept,) = tmp_path.glob("library.json.bak-*")
    assert B in json.loads(kept.read_text(encoding="utf-8"))["papers"]


def test_a_journal_line_holding_a_key_twice_keeps_both_values(tmp_path: Path) -> None:
    """Compact, as this program writes lines, but not as it would write this one: the
    duplicate is seen, not dropped by the fast reader."""
    path = tmp_path / "library.json"
    Library.open(path)[0].save(fold=True)
    now = stamp(timedelta())
    line = (
        f'{{"entry":{{"tags":{{"one":"{now}"}}}},"entry":{{"tags":{{"two":"{now}"}}}},'
        f'"id":"{A}","v":1}}\n'
    )
    library_file.journal_path(path).write_text(line, encoding="utf-8")
    assert Library.open(path)[0].tags(A) == ["one", "two"]


def test_tags_written_twice_in_one_entry_are_all_kept(tmp_path: Path) -> None:
    """By hand: `"tags": {...}, "tags": {...}` in one entry. A field of one value written
    twice cannot be merged: the entry is kept aside, saying so."""
    path = tmp_path / "library.json"
    now = stamp(timedelta())
    twice = f'"tags": {{"a": "{now}"}}, "tags": {{"b": "{now}"}}'
    bookmarked = '"bookmarked": true, "bookmarked": false'
    text = f'{{"version": 1, "papers": {{"{A}": {{{twice}}}, "{B}": {{{bookmarked}}}}}}}'
    path.write_text(text, encoding="utf-8")
    library, messages = Library.open(path)
    assert library.tags(A) == ["a", "b"]
    assert "bookmarked of paper bbbbbbbbbbbb is there 2 times" in messages[0]


def test_a_library_written_by_older_versions_is_read_and_written_anew(tmp_path: Path) -> None:
    """Older versions wrote with the standard json module: non-ASCII escaped, spaces in the
    journal's lines."""
    path = tmp_path / "library.json"
    now = stamp(timedelta())
    entry = {"note": "Schrödinger's cat", "note_at": now}
    path.write_text(json.dumps({"version": 1, "papers": {A: entry}}, indent=2), encoding="utf-8")
    line = {"v": 1, "id": B, "entry": {"tags": {"ψ-tag": now}}}
    journal = library_file.journal_path(path)
    journal.write_text(json.dumps(line, sort_keys=True) + "\n", encoding="utf-8")
    library, messages = Library.open(path)
    assert (messages, library.note(A), library.tags(B)) == ([], "Schrödinger's cat", ["ψ-tag"])
    library.set_bookmarked([A], True)
    library.save(fold=True)
    assert "Schrödinger's cat" in path.read_text(encoding="utf-8")
    reopened = Library.open(path)[0]
    assert (reopened.note(A), reopened.tags(B), reopened.is_bookmarked(A)) == (
        "Schrödinger's cat",
        ["ψ-tag"],
        True,
    )


def test_a_value_too_big_for_the_fast_writer_is_still_saved(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    found = {"title": "T", "citations": 2**70}
    path.write_text(json.dumps({"version": 1, "papers": {A: {"resolved": found}}}), "utf-8")
    library, _ = Library.open(path)
    library.set_bookmarked([A], True)
    assert library.save(fold=True) == []
    library.set_bookmarked([B], True)
    assert library.save() == []
    reopened = Library.open(path)[0]
    assert (reopened.resolved(A), reopened.is_bookmarked(B)) == (found, True)


def test_a_lone_surrogate_in_a_note_is_read_as_a_replacement_character(tmp_path: Path) -> None:
    """Written by older versions (json escapes it): no UTF-8 holds it, and printing the note
    (`list`, `export`) raised, so it is read as U+FFFD. A service's answer holding one is
    written (orjson cannot: the standard writer does, escaped) and read as U+FFFD too."""
    path = tmp_path / "library.json"
    entry = json.dumps({"version": 1, "papers": {A: {"note": "x\ud800y"}}})  # escaped
    path.write_text(entry, "utf-8")
    library, _ = Library.open(path)
    library.set_bookmarked([A], True)
    assert library.save() == []  # a journal line
    library.set_resolved(B, {"title": "T\ud800"})
    assert library.save(fold=True) == []
    reopened = Library.open(path)[0]
    assert (reopened.note(A), reopened.is_bookmarked(A)) == ("x\ufffdy", True)
    assert reopened.resolved(B) == {"title": "T\ufffd"}


def test_an_entry_kept_aside_is_not_told_again_by_the_backup_check(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    now = stamp(timedelta())
    entries = f'"{B}": {{"note": 5}}, "{A}": {{"read": true, "read_at": "{now}"}}'
    path.write_text(f'{{"version": 1, "papers": {{{entries}}}}}', encoding="utf-8")
    library, messages = Library.open(path)
    assert len(messages) == 1 and "kept aside" in messages[0]
    library.set_bookmarked([A], True)
    assert library.save(fold=True) == []
    library.set_bookmarked([C], True)
    assert library.save(fold=True) == [], "the backup lost no paper it could read"
    assert sorted(p.name for p in tmp_path.iterdir() if ".bak-" in p.name) == []


@given(st.datetimes(datetime(1970, 1, 1), datetime(9000, 1, 1)))
def test_stamps_from_microseconds_read_as_those_of_times(moment: datetime) -> None:
    written = library_file.format_stamp(moment.replace(tzinfo=timezone.utc))
    assert library_file.stamp_at(library_file.micros_of(written)) == written


def test_changes_made_at_once_are_stamped_in_order_later_than_what_they_see(
    tmp_path: Path,
) -> None:
    ahead = stamp(timedelta(hours=1))  # another machine's clock, ahead of ours
    path = tmp_path / "library.json"
    path.write_text(json.dumps({"version": 1, "papers": {A: {"read_at": ahead}}}), "utf-8")
    library, _ = Library.open(path)
    library.set_read([f"{n:012d}" for n in range(500)] + [A], True, undoable=True)
    stamps = [library.changed_at(f"{n:012d}") for n in range(500)]
    assert stamps == sorted(set(stamps)) and stamps[0] > stamp(timedelta(seconds=-5))
    assert library.changed_at(A) > ahead > stamps[-1]


def test_a_change_past_a_clock_ahead_does_not_stamp_the_changes_after_it_ahead(
    tmp_path: Path,
) -> None:
    """Once a change was stamped past another machine's clock ahead, every later change of
    the session was stamped ahead too, and won over others' changes made later."""
    ahead = stamp(timedelta(hours=2))
    path = tmp_path / "library.json"
    path.write_text(json.dumps({"version": 1, "papers": {A: {"read_at": ahead}}}), "utf-8")
    library, _ = Library.open(path)
    library.set_read([A], True)
    first = library.changed_at(A)
    assert first > ahead
    library.set_read([B], True)
    assert stamp(timedelta(seconds=-5)) < library.changed_at(B) < stamp(timedelta(seconds=5))
    library.set_read([A], False)  # the same field again: later than its own stamp still
    assert library.changed_at(A) > first


def test_times_in_another_iso_form_are_read_not_reset(tmp_path: Path) -> None:
    """A copy edited by hand or written by another program says `...T10:00:00Z` or
    `+02:00`: such times counted as the oldest, and lost every merge."""
    path = tmp_path / "library.json"
    papers = {
        A: {"note": "seconds only", "note_at": "2026-05-01T10:00:00Z"},
        B: {"tags": {"zoned": "2026-05-01T12:00:00.123+02:00", "bad": "yesterday"}},
    }
    path.write_text(json.dumps({"version": 1, "papers": papers}), encoding="utf-8")
    library, messages = Library.open(path)
    assert messages == [
        f"{path}: 1 time not valid or in the future (a clock ahead?) now count as the oldest"
    ]
    newer = {A: {"note": "older, by my clock", "note_at": "2026-05-01T09:59:59.000000Z"}}
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps({"version": 1, "papers": newer}), encoding="utf-8")
    library.merge_copy(copy)
    assert library.note(A) == "seconds only", "the later note wins"
    assert library.tags(B) == ["bad", "zoned"]
    library.save(fold=True)
    written = json.loads(path.read_text(encoding="utf-8"))["papers"]
    assert written[A]["note_at"] == "2026-05-01T10:00:00.000000Z"
    assert written[B]["tags"]["zoned"] == "2026-05-01T10:00:00.123000Z"


@pytest.mark.parametrize(
    "stamp", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00", "2026-05-01T10:00:00.5Z"]
)
def test_a_time_at_the_calendars_ends_or_of_few_digits_is_read(tmp_path: Path, stamp: str) -> None:
    """Past the calendar's ends in UTC, a time raised OverflowError: a traceback at every
    command. (Python 3.10 reads neither "Z" nor a fraction of one digit.)"""
    path = tmp_path / "library.json"
    papers = {A: {"bookmarked": True, "bookmarked_at": stamp}}
    path.write_text(json.dumps({"version": 1, "papers": papers}), encoding="utf-8")
    library = Library.open(path)[0]
    assert library.is_bookmarked(A)
