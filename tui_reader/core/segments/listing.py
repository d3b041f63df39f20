"""What the cache folder keeps, as `tui-reader cache` lists it: each entry's files, parts,
papers, size and when it was last used, read from the manifests alone (no array is mapped).
"""

import time
from dataclasses import dataclass
from pathlib import Path

from tui_reader.core.loading import NO_FILTER, LoadFilter
from tui_reader.core.segments import entry, part
from tui_reader.core.segments.kept import files_of
from tui_reader.core.segments.ranges import FileRange, Rejected
from tui_reader.core.writing import WRITING, left_over


@dataclass(frozen=True)
class PartSummary:
    name: str
    ranges: list[FileRange]
    papers: int
    made: float  # when it was written (a merge writes a part anew)


@dataclass(frozen=True)
class EntrySummary:
    folder: Path
    files: list[str]
    parts: list[PartSummary]
    papers: int
    size: int  # bytes of its files
    own: int  # bytes of the files no other entry shares: what removing it frees
    used: float  # when it was last opened
    problem: str = ""  # why it cannot be read ("": it can)
    load_filter: LoadFilter = NO_FILTER  # the papers it holds: those this filter admits


def kept_entries(root: Path) -> list[EntrySummary]:
    """The entries of the cache folder, the most recently used first."""
    found: list[tuple[Path, dict[int, int]]] = []
    if root.is_dir():
        prefix = f"{entry.PREFIX}{entry.VERSION}-"
        found = [
            (path, dict(files_of(path))) for path in root.iterdir() if path.name.startswith(prefix)
        ]
    holders: dict[int, int] = {}
    for _, files in found:
        for inode in files:
            holders[inode] = holders.get(inode, 0) + 1
    summaries = []
    for folder, files in found:
        own = sum(size for inode, size in files.items() if holders[inode] == 1)
        summaries.append(_summary(folder, sum(files.values()), own))
    return sorted(summaries, key=lambda summary: -summary.used)


def _summary(folder: Path, size: int, own: int) -> EntrySummary:
    try:
        used = (folder / part.MANIFEST).stat().st_mtime
    except OSError:
        used = 0.0
    try:
        manifest = entry.read_manifest(folder)
        parts = []
        for name in manifest["parts"]:
            kept = part.read_manifest(folder / entry.PARTS / name, name)
            ranges = [FileRange.from_json(value) for value in kept["ranges"]]
            parts.append(PartSummary(name, ranges, kept["count"], kept["made"]))
    except (Rejected, OSError) as error:
        return EntrySummary(folder, [], [], 0, size, own, used, str(error))
    return EntrySummary(
        folder, manifest["files"], parts, manifest["count"], size, own, used, "", manifest["filter"]
    )


@dataclass(frozen=True)
class Unfinished:
    """What writes not finished take in the cache folder: those being written now, and
    those left over (their process gone), which pruning removes."""

    writing: int = 0
    writing_size: int = 0
    left: int = 0
    left_size: int = 0


def unfinished(root: Path) -> Unfinished:
    """The cache folder's writes not finished, counted apart from its entries."""
    counts = {True: [0, 0], False: [0, 0]}  # left over: how many, bytes
    for path in root.glob(f"{WRITING}*") if root.is_dir() else ():
        counted = counts[left_over(path)]
        counted[0] += 1
        counted[1] += sum(dict(files_of(path)).values()) if path.is_dir() else _size(path)
    return Unfinished(*counts[False], *counts[True])


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # gone meanwhile
        return 0


def cache_size(root: Path) -> int:
    """Bytes the cache folder's files take, each file once."""
    return sum(dict(files_of(root)).values()) if root.is_dir() else 0


def ago(when: float, now: float | None = None) -> str:
    """How long ago a time was, roughly: "3 min", "5 h", "2 days"."""
    seconds = max((time.time() if now is None else now) - when, 0.0)
    for unit, length in (("day", 86_400), ("h", 3_600), ("min", 60)):
        if seconds >= length:
            number = int(seconds // length)
            return f"{number} {unit}{'s' if unit == 'day' and number > 1 else ''}"
    return f"{int(seconds)} s"
