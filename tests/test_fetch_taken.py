"""`is:new` from what the fetches noted beside their collections: the same after the cache
is pruned, or when nothing kept the papers between two fetches."""

import json
import os
import time
from pathlib import Path

import pytest

from tests.cli_helpers import command, run
from tests.fetch_helpers import FakeTime, Reply, Script, atom_entry, atom_feed, fetch_clock, serving
from tui_reader.core.loading import load_paths
from tui_reader.core.sources import arxiv
from tui_reader.core.sources.taken import taken_path

run_fetch = command("fetch")
DAY = 86_400.0  # seconds
START = time.time()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeTime:
    return fetch_clock(monkeypatch, tmp_path / "data", arxiv)


def collections(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tui-reader" / "collections"


def fetch_day(
    monkeypatch: pytest.MonkeyPatch,
    day: int,
    papers: dict[int, int],
    output: Path | None = None,
    at: float | None = None,
) -> None:
    """The fetch of a day (two days apart, or `at` that time): these papers (number:
    version), two a page."""
    now = START + day * 2 * DAY if at is None else at
    monkeypatch.setattr(time, "time", lambda: now)
    entries = [atom_entry(f"2501.{n:05d}v{v}", f"Paper {n}") for n, v in papers.items()]
    pages = [atom_feed(entries[at : at + 2], len(entries), at) for at in range(0, len(entries), 2)]
    out = ["-o", str(output)] if output else []
    with serving(Script(*map(Reply, pages))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG", *out]) == 0


@pytest.fixture
def first_day(clock: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The collection a first day's fetch wrote papers 1 and 2 into."""
    fetch_day(monkeypatch, 0, {1: 1, 2: 1})
    (path,) = collections(tmp_path).glob("*.jsonl")
    return path


def new_papers(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The ids `is:new` finds among the fetched collections; none said plainly, no error."""
    status, out, err = run(capsys, "search", "--format", "jsonl", "is:new")
    assert status == 0 or (status == 1 and "no paper" in err), err
    assert "Traceback" not in err
    return sorted(json.loads(line)["id"] for line in out.splitlines())


def test_the_papers_of_the_last_days_fetch_are_new_after_the_cache_is_pruned(
    clock: FakeTime, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_day(monkeypatch, 0, {1: 1, 2: 1, 3: 1})
    assert run(capsys, "search", "paper")[0] == 0  # the fetched collections kept
    fetch_day(monkeypatch, 1, {1: 1, 2: 1, 3: 1, 4: 1, 5: 1})
    assert new_papers(capsys) == ["2501.00004", "2501.00005"]  # the cache's own note
    assert run(capsys, "cache", "prune", "--all")[0] == 0
    assert new_papers(capsys) == ["2501.00004", "2501.00005"]
    assert run(capsys, "list", "--query", "is:new")[1].count("Paper") == 2


def local(month: int, day: int, hour: int, minute: int, second: int) -> float:
    return time.mktime((2026, month, day, hour, minute, second, 0, 0, -1))


def test_a_mornings_fetch_less_than_a_day_after_yesterdays_makes_only_its_papers_new(
    clock: FakeTime, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cron job at 06:00: yesterday's fetch ended 11 s later than today's."""
    fetch_day(monkeypatch, 0, {1: 1, 2: 1}, at=local(12, 3, 6, 0, 12))
    assert run(capsys, "search", "paper")[0] == 0  # the fetched collections kept
    fetch_day(monkeypatch, 0, {1: 1, 2: 1, 3: 1}, at=local(12, 4, 6, 0, 1))
    assert new_papers(capsys) == ["2501.00003"]
    assert run(capsys, "cache", "prune", "--all")[0] == 0  # from the note beside the file
    assert new_papers(capsys) == ["2501.00003"]


def test_the_fetches_of_one_day_are_new_together_until_the_next_days_come(
    clock: FakeTime, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_day(monkeypatch, 0, {1: 1}, at=local(12, 3, 6, 0, 0))
    assert run(capsys, "search", "paper")[0] == 0
    fetch_day(monkeypatch, 0, {1: 1, 2: 1}, at=local(12, 4, 1, 0, 0))
    fetch_day(monkeypatch, 0, {1: 1, 2: 1, 3: 1}, at=local(12, 4, 23, 0, 0))  # 22 hours on
    assert new_papers(capsys) == ["2501.00002", "2501.00003"]
    fetch_day(monkeypatch, 0, {1: 1, 2: 1, 3: 1}, at=local(12, 6, 6, 0, 0))  # nothing new
    assert new_papers(capsys) == ["2501.00002", "2501.00003"]
    fetch_day(monkeypatch, 0, {1: 1, 2: 1, 3: 1, 4: 1}, at=local(12, 6, 7, 0, 0))
    assert new_papers(capsys) == ["2501.00004"]


def test_the_days_papers_are_new_when_nothing_kept_them_between_two_fetches(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A file a day, as `--since yesterday` names them; a paper in both is not new."""
    folder = collections(tmp_path)
    fetch_day(monkeypatch, 0, {1: 1, 2: 1, 3: 1}, folder / "day-1.jsonl")
    fetch_day(monkeypatch, 1, {3: 1, 4: 1, 5: 1}, folder / "day-2.jsonl")
    assert not list((tmp_path / "cache").glob("papers-v*"))
    assert new_papers(capsys) == ["2501.00004", "2501.00005"]
    assert taken_path(folder / "day-2.jsonl").is_file()
    assert len(load_paths([folder]).papers) == 5  # the notes beside are not papers
    assert run(capsys, "fetch", "list")[1].count("\n") == 2
    fetch_day(monkeypatch, 1, {6: 1}, folder / "day-2.jsonl")  # again the same day
    assert run(capsys, "cache", "prune", "--all")[0] == 0
    assert new_papers(capsys) == ["2501.00004", "2501.00005", "2501.00006"]


def test_a_damaged_note_is_passed_over_and_the_caches_own_note_stands(
    first_day: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "search", "paper")[0] == 0
    note = taken_path(first_day)
    note.write_text('{"format": 1, "taken": [[1, "noon"]]}')
    fetch_day(monkeypatch, 1, {3: 1})  # reads the note to add to it
    assert json.loads(note.read_text())["taken"][0][0] != 1
    for damaged in ("{", '{"format": 99, "taken": []}', "[]", '{"format": 1, "taken": [[]]}'):
        note.write_text(damaged)
        assert new_papers(capsys) == ["2501.00003"]  # the entry kept noted it
    assert run(capsys, "cache", "prune", "--all")[0] == 0
    assert new_papers(capsys) == []  # nothing noted that can be read: nothing new
    assert run(capsys, "cache", "prune", "--all")[0] == 0
    note.unlink()
    os.mkfifo(note)  # never opened: it would wait for a writer
    assert new_papers(capsys) == []
    fetch_day(monkeypatch, 2, {4: 1})
    assert note.is_fifo()


def test_a_paper_fetched_again_in_a_new_version_is_not_new(
    first_day: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_day(monkeypatch, 1, {1: 2, 2: 1, 3: 1})
    assert new_papers(capsys) == ["2501.00003"]
    (path,) = first_day.parent.glob("*.jsonl")  # the same collection, written again
    assert [line["arxiv_version"] for line in map(json.loads, path.read_text().splitlines())] == [
        2,
        1,
        1,
    ]
