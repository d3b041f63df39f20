"""`is:new` by days: the papers taken in on the day (local time) the last ones were."""

import json
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tui_reader.core.segments.added import added_of, new_keys, taken_in
from tui_reader.core.segments.ranges import Rejected
from tui_reader.core.sources.taken import TAKEN_FORMAT, note_taken, taken_from, taken_path


@pytest.fixture
def azores(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Where clocks go back from 01:00 to 00:00 (2025-10-26): that night's midnight comes twice."""
    monkeypatch.setenv("TZ", "Atlantic/Azores")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_papers_taken_in_before_a_midnight_that_comes_again_are_new(azores: None) -> None:
    fetch = 1761438600.0  # 2025-10-26 00:30, summer time: before the clocks go back
    assert new_keys([(1, fetch), (2, fetch)]).tolist() == [1, 2]
    new_keys([(9, 1764590400.0)])  # another collection's, in winter (2025-12-01)
    assert new_keys([(1, fetch), (2, fetch)]).tolist() == [1, 2]
    assert taken_in([], [], np.array([1, 2]), fetch) == [(1, fetch), (2, fetch)]


def test_papers_noted_later_than_now_are_taken_in_now() -> None:
    """A clock set back past midnight (it ran fast): the papers it stamped ahead are today's."""
    ahead = time.mktime((2025, 12, 5, 0, 30, 0, 0, 0, -1))
    now = time.mktime((2025, 12, 4, 23, 0, 0, 0, 0, -1))
    added = taken_in([(1, ahead)], [], np.array([2, 3]), now)
    assert sorted(new_keys(added).tolist()) == [1, 2, 3]


@pytest.mark.parametrize("when", [1e17, 1e300, float("inf"), float("nan"), -1.0])
def test_a_time_no_clock_reads_is_not_a_paper_taken_in(when: float, tmp_path: Path) -> None:
    """Such a time in a note or a manifest ended `search`, `list` and `fetch` in a traceback
    (`localtime` overflows; a NaN compares false)."""
    with pytest.raises(Rejected):
        added_of([[1, 1700000000.0], [2, when]])
    path = tmp_path / "papers.jsonl"
    note = {"format": TAKEN_FORMAT, "taken": [[1, 1700000000.0], [2, when]]}
    taken_path(path).write_text(json.dumps(note), encoding="utf-8")  # NaN, Infinity: as json writes
    assert taken_from(path) == []  # as if nothing were noted
    note_taken(path, [3])
    assert [key for key, _ in taken_from(path)] == [3]
