"""Loaded papers and their search index, kept on disk between runs, opened by memory map.

An entry is a folder in the cache folder (`papers-v1-<key>`): the store's columns as `.npy`
arrays (core.store), a JSON manifest, and the flat index's own folder (core.flat.disk). The
manifest names the format and its VERSION, the source files the entry stands for (path, size,
modification time), and each array's type and shape. Arrays are read with `np.load(...,
mmap_mode="r", allow_pickle=False)`: nothing is unpickled, no code runs, and the pages are
read when a paper is shown. Anything else is rejected and the papers are loaded anew: another
format or version, other files, a missing, truncated or mistyped array, offsets that do not
add up, codes out of range.

An entry is written whole into a temporary folder and renamed into place, when the index is
built (`keep` for the commands, core.opening; `keep_in_background` for the reader, never at
quit); the cache folder is kept under the `[cache] limit` setting, least recently used entries
removed first. A cache is a convenience only: one that cannot be read or written costs time.
"""

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tui_reader.core import wording
from tui_reader.core.columns import Chunk
from tui_reader.core.config import Config, ConfigError, load_config
from tui_reader.core.engine import SearchEngine
from tui_reader.core.flat import disk
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.loading import LoadResult
from tui_reader.core.locations import cache_folder, config_path
from tui_reader.core.paper_columns import TEXTS
from tui_reader.core.search_service import build_index
from tui_reader.core.store import Array, PaperStore

FORMAT = "tui-reader papers"
VERSION = 3  # 3: a paper without a year field has the year its venue names (`paper_year`)
PREFIX = "papers-v"
MANIFEST = "manifest.json"
MANIFEST_LIMIT = 64_000_000  # bytes: source names and problems; a bigger file is not ours
# Each array's type; those of one value per paper, and the offsets (one more).
_TYPES = {name: "|u1" for name in TEXTS} | {f"{name}_offsets": "<i8" for name in TEXTS}
_TYPES |= {"years": "<i8", "flags": "|i1", "collections": "<i4", "sources": "<i4", "dates": "<i4"}
_TYPES |= {"category_codes": "<i4", "category_starts": "<i8"}
_TYPES |= {"keys": "<i8", "sorted_keys": "<i8", "sorted_numbers": "<i8", "headline_ranks": "<i8"}
# The names the codes of an array stand for: the store's, and the manifest's list of them.
_NAMES = {
    "collections": "collection_names",
    "sources": "source_names",
    "categories": "category_names",
}
_PER_PAPER = (
    "years",
    "flags",
    "collections",
    "sources",
    "keys",
    "dates",
    "sorted_keys",
    "sorted_numbers",
    "headline_ranks",
)


# A kept entry that is not a sound copy of these sources' papers (they are loaded anew).
Rejected = disk.Rejected


@dataclass
class IndexedPapers:
    loaded: LoadResult  # its papers: `store`
    index: SearchEngine  # over the store's papers, numbered in their order
    store: PaperStore
    unusable: str = ""  # what of the entry kept for these files could not be used, and why


def cache_limit() -> int:
    """The `[cache] limit` setting: bytes the cache folder may take."""
    try:
        return load_config(config_path())[0].cache_limit
    except ConfigError:  # told by the commands and the reader
        return Config().cache_limit


def _folder(root: Path, sources: list[dict[str, object]]) -> Path:
    key = hashlib.sha256(json.dumps(sources, sort_keys=True).encode()).hexdigest()[:24]
    return root / f"{PREFIX}{VERSION}-{key}"


def load_cached(
    files: Sequence[Path], rebuild: bool = True, unusable: list[str] | None = None
) -> IndexedPapers | None:
    """The papers and index kept for exactly these files, memory-mapped; None when there
    are none or what is there is rejected (as `open_entry`), and then why, in `unusable`."""
    try:
        root, sources = cache_folder(), disk.sources_of(files)
    except OSError:
        return None
    try:
        return open_entry(root, sources, rebuild)
    except (Rejected, OSError) as error:
        if unusable is not None and os.path.lexists(_folder(root, sources)):
            unusable.append(str(error))
        return None


def open_entry(root: Path, sources: list[dict[str, object]], rebuild: bool = True) -> IndexedPapers:
    """The entry kept for these sources. Rejected when there is none, or it is not sound; an
    entry whose papers are sound but whose index is not (another version of the index's
    format, or damaged) gets its index built and kept again (rejected, unless `rebuild`)."""
    folder = _folder(root, sources)
    store, loaded = _open_papers(folder, sources)
    unusable = ""
    try:
        index: SearchEngine = disk.open_index(folder, sources)
    except disk.Rejected as error:
        if not rebuild:
            raise
        index = build_index(store)
        if isinstance(index, FlatIndex) and len(index) == len(store):
            _replace_index(folder, sources, index)
        unusable = f"the index kept in the cache could not be used ({error}): built again"
    if len(index) != len(store):
        raise Rejected(f"{folder}: the index is not of these papers")
    (folder / MANIFEST).touch()  # recently used: kept longest
    return IndexedPapers(loaded, index, store, unusable)


