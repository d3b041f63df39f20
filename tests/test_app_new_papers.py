"""The reader marks the papers its collection took in since it was last opened (`is:new`), for
a small input as for a big one, and says so once at the start that finds them."""

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.pilot_helpers import ready, settled, work_shown
from tui_reader.cli import reader
from tui_reader.cli.program import main
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.loader import Loader
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.timings import Timings

RUN = ReaderApp.run  # the reader's own, before a test patches it


def append(path: Path, first: int, last: int) -> None:
    with path.open("a", encoding="utf-8") as papers:
        for n in range(first, last):
            record = {"title": f"Paper {n}", "abstract": f"Paper {n} on bandits and diffusion."}
            papers.write(json.dumps(record) + "\n")


def append_member(path: Path, first: int, last: int, words: int) -> None:
    """Papers of `words` words each, appended to a gzip file as a member of their own."""
    lines = [
        json.dumps({"title": f"Paper {n}", "abstract": f"Paper {n} on " + "bandits " * words})
        for n in range(first, last)
    ]
    with path.open("ab") as papers:
        papers.write(gzip.compress("".join(line + "\n" for line in lines).encode()))


class Started:
    """What one start of the reader showed: its notices, and what `is:new` listed."""

    def __init__(self, notices: list[str], header: str, new: list[str]) -> None:
        self.notices, self.header, self.new = notices, header, new

    def said_new(self) -> list[str]:
        return [notice for notice in self.notices if "new paper" in notice]


def start(path: Path, monkeypatch: pytest.MonkeyPatch) -> Started:
    """`tui-reader PATH` as typed, until its papers are indexed; then `/`, Ctrl+U, `is:new`."""
    seen: list[Started] = []

    def run_and_look(app: ReaderApp) -> None:
        async def look(pilot: Pilot[Any]) -> None:
            try:
                await ready(pilot)
                notices = [str(notice.message) for notice in app._notifications]
                await pilot.press("slash", "ctrl+u", *"is:new")  # the query restored cleared
                await work_shown(pilot)
                await settled(pilot)
                found = app.query_one(PaperList).papers
                titles = [found[n].title for n in range(len(found))]
                seen.append(Started(notices, app.workspace.sub_title, titles))
            finally:  # a failed check ends the reader, which would otherwise wait
                app.exit()

        RUN(app, headless=True, auto_pilot=look)

    monkeypatch.setattr(ReaderApp, "run", run_and_look)
    assert main([str(path)]) == 0
    (started,) = seen
    return started


def test_the_papers_appended_to_a_small_file_since_it_was_last_opened_are_marked_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unhurried_reading: None
) -> None:
    """A small input was loaded without the cache: `is:new` found nothing however many
    papers a day's fetch appended."""
    path = tmp_path / "papers.jsonl"
    append(path, 0, 30)
    assert path.stat().st_size < reader.LOAD_AT_ONCE
    first = start(path, monkeypatch)  # on first sight nothing is new
    assert first.new == [] and first.said_new() == []
    append(path, 30, 35)
    grown = start(path, monkeypatch)
    assert sorted(grown.new) == [f"Paper {n}" for n in range(30, 35)]
    assert grown.header.startswith("5 of 35 papers"), grown.header
    assert grown.said_new() == ["5 new papers: is:new shows them"]
    again = start(path, monkeypatch)  # told once; still new
    assert sorted(again.new) == sorted(grown.new) and again.said_new() == []
    append(path, 35, 36)
    more = start(path, monkeypatch)  # the same day's: new with the others
    assert len(more.new) == 6 and more.said_new() == ["6 new papers: is:new shows them"]


def test_a_big_input_says_what_it_takes_in_then_how_many_papers_are_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any, unhurried_reading: None
) -> None:
    monkeypatch.setattr(reader, "LOAD_AT_ONCE", 0)  # these papers count as a big input
    path = tmp_path / "papers.jsonl"
    append(path, 0, 40)
    start(path, monkeypatch)
    assert "taking in" not in capsys.readouterr().err
    append(path, 40, 60)
    grown = start(path, monkeypatch)
    assert "tui-reader: taking in about 20 new papers…" in capsys.readouterr().err
    assert len(grown.new) == 20 and grown.said_new() == ["20 new papers: is:new shows them"]


def test_what_is_taken_in_is_counted_by_the_new_papers_own_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any, unhurried_reading: None
) -> None:
    """Short records appended to a file of long ones: told by the kept papers' length, 1,200
    new papers were said to be about 120."""
    monkeypatch.setattr(reader, "LOAD_AT_ONCE", 0)
    path = tmp_path / "papers.jsonl.gz"
    append_member(path, 0, 50, words=400)
    start(path, monkeypatch)
    capsys.readouterr()
    append_member(path, 50, 650, words=2)
    grown = start(path, monkeypatch)
    assert "tui-reader: taking in about 600 new papers…" in capsys.readouterr().err
    assert len(grown.new) == 600


def test_one_new_paper_is_told_in_the_singular_and_none_not_at_all() -> None:
    def told(new: int) -> list[str]:
        return [text for text, _ in Loader(PaperStore(), Timings(), new=new).told()]

    assert told(1) == ["1 new paper: is:new shows it"]
    assert told(312) == ["312 new papers: is:new shows them"]
    assert told(0) == []
