"""The merge rules on their own: per paper and field the later change wins, ours on a tie;
each tag on its own, a removal being a change; saved searches by name."""

import copy
from itertools import product
from typing import Any

import pytest

from tui_reader.core.library_merge import (
    MergeReport,
    merge_change,
    merge_entry,
    merge_in_place,
    merge_into,
    merge_searches,
)

A, B, C, D = "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc", "dddddddddddd"
DAY1, DAY2, DAY3 = (f"2026-01-0{day}T00:00:00.000000Z" for day in (1, 2, 3))


def test_the_later_change_of_a_field_wins_on_either_side() -> None:
    earlier = {"note": "first", "note_at": DAY1}
    later = {"note": "second", "note_at": DAY2}
    assert merge_entry(earlier, later) == later
    assert merge_entry(later, earlier) == later


def test_on_a_tie_our_value_is_kept() -> None:
    ours = {"bookmarked": True, "bookmarked_at": DAY1}
    theirs = {"bookmarked": False, "bookmarked_at": DAY1}
    assert merge_entry(ours, theirs) == ours
    assert merge_entry(theirs, ours) == theirs


def test_a_field_without_its_time_is_the_oldest_change() -> None:
    ours = {"read": True}
    assert merge_entry(ours, {"read": False, "read_at": DAY1}) == {"read": False, "read_at": DAY1}
    assert merge_entry(ours, {}) == {"read": True, "read_at": ""}


def test_a_field_only_one_side_holds_is_taken() -> None:
    theirs = {"citekey": "smith2020", "citekey_at": DAY1}
    ours = {"note": "mine", "note_at": DAY2}
    assert merge_entry(ours, theirs) == {**ours, **theirs}


def test_each_tag_merges_on_its_own() -> None:
    ours = {"tags": {"x": DAY1}}
    theirs = {"tags": {"y": DAY2}}
    assert merge_entry(ours, theirs) == {"tags": {"x": DAY1, "y": DAY2}}


def test_a_removal_later_than_the_addition_removes_the_tag() -> None:
    added, removed = {"tags": {"x": DAY1}}, {"removed_tags": {"x": DAY2}}
    assert merge_entry(added, removed) == merge_entry(removed, added) == removed


def test_an_addition_later_than_the_removal_brings_the_tag_back() -> None:
    removed, added = {"removed_tags": {"x": DAY1}}, {"tags": {"x": DAY2}}
    assert merge_entry(removed, added) == merge_entry(added, removed) == added


def test_an_addition_and_a_removal_at_the_same_time_leave_the_tag_on() -> None:
    added, removed = {"tags": {"x": DAY1}}, {"removed_tags": {"x": DAY1}}
    assert merge_entry(added, removed) == merge_entry(removed, added) == added


def test_a_field_of_a_later_version_is_kept_as_it_is() -> None:
    theirs = {"colour": "red", "colour_at": DAY2}
    assert merge_entry({}, theirs) == theirs
    assert merge_entry({"colour": "blue", "colour_at": DAY1}, theirs)["colour"] == "blue"


# Entries as merge_entry leaves them, the form merge_in_place requires of its first one.
MERGED_ENTRIES = [
    merge_entry(entry, {})
    for entry in (
        {},
        {"note": "a", "note_at": DAY2},
        {"tags": {"x": DAY1, "y": DAY3}},
        {"removed_tags": {"x": DAY2}, "read": True, "read_at": DAY1},
        {"tags": {"y": DAY1}, "removed_tags": {"x": DAY3}, "colour": "red"},
    )
]
CHANGES = [
    {},
    {"note": "b", "note_at": DAY1},
    {"note": "c", "note_at": DAY3},
    {"tags": {"x": DAY2}},
    {"tags": {"x": ""}},
    {"removed_tags": {"y": DAY2, "z": DAY1}},
    {"read": False, "read_at": DAY2, "colour": "blue"},
]


@pytest.mark.parametrize(("ours", "theirs"), product(MERGED_ENTRIES, CHANGES))
def test_merging_in_place_makes_what_merge_entry_makes(
    ours: dict[str, Any], theirs: dict[str, Any]
) -> None:
    expected = merge_entry(ours, theirs)
    merged = copy.deepcopy(ours)  # the table's entries serve every case
    merge_in_place(merged, theirs)
    assert merged == expected