def kept_papers(files: Sequence[Path]) -> tuple[PaperStore, LoadResult] | None:
    """The papers kept for exactly these files, memory-mapped, without their index (the
    reader builds one of another version again while it runs: minutes at a million papers);
    None when there are none or they are rejected."""
    try:
        sources = disk.sources_of(files)
        return _open_papers(_folder(cache_folder(), sources), sources)
    except (Rejected, OSError):
        return None


def _open_papers(folder: Path, sources: list[dict[str, object]]) -> tuple[PaperStore, LoadResult]:
    manifest = _manifest(folder, sources)
    arrays = {name: _array(folder, name, described) for name, described in manifest["arrays"]}
    _check(folder, arrays, manifest)
    names = {name: manifest[listed] for name, listed in _NAMES.items()}
    store = PaperStore.from_arrays(arrays, manifest["collections"], names)
    loaded = LoadResult(
        store, manifest["collections"], manifest["problems"], manifest["duplicates"]
    )
    return store, loaded


def _replace_index(folder: Path, sources: list[dict[str, object]], index: FlatIndex) -> None:
    """Keep a new index in the entry, in place of one of another version (or a damaged one)."""
    try:
        kept = disk.save(folder, sources, index.arrays)
        for other in folder.glob("flat-v*"):
            if other != kept:
                shutil.rmtree(other, ignore_errors=True)
    except OSError:
        pass  # built again next time


def _manifest(folder: Path, sources: list[dict[str, object]]) -> dict[str, Any]:
    manifest = disk.read_manifest(folder, (FORMAT, VERSION), sources, MANIFEST_LIMIT)
    shapes = {
        "collections": list,
        "collection_names": list,
        "source_names": list,
        "category_names": list,
        "problems": list,
        "duplicates": int,
        "count": int,
        "arrays": dict,
    }
    for name, kind in shapes.items():
        if not isinstance(manifest.get(name), kind):
            raise Rejected(f"{folder}: the manifest has no {name}")
    for name in ("collections", "collection_names", "source_names", "category_names", "problems"):
        if not all(isinstance(item, str) for item in manifest[name]):
            raise Rejected(f"{folder}: the manifest's {name} are not all text")
    arrays = manifest["arrays"]
    if set(arrays) != set(_TYPES):
        raise Rejected(f"{folder}: the manifest lists other arrays")
    manifest["arrays"] = [(name, arrays[name]) for name in sorted(arrays)]
    return manifest


def _array(folder: Path, name: str, described: object) -> Array:
    """An array of the entry, memory-mapped, as the manifest and the format describe it."""
    array = disk.mapped(folder, name, described)
    if array.dtype.str != _TYPES[name] or array.ndim != 1:
        raise Rejected(f"{folder}: {name} is not the array the manifest describes")
    return array


def _check(folder: Path, arrays: Mapping[str, Array], manifest: Mapping[str, Any]) -> None:
    """The arrays agree: on how many papers, offsets that index their texts, codes in range."""
    count = manifest["count"]
    for name in _PER_PAPER:
        if len(arrays[name]) != count:
            raise Rejected(f"{folder}: {name} is not of {wording.count(count, 'paper')}")
    offsets = {f"{name}_offsets": name for name in TEXTS} | {"category_starts": "category_codes"}
    for name, indexed in offsets.items():
        places = arrays[name]
        if (
            len(places) != count + 1
            or places[0] != 0
            or places[-1] != len(arrays[indexed])
            or np.any(np.diff(places) < 0)
        ):
            raise Rejected(f"{folder}: {name} does not index {indexed}")
    coded = {
        "category_codes" if name == "categories" else name: listed
        for name, listed in _NAMES.items()
    }
    for name, names in coded.items():
        codes, known = arrays[name], manifest[names]
        if len(codes) and (codes.min() < 0 or codes.max() >= len(known)):
            raise Rejected(f"{folder}: {name} names what the manifest does not")
    numbers = arrays["sorted_numbers"]
    if count and (numbers.min() < 0 or numbers.max() >= count):
        raise Rejected(f"{folder}: sorted_numbers are not paper numbers")


