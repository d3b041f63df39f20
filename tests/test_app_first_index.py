"""While a big input loads, its papers are indexed as they come, each once, so the filter finds
among the first of them; the whole index replaces theirs once every paper is read."""

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.pilot_helpers import ready, wait_until
from tui_reader.core.flat import build
from tui_reader.core.index_cache import IndexedPapers
from tui_reader.core.library import Library
from tui_reader.core.loading import LoadResult
from tui_reader.core.opening import CacheWriter, Opening
from tui_reader.core.paper import Paper
from tui_reader.core.paper_columns import PaperColumns, columns_of
from tui_reader.core.search_service import build_index
from tui_reader.core.store import PaperStore
from tui_reader.ui import filtering, loader
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.timings import Timings


def slow_stream(
    first: list[Paper], rest: list[Paper], go_on: threading.Event
) -> Iterator[PaperColumns | str]:
    yield columns_of(first)
    yield columns_of(first[:2])  # met again: shown once
    if not go_on.wait(30):
        raise AssertionError("the test never let the rest load")
    yield columns_of(rest)


async def test_the_filter_finds_among_the_first_papers_while_the_rest_loads(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build, "CHUNK", 10)
    papers = list(seed_store)
    first, rest = papers[:20], papers[20:]
    in_rest = next(p for p in rest if "diffusion" in p.abstract.lower())
    go_on = threading.Event()
    app = ReaderApp(
        Opening(PaperStore(), stream=slow_stream(first, rest, go_on)),
        Library(None),
        timings=Timings(first_indexed=20),
    )
    async with app.run_test(size=(120, 30)) as pilot:
        shown = app.workspace
        await wait_until(pilot, lambda: shown.index is not None, "the first papers indexed")
        assert shown.status == "loading" and len(shown.index) == 20  # type: ignore[arg-type]
        await pilot.press("slash", *"diffusion")
        paper_list = app.query_one(PaperList)
        await wait_until(pilot, lambda: shown.shown_query == "diffusion", "results")
        found = {paper.id for paper in paper_list.papers}
        assert found and found <= {paper.id for paper in first}
        assert "searching the first 20 while the rest loads" in str(shown.sub_title)
        go_on.set()
        await ready(pilot)
        await wait_until(
            pilot, lambda: in_rest.id in {p.id for p in paper_list.papers}, "the rest found"
        )
        assert "searching the first" not in str(shown.sub_title)
        assert len(shown.store) == len(papers) and shown.loader.duplicates == 2


