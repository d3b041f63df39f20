"""Reading the papers in and indexing them, off the screen's thread.

As a file watcher runs beside the widgets that show the file, an object of its own does the
work and posts what it found (ui/messages) to the screen, which handles the messages in turn
with the keys; once the screen is gone they are dropped. Its threads never call into the app.
"""

import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeAlias

from textual.message import Message
from textual.notifications import SeverityLevel
from textual.widget import Widget

from tui_reader import startup
from tui_reader.core.engine import SearchEngine
from tui_reader.core.index_cache import IndexedPapers, check_kept
from tui_reader.core.paper_columns import PaperColumns
from tui_reader.core.pools import stop_pools
from tui_reader.core.scratch import ScratchError
from tui_reader.core.search_service import build_index, growing_index, index_so_far
from tui_reader.core.search_turns import SEARCHES
from tui_reader.core.store import PaperStore
from tui_reader.core.wording import count
from tui_reader.ui.messages import (
    CacheDamaged,
    EntryReopened,
    IndexFailed,
    IndexReady,
    LoadFinished,
    PapersLoaded,
)
from tui_reader.ui.timings import Timings

# Saves the papers and their index in the cache for the next start (the store, the index,
# the records the load skipped, the duplicates it met), then gives the entry read back to the
# last argument (None: none was saved), with why the cache could not take it (or "");
# called in a thread, once the index is built.
CacheIndex: TypeAlias = Callable[
    [PaperStore, SearchEngine, Sequence[str], int, Callable[[IndexedPapers | None, str], object]],
    object,
]
Build: TypeAlias = Callable[[], SearchEngine | None]


def in_background(name: str, work: Callable[[], object]) -> threading.Thread:
    """Run slow work (indexing a big collection) in a daemon thread, which posts what it
    found. A worker's thread would hold a quit until it ended; this one is dropped at exit
    (the loader waits a little for it to stop, see `Loader.stop`)."""
    thread = threading.Thread(target=work, name=name, daemon=True)
    thread.start()
    return thread


