"""Reading papers from the paths the user names, or from the bundled seeds.

A file's format and reader come from the table of input formats (core.formats). What is
read is bounded, so that a small gzip file cannot take the memory or the hours its contents
would: a file read whole (a JSON array, BibTeX) holds at most MAX_TEXT_BYTES of text once
decompressed, a streaming format (JSON Lines, seed text, CSV) is read as it goes (a JSON line,
a paragraph or a CSV field holds at most 10 MB), a file holds at most MAX_RECORDS
records of which at most MAX_SKIPPED_RECORDS cannot be read (the first MAX_PROBLEMS_LISTED
are named, the rest counted), and a record met again in the same file soon after (among the
last RECENT_RECORDS) is not built into a paper again. A FIFO, device or socket is never opened.

A big file of a record a line or a paragraph (JSON Lines, arXiv's snapshot, seed text:
PROCESSES_FROM bytes or more) is cut here into pieces of whole records (its format's `Pieces`)
read by a pool of spawned processes (a program loading one guards its main module), given back
in order with their problems; the file's range for its entry is taken as it is read (`Scanning`).

Papers come as the store holds them, in batches (`PaperColumns`), made here or in the pool's
processes. Loading gives a `PaperStore`, or a stream of batches to add to one.
"""

import contextlib
import os
import pickle
from collections import OrderedDict, deque
from collections.abc import Callable, Collection, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from tui_reader.core.file_bytes import (
    CUT_HERE,
    CUT_SHORT,
    HEAD_BYTES,
    GzipError,
    cut_line,
    file_head,
    gzip_problem,
    is_gzip,
    looks_binary,
    opened,
    text_start,
)
from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.formats import (
    FormatError,
    InputFormat,
    Pieces,
    Problem,
    ReadPiece,
    Record,
    input_format,
    not_papers,
    paper_suffixes,
)
from tui_reader.core.metadata_filter import date_of, in_category, on_or_after
from tui_reader.core.paper import Paper, paper_year
from tui_reader.core.paper_columns import PaperColumns, columns_of
from tui_reader.core.pools import process_pool
from tui_reader.core.segments.ranges import Scanning
from tui_reader.core.store import PaperStore
from tui_reader.core.text import displayed
from tui_reader.core.wording import count

MB = 1_000_000
MAX_TEXT_BYTES = 250 * MB  # about 200,000 abstracts; parsed, it takes several times this
MAX_RECORDS = 5_000_000  # all of arXiv (2.7 million) with room to grow; 2.7M measured
MAX_SKIPPED_RECORDS = 100_000
MAX_PROBLEMS_LISTED = 50
RECENT_RECORDS = 10_000  # records of a file remembered, each with its paper
_CHUNK_BYTES = MB
BINARY = "is a binary file, not UTF-8 text"


class LoadError(Exception):
    """A path that cannot be read as papers; the message names the path and the problem."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{displayed(path)}: {problem}")
        self.path = path
        self.problem = problem


@dataclass
class LoadResult:
    papers: PaperStore = field(default_factory=PaperStore)
    collections: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "FILE:LINE: what", records skipped
    duplicates: int = 0  # abstracts met again after the first, which alone is loaded


class NothingAdmitted(LoadError):
    """Papers that a load's filter (`--category`, `--since`) admits none of."""


def _size(count: int) -> str:
    return f"{count / MB:g} MB"


def read_text(path: Path) -> str:
    """A file's text as UTF-8 (a BOM is allowed), or a LoadError saying why not: at most
    MAX_TEXT_BYTES, decompressed as read (a small gzip file can hold more than memory does)."""
    too_big = LoadError(
        path,
        f"holds more than {_size(MAX_TEXT_BYTES)} of text, the most read from one file of this"
        " format (JSON Lines, seed text and CSV have no such limit)",
    )
    try:
        if not is_gzip(path) and path.stat().st_size > MAX_TEXT_BYTES:
            raise too_big
        data = bytearray()  # grown a chunk at a time: read(MAX_TEXT_BYTES) allocates it all
        with opened(path) as file:
            while len(data) <= MAX_TEXT_BYTES and (chunk := file.read(_CHUNK_BYTES)):
                data += chunk
            cut = cut_line(file)  # read whole, its records are not read before the cut
    except IsADirectoryError:
        raise LoadError(path, "is a directory") from None
    except GzipError as error:
        raise LoadError(path, gzip_problem(path, error)) from None
    except OSError as error:
        raise LoadError(path, error.strerror or "cannot be read") from None
    if len(data) > MAX_TEXT_BYTES:
        raise too_big
    if cut:
        raise LoadError(path, CUT_SHORT)
    if looks_binary(bytes(data[:HEAD_BYTES])):
        raise LoadError(path, BINARY)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        problem = f"is not UTF-8 text (byte 0x{data[error.start]:02x} on line {line})"
        raise LoadError(path, problem) from None