async def test_each_paper_is_indexed_once_while_the_filter_finds_among_the_first(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first papers' index was built on its own, and again with the rest: at 100,000
    papers that took the two cores for 4 s more."""
    monkeypatch.setattr(build, "CHUNK", 10)
    read: list[int] = []
    reader_read = build._Reader.read

    def counting(reader: build._Reader, joined: str, count: int) -> build.ChunkRead:
        read.append(count)
        return reader_read(reader, joined, count)

    monkeypatch.setattr(build._Reader, "read", counting)
    papers = list(seed_store)
    go_on = threading.Event()
    stream = slow_stream(papers[:25], papers[25:], go_on)
    app = ReaderApp(
        Opening(PaperStore(), stream=stream, expected=100),
        Library(None),
        timings=Timings(first_indexed=10),
    )
    async with app.run_test(size=(120, 30)) as pilot:
        shown = app.workspace
        await wait_until(pilot, lambda: shown.index is not None, "the first papers indexed")
        await pilot.pause(0.3)
        assert len(shown.index) == 20 and sum(read) == 20  # type: ignore[arg-type]
        go_on.set()
        await ready(pilot)
        assert shown.index is not None and len(shown.index) == len(papers)
        assert sum(read) == len(papers)


async def test_the_header_says_which_papers_the_results_shown_were_found_among(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once every paper was indexed, the header read "3 of 38 papers" while the list still
    showed what the first 20 gave: as if the search had found no more."""
    monkeypatch.setattr(build, "CHUNK", 10)
    papers = list(seed_store)
    answer = threading.Event()
    search = filtering.search_papers

    def held_once_all_are_indexed(index: Any, *arguments: Any, **keywords: Any) -> Any:
        if len(index) == len(papers) and not answer.wait(30):
            raise AssertionError("the test never let the search answer")
        return search(index, *arguments, **keywords)

    monkeypatch.setattr(filtering, "search_papers", held_once_all_are_indexed)
    go_on = threading.Event()
    stream = slow_stream(papers[:20], papers[20:], go_on)
    app = ReaderApp(
        Opening(PaperStore(), stream=stream, expected=100),
        Library(None),
        timings=Timings(first_indexed=20),
    )
    async with app.run_test(size=(120, 30)) as pilot:
        shown = app.workspace
        await pilot.press("slash", *"diffusion")
        await wait_until(pilot, lambda: shown.shown_query == "diffusion", "the first results")
        assert "while the rest loads" in str(shown.sub_title)
        go_on.set()
        await wait_until(pilot, lambda: shown.status == "ready", "every paper indexed")
        await wait_until(pilot, lambda: "searching 38 papers…" in str(shown.sub_title), "said")
        answer.set()
        await wait_until(pilot, lambda: "searching" not in str(shown.sub_title), "counted")
        assert str(shown.sub_title).startswith(f"{shown.paper_list.full} of 38 papers")


async def test_the_header_says_searching_until_the_first_results_come(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed while papers load, a query is searched once they are indexed: until its results
    come, the header said "5 of 38 papers", the count of the list loaded before."""
    answer = threading.Event()
    search = filtering.search_papers

    def slow_search(*arguments: object, **keywords: object) -> object:
        if not answer.wait(30):
            raise AssertionError("the test never let the search answer")
        return search(*arguments, **keywords)  # type: ignore[arg-type]

    monkeypatch.setattr(filtering, "search_papers", slow_search)
    papers = list(seed_store)
    go_on = threading.Event()
    stream = slow_stream(papers[:5], papers[5:], go_on)
    app = ReaderApp(Opening(PaperStore(), stream=stream, expected=38), Library(None))
    async with app.run_test(size=(120, 30)) as pilot:
        shown = app.workspace
        await wait_until(pilot, lambda: len(shown.store) == 5, "the first papers")
        await pilot.press("slash", *"diffusion")
        assert shown.sub_title == "loading… 5 papers · searching once they are indexed"
        # Not the papers loaded, unfiltered under the query (they looked like results).
        assert not shown.paper_list.papers
        assert shown.paper_list.empty_message == "Searching once the first papers are indexed…"
        go_on.set()
        await wait_until(pilot, lambda: shown.status == "ready", "indexed")
        await wait_until(pilot, lambda: "searching 38 papers" in str(shown.sub_title), "said")
        answer.set()
        await wait_until(pilot, lambda: shown.shown_query == "diffusion", "the results")
        await wait_until(pilot, lambda: "searching" not in str(shown.sub_title), "counted")
        assert str(shown.sub_title).startswith(f"{shown.paper_list.full} of 38 papers")


async def test_an_entry_read_back_at_once_still_leaves_the_reader_ready(
    seed_store: PaperStore,
) -> None:
    """The entry kept can be read back before the index built is told: the reader took the
    entry's index, dropped the one built as no bigger, and stayed "indexing" for good."""
    papers = list(seed_store)

    class ReadBackAtOnce(CacheWriter):
        def __call__(
            self, store: PaperStore, index: Any, problems: Any, duplicates: int, reopened: Any
        ) -> None:
            copy = PaperStore(list(store))
            reopened(IndexedPapers(LoadResult(copy), build_index(copy), copy), "")

    stream = iter([columns_of(papers)])
    opening = Opening(PaperStore(), stream=stream, cache_writer=ReadBackAtOnce([]))
    app = ReaderApp(opening, Library(None))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        assert app.workspace.status == "ready"


async def test_an_index_of_every_paper_made_while_loading_leaves_the_reader_ready(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The input paused after whole chunks: the index made meanwhile held every paper, and
    the one made at the end, no bigger, was dropped with the reader "indexing…" for good."""
    monkeypatch.setattr(build, "CHUNK", 10)
    papers = list(seed_store)[:20]
    go_on = threading.Event()

    def paused_then_ended() -> Iterator[PaperColumns | str]:
        yield columns_of(papers)
        if not go_on.wait(30):
            raise AssertionError("the test never let the input end")

    app = ReaderApp(
        Opening(PaperStore(), stream=paused_then_ended()),
        Library(None),
        timings=Timings(first_indexed=10),
    )
    async with app.run_test(size=(120, 30)) as pilot:
        shown = app.workspace
        await wait_until(pilot, lambda: shown.index is not None, "the papers so far indexed")
        assert shown.status == "loading" and len(shown.index) == 20  # type: ignore[arg-type]
        go_on.set()
        await ready(pilot)


@pytest.mark.parametrize("streamed", [True, False])
async def test_an_index_that_cannot_be_built_is_told(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch, streamed: bool
) -> None:
    """The thread building it stopped, and the reader said "indexing…" for good."""

    def no_room(*arguments: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(loader, "index_so_far" if streamed else "build_index", no_room)
    papers = list(seed_store)
    if streamed:
        app = ReaderApp(Opening(PaperStore(), stream=iter([columns_of(papers)])), Library(None))
    else:
        app = ReaderApp(Opening(seed_store), Library(None))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        shown = app.workspace
        await wait_until(pilot, lambda: "not indexed" in str(shown.sub_title), "the failure told")
        told = "The papers could not be indexed: [Errno 28] No space left on device"
        # A notice reaches the app as a message of its own, after the header is set.
        await wait_until(
            pilot, lambda: told in [notice.message for notice in app._notifications], "the notice"
        )
        assert shown.sub_title == "38 papers · not indexed"
        await pilot.press("slash", *"diffusion")  # the list is all the papers, and says so
        assert shown.sub_title == "38 papers · not indexed"


async def test_papers_read_in_this_process_come_to_the_screen_as_columns(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read in the reader's own process (CSV, a small file), papers came to the screen's
    thread as lists to take apart there: at a million, keys waited seconds behind them."""
    batches: list[object] = []
    extend = PaperStore.extend

    def extending(store: PaperStore, batch: Any) -> int:
        batches.append(batch)
        return extend(store, batch)

    monkeypatch.setattr(PaperStore, "extend", extending)
    papers = list(seed_store)
    stream = iter([columns_of(papers[:10]), columns_of(papers[10:])])
    app = ReaderApp(Opening(PaperStore(), stream=stream), Library(None))
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: app.workspace.status == "ready", "loaded")
        assert list(app.store) == papers
    added = [batch for batch in batches if len(batch)]  # type: ignore[arg-type]
    assert added and all(isinstance(batch, PaperColumns) for batch in added)
