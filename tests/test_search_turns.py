"""Searches go first: the index's warming waits between its steps while a search runs."""

import threading
from collections.abc import Callable

import numpy as np
import pytest

from tui_reader.core.engine import Ranking
from tui_reader.core.flat import vocabulary
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.query import Query
from tui_reader.core.search_service import search_papers
from tui_reader.core.search_turns import SEARCHES, Searches
from tui_reader.core.store import PaperStore
from tui_reader.ui.loader import Loader
from tui_reader.ui.timings import Timings


def _in_thread(work: Callable[[], object]) -> threading.Thread:
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def _making_way(searches: Searches, made_way: threading.Event) -> threading.Thread:
    """A thread of work ahead of time: `made_way` is set once it may go on."""

    def work() -> None:
        searches.make_way()
        made_way.set()

    return _in_thread(work)


def test_make_way_returns_once_no_search_runs() -> None:
    searches = Searches()
    searches.make_way()  # none runs: at once
    made_way = threading.Event()
    with searches.running(), searches.running():
        waiting = _making_way(searches, made_way)
        assert not made_way.wait(0.2)
    waiting.join(5)
    assert made_way.is_set()


def test_a_search_that_fails_makes_way_too() -> None:
    searches = Searches()
    with pytest.raises(KeyError), searches.running():
        raise KeyError("x")
    searches.make_way()  # would wait for ever if the failed search still counted


def test_warming_waits_while_a_search_runs(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vocabulary, "DENSE_FROM", 1)  # bitmaps at any size: steps to wait at
    monkeypatch.setattr(vocabulary, "UNION_SHARE", 10**9)
    index = FlatIndex.of(seed_store)
    with SEARCHES.running():
        warming = _in_thread(lambda: index.warm(SEARCHES.make_way))
        warming.join(0.3)
        assert warming.is_alive()
        assert not index._words._bitmaps and not index._words._unions_warmed
    warming.join(10)
    assert not warming.is_alive()
    assert index._words._unions_warmed


class _Engine:
    """An engine whose search looks whether work ahead of time may go on meanwhile."""

    def __init__(self) -> None:
        self.went_on_during_search: bool | None = None
        self.made_way = threading.Event()

    def run(self, query: Query, first: int | None = None, stop: object = None) -> Ranking:
        _making_way(SEARCHES, self.made_way)
        self.went_on_during_search = self.made_way.wait(0.2)
        return Ranking(np.zeros(0, dtype=np.int64), 0, np.zeros(0))

    def __len__(self) -> int:
        return 0


def test_work_ahead_waits_for_the_searches_of_every_caller(seed_store: PaperStore) -> None:
    engine = _Engine()
    search_papers(engine, "graph", NO_STATE, "relevance", seed_store)  # type: ignore[arg-type]
    assert engine.went_on_during_search is False
    assert engine.made_way.wait(5)


def test_the_reader_warms_its_index_making_way_for_searches() -> None:
    asked: list[object] = []
    warmed = threading.Event()

    class Warming:
        def warm(self, make_way: Callable[[], None]) -> None:
            asked.append(make_way)
            warmed.set()

    Loader(PaperStore(), Timings()).warm(Warming())  # type: ignore[arg-type]
    assert warmed.wait(5)
    assert asked == [SEARCHES.make_way]
