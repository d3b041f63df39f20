"""Reading papers from the paths the user names, or from the bundled seeds.

What is read is bounded, so that a small gzip file cannot take the memory or the hours its
contents would: a file read whole (seed text, a JSON array, CSV, BibTeX) holds at most
MAX_TEXT_BYTES of text once decompressed, JSON Lines is read as it goes and a line holds at
most MAX_LINE_BYTES, a file holds at most MAX_RECORDS records of which at most
MAX_SKIPPED_RECORDS cannot be read (the first MAX_PROBLEMS_LISTED are named, the rest
counted), and a record met again in the same file is not built into a paper again. A FIFO,
device or socket is never opened.
"""

import codecs
import gzip
import io
import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.formats import READERS, FormatError, Problem, Record, read_json_line, sniff
from tui_reader.core.paper import Paper
from tui_reader.core.seeds import iter_seed_text
from tui_reader.core.wording import count

SUFFIXES = (".txt", ".jsonl", ".ndjson", ".json", ".csv", ".bib")
MB = 1_000_000
MAX_TEXT_BYTES = 250 * MB  # about 200,000 abstracts; parsed, it takes several times this
MAX_LINE_BYTES = 10 * MB
MAX_RECORDS = 2_000_000  # twice the largest corpus measured (benchmarks/RESULTS.md)
MAX_SKIPPED_RECORDS = 100_000
MAX_PROBLEMS_LISTED = 50
_CHUNK_BYTES = MB
# A line holding more than blanks: runs of blank lines are passed over by `re`, not a line
# at a time in Python (a gzip file of newlines would take hours).
_CONTENT_LINE = re.compile(rb"^[^\n]*\S[^\n]*", re.MULTILINE)


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
        data = bytearray()  # grown a chunk at a time: read(MAX_TEXT_BYTES) allocates it all
        with _open(path) as file:
            while len(data) <= MAX_TEXT_BYTES and (chunk := file.read(_CHUNK_BYTES)):
                data += chunk
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


def _numbered(data: bytes, end: int, number: int) -> Iterator[tuple[int, bytes | None]]:
    """The lines holding more than blanks in data[:end], which begins on line `number`."""
    counted = 0
    for match in _CONTENT_LINE.finditer(data, 0, end):
        number += data.count(b"\n", counted, match.start())
        counted = match.start()
        yield number, match[0] if len(match[0]) <= MAX_LINE_BYTES else None


def _content_lines(file: io.BufferedIOBase) -> Iterator[tuple[int, bytes | None]]:
    """Each line holding more than blanks, with its number, read a chunk at a time; None in
    place of a line longer than MAX_LINE_BYTES, which is dropped as it is read."""
    number, carry, dropping = 1, b"", False
    while chunk := file.read(_CHUNK_BYTES):
        if dropping:
            end = chunk.find(b"\n")
            if end < 0:
                continue
            chunk, number, dropping = chunk[end + 1 :], number + 1, False
        data = carry + chunk
        cut = data.rfind(b"\n") + 1
        yield from _numbered(data, cut, number)
        number += data.count(b"\n", 0, cut)
        carry = data[cut:]
        if len(carry) > MAX_LINE_BYTES:
            yield number, None
            carry, dropping = b"", True
    yield from _numbered(carry, len(carry), number)


def _json_lines(path: Path) -> Iterator[Record | Problem]:
    """A JSON Lines file's records, read as it goes (a big file's first papers come at once)."""
    try:
        with _open(path) as file:
            for number, line in _content_lines(file):
                if line is None:
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
    collection = _stem(path)
    too_many = LoadError(
        path, f"holds more than {MAX_RECORDS:,} records, the most read from one file"
    )
    if sniff(path.name, _start(path)) == "jsonl":
        items = _json_lines(path)
    else:
        text = read_text(path)
        kind = sniff(path.name, text)
        if kind == "txt":
            header, abstracts = iter_seed_text(text)
            collection = header or collection
            items = (Record(abstract) for abstract in abstracts)
        elif kind == "bib" and text.count("@") > MAX_RECORDS:  # parsed whole: count first
            raise too_many
        else:
            items = READERS[kind](text)
    papers: dict[Record, Paper] = {}
    skipped = 0
    try:
        for number, item in enumerate(items, 1):
            if number > MAX_RECORDS:
                raise too_many
            if isinstance(item, Record):
                if item not in papers:
                    papers[item] = _paper(item, collection, path)
                yield papers[item]
                continue
            skipped += 1
            if skipped > MAX_SKIPPED_RECORDS:
                raise LoadError(
                    path, f"more than {MAX_SKIPPED_RECORDS:,} of its records cannot be read"
                )
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