class Loader:
    """Loads the papers still to come into the store and indexes them as they do, or
    indexes the papers there are; and saves them with their index for the next start."""

    def __init__(
        self,
        store: PaperStore,
        timings: Timings,
        *,
        stream: Iterator[PaperColumns | str] | None = None,
        expected_papers: int | None = None,
        cached_index: SearchEngine | None = None,
        cache_index: CacheIndex | None = None,
        skipped: Sequence[str] = (),
        duplicates: int = 0,
        new: int = 0,
        kept: Path | None = None,
    ) -> None:
        """`stream` yields the papers (and problems) still to load, about `expected_papers`
        of them (None: not known); `cached_index`, the store's index read from the cache;
        `cache_index`, what saves the papers and their index for the next start, once built;
        `skipped`, the records of the cached papers that could not be read; `duplicates`, how
        many abstracts the load met again and shows once; `new`, how many papers the cache
        took in since the last start (`is:new`), to be told; `kept`, the cache's entry the
        papers were read from, whose files are checked against their digests."""
        self.store, self._timings = store, timings
        self._stream, self._expected_papers = stream, expected_papers
        self.cached_index, self._cache_index = cached_index, cache_index
        self.problems = list(skipped)  # records that could not be read: cached with the index
        self.duplicates = duplicates  # counted as the papers are added
        self._new = new
        self._kept = kept
        self._post: Callable[[Message], object] = lambda message: None
        self._all_loaded = threading.Event()  # every paper loaded is in the store
        self._stopping = threading.Event()  # the screen goes: loading and indexing end
        self._indexing: threading.Thread | None = None

    @property
    def streaming(self) -> bool:
        """Whether papers are still to load."""
        return self._stream is not None

    def start(self, screen: Widget) -> None:
        """Load and index in the background, posting what is found to `screen`. The papers
        are read in a worker of the screen (a quit stops it, and the app's work includes it),
        indexed in a daemon thread."""
        self._post = screen.post_message
        if self._stream is not None:
            screen.run_worker(self._load, name="load", group="load", thread=True, exclusive=True)
            self._indexing = in_background("index", lambda: self._index_built(self._index_loading))
        elif self.cached_index is None:
            in_background("index", lambda: self._index_built(self._index_growing))
        if (kept := self._kept) is not None:  # read whole: once the screen is drawn
            screen.call_after_refresh(in_background, "check", lambda: self._checked(kept))

    def _checked(self, kept: Path) -> None:
        """Check the files of the cache's entry the papers were read from; post what to tell
        when they are damaged (marked to be read again at the next start), which the app
        tells whatever screen is shown."""
        if told := check_kept(kept):
            self._post(CacheDamaged(told[0].upper() + told[1:]))

    def stop(self) -> None:
        """Stop loading and indexing, as the screen goes; wait a little for the indexing to
        stop its pool of processes."""
        self._stopping.set()
        stop_pools()  # a quit waited for the pieces they were reading
        if self._indexing is not None:
            self._indexing.join(self._timings.stopping_wait)

    def add(self, batches: Sequence[PaperColumns]) -> int:
        """Add papers loaded to the store (on the screen's thread); how many were new. When
        the store cannot hold them (no room for its temporary file), loading and indexing
        stop, nothing is kept in the cache, and the reader goes on with the papers it has."""
        if self._stopping.is_set():
            return 0
        startup.keep_for_good()  # papers live as long as the app
        added = 0
        for batch in batches:
            try:
                new = self.store.extend(batch)
            except ScratchError as error:
                self._stopping.set()
                stopped = f"{error}; loading stopped at {count(len(self.store), 'paper')}"
                self._post(IndexFailed(stopped))
                self._post(LoadFinished())
                return added
            added += new
            self.duplicates += len(batch) - new
        return added

    def loaded(self) -> None:
        """Every paper loaded is in the store: their messages came first."""
        self._all_loaded.set()

    def told(self) -> list[tuple[str, SeverityLevel]]:
        """What to tell of the load, once it is done: how many papers are new, how many
        duplicates it met, which records it skipped."""
        notices: list[tuple[str, SeverityLevel]] = []
        if new := self._new:
            them = "it" if new == 1 else "them"
            notices.append((f"{count(new, 'new paper')}: is:new shows {them}", "information"))
        if self.duplicates:
            notices.append(
                (f"{count(self.duplicates, 'duplicate abstract')} shown once", "information")
            )
        if problems := self.problems:
            listed = "\n".join(problems[:5]) + ("\n…" if len(problems) > 5 else "")
            skipped = count(len(problems), "record")
            notices.append((f"Skipped {skipped} that could not be read:\n{listed}", "warning"))
        return notices

    def warm(self, index: SearchEngine) -> None:
        """Make the index's tables for typos and related papers, in the background, making
        way for each search."""
        in_background("warm", lambda: index.warm(SEARCHES.make_way))

    def adopt(self, cached: IndexedPapers) -> SearchEngine | None:
        """Read the papers and their index from the cache entry just saved, by memory map,
        unless papers came since; the index to use then. The memory that loading and indexing
        took is given back."""
        try:
            self.store.adopt(cached.store)
        except ValueError:
            return None

        def warm_and_give_back() -> None:
            cached.index.warm(SEARCHES.make_way)
            startup.give_back_memory()  # what loading took and freed

        in_background("warm", warm_and_give_back)
        return cached.index

    def _load(self) -> None:
        assert self._stream is not None
        with startup.loading_turns():
            pending: list[PaperColumns] = []
            posted: float | None = None  # when papers were last posted: the first at once
            for item in self._stream:
                if self._stopping.is_set():  # the reader quits: stop reading (and its pool)
                    getattr(self._stream, "close", lambda: None)()
                    return
                if isinstance(item, str):
                    self.problems.append(item)
                    continue
                pending.append(item)
                if posted is None or time.monotonic() - posted > self._timings.post_every:
                    self._post(PapersLoaded(pending))
                    pending, posted = [], time.monotonic()
            self._post(PapersLoaded(pending))
        self._post(LoadFinished())

    def _index_growing(self) -> SearchEngine | None:
        """Index the papers there are (cached, their index to be built again), the filter
        finding among the first ones once they are indexed, then among more, as while
        papers load."""
        total, stopping = len(self.store), self._stopping.is_set
        first, growth = self._timings.first_indexed, self._timings.index_growth
        if total < growth * first:
            return build_index(self.store)
        with growing_index(total) as growing:
            upto = first
            while growth * upto <= total:
                if not growing.read(self.store, upto, stopping=stopping):
                    return None
                self._post(IndexReady(index_so_far(growing)))
                upto *= growth
            if not growing.read(self.store, total, stopping=stopping):
                return None
            return index_so_far(growing)

    def _index_loading(self) -> SearchEngine | None:
        """Index the papers as they load, on every core, each once; the filter finds among
        the first ones once they are indexed, then among more."""
        expected = self._expected_papers or sys.maxsize  # None: not known
        shown_from, growth = self._timings.first_indexed, self._timings.index_growth
        with growing_index(self._expected_papers) as growing:
            while True:
                loaded = self._all_loaded.wait(self._timings.index_poll)
                stopping = self._stopping.is_set
                if stopping() or not growing.read(
                    self.store, len(self.store), not loaded, stopping=stopping
                ):
                    return None
                if loaded:
                    break
                if growing.count >= shown_from and 2 * growing.count <= expected:
                    self._post(IndexReady(index_so_far(growing)))
                    shown_from = growth * growing.count
            return index_so_far(growing)

    def _index_built(self, build: Build) -> None:
        """Build the index of every paper (None: the reader quit first), post it, and save
        it with the papers for the next start; or tell why it could not be built."""
        try:
            index = build()
        except Exception as error:  # told, not a reader left "indexing" for good
            if not self._stopping.is_set():  # a quit, or a load that failed and was told
                self._post(IndexFailed(str(error) or type(error).__name__))
            return
        if index is None:
            return
        # The write starts before the index is posted, so that a quit as soon as it shows
        # waits for the write; the entry read back is posted after the index, in order.
        lock, held = threading.Lock(), list[EntryReopened]()
        posted = False

        def reopened(cached: IndexedPapers | None, not_kept: str) -> None:
            with lock:
                if not posted:
                    held.append(EntryReopened(cached, not_kept))
                    return
            self._post(EntryReopened(cached, not_kept))

        if self._cache_index is not None:
            self._cache_index(self.store, index, self.problems, self.duplicates, reopened)
        self._post(IndexReady(index, caching=self._cache_index is not None))
        with lock:
            posted = True
        for message in held:
            self._post(message)