def keep(
    files: Sequence[Path],
    indexed: IndexedPapers,
    root: Path | None = None,
    limit: int | None = None,
) -> bool:
    """Keep these papers and their index for the next run over the same files (the index
    only when it is one the flat format holds); whether they were written. The cache folder
    is then pruned to `limit` bytes (the setting's by default)."""
    store, loaded = indexed.store, indexed.loaded
    if len(indexed.index) != len(store):  # papers still loading: not yet the files' papers
        return False
    try:
        root = cache_folder() if root is None else root
        sources = disk.sources_of(files)
        root.mkdir(parents=True, exist_ok=True)
        final = _folder(root, sources)
        temporary = Path(tempfile.mkdtemp(prefix=".writing-", dir=root))
        try:
            named, names = store.arrays()
            shapes = {
                name: _save(temporary / f"{name}.npy", value) for name, value in named.items()
            }
            if isinstance(indexed.index, FlatIndex):
                disk.save(temporary, sources, indexed.index.arrays)
            manifest = {
                "format": FORMAT,
                "version": VERSION,
                "sources": sources,
                "count": len(store),
                "collections": list(store.collections),
                **{listed: names[name] for name, listed in _NAMES.items()},
                "problems": list(loaded.problems),
                "duplicates": loaded.duplicates,
                "arrays": shapes,
            }
            (temporary / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
            disk.put_in_place(temporary, final)
        except BaseException:
            shutil.rmtree(temporary, ignore_errors=True)
            raise
        prune(root, cache_limit() if limit is None else limit, keep=final)
    except OSError:
        return False  # a cache that cannot be written costs time, nothing else
    return True


def _save(path: Path, value: Iterator[Chunk] | Array) -> dict[str, object]:
    """Write an array, or bytes given as chunks (written one after the other, not joined)."""
    if isinstance(value, np.ndarray):
        np.save(path, value, allow_pickle=False)
        return {"dtype": value.dtype.str, "shape": list(value.shape)}
    chunks = list(value)
    size = sum(len(chunk) for chunk in chunks)
    header = {"descr": "|u1", "fortran_order": False, "shape": (size,)}
    with path.open("wb") as stream:
        np.lib.format.write_array_header_1_0(stream, header)
        for chunk in chunks:
            stream.write(chunk)
    return {"dtype": "|u1", "shape": [size]}


def keep_in_background(
    files: Sequence[Path],
    store: PaperStore,
    index: SearchEngine,
    problems: Sequence[str] = (),
    duplicates: int = 0,
    reopened: Callable[[IndexedPapers | None], object] | None = None,
) -> threading.Thread:
    """Keep the papers of these files and their index (as `keep`: not while papers are still
    loading) in a daemon thread, started now; then give `reopened` the entry opened again by
    memory map (in that thread), to read from in their place, or None when none was kept.
    Safe while the reader runs: it only reads the store. Safe to abandon at quit: an
    unfinished entry is a temporary folder, which a later prune removes."""
    loaded = LoadResult(store, list(store.collections), list(problems), duplicates)
    indexed = IndexedPapers(loaded, index, store)

    def keep_and_reopen() -> None:
        kept: IndexedPapers | None = None
        try:
            if keep(files, indexed) and reopened is not None:
                kept = load_cached(files, rebuild=False)
        finally:  # told even when it failed: the reader says it is keeping them until then
            if reopened is not None:
                reopened(kept)

    thread = threading.Thread(target=keep_and_reopen, daemon=True)
    thread.start()
    return thread


def prune(root: Path, limit: int, keep: Path | None = None) -> None:
    """Remove the least recently used entries until the rest fit in `limit` bytes (never
    `keep`), what unfinished writes left behind, and the entries and pickles of an earlier
    version (never read again)."""
    entries = []
    for path in root.iterdir():
        if path.name.startswith(".writing-"):
            if time.time() - path.stat().st_mtime > disk.ABANDONED:  # not being written now
                shutil.rmtree(path, ignore_errors=True)
        elif path.name.startswith("index-") and path.name.endswith(".pickle"):
            path.unlink(missing_ok=True)  # never read again: a planted one would run code
        elif path.name.startswith(PREFIX) and not path.name.startswith(f"{PREFIX}{VERSION}-"):
            shutil.rmtree(path, ignore_errors=True)
        elif path.name.startswith(PREFIX) and path.is_dir():
            size = sum(file.stat().st_size for file in path.rglob("*") if file.is_file())
            manifest = path / MANIFEST
            used = manifest.stat().st_mtime if manifest.exists() else 0.0
            entries.append((used, size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        if path != keep:
            shutil.rmtree(path, ignore_errors=True)
            total -= size
