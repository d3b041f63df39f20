"""Which way the papers of a run are opened, decided in one place for the reader and the
commands for scripts:

- loaded: read from their files now (and indexed now, when asked);
- cached: the papers and their index opened from the cache (core.index_cache) by memory map;
- cached papers: the papers from the cache without their index (a command that does not
  search needs none; the reader builds one of another version again);
- streamed: read in the background while the reader shows the first ones.

A filtered load (`--category`, `--since`) is kept as an entry of its own, the papers the filter
admits (core.segments.filtered), opened and brought up to date as any is. The reader opens an
input from the cache, small or big, filtered or not, so that `is:new` finds the papers it took
in since it was last opened; an input not kept yet it
loads now when it is small and streams when it is big, builds the index itself, and the
papers and index are written to the cache once it is built (`CacheWriter`). A command opens
every input at once, from the cache when it can; one that searches needs the index, which
is built and written to the cache with the papers when the cache has none.
"""

import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

from tui_reader.core.engine import SearchEngine
from tui_reader.core.expected_papers import expected_papers
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.index_cache import (
    IndexedPapers,
    cached_papers,
    discard_prepared,
    load_cached,
    preparing_entry,
    write_entry,
    write_entry_in_background,
)
from tui_reader.core.library import Library
from tui_reader.core.loading import (
    NO_FILTER,
    LoadError,
    LoadFilter,
    LoadResult,
    load_paths,
    stream_papers,
)
from tui_reader.core.paper_columns import PaperColumns
from tui_reader.core.resolve import resolving, show_resolutions
from tui_reader.core.search_service import build_index, growing_index, index_so_far
from tui_reader.core.segments.ranges import OtherVersion
from tui_reader.core.segments.whole import FilesRead
from tui_reader.core.session import Session
from tui_reader.core.store import PaperStore


class Way(Enum):
    """The ways of opening, as the module's docstring tells them."""

    LOADED = "loaded"
    CACHED = "cached"
    CACHED_PAPERS = "cached papers"
    STREAMED = "streamed"


class CacheWriter:
    """Writes the papers of these files (those `load_filter` admits) and their index to the
    cache, each time it is called (by the reader, once it has built the index), in a thread
    of its own (`index_cache.write_entry_in_background`), then gives the entry read back to
    `reopened`, with why the cache could not take it (or ""), which it keeps as `not_kept`
    for a write that ends once the reader has closed."""

    def __init__(self, files: Sequence[Path], load_filter: LoadFilter = NO_FILTER) -> None:
        self.files = list(files)
        self.load_filter = load_filter
        self._writes: list[threading.Thread] = []
        self.not_kept = ""

    def __call__(
        self,
        store: PaperStore,
        index: SearchEngine,
        problems: Sequence[str],
        duplicates: int,
        reopened: Callable[[IndexedPapers | None, str], object],
    ) -> None:
        def told(kept: IndexedPapers | None, not_kept: str) -> None:
            self.not_kept = not_kept
            reopened(kept, not_kept)

        write = write_entry_in_background(
            self.files, store, index, problems, duplicates, told, self.load_filter
        )
        self._writes.append(write)

    def unfinished(self) -> threading.Thread | None:
        """The last write, while it goes on."""
        if self._writes and self._writes[-1].is_alive():
            return self._writes[-1]
        return None


@dataclass(frozen=True)
class Opening:
    """The papers opened and what comes with them. The reader's command adds what the reader
    is given besides: the problems to show at start and where it left off."""

    store: PaperStore  # the papers read so far: all of them, unless `stream`
    way: Way = Way.LOADED
    index: SearchEngine | None = None  # of the store's papers, when cached or built now
    stream: Iterator[PaperColumns | str] | None = None  # the papers (and problems) still to read
    expected: int | None = None  # about how many papers the stream holds (None: not known)
    duplicates: int = 0  # abstracts met again and shown once
    skipped: Sequence[str] = ()  # "FILE:LINE: what" of the records that could not be read
    cache_problems: Sequence[str] = ()  # why the cache's entry for the files was not used
    cache_writer: CacheWriter | None = None  # writes the papers and index once built
    messages: Sequence[str] = ()  # the reader's problems at start, shown together
    session: Session | None = None  # where the reader left off
    collection: str = ""  # what was opened (session.inputs_of): a triage's places are its own
    new: int = 0  # papers new to the collection kept (`is:new`), to be told at start
    new_at: float = 0.0  # when they were taken in (0.0: never)
    kept: Path | None = None  # the cache's entry they were read from, checked as the reader runs
    # The files read, as named now: a cache's entry names its papers' files as they were named
    # when it was made (`../refs.bib` from another folder), which no export may replace.
    files: Sequence[Path] = ()