def test_a_tag_first_seen_is_taken_whatever_its_time() -> None:
    ours = merge_entry({"tags": {"x": DAY1}}, {})
    merge_in_place(ours, {"tags": {"y": ""}})
    assert ours == {"tags": {"x": DAY1, "y": ""}}


def test_changes_merged_one_by_one_are_the_later_of_each() -> None:
    changes = [
        {"tags": {"x": DAY1}},
        {"note": "one", "note_at": DAY2},
        {"removed_tags": {"x": DAY3}},
        {"note": "older", "note_at": DAY1},
        {"tags": {"y": DAY2}},
    ]
    entries: dict[str, dict[str, Any]] = {}
    merged: set[str] = set()
    for change in changes:
        merge_change(entries, A, change, merged)
    assert entries == {
        A: {"note": "one", "note_at": DAY2, "tags": {"y": DAY2}, "removed_tags": {"x": DAY3}}
    }
    assert merged == {A}


def test_the_first_change_of_a_paper_is_taken_as_it_is() -> None:
    change = {"tags": {"x": DAY1}}
    entries: dict[str, dict[str, Any]] = {}
    merged: set[str] = set()
    merge_change(entries, A, change, merged)
    assert entries[A] is change
    assert merged == set()


def test_merge_into_counts_the_papers_whose_entry_changed() -> None:
    entries = {
        A: {"read": True, "read_at": DAY1},
        C: {"note": "kept", "note_at": DAY3},
        D: {"note": "old", "note_at": DAY1},
    }
    more = {
        A: {"read": True, "read_at": DAY1},  # the same
        B: {"bookmarked": True, "bookmarked_at": DAY1},  # new here
        C: {"note": "older", "note_at": DAY2},  # earlier than ours
        D: {"note": "new", "note_at": DAY2},  # later than ours
    }
    assert merge_into(entries, more) == 2
    assert entries[B] == more[B]
    assert entries[C]["note"] == "kept"
    assert entries[D]["note"] == "new"


def test_a_saved_search_changed_later_wins_and_a_deletion_is_a_change() -> None:
    ours = {"mine": {"query": "agents", "query_at": DAY1}}
    assert merge_searches(ours, {"mine": {"query": "", "query_at": DAY2}})
    assert ours == {"mine": {"query": "", "query_at": DAY2}}
    assert not merge_searches(ours, {"mine": {"query": "older", "query_at": DAY1}})
    assert ours == {"mine": {"query": "", "query_at": DAY2}}


def test_a_saved_search_only_the_other_side_has_is_taken_whatever_its_time() -> None:
    ours = {"mine": {"query": "agents", "query_at": DAY1}}
    assert merge_searches(ours, {"theirs": {"query": "bandits", "query_at": ""}})
    assert ours["theirs"] == {"query": "bandits", "query_at": ""}


def test_a_merge_report_counts_each_kind_of_change() -> None:
    report = MergeReport(skipped=1)
    report.count(
        {"tags": {"x": DAY1, "y": DAY1}, "note": "a"},
        {"tags": {"x": DAY1, "z": DAY2}, "note": "b", "bookmarked": True},
    )
    report.count({}, {"read": True, "citekey": "smith2020"})
    report.searches = 1
    assert (report.papers, report.tags_added, report.tags_removed) == (2, 1, 1)
    assert (report.notes, report.bookmarks, report.read_marks, report.citation_keys) == (1, 1, 1, 1)
    assert str(report) == (
        "2 papers changed: 1 tag added, 1 tag removed, 1 bookmark changed, 1 note changed, "
        "1 read mark changed, 1 citation key changed; 1 saved search changed; "
        "1 entry of the copy could not be read"
    )


def test_a_merge_report_of_nothing_changed_says_so() -> None:
    assert str(MergeReport()) == (
        "nothing changed: this library already had every change of the copy"
    )
    assert str(MergeReport(searches=2)) == "2 saved searches changed"