def _is_paper_file(path: Path) -> bool:
    name = path.name.lower().removesuffix(".gz")
    return path.is_file() and name.endswith(paper_suffixes())


def paper_files(path: Path) -> list[Path]:
    """The files a path names: the file itself, or the paper files in a directory (only
    regular files: a FIFO there is passed over, named like a paper file or not)."""
    if problem := special_file_problem(path):
        raise LoadError(path, problem)
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if _is_paper_file(p))
    if not path.exists():
        raise LoadError(path, "no such file or directory")
    return [path]


def _stem(path: Path) -> str:
    return displayed(path.name.split(".")[0] or path.name)


def _paper(record: Record, path: Path, stem: str) -> Paper:
    return Paper.from_abstract(
        record.abstract,
        record.collection or stem,
        path,
        title=record.title,
        authors=record.authors,
        url=record.url,
        venue=record.venue,
        metadata=record.metadata,
        written_abstract=record.written_abstract,
        given_id=record.given_id,
    )


@contextlib.contextmanager
def _said(path: Path) -> Iterator[None]:
    """An error reading the file as a LoadError naming it (a gzip file's in words)."""
    try:
        yield
    except GzipError as error:
        raise LoadError(path, gzip_problem(path, error)) from None
    except OSError as error:
        raise LoadError(path, error.strerror or str(error) or "cannot be read") from None


def _too_many(path: Path) -> LoadError:
    most = count(MAX_RECORDS, "record")
    return LoadError(path, f"holds more than {most}, the most read from one file")


def _records(path: Path, kind: InputFormat) -> Iterator[Record | Problem]:
    """A file's records and problems, as its format's reader gives them."""
    if kind.read_stream is not None:
        with _said(path), opened(path) as file:
            yield from kind.read_stream(file)
            if cut := cut_line(file):
                yield Problem(cut, CUT_HERE)
        return
    assert kind.read_text is not None
    text = read_text(path)
    if kind.records_at_most is not None and kind.records_at_most(text) > MAX_RECORDS:
        raise _too_many(path)
    yield from kind.read_text(text)


@dataclass(frozen=True)
class LoadFilter:
    """Which records a load admits (`--category`, `--since`): those in any of the categories
    (or their archives: `cs`), first published on or after `since`; a record without the
    field is left out. Records left out do not count towards MAX_RECORDS."""

    categories: tuple[str, ...] = ()
    since: str = ""  # YYYY, YYYY-MM or YYYY-MM-DD

    def admits(self, record: Record) -> bool:
        metadata = record.metadata
        if self.categories:
            categories = metadata.get("categories", ())
            if not any(in_category(categories, name) for name in self.categories):
                return False
        if self.since:
            year = paper_year(metadata.get("year"), record.venue)
            date = date_of(metadata.get("published", ""), year)
            return on_or_after(date, self.since)
        return True


NO_FILTER = LoadFilter()


def iter_file(
    path: Path,
    load_filter: LoadFilter = NO_FILTER,
    start: int = 0,
    line: int = 1,
    end: int | None = None,
) -> Iterator[PaperColumns | str]:
    """A file's papers (those `load_filter` admits) in batches, and a "FILE:LINE: problem"
    for each record skipped (MAX_PROBLEMS_LISTED, then one line counting the rest); a
    LoadError after the papers read before it. From byte `start` (line `line`, where records
    were appended: `Pieces.from_any_line`) to byte `end` (None: the end), read in this process."""
    skipped = number = 0
    try:
        for item in _built(path, load_filter, start, line, end):
            if isinstance(item, Problem):
                skipped += 1
                if skipped > MAX_SKIPPED_RECORDS:
                    many = f"more than {MAX_SKIPPED_RECORDS:,}"
                    raise LoadError(path, f"{many} of its records cannot be read")
                if skipped <= MAX_PROBLEMS_LISTED:
                    yield f"{displayed(path)}:{item.line}: {item.message}"
                continue
            number += len(item)
            if number > MAX_RECORDS:  # those up to the most first, as one by one
                if within := len(item) - (number - MAX_RECORDS):
                    yield item.taking(range(within))
                raise _too_many(path)
            yield item
    except FormatError as error:
        raise LoadError(path, str(error)) from None
    if skipped > MAX_PROBLEMS_LISTED:
        more = count(skipped - MAX_PROBLEMS_LISTED, "more record")
        yield f"{displayed(path)}: {more} that could not be read"