def open_papers(
    paths: Sequence[Path],
    files: Sequence[Path],
    load_filter: LoadFilter = NO_FILTER,
    *,
    indexed: bool = False,
    stream_from: int | None = None,
    taking_in: Callable[[int], object] | None = None,
    passed_over: list[str] | None = None,
) -> Opening:
    """The papers the paths name, of these files (`loading.check_paths` gave them: a
    folder's bad files passed over), those `load_filter` admits. `indexed`: with their index, built
    now when none was cached. `stream_from` (the reader's): an input is opened from the
    cache, else loaded now, or streamed when it has more bytes; `taking_in` is told about how
    many papers the entry of such a big input takes in, before it reads them.
    LoadError for a path that cannot be read, NothingAdmitted when `load_filter` admits no paper.
    With `passed_over`, a folder's file found bad as it is read (a gzip file damaged past its
    start) is told there and the folder's other files are opened without it."""
    while True:
        try:
            opening = _open_papers(paths, files, load_filter, indexed, stream_from, taking_in)
            return replace(opening, files=tuple(files))
        except LoadError as error:
            if passed_over is None or error.path in paths or len(files) < 2:
                raise
            passed_over.append(str(error))
            files = [file for file in files if file != error.path]


def _open_papers(
    paths: Sequence[Path],
    files: Sequence[Path],
    load_filter: LoadFilter,
    indexed: bool,
    stream_from: int | None,
    taking_in: Callable[[int], object] | None,
) -> Opening:
    if stream_from is not None:
        big = sum(file.stat().st_size for file in files) > stream_from
        return _for_the_reader(paths, files, load_filter, big, taking_in if big else None)
    if indexed:
        return _cached_or_indexed(paths, files, load_filter)
    checked: list[str] = []  # the entry's damage found by its digests, said
    if cached := cached_papers(files, load_filter, checked):  # a million loaded took minutes
        return replace(_opening(cached[1], Way.CACHED_PAPERS), cache_problems=checked)
    return replace(_loaded(paths, files, load_filter), cache_problems=checked)


def _loaded(
    paths: Sequence[Path],
    files: Sequence[Path],
    load_filter: LoadFilter = NO_FILTER,
    indexed: bool = False,
) -> Opening:
    loaded = load_paths(paths, load_filter, set(files))
    index = build_index(loaded.papers) if indexed else None
    return _opening(loaded, Way.LOADED, index)


def _opening(loaded: LoadResult, way: Way, index: SearchEngine | None = None) -> Opening:
    return Opening(loaded.papers, way, index, duplicates=loaded.duplicates, skipped=loaded.problems)


def _unusable(reasons: list[Exception], what: str, instead: str) -> list[str]:
    return [
        f"the {what} kept in the cache were read by another version of tui-reader: {instead}"
        if isinstance(why, OtherVersion)
        else f"the {what} kept in the cache could not be used ({why}): {instead}"
        for why in reasons
    ]


def _cached_or_indexed(
    paths: Sequence[Path], files: Sequence[Path], load_filter: LoadFilter
) -> Opening:
    """The papers (those the filter admits) and their index from the cache (an index of
    another version built again and written to the entry), else loaded, indexed and written
    to the cache."""
    reasons: list[Exception] = []
    checked: list[str] = []  # the entry's damage found by its digests, said
    # A cache folder that cannot take the entry brought up to date is told by the write of
    # the whole entry below, which it cannot take either.
    cached = load_cached(
        files, unusable=reasons, update_at_most=None, load_filter=load_filter, checked=checked
    )
    if cached is not None:
        opening = _opening(cached.loaded, Way.CACHED, cached.index)
        told = [cached.unusable] if cached.unusable else []
        return replace(opening, cache_problems=checked + told)
    loaded, index, read = _loaded_and_indexed(paths, files, load_filter)
    indexed = IndexedPapers(loaded, index, loaded.papers)
    not_kept: list[str] = []
    write_entry(files, indexed, load_filter=load_filter, read=read, not_kept=not_kept)
    opening = _opening(loaded, Way.LOADED, indexed.index)
    told = checked + _unusable(reasons, "papers", "loaded anew") + not_kept
    return replace(opening, cache_problems=told)


