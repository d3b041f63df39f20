"""A quoted phrase whose words many papers hold gives its first papers at once, read best
first, and all of them after: the first are how the whole ranking begins, and the whole is
the ranking found at once. The reader shows the first said as counting, then all with the
true count."""

import json
import random
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.pilot_helpers import rows, settled, wait_until, work_done
from tui_reader.cli.program import main
from tui_reader.core.engine import Ranking, Stopped
from tui_reader.core.flat import index as index_module
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.query import parse_query
from tui_reader.core.search_service import search_papers
from tui_reader.core.store import PaperStore
from tui_reader.ui import filtering as filtering_module
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.header import HeaderState, header_text

WORDS = ["sparse", "attention", "at", "an", "and", "a", "approximate", "atlas", "dense"]
WORDS += ["model", "graph", "learning", "of"]


def papers_of(count: int, seed: int = 7) -> list[Paper]:
    """Papers of words drawn at random, some with a title: many hold "sparse" and a word
    beginning with "a", fewer "sparse a…" as a phrase, with scores of a few values (ties)."""
    chosen = random.Random(seed)
    papers = []
    for number in range(count):
        text = " ".join(chosen.choice(WORDS) for _ in range(chosen.randint(4, 14)))
        title = " ".join(chosen.choice(WORDS) for _ in range(3)) if number % 3 else ""
        papers.append(Paper.from_abstract(f"{text} {number}.", "C", Path("x"), title=title))
    return papers


def same(one: Ranking, other: Ranking) -> None:
    assert one.numbers.tolist() == other.numbers.tolist()
    assert one.scores.tolist() == other.scores.tolist()
    assert (one.full, one.matched, one.corrected) == (other.full, other.matched, other.corrected)


@pytest.fixture
def read_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A phrase's first papers read first however few papers hold its words."""
    monkeypatch.setattr(index_module, "PHRASE_READ_AT_ONCE", 20)
    monkeypatch.setattr(index_module, "FIRST_READ_TIMES", 2)


@pytest.mark.parametrize("first", [1, 5, 30])
def test_the_first_papers_begin_the_whole_ranking_which_is_the_one_found_at_once(
    read_first: None, first: int
) -> None:
    papers = papers_of(600)
    typed = FlatIndex.of(PaperStore(papers))
    counted = 0
    for query in [
        '"sparse',
        '"sparse ',
        '"sparse a',
        '"sparse at',
        '"sparse atl',
        '"sparse a',
        '"an a',
        '"a',
    ]:
        begun = typed.run(parse_query(query), first=first)
        whole = typed.run(parse_query(query))
        same(whole, FlatIndex.of(PaperStore(papers)).run(parse_query(query)))
        if begun.counting:
            counted += 1
            assert 0 < len(begun.numbers) < len(whole.numbers), query
            shown = len(begun.numbers)
            assert begun.numbers.tolist() == whole.numbers[:shown].tolist(), query
            assert begun.scores.tolist() == whole.scores[:shown].tolist(), query
            assert (begun.matched, begun.corrected) == (whole.matched, whole.corrected)
        else:
            same(begun, whole)
    assert counted >= 3  # `"sparse a`, `"sparse at` and `"an a` at least


def test_a_phrase_held_by_none_of_the_first_read_is_found_whole(read_first: None) -> None:
    papers = papers_of(300)
    rare = Paper.from_abstract("an atlas sparse dense graph of sparse atlases.", "C", Path("x"))
    papers.insert(120, rare)
    index = FlatIndex.of(PaperStore(papers))
    ranking = index.run(parse_query('"sparse atlases'), first=1)
    assert not ranking.counting
    assert [papers[number] for number in ranking.numbers] == [rare]


def test_a_search_given_up_keeps_nothing_half_read(read_first: None) -> None:
    papers = papers_of(600)
    index = FlatIndex.of(PaperStore(papers))
    with pytest.raises(Stopped):
        index.run(parse_query('"sparse a'), stop=lambda: True)
    same(
        index.run(parse_query('"sparse a')),
        FlatIndex.of(PaperStore(papers)).run(parse_query('"sparse a')),
    )


@pytest.mark.parametrize(
    ("query", "order"),
    [('"sparse a', "relevance"), ('"sparse a', "date"), ('"sparse a year:2020', "relevance")],
)
def test_only_a_phrase_ranked_by_relevance_alone_is_found_first(
    read_first: None, query: str, order: str
) -> None:
    store = PaperStore(papers_of(600))
    index = FlatIndex.of(store)
    found = search_papers(index, query, Library(None), order, store, first=5)  # type: ignore[arg-type]
    whole = search_papers(FlatIndex.of(store), query, Library(None), order, store)  # type: ignore[arg-type]
    assert found.counting == (order == "relevance" and ":" not in query)
    shown = len(found.numbers)
    assert found.numbers.tolist() == whole.numbers[:shown].tolist()
    if not found.counting:
        assert found.numbers.tolist() == whole.numbers.tolist()


