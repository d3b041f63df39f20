"""Loaded papers and their search index, kept on disk between runs.

`tui-reader search`, `list --query` and `export --query` keep every set of files they searched
(`indexed_papers`); the reader keeps big ones (more than it loads at once) when it quits.
Building the index of 30,000 papers takes seconds; reading it back takes a quarter of one. An
entry stands for the exact files it was built from (path, size, modification time) and this
version of the code, so any change to either builds a new one. It is a convenience only: when
it cannot be read or written, the papers are loaded and indexed as if there were none.
"""

import gc
import hashlib
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tui_reader.core.atomic_file import write_atomically
from tui_reader.core.engine import SearchEngine
from tui_reader.core.loading import LoadResult, check_paths, load_paths
from tui_reader.core.locations import cache_folder
from tui_reader.core.search_service import build_index

KEPT = 4  # entries kept, the most recently used


@dataclass
class IndexedPapers:
    loaded: LoadResult
    index: SearchEngine  # over loaded.papers, numbered in their order


@cache
def _code_digest() -> bytes:
    """The core's source: pickles of other code are never read back."""
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(source.read_bytes())
    return digest.digest()


def _entry(files: Sequence[Path]) -> Path:
    key = hashlib.sha256(_code_digest())
    for file in files:
        status = file.stat()
        key.update(f"{file.resolve()}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return cache_folder() / f"index-{key.hexdigest()[:24]}.pickle"


def load_cached(files: Sequence[Path]) -> IndexedPapers | None:
    """The papers and index built from exactly these files before, if they were kept."""
    try:
        entry = _entry(files)
        collecting = gc.isenabled()
        gc.disable()  # a full collection at every few thousand new objects: seconds at 100k
        try:
            with entry.open("rb") as stream:
                cached = pickle.load(stream)  # our own file, in the user's own cache folder
        finally:
            if collecting:
                gc.enable()
        entry.touch()  # recently used: kept longest
    except Exception:  # missing, unreadable, or written by other code: build anew
        return None
    return cached if isinstance(cached, IndexedPapers) else None


def save_cached(files: Sequence[Path], indexed: IndexedPapers) -> bool:
    """Keep these papers and their index for the next run over the same files; whether
    they were written."""
    try:
        entry = _entry(files)
        entry.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(entry, pickle.dumps(indexed, protocol=pickle.HIGHEST_PROTOCOL))
        entries = sorted(entry.parent.glob("index-*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in entries[:-KEPT]:
            old.unlink(missing_ok=True)
    except OSError:
        return False  # a cache that cannot be written costs time, nothing else
    return True


def indexed_papers(paths: Sequence[Path]) -> IndexedPapers:
    """The papers the paths name and their index: read back when these files were indexed
    before, else loaded, indexed and kept. LoadError for a path that cannot be read."""
    files = check_paths(paths)
    indexed = load_cached(files)
    if indexed is None:
        loaded = load_paths(paths)
        indexed = IndexedPapers(loaded, build_index(loaded.papers))
        save_cached(files, indexed)
    return indexed
