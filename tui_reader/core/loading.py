"""Reading papers from the paths the user names, or from the bundled seeds.

What is read is bounded: a file read whole (seed text, a JSON array, CSV, BibTeX) holds at
most MAX_TEXT_BYTES of text once decompressed, JSON Lines is read a line at a time and a
line holds at most MAX_LINE_BYTES, and a file's skipped records are named up to
MAX_PROBLEMS_LISTED, the rest counted. A FIFO, device or socket is never opened.
"""

import codecs
import gzip
import io
import itertools
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.formats import READERS, FormatError, Problem, Record, read_json_line, sniff
from tui_reader.core.paper import Paper
from tui_reader.core.seeds import parse_seed_text
from tui_reader.core.wording import count

SUFFIXES = (".txt", ".jsonl", ".ndjson", ".json", ".csv", ".bib")
MB = 1_000_000
MAX_TEXT_BYTES = 250 * MB  # about 200,000 abstracts; parsed, it takes several times this
MAX_LINE_BYTES = 10 * MB
MAX_PROBLEMS_LISTED = 50


class LoadError(Exception):
    """A path that cannot be read as papers; the message names the path and the problem."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


@dataclass
class LoadResult:
    papers: list[Paper] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "FILE:LINE: what", records skipped
    duplicates: int = 0  # abstracts met again after the first, which alone is kept


def _size(count: int) -> str:
    return f"{count / MB:g} MB"


def read_text(path: Path) -> str:
    """A file's text as UTF-8 (a BOM is allowed), or a LoadError saying why not.

    At most MAX_TEXT_BYTES are read, decompressing as it goes: a small gzip file can hold
    more text than fits in memory.
    """
    too_big = LoadError(
        path,
        f"holds more than {_size(MAX_TEXT_BYTES)} of text, the most read from one file of this"
        " format (JSON Lines has no such limit)",
    )
    try:
        if not _is_gzip(path) and path.stat().st_size > MAX_TEXT_BYTES:
            raise too_big
        with _open(path) as file:
            data = file.read(MAX_TEXT_BYTES + 1)
    except IsADirectoryError:
        raise LoadError(path, "is a directory") from None
    except (gzip.BadGzipFile, EOFError, zlib.error):
        raise LoadError(path, "is not a valid gzip file") from None
    except OSError as error:
        raise LoadError(path, error.strerror or "cannot be read") from None
    if len(data) > MAX_TEXT_BYTES:
        raise too_big
    if b"\x00" in data:
        raise LoadError(path, "is a binary file, not UTF-8 text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        problem = f"is not UTF-8 text (byte 0x{data[error.start]:02x} on line {line})"
        raise LoadError(path, problem) from None


def _is_paper_file(path: Path) -> bool:
    name = path.name.lower().removesuffix(".gz")
    return path.is_file() and name.endswith(SUFFIXES)


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
    return path.name.split(".")[0] or path.name


def _paper(record: Record, collection: str, path: Path) -> Paper:
    return Paper.from_abstract(
        record.abstract,
        collection,
        path,
        title=record.title,
        authors=record.authors,
        url=record.url,
        venue=record.venue,
    )


def _is_gzip(path: Path) -> bool:
    return path.name.lower().endswith(".gz")


def _open(path: Path) -> io.BufferedIOBase:
    """The file's bytes, read through gzip when its name ends in .gz."""
    return gzip.open(path, "rb") if _is_gzip(path) else path.open("rb")


def _json_lines(path: Path) -> Iterator[Record | Problem]:
    """A JSON Lines file's records, read a line at a time (a big file's first papers come at
    once); a line over MAX_LINE_BYTES is skipped without being held."""
    try:
        with _open(path) as file:
            for number in itertools.count(1):
                line = file.readline(MAX_LINE_BYTES + 1)
                if not line:
                    return
                if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                    while line and not line.endswith(b"\n"):
                        line = file.readline(MB)
                    size = _size(MAX_LINE_BYTES)
                    yield Problem(number, f"longer than the {size} a line may take")
                    continue
                if number == 1:
                    line = line.removeprefix(codecs.BOM_UTF8)
                try:
                    text = line.decode("utf-8")
                except UnicodeDecodeError as error:
                    problem = f"is not UTF-8 text (byte 0x{line[error.start]:02x} on line {number})"
                    raise LoadError(path, problem) from None
                if item := read_json_line(text, number):
                    yield item
    except (OSError, EOFError, zlib.error) as error:
        raise LoadError(path, str(error) or "cannot be read") from None