def _built(
    path: Path, load_filter: LoadFilter, start: int = 0, line: int = 1, end: int | None = None
) -> Iterator[PaperColumns | Problem]:
    """A file's papers (those `load_filter` admits) in batches, and its problems, in order: a
    big file of a record a line or a paragraph read on every core; from byte `start` on, here."""
    head = file_head(path)
    if looks_binary(head):
        raise LoadError(path, BINARY)
    text = text_start(head)
    kind = input_format(path.name, text)
    if end is not None and end >= path.stat().st_size:
        end = None
    if start or end is not None:
        if kind.pieces is None or not kind.pieces.from_any_line:
            raise LoadError(path, f"cannot be read from byte {start} to {end}")
        records = _records_after(path, kind.pieces, text, start, line, end)
        yield from _batched(_papers(records, path, load_filter, OrderedDict()))
    elif kind.pieces is not None and _worth_processes(path):
        yield from _built_apart(path, kind.pieces, text, load_filter)
    else:
        yield from _batched(_papers(_records(path, kind), path, load_filter, OrderedDict()))


def _records_after(
    path: Path, cutting: Pieces, text: str, start: int, line: int, end: int | None
) -> Iterator[Record | Problem]:
    """The records and problems of a file from byte `start` (line `line`) to byte `end`."""
    read = cutting.reader(text)
    with _said(path), opened(path, start, end) as file:
        for piece in cutting.cut(file, _PIECE_BYTES):
            if isinstance(piece, Problem):
                yield Problem(piece.line + line - 1, piece.message)
            else:
                yield from read(piece[0], piece[1] + line - 1)
        if cut := cut_line(file):
            yield Problem(cut + line - 1, CUT_HERE)


def _papers(
    items: Iterable[Record | Problem],
    path: Path,
    load_filter: LoadFilter,
    recent: OrderedDict[Record, Paper],
) -> Iterator[Paper | Problem]:
    """The papers of the records `load_filter` admits, and the problems; `recent` holds the
    records read last with their papers, so that one repeated soon after is built once."""
    filtering = load_filter != NO_FILTER
    stem = _stem(path)  # the collection of a paper whose record names none
    for item in items:
        if isinstance(item, Problem):
            yield item
            continue
        if filtering and not load_filter.admits(item):
            continue
        paper = recent.get(item)
        if paper is None:
            if len(recent) >= RECENT_RECORDS:  # not all: they would hold every paper
                recent.popitem(last=False)  # O(1): a dict's first key is sought past the deleted
            paper = recent[item] = _paper(item, path, stem)
        yield paper


BATCH = 1000  # papers a batch
FIRST_BATCH = 100  # small, so that the first papers are on screen at once


def _batched(items: Iterable[Paper | Problem]) -> Iterator[PaperColumns | Problem]:
    """The papers in batches (FIRST_BATCH of them first, then BATCH), the problems as they
    come; the papers read before a LoadError or FormatError are given before it."""
    papers: list[Paper] = []
    size = FIRST_BATCH
    try:
        for item in items:
            if isinstance(item, Problem):
                yield item
                continue
            papers.append(item)
            if len(papers) >= size:
                yield columns_of(papers)
                papers, size = [], BATCH
    except (LoadError, FormatError):
        if papers:
            yield columns_of(papers)
        raise
    if papers:
        yield columns_of(papers)


PROCESSES_FROM = 16 * MB  # a smaller file is read in this process: a pool costs a second
# Text read by a process at once: about 300 papers. Bigger pieces, once freed, raise glibc's
# mmap threshold and the next ones fragment the heap between the store's chunks.
_PIECE_BYTES = 400_000
# In a process of the pool (one file's), as `_papers` takes it.
_recent_here: OrderedDict[Record, Paper] = OrderedDict()
Piece = tuple[bytes, str]  # what a process read, pickled, and why it stopped ("")


