"""The entries of the cache folder: finding the one to start from, and keeping the folder
under its size.

Entries share the files of the parts they have in common (hard links): an entry's size is
what removing it would free, and the folder's, each file once.
"""

import json
import os
import shutil
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tui_reader.core.loading import NO_FILTER, LoadFilter
from tui_reader.core.search_service import build_index
from tui_reader.core.segments import entry
from tui_reader.core.segments.added import Added, Numbers, added_of, taken_in
from tui_reader.core.segments.entry import PREFIX, VERSION, Kept
from tui_reader.core.segments.filtered import filter_of, wider
from tui_reader.core.segments.part import MANIFEST, replace_index
from tui_reader.core.segments.ranges import Rejected
from tui_reader.core.sources.taken import taken_from
from tui_reader.core.writing import WRITING, left_over


def _lists(root: Path) -> Iterator[tuple[Path, list[str], LoadFilter, float]]:
    """Each entry of the cache folder: its folder, its files, the filter its papers were
    read with and when it was last used."""
    for manifest in root.glob(f"{PREFIX}{VERSION}-*/{MANIFEST}"):
        try:
            kept = _manifest(manifest)
            files, load_filter = kept.get("files"), filter_of(kept.get("filter"))
            used = manifest.stat().st_mtime
        except (OSError, ValueError, AttributeError, RecursionError, Rejected):
            continue
        if isinstance(files, list) and all(isinstance(file, str) for file in files):
            yield manifest.parent, files, load_filter, used


def _manifest(path: Path) -> Any:
    """An entry's manifest as read (a few lines of JSON); OSError when it is not a regular
    file (a FIFO would wait for a writer forever, a link leads out of the cache)."""
    if not stat.S_ISREG(path.lstat().st_mode):
        raise OSError(f"{path}: not a file of the cache")
    with path.open("rb") as stream:
        return json.loads(stream.read(entry.MANIFEST_LIMIT))


def nearest(
    root: Path,
    files: Sequence[Path],
    load_filter: LoadFilter = NO_FILTER,
    read_with: Callable[[LoadFilter], bool] | None = None,
) -> Path | None:
    """The entry read with this filter (or one `read_with` accepts) holding most of these
    files (the most recently used of those): its parts are where theirs start from. None
    when none holds any."""
    paths = {str(file.resolve()) for file in files}
    fits = read_with or load_filter.__eq__
    best: tuple[int, float, Path] | None = None
    for folder, kept, filtered_by, used in _lists(root):
        shared = len(paths.intersection(kept)) if fits(filtered_by) else 0
        if shared and (best is None or (shared, used) > best[:2]):
            best = (shared, used, folder)
    return None if best is None else best[2]


def holding(root: Path, path: str) -> list[tuple[list[Path], LoadFilter]]:
    """The files of each entry among whose files is this one (resolved), each of which
    exists, and the filter its papers were read with."""
    found = []
    for _, kept, load_filter, _ in _lists(root):
        files = [Path(name) for name in kept]
        if path in kept and all(file.is_file() for file in files):
            found.append((files, load_filter))
    return found


def added_before(root: Path, files: Sequence[Path], keys: Numbers) -> Added:
    """What the entries holding any of these files noted as taken in (core.segments.added),
    of any version of the format, and what fetches noted they added to them of the papers of
    these keys (core.sources.taken), each paper at the earliest."""
    paths = {str(file.resolve()) for file in files}
    first: dict[int, float] = {}
    fetched = [pair for file in files for pair in taken_from(file)]
    held = np.isin(np.asarray([key for key, _ in fetched], dtype=np.int64), keys).tolist()
    for (key, when), ours in zip(fetched, held, strict=True):
        if ours:
            first[key] = min(when, first.get(key, when))
    for manifest in root.glob(f"{PREFIX}*-*/{MANIFEST}"):
        try:
            kept = _manifest(manifest)
            held = kept.get("files")
            if not isinstance(held, list) or not paths.intersection(map(str, held)):
                continue
            added = added_of(kept.get("added", []))
        except (OSError, ValueError, AttributeError, RecursionError, Rejected):
            continue
        for key, when in added:
            first[key] = min(when, first.get(key, when))
    return list(first.items())


def carried(
    root: Path, files: Sequence[Path], keys: Numbers, load_filter: LoadFilter = NO_FILTER
) -> Added:
    """What an entry of these files (read with this filter) written whole, of papers of these
    keys, notes as taken in: what the entries holding any of them noted (whatever their
    filter) and the fetches into them, and the papers that the entry it replaces did not
    hold, or else the entry read with a filter admitting all its papers that holds most of its
    files (yesterday's `--since`'s, the whole files'): on first sight, nothing is new but
    what the fetches noted."""
    before = added_before(root, files, keys)
    replaced: Path | None = entry.folder_for(root, files, load_filter)
    if not os.path.lexists(str(replaced)):
        replaced = nearest(root, files, read_with=lambda other: wider(other, load_filter))
    try:
        parts = [] if replaced is None else entry.open_kept(replaced).parts
    except (Rejected, OSError):
        return before
    return taken_in(before, parts, keys) if parts else before


def rebuild_indexes(root: Path, files: Sequence[Path], kept: Kept) -> Kept:
    """The entry with the index of each part whose index cannot be used built again from
    its papers, and the view that joins the parts made anew."""
    for part in kept.parts:
        if part.index is None:
            replace_index(part, build_index(part.store()).arrays)
    if len(kept.parts) == 1:
        return entry.open_kept(kept.folder)
    return entry.open_kept(entry.write(root, files, kept.parts, kept, fresh=True))


def files_of(folder: Path) -> list[tuple[int, int]]:
    """Each file of a folder as (inode, size)."""
    found = []
    for path in folder.rglob("*"):
        try:
            status = path.lstat()
        except OSError:
            continue
        if path.is_file() and not path.is_symlink():
            found.append((status.st_ino, status.st_size))
    return found


def prune(
    root: Path, limit: int, keep: Path | None = None, unused_for: float | None = None
) -> list[Path]:
    """Remove the least recently used entries until the rest fit in `limit` bytes (never
    `keep`), those not used for `unused_for` seconds, what writes no process is finishing
    left behind, and the entries and pickles of an earlier version (never read again); the
    entries and unfinished writes removed."""
    entries = []
    removed = []
    for path in root.iterdir():
        if path.name.startswith(WRITING):
            if left_over(path):  # not being written now
                if path.is_dir():
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    path.unlink(missing_ok=True)
                removed.append(path)
        elif path.name.startswith("index-") and path.name.endswith(".pickle"):
            path.unlink(missing_ok=True)  # never read again: a planted one would run code
        elif path.name.startswith(PREFIX) and not path.name.startswith(f"{PREFIX}{VERSION}-"):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        elif path.name.startswith(PREFIX) and path.is_dir():
            manifest = path / MANIFEST
            used = manifest.stat().st_mtime if manifest.exists() else 0.0
            entries.append((used, path, dict(files_of(path))))
    holders: dict[int, int] = {}  # inode: how many entries hold it
    sizes: dict[int, int] = {}
    for _, _, files in entries:
        for inode, size in files.items():
            holders[inode] = holders.get(inode, 0) + 1
            sizes[inode] = size
    total = sum(sizes.values())
    stale = 0.0 if unused_for is None else time.time() - unused_for
    for used, path, files in sorted(entries, key=lambda found: found[0]):
        if total <= limit and used >= stale:
            continue
        if path == keep:
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
        for inode in files:
            holders[inode] -= 1
            if not holders[inode]:
                total -= sizes[inode]
    return removed