def test_the_search_command_reads_a_phrase_s_first_papers_and_prints_how_the_whole_begins(
    read_first: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "papers.jsonl"
    records = [{"title": p.title, "abstract": p.abstract} for p in papers_of(600)]
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    monkeypatch.setenv("TUI_READER_CACHE", str(tmp_path / "cache"))
    asked: list[int | None] = []
    run = FlatIndex.run

    def noted(index: FlatIndex, query: Any, first: int | None = None, stop: Any = None) -> Ranking:
        asked.append(first)
        return run(index, query, first, stop)

    monkeypatch.setattr(FlatIndex, "run", noted)
    printed = []
    for limit in (3, 200):  # 200: more than its first papers read at once
        assert main(["search", '"sparse a', str(path), "--limit", str(limit)]) == 0
        printed.append(capsys.readouterr().out.splitlines())
    store = PaperStore(papers_of(600))
    whole = search_papers(FlatIndex.of(store), '"sparse a', NO_STATE, "relevance", store)
    assert asked[0] == 3
    assert len(printed[0]) == 3 and printed[0] == printed[1][:3]
    assert len(printed[1]) == min(200, len(whole.numbers))


def test_the_header_says_a_count_still_counting() -> None:
    state = HeaderState(
        papers=1000,
        query='"sparse a',
        shown_query='"sparse a',
        shown=200,
        close=0,
        among=None,
        indexed=1000,
        status="ready",
        unindexed=False,
        counting=True,
    )
    assert header_text(state) == "200+ of 1,000 papers, counting…"
    typed_on = HeaderState(**{**state.__dict__, "query": '"sparse at'})
    assert header_text(typed_on) == "searching 1,000 papers…"


async def test_the_reader_shows_the_first_papers_counting_then_all_with_their_count(
    read_first: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers = papers_of(600)
    monkeypatch.setattr(filtering_module, "FIRST_SHOWN", 3)
    shown: list[tuple[bool, list[int], str]] = []
    show = filtering_module.Filtering.show

    def showing(self: filtering_module.Filtering, results, ranked: bool) -> None:  # type: ignore[no-untyped-def]
        show(self, results, ranked)
        shown.append((results.counting, results.papers.numbers().tolist(), results.query))

    monkeypatch.setattr(filtering_module.Filtering, "show", showing)
    store = PaperStore(papers)
    whole = search_papers(FlatIndex.of(store), '"sparse a', Library(None), "relevance", store)
    app = ReaderApp(Opening(PaperStore(papers)))
    async with app.run_test(size=(120, 30)) as pilot:
        await settled(pilot)
        await pilot.press("slash", *'"sparse a')
        await work_done(app)
        await wait_until(pilot, lambda: shown and not shown[-1][0], "all the papers")
        await settled(pilot)
        phrase = [(counting, numbers) for counting, numbers, query in shown if query == '"sparse a']
        (first_counting, first), (last_counting, last) = phrase[0], phrase[-1]
        assert first_counting and first == whole.numbers[: len(first)].tolist()
        assert not last_counting and last == whole.numbers.tolist()
        assert app.workspace.sub_title.startswith(f"{len(whole.numbers):,} of 600 papers")
        assert "counting" not in app.workspace.sub_title
        assert rows(app)[0].startswith(papers[int(whole.numbers[0])].headline[:20])
    assert np.all(np.diff(whole.scores) <= 0)


async def test_the_next_key_gives_up_counting_the_papers_of_the_last(
    read_first: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers = papers_of(600)
    monkeypatch.setattr(filtering_module, "FIRST_SHOWN", 3)
    next_key, outcomes = threading.Event(), []
    search = filtering_module.search_papers

    def searching(*arguments, **named):  # type: ignore[no-untyped-def]
        if named.get("stop") is None:
            return search(*arguments, **named)
        next_key.wait(10)  # the count of `"sparse a` waits for the next key
        try:
            found = search(*arguments, **named)
        except Stopped:
            outcomes.append("given up")
            raise
        outcomes.append(f"counted {arguments[1]}")
        return found

    monkeypatch.setattr(filtering_module, "search_papers", searching)
    app = ReaderApp(Opening(PaperStore(papers)))
    async with app.run_test(size=(120, 30)) as pilot:
        await settled(pilot)
        await pilot.press("slash", *'"sparse a')
        await wait_until(pilot, lambda: app.workspace.filtering.counting, "the first papers")
        await pilot.press("t")
        next_key.set()
        await work_done(app)
        await wait_until(pilot, lambda: not app.workspace.filtering.counting, "all the papers")
        await settled(pilot)
        store = PaperStore(papers)
        whole = search(FlatIndex.of(store), '"sparse at', Library(None), "relevance", store)
        assert sorted(outcomes) == ['counted "sparse at', "given up"]  # in either order
        assert app.workspace.sub_title.startswith(f"{len(whole.numbers):,} of 600 papers")
