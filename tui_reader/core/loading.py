"""Reading papers from the paths the user names, or from the bundled seeds."""

import gzip
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tui_reader.core.formats import READERS, Problem, Record, read_json_lines, sniff
from tui_reader.core.paper import Paper
from tui_reader.core.seeds import parse_seed_text

SUFFIXES = (".txt", ".jsonl", ".ndjson", ".json", ".csv", ".bib")


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


def read_text(path: Path) -> str:
    """A file's text as UTF-8 (a BOM is allowed), or a LoadError saying why not."""
    try:
        data = path.read_bytes()
        if path.suffix.lower() == ".gz":
            data = gzip.decompress(data)
    except IsADirectoryError:
        raise LoadError(path, "is a directory") from None
    except (gzip.BadGzipFile, EOFError, zlib.error):
        raise LoadError(path, "is not a valid gzip file") from None
    except OSError as error:
        raise LoadError(path, error.strerror or "cannot be read") from None
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
    """The files a path names: the file itself, or the paper files in a directory."""
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


def _open(path: Path, mode: str, **options: Any) -> Any:
    """The file, read through gzip when its name ends in .gz."""
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    return opener(path, mode, **options)


def _json_lines(path: Path) -> Iterator[str]:
    """A JSON Lines file's lines, read as it goes (a big file's first papers come at once)."""
    try:
        with _open(path, "rt", encoding="utf-8", newline="\n") as lines:
            yield from lines
    except UnicodeDecodeError as error:
        raise LoadError(
            path, f"is not UTF-8 text (byte 0x{error.object[error.start]:02x})"
        ) from None
    except (OSError, EOFError, zlib.error) as error:
        raise LoadError(path, str(error) or "cannot be read") from None


def _start(path: Path) -> str:
    """The first few kilobytes of a file's text, to tell its format."""
    try:
        with _open(path, "rb") as file:
            return file.read(4096).decode("utf-8", errors="ignore")
    except (OSError, EOFError, zlib.error):
        return ""


def iter_file(path: Path) -> Iterator[Paper | str]:
    """A file's papers, in order, and a "FILE:LINE: problem" for each record it skips."""
    if sniff(path.name, _start(path)) == "jsonl":
        for item in read_json_lines(_json_lines(path)):
            if isinstance(item, Problem):
                yield f"{path}:{item.line}: {item.message}"
            else:
                yield _paper(item, _stem(path), path)
        return
    text = read_text(path)
    kind = sniff(path.name, text)
    if kind == "txt":
        collection, abstracts = parse_seed_text(text)
        for abstract in abstracts:
            yield Paper.from_abstract(abstract, collection or _stem(path), path)
        return
    for item in READERS[kind](text):
        if isinstance(item, Problem):
            yield f"{path}:{item.line}: {item.message}"
        else:
            yield _paper(item, _stem(path), path)


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
        if not found:
            raise LoadError(path, "holds no papers" if path.is_dir() else "holds no abstracts")
    return result


BATCH = 1000
FIRST_BATCH = 100  # small, so that the first papers are on screen at once


def check_paths(paths: Iterable[Path]) -> list[Path]:
    """The files to read, after a quick look that each exists and is text (LoadError if not).

    Used before loading in the background, where a bad file could only be reported late.
    """
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