def _worth_processes(path: Path) -> bool:
    try:
        return (os.cpu_count() or 1) > 1 and path.stat().st_size >= PROCESSES_FROM
    except OSError:
        return False


def _built_apart(
    path: Path, cutting: Pieces, start: str, load_filter: LoadFilter
) -> Iterator[PaperColumns | Problem]:
    """What `_papers` gives for a file of a record a line (or a paragraph), its pieces read
    by a pool of processes, a few at a time, and given back in order. The first piece is
    read here, while the pool starts, so that the first papers come at once."""
    processes = os.cpu_count() or 1
    read = cutting.reader(start)
    pieces = _pieces(path, cutting)
    pool: ProcessPoolExecutor | None = None
    with contextlib.suppress(OSError):  # no semaphores, say: the pieces are read here
        pool = process_pool(processes)
    pending: deque[Future[Piece] | Problem | LoadError] = deque()
    recent_here: OrderedDict[Record, Paper] = OrderedDict()  # this file's pieces read here

    def read_apart(piece: tuple[bytes, int]) -> Future[Piece]:
        nonlocal pool
        if pool is not None:
            try:
                return pool.submit(_read_piece, read, *piece, path, load_filter)
            except (OSError, BrokenProcessPool):  # its processes could not start
                pool.shutdown(wait=False, cancel_futures=True)
                pool = None
        here: Future[Piece] = Future()
        here.set_result(_read_piece(read, *piece, path, load_filter, recent_here))
        return here

    def submit() -> None:
        while len(pending) < 2 * processes:
            piece: tuple[bytes, int] | Problem | LoadError | None
            try:
                piece = next(pieces, None)
            except LoadError as error:  # raised in its turn, after the papers read before it
                piece = error
            if piece is None:
                return
            if isinstance(piece, Problem | LoadError):
                pending.append(piece)
            else:
                pending.append(read_apart(piece))

    try:
        first = next(pieces, None)
        if isinstance(first, Problem):
            yield first
        elif first is not None:
            for item in _batched(_papers(read(*first), path, load_filter, OrderedDict())):
                yield item
                submit()  # the first papers are on their way: start the pool
        submit()
        while pending:
            entry = pending.popleft()
            submit()
            yield from _given_back(entry, path)
    finally:
        pieces.close()
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def _given_back(
    entry: "Future[Piece] | Problem | LoadError", path: Path
) -> Iterator[PaperColumns | Problem]:
    """What a piece read apart gives, in its turn: its papers and problems; a problem met
    cutting the file; LoadError when the file could not be read past it."""
    if isinstance(entry, LoadError):
        raise entry
    if isinstance(entry, Problem):
        yield entry
        return
    try:
        items, stopped = entry.result()
    except BrokenProcessPool:
        raise LoadError(path, "a process reading it stopped") from None
    # Unpickled here, not in the pool's thread, so the papers are made where they are used
    # (bytes from our own processes, never from a file).
    columns, problems = pickle.loads(items)
    if len(columns):
        yield columns
    yield from problems
    if stopped:
        raise FormatError(None, stopped)


def _pieces(path: Path, cutting: Pieces) -> Generator[tuple[bytes, int] | Problem, None, None]:
    with _said(path), path.open("rb") as raw:  # read whole, its range is kept for its entry
        scanning = Scanning(path, raw, is_gzip(path))
        yield from cutting.cut(scanning.text(), _PIECE_BYTES)
        if cut := scanning.cut():
            yield Problem(cut, CUT_HERE)
        scanning.done()


def _read_piece(
    read: ReadPiece,
    data: bytes,
    number: int,
    path: Path,
    load_filter: LoadFilter,
    recent: OrderedDict[Record, Paper] | None = None,
) -> Piece:
    """In a process of the pool (or here, with `recent` of this file, when no pool could
    start): the papers of whole records of a file, the first of them on line `number`, and the
    problems, pickled, and why the file cannot be read past them ("" when
    it can). The papers are sent as the store's columns: the loading process adds them as
    they are (it unpickled and built each paper, and took it apart again into columns: 21
    µs a paper, the half of its time)."""
    papers: list[Paper] = []
    problems: list[Problem] = []
    stopped = ""
    try:
        for item in _papers(
            read(data, number), path, load_filter, _recent_here if recent is None else recent
        ):
            if isinstance(item, Problem):
                problems.append(item)
            else:
                papers.append(item)
    except FormatError as error:  # not sent as itself: it is not pickled whole
        stopped = str(error)
    return pickle.dumps((columns_of(papers), problems), pickle.HIGHEST_PROTOCOL), stopped