def _loaded_and_indexed(
    paths: Sequence[Path], files: Sequence[Path], load_filter: LoadFilter
) -> tuple[LoadResult, FlatIndex, FilesRead | None]:
    """The papers of these files (those the filter admits) and their index, each chunk of
    papers indexed in a thread as soon as it is loaded, as the reader does: loaded first and
    indexed after, a cold build kept a core idle for much of its time; indexed by the loading
    thread, each wait for a chunk's index held the loading pool up (benchmarks/RESULTS.md).
    With them, the files as the entry keeps them, read while the index's arrays are made."""
    with growing_index(expected_papers(files)) as growing:
        grown: queue.SimpleQueue[PaperStore | None] = queue.SimpleQueue()
        failed: list[BaseException] = []
        unwanted = threading.Event()  # the load failed or was interrupted: index no more

        def index() -> None:
            try:
                while (store := grown.get()) is not None:
                    growing.read(store, len(store), True, stopping=unwanted.is_set)
            except BaseException as error:  # raised by the loading thread, once loaded
                failed.append(error)

        indexing = threading.Thread(target=index, daemon=True)
        indexing.start()
        try:
            loaded = load_paths(paths, load_filter, only=set(files), grown=grown.put)
        except BaseException:
            unwanted.set()
            raise
        finally:
            grown.put(None)
            indexing.join()
        if failed:
            raise failed[0]
        growing.read(loaded.papers, len(loaded.papers))
        read = preparing_entry(files, loaded.papers)
        try:
            return loaded, index_so_far(growing), read()
        except BaseException:  # Ctrl-C, say: what was prepared for the entry is not kept
            discard_prepared(read)
            raise


def _for_the_reader(
    paths: Sequence[Path],
    files: Sequence[Path],
    load_filter: LoadFilter,
    big: bool,
    taking_in: Callable[[int], object] | None,
) -> Opening:
    """An input for the reader (the papers the filter admits): from the cache, with its index
    or without it (built again while the reader runs), else loaded now, or streamed when it
    is big; written to the cache once indexed."""
    reasons: list[Exception] = []  # why the cache's entry for these files could not be used
    writer = CacheWriter(files, load_filter)  # its write tells of a cache that refuses an update
    cached = load_cached(files, False, reasons, taking_in=taking_in, load_filter=load_filter)
    if cached is not None:
        opening = _opening(cached.loaded, Way.CACHED, cached.index)
        new = len(cached.index.new) if isinstance(cached.index, FlatIndex) else 0
        return replace(opening, new=new, new_at=cached.new_at, kept=cached.folder)
    if papers := cached_papers(files, load_filter):
        opening = _opening(papers[1], Way.CACHED_PAPERS)
        told = _unusable(reasons, "index", "indexing again")
        return replace(opening, cache_problems=told, cache_writer=writer)
    # Papers kept by another version are read again as the reader runs: no problem to tell.
    faults = [reason for reason in reasons if not isinstance(reason, OtherVersion)]
    told = _unusable(faults, "papers", "loading them anew")
    if not big:
        return replace(_loaded(paths, files, load_filter), cache_problems=told, cache_writer=writer)
    return Opening(
        PaperStore(),
        Way.STREAMED,
        stream=stream_papers(files, load_filter=load_filter),
        expected=expected_papers(files),  # at most that many, when filtered
        cache_problems=told,
        cache_writer=writer,
    )


def resolved(opening: Opening, library: Library) -> Opening:
    """The opening, each paper resolve found shown with what it found: those read now at
    once, those streamed as they come."""
    if opening.stream is None:
        show_resolutions(opening.store, library)
        return opening
    return replace(opening, stream=resolving(opening.stream, library))
