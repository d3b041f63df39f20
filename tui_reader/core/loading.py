"""Reading papers from the paths the user names, or from the bundled seeds."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tui_reader.core.paper import Paper
from tui_reader.core.seeds import parse_seed_text

SEED_SUFFIXES = (".txt",)


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


def read_text(path: Path) -> str:
    """A file's text as UTF-8 (a BOM is allowed), or a LoadError saying why not."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise LoadError(path, "is a directory") from None
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


def seed_files(path: Path) -> list[Path]:
    """The seed files a path names: the file itself, or the seed files in a directory."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.suffix in SEED_SUFFIXES and p.is_file())
    if not path.exists():
        raise LoadError(path, "no such file or directory")
    return [path]


def load_seed_file(path: Path) -> tuple[str, list[Paper]]:
    """A seed file's collection name (its file name when it has no header) and its papers."""
    collection, abstracts = parse_seed_text(read_text(path))
    collection = collection or path.stem
    return collection, [Paper.from_abstract(a, collection, path) for a in abstracts]


def load_paths(paths: Iterable[Path]) -> LoadResult:
    """Load every paper the paths name, each paper once (the first place it appears wins).

    Raises LoadError for a path that does not exist, cannot be decoded, or holds no papers.
    """
    result = LoadResult()
    seen: set[str] = set()
    for path in paths:
        found = 0
        for file in seed_files(path):
            collection, papers = load_seed_file(file)
            found += len(papers)
            if papers and collection not in result.collections:
                result.collections.append(collection)
            for paper in papers:
                if paper.id not in seen:
                    seen.add(paper.id)
                    result.papers.append(paper)
        if not found:
            raise LoadError(path, "holds no papers" if path.is_dir() else "holds no abstracts")
    return result