def load_paths(
    paths: Iterable[Path],
    load_filter: LoadFilter = NO_FILTER,
    only: Collection[Path] | None = None,
    grown: Callable[[PaperStore], object] = lambda _: None,
) -> LoadResult:
    """Load every paper the paths name into a store, each paper once (the first place it
    appears wins): what stream_papers gives, collected; of a folder's files, those in `only`
    when given (`check_paths` passed over the others); `grown` is given the store each time
    papers are added (to index them as the rest load). The collections met, the problems,
    and how many papers were met again come with it. Raises LoadError for a path that does
    not exist, cannot be decoded, or holds no papers; filtered, NothingAdmitted only when
    none of the paths holds one the filter admits (one of several may hold none)."""
    store = PaperStore()
    with store.closed_if_failing():  # its temporary files closed at once
        collections: list[str] = []  # of every paper met, those met again too
        problems: list[str] = []
        duplicates = 0
        admitted = False  # papers the filter admits, from any path
        named = list(paths)
        for path in named:
            found = 0
            files = [file for file in paper_files(path) if only is None or file in only]
            first_problem = len(problems)
            for item in stream_papers(files, raising=True, load_filter=load_filter):
                if isinstance(item, str):
                    problems.append(item)
                    continue
                found += len(item)
                for collection in dict.fromkeys(item.collections):
                    if collection not in collections:
                        collections.append(collection)
                duplicates += len(item) - store.extend(item)
                grown(store)
            admitted = admitted or bool(found)
            if not found and load_filter == NO_FILTER:
                none = "holds no papers" if path.is_dir() else "holds no abstracts"
                if first_problem < len(problems):
                    none += f" that can be read ({problems[first_problem]})"
                raise LoadError(path, none)
        if named and not admitted and load_filter != NO_FILTER:
            others = " (nor do the other paths)" if len(named) > 1 else ""
            asked = f"holds no papers of the categories or dates asked for{others}"
            raise NothingAdmitted(named[0], asked)
        store.collections = collections
        return LoadResult(store, collections, problems, duplicates)


def check_paths(
    paths: Iterable[Path], origin: str = "", passed_over: list[str] | None = None
) -> list[Path]:
    """The files to read, after a quick look that each exists and is text (LoadError if not).

    Used before loading in the background, where a bad file could only be reported late.
    `origin` says where the paths were named ("paths in FILE, line 3"), told with a problem.
    With `passed_over`, a bad file found in a folder is told there ("FILE: why") and the
    folder's other files are read; a folder of none but bad files is still a LoadError.
    """
    try:
        return _check_paths(paths, passed_over)
    except LoadError as error:
        if not origin:
            raise
        raise LoadError(error.path, f"{error.problem} (from {origin})") from None


def _check_paths(paths: Iterable[Path], passed_over: list[str] | None) -> list[Path]:
    files = []
    for path in paths:
        found = paper_files(path)
        if not found:
            raise LoadError(path, "holds no papers")
        good, bad = [], []
        for file in found:
            try:
                _check_file(file)
                good.append(file)
            except LoadError as error:
                if passed_over is None or file == path:
                    raise
                bad.append(error)
        if not good:  # none of the folder's files
            raise bad[0]
        files += good
        if passed_over is not None:
            passed_over += [str(error) for error in bad]
    return files


def _check_file(file: Path) -> None:
    """LoadError when the file cannot be read, is binary, a library, or a bad `.gz`."""
    with _said(file), opened(file) as handle:
        head = handle.read(HEAD_BYTES)
    if looks_binary(head):
        raise LoadError(file, BINARY)
    if (kind := not_papers(head)) is not None:
        raise LoadError(file, kind)


def stream_papers(
    files: Iterable[Path], *, raising: bool = False, load_filter: LoadFilter = NO_FILTER
) -> Iterator[PaperColumns | str]:
    """Papers in batches, for loading in the background; a problem is a "FILE: what" string:
    a record skipped, or a file that cannot be read (LoadError instead with `raising`)."""
    for file in files:
        try:
            yield from iter_file(file, load_filter)
        except LoadError as error:
            if raising:
                raise
            yield str(error)
