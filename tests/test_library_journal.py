"""Reading the journal: the merge of its changes one by one, in a time linear in its lines."""

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tui_reader.core import library_fields, library_file
from tui_reader.core.library import Library
from tui_reader.core.library_merge import merge_entry

A, B = "aaaaaaaaaaaa", "bbbbbbbbbbbb"
START = 1_780_000_000_000_000  # microseconds since the epoch: a time in 2026

DAY1, DAY2, DAY3 = (f"2026-01-0{day}T00:00:00.000000Z" for day in (1, 2, 3))
stamps = st.sampled_from(["", DAY1, DAY2, DAY3])
tag_maps = st.dictionaries(st.sampled_from(["x", "y", "z"]), stamps, max_size=3)
values = {
    "bookmarked": st.booleans(),
    "read": st.booleans(),
    "note": st.sampled_from(["", "one", "two"]),
    "resolved": st.sampled_from([{}, {"title": "T"}]),
    "tags": tag_maps,
    "removed_tags": tag_maps,
    "future": st.integers(0, 2),  # a field of a later version, kept as it is
}
values |= {f"{name}_at": stamps for name in library_fields.FIELDS}
entries = st.fixed_dictionaries({}, optional=values)
changes = st.lists(st.tuples(st.sampled_from([A, B]), entries), max_size=12)


def settled(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry as read: as it is, but for a tag both added and removed, which merge_entry
    settles."""
    if entry.get("tags", {}).keys() & entry.get("removed_tags", {}).keys():
        return merge_entry({}, entry)
    return entry


def merged_one_by_one(
    snapshot: dict[str, dict[str, Any]], changes: list[tuple[str, dict[str, Any]]]
) -> dict[str, dict[str, Any]]:
    """What reading made of a journal before it was read in linear time: each change
    merged into its paper's entry with merge_entry, the first one taken as it is (settled)."""
    result = {paper_id: settled(entry) for paper_id, entry in snapshot.items()}
    for paper_id, entry in changes:
        if paper_id in result:
            result[paper_id] = merge_entry(result[paper_id], entry)
        else:
            result[paper_id] = settled(entry)
    return result


@given(st.dictionaries(st.sampled_from([A, B]), entries), changes, st.integers(0, 12))
@example({}, [(A, {"tags": {"x": DAY1}}), (A, {}), (A, {"removed_tags": {"y": ""}})], 0)
@example({}, [(A, {"tags": {"x": DAY1}}), (A, {}), (A, {"removed_tags": {"x": DAY1}})], 0)
@example({A: {"note": "a"}}, [(A, {"note": "b", "note_at": DAY2}), (A, {"note": "c"})], 0)
def test_a_journal_is_read_as_its_changes_merged_one_by_one(
    snapshot: dict[str, dict[str, Any]], changes: list[tuple[str, dict[str, Any]]], cut: int
) -> None:
    """Per paper and field the later change wins, each tag on its own, a removal is a change
    too, ours on a tie; read after a snapshot, and in two pieces (as a backup's journal and
    then the journal are, or a reload reads what was appended)."""
    contents = library_file.parse(library_file.dumps(snapshot, {}))
    lines = [library_file.journal_line(paper_id, entry).encode() for paper_id, entry in changes]
    cut = min(cut, len(lines))
    library_file.parse_journal(b"".join(lines[:cut]), "library.json.journal", 1, contents)
    library_file.parse_journal(b"".join(lines[cut:]), "library.json.journal", cut + 1, contents)
    assert (contents.rejected, contents.times_reset) == ([], 0)
    assert contents.entries == merged_one_by_one(snapshot, changes)


def bytecodes_run(action: Callable[..., Library], *arguments: object) -> tuple[int, Library]:
    """How many bytecode instructions the action runs (work counted without a clock), and
    what it returned."""
    count = 0

    def trace(frame: FrameType, event: str, arg: object) -> Callable[..., object]:
        nonlocal count
        frame.f_trace_opcodes = True
        count += event == "opcode"
        return trace

    before = sys.gettrace()
    sys.settrace(trace)
    try:
        result = action(*arguments)
    finally:
        sys.settrace(before)
    return count, result


def write_journal(path: Path, tags: int) -> None:
    """A journal adding `tags` tags to one paper, a line each, as a save of `change_tags`
    writes them: the shape in which every line rebuilt all the paper's tags."""
    lines = [
        library_file.journal_line(A, {"tags": {f"t{n}": library_file.stamp_at(START + n)}})
        for n in range(tags)
    ]
    library_file.journal_path(path).write_text("".join(lines), encoding="utf-8")


def reload(path: Path, reader: Library) -> Library:
    reader.reload_if_changed()  # the app's look every 2 s
    return reader


def fold(path: Path, reader: Library) -> Library:
    library = Library.open(path)[0]
    library.save(fold=True)
    return library


def merge_copy(path: Path, reader: Library) -> Library:
    library = Library(None)
    library.merge_copy(path)
    return library


TAKING_IN: dict[str, Callable[[Path, Library], Library]] = {
    "open": lambda path, reader: Library.open(path)[0],
    "reload": reload,
    "fold": fold,
    "merge_copy": merge_copy,
}


@pytest.mark.parametrize("how", TAKING_IN)
def test_the_work_of_taking_in_a_journal_grows_as_its_lines(tmp_path: Path, how: str) -> None:
    """Twice the lines, twice the work, not four times: counted in bytecode instructions."""
    work = []
    for tags in (1, 300, 600):  # one line first: what is done once (imports) is not counted
        path = tmp_path / str(tags) / "library.json"
        path.parent.mkdir()
        path.write_text(library_file.dumps({}, {}), encoding="utf-8")
        reader = Library.open(path)[0]  # open before the journal was written
        write_journal(path, tags)
        count, library = bytecodes_run(TAKING_IN[how], path, reader)
        assert library.tags(A) == sorted(f"t{n}" for n in range(tags))
        work.append(count)
    assert work[2] < 2.3 * work[1], f"{work[2]:,} instructions for 600 lines, {work[1]:,} for 300"