def _start(path: Path) -> str:
    """The first few kilobytes of a file's text, to tell its format."""
    try:
        with _open(path) as file:
            return file.read(4096).decode("utf-8", errors="ignore")
    except (OSError, EOFError, zlib.error):
        return ""


def iter_file(path: Path) -> Iterator[Paper | str]:
    """A file's papers, in order, and a "FILE:LINE: problem" for each record it skips (the
    first MAX_PROBLEMS_LISTED, then one line counting the rest)."""
    items: Iterable[Record | Problem]
    if sniff(path.name, _start(path)) == "jsonl":
        items = _json_lines(path)
    else:
        text = read_text(path)
        kind = sniff(path.name, text)
        if kind == "txt":
            collection, abstracts = parse_seed_text(text)
            for abstract in abstracts:
                yield Paper.from_abstract(abstract, collection or _stem(path), path)
            return
        items = READERS[kind](text)
    skipped = 0
    try:
        for item in items:
            if isinstance(item, Record):
                yield _paper(item, _stem(path), path)
                continue
            skipped += 1
            if skipped <= MAX_PROBLEMS_LISTED:
                yield f"{path}:{item.line}: {item.message}"
    except FormatError as error:
        raise LoadError(path, str(error)) from None
    if skipped > MAX_PROBLEMS_LISTED:
        more = count(skipped - MAX_PROBLEMS_LISTED, "more record")
        yield f"{path}: {more} that could not be read"


def load_paths(paths: Iterable[Path]) -> LoadResult:
    """Load every paper the paths name, each paper once (the first place it appears wins).

    Raises LoadError for a path that does not exist, cannot be decoded, or holds no papers.
    """
    result = LoadResult()
    seen: set[str] = set()
    for path in paths:
        found = 0
        for file in paper_files(path):
            for item in iter_file(file):
                if isinstance(item, str):
                    result.problems.append(item)
                    continue
                found += 1
                if item.collection not in result.collections:
                    result.collections.append(item.collection)
                if item.id not in seen:
                    seen.add(item.id)
                    result.papers.append(item)
                else:
                    result.duplicates += 1
        if not found:
            raise LoadError(path, "holds no papers" if path.is_dir() else "holds no abstracts")
    return result


BATCH = 1000
FIRST_BATCH = 100  # small, so that the first papers are on screen at once


def check_paths(paths: Iterable[Path], origin: str = "") -> list[Path]:
    """The files to read, after a quick look that each exists and is text (LoadError if not).

    Used before loading in the background, where a bad file could only be reported late.
    `origin` says where the paths were named ("paths in FILE, line 3"), told with a problem.
    """
    try:
        return _check_paths(paths)
    except LoadError as error:
        if not origin:
            raise
        raise LoadError(error.path, f"{error.problem} (from {origin})") from None


def _check_paths(paths: Iterable[Path]) -> list[Path]:
    files = []
    for path in paths:
        found = paper_files(path)
        if not found:
            raise LoadError(path, "holds no papers")
        for file in found:
            try:
                with file.open("rb") as handle:
                    start = handle.read(8192)
            except OSError as error:
                raise LoadError(file, error.strerror or "cannot be read") from None
            if not file.name.lower().endswith(".gz") and b"\x00" in start:
                raise LoadError(file, "is a binary file, not UTF-8 text")
        files += found
    return files


def stream_papers(files: Iterable[Path], batch: int = BATCH) -> Iterator[list[Paper] | str]:
    """Papers in batches, for loading in the background; a problem is a "FILE: what" string."""
    pending: list[Paper] = []
    size = FIRST_BATCH
    for file in files:
        try:
            for item in iter_file(file):
                if isinstance(item, str):
                    yield item
                    continue
                pending.append(item)
                if len(pending) >= size:
                    yield pending
                    pending, size = [], batch
        except LoadError as error:
            yield str(error)
    if pending:
        yield pending
