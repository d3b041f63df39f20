"""A kept entry: the papers of a list of files and their index, in parts, read as one.

An entry is a folder in the cache folder (`papers-v4-<key>`, the key from the files' paths):
its parts (`parts/NAME`, core.segments.part), in the order their papers are numbered (a
file's parts in the order of their ranges, the files in the order given), a JSON manifest
naming the format and VERSION, the files with their size and modification time when it was
written, and its parts; with several parts, the view that joins them
(core.segments.papers_view) as `.npy` arrays. An entry is written whole into a temporary
folder and renamed into place; the parts it keeps from the entry before it are hard links to
that entry's files (copied where links cannot be made), never written again.

Made again for files that changed since (`plan`, `write`), an entry is brought up to date part
by part: a file grown gets a part of what was appended, a file new to the list a part of its
own, a file shrunk or changed within what was read a new part of its whole; small parts are
merged (core.segments.merge), and a merged part one of whose files changed has the runs of its
ranges still wanted cut out of it (core.segments.piece), not read again. A part kept after new
ones is read again only when its papers may no longer be those no part before it holds (the
first place a paper appears wins): a paper of a part that came before it went is held by no
part before it now and it had dropped papers met before, or it holds a paper of a part now
before it.
"""

import json
import os
import secrets
import shutil
import tempfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np

from tui_reader.core.flat import disk
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.loading import NO_FILTER, LoadFilter
from tui_reader.core.paper_columns import TEXTS
from tui_reader.core.search_service import build_index
from tui_reader.core.segments.added import (
    Added,
    Numbers,
    added_of,
    keys_of,
    new_numbers,
    taken_in,
    taken_last,
)
from tui_reader.core.segments.filtered import as_json, filter_of, key_of
from tui_reader.core.segments.merge import merge_runs
from tui_reader.core.segments.papers_view import (
    LEXICONS,
    View,
    joined_store,
    names_of,
    view_after,
)
from tui_reader.core.segments.part import (
    FRAMED,
    MANIFEST,
    OpenPart,
    PartFacts,
    array_of,
    check_store,
    open_part,
    read_part,
    write_part,
)
from tui_reader.core.segments.piece import Piece, write_piece
from tui_reader.core.segments.ranges import Change, FileRange, Rejected, change, identity, scanned
from tui_reader.core.store import Array, PaperStore
from tui_reader.core.writing import writing_prefix

FORMAT = "tui-reader papers"
VERSION = 4  # 4: kept in parts
Digests: TypeAlias = dict[str, str]  # each array's, as a manifest keeps them
PREFIX = "papers-v"
PARTS = "parts"
MANIFEST_LIMIT = 64_000_000  # bytes: files and problems; a bigger file is not ours


def folder_for(root: Path, files: Sequence[Path], load_filter: LoadFilter = NO_FILTER) -> Path:
    """Where the entry of these files (read with this filter) is kept."""
    return root / f"{PREFIX}{VERSION}-{key_of(files, load_filter)}"


@dataclass
class Kept:
    """An entry opened: its parts (with their indexes; None where one cannot be used), the
    store of all their papers, what joins them, and what its manifest says."""

    folder: Path
    files: list[str]
    parts: list[OpenPart]
    store: PaperStore
    view: View | None  # None for one part
    problems: list[str]
    duplicates: int
    added: Added  # the papers taken in last (core.segments.added)
    sources: list[dict[str, object]]  # its files' identity when it was written
    load_filter: LoadFilter = NO_FILTER  # what its papers were read with (core.segments.filtered)

    def new(self) -> Numbers:
        """The numbers of the papers new: taken in last."""
        return new_numbers(self.added, self.parts)

    def new_at(self) -> float:
        """When the papers new were taken in; 0.0 when none were."""
        return taken_last(self.added)

    def index(self) -> FlatIndex | None:
        """The index of all the papers; None when a part's cannot be used."""
        indexes = [part.index for part in self.parts]
        if any(index is None for index in indexes):
            return None
        lexicons = None if self.view is None else self.view.lexicons
        return FlatIndex.joined([i for i in indexes if i is not None], lexicons)


def read_manifest(folder: Path) -> dict[str, Any]:
    """An entry's manifest; Rejected when it is not one of this version."""
    try:
        manifest = disk.read_manifest(folder, (FORMAT, VERSION), None, MANIFEST_LIMIT)
    except disk.Rejected as error:
        raise Rejected(str(error)) from None
    shapes = {
        "files": list,
        "sources": list,
        "parts": list,
        "count": int,
        "problems": list,
        "duplicates": int,
        "added": list,
        "arrays": dict,
    }
    for name, kind in shapes.items():
        if not isinstance(manifest.get(name), kind):
            raise Rejected(f"{folder}: the manifest has no {name}")
    for name in ("files", "parts", "problems"):
        if not all(isinstance(item, str) for item in manifest[name]):
            raise Rejected(f"{folder}: the manifest's {name} are not all text")
    if not manifest["parts"] or any(not name.isalnum() for name in manifest["parts"]):
        raise Rejected(f"{folder}: the manifest names no parts of its own")
    try:
        manifest["filter"] = filter_of(manifest.get("filter"))
    except Rejected as error:
        raise Rejected(f"{folder}: {error}") from None
    return manifest


def open_kept(folder: Path) -> Kept:
    """The entry kept in a folder, memory-mapped; Rejected when it is not a sound one."""
    manifest = read_manifest(folder)
    parts = [open_part(folder / PARTS / name, name) for name in manifest["parts"]]
    count = sum(part.facts.count for part in parts)
    if count != manifest["count"]:
        raise Rejected(f"{folder}: its parts do not hold its papers")
    view = None
    if len(parts) == 1:
        store = parts[0].store()
    else:
        view, store = _joined(folder, manifest, parts)
    return Kept(
        folder,
        manifest["files"],
        parts,
        store,
        view,
        manifest["problems"],
        manifest["duplicates"],
        added_of(manifest["added"]),
        manifest["sources"],
        manifest["filter"],
    )


def _joined(
    folder: Path, manifest: dict[str, Any], parts: list[OpenPart]
) -> tuple[View, PaperStore]:
    """The view of an entry of several parts, checked, and the store of their papers."""
    arrays = {
        name: array_of(folder, name, described) for name, described in manifest["arrays"].items()
    }
    names = names_of(parts)
    sizes = {name: sum(len(part.arrays[name]) for part in parts) for name in TEXTS}
    try:
        check_store(folder, arrays, manifest["count"], names, sizes)
        counts = [part.facts.count for part in parts]
        view = View.from_arrays(manifest["parts"], counts, arrays)
    except KeyError as error:
        raise Rejected(f"{folder}: the view has no {error}") from None
    for kind, lexicon in (("words", view.lexicons.words), ("cased", view.lexicons.cased)):
        for part, ids in zip(parts, lexicon.ids, strict=True):
            words = None if part.index is None else part.index.arrays[f"{LEXICONS[kind]}_offsets"]
            if (
                (words is not None and len(ids) != len(words) - 1)
                or np.any(np.diff(ids) <= 0)
                or (len(ids) and (ids[0] < 0 or ids[-1] >= len(lexicon)))
            ):
                raise Rejected(f"{folder}: the view does not place a part's words")
    collections = list(dict.fromkeys(c for part in parts for c in part.facts.collections))
    texts = {name: [part.arrays[name] for part in parts] for name in TEXTS}
    readers = {name: [part.reader(name) for part in parts] for name in FRAMED}
    return view, PaperStore.from_arrays(arrays, collections, names, texts, readers)


@dataclass(frozen=True)
class Read:
    """A part to make: the papers of a range of a file, from `start` to `end`."""

    path: Path
    start: int
    end: int
    line: int


Step = OpenPart | Piece | Read


class TooMuch(Exception):
    """An entry that would read more of its files than it may to be brought up to date."""


def plan(kept: Kept, files: Sequence[Path], again: Collection[str] = ()) -> list[Step]:
    """The parts of an entry of these files made from a kept entry: its parts whose ranges
    the files still hold one after the other, in order (but those named `again`: found
    damaged, core.segments.sound), and the ranges to read into new parts between them."""
    held: dict[str, list[tuple[FileRange, OpenPart]]] = {}
    for part in kept.parts:
        for kept_range in part.facts.ranges:
            held.setdefault(kept_range.path, []).append((kept_range, part))
    wanted: list[tuple[FileRange | Read, OpenPart | None]] = []
    for file in files:
        path = str(file.resolve())
        size = os.stat(path).st_size
        ranges = sorted(held.get(path, []), key=lambda found: found[0].start)
        became = Change.CHANGED
        if ranges:  # the same as when kept: not read again
            same = identity(file) in kept.sources
            became = Change.SAME if same else change([r for r, _ in ranges])
        if became is Change.CHANGED:
            wanted.append((Read(Path(path), 0, size, 1), None))
            continue
        wanted += ranges
        if became is Change.GREW:
            last = ranges[-1][0]
            wanted.append((Read(Path(path), last.end, size, last.line + last.lines), None))
    return [
        read
        for step in _grouped(wanted)
        for read in (
            _read_again(step)
            if not isinstance(step, Read) and _part_of(step).facts.name in again
            else [step]
        )
    ]


def _part_of(step: OpenPart | Piece) -> OpenPart:
    """The kept part a step keeps, or cuts a piece of."""
    return step.part if isinstance(step, Piece) else step


def _grouped(wanted: list[tuple[FileRange | Read, OpenPart | None]]) -> list[Step]:
    """The ranges wanted as steps: a kept part where all its ranges come one after the other
    as it holds them; else the runs of its ranges that do, pieces to cut out of it when it
    knows how many papers each range holds; each other range a part to read."""
    steps: list[Step] = []
    place = 0
    while place < len(wanted):
        found, part = wanted[place]
        if part is not None and [r for r, _ in wanted[place : place + len(part.facts.ranges)]] == (
            part.facts.ranges
        ):
            steps.append(part)
            place += len(part.facts.ranges)
            continue
        if part is not None and part.facts.counts is not None and isinstance(found, FileRange):
            first = stop = part.facts.ranges.index(found)
            while (
                place < len(wanted)
                and stop < len(part.facts.ranges)
                and wanted[place] == (part.facts.ranges[stop], part)
            ):
                place, stop = place + 1, stop + 1
            steps.append(Piece(part, first, stop))
            continue
        if isinstance(found, FileRange):
            found = Read(Path(found.path), found.start, found.end, found.line)
        steps.append(found)
        place += 1
    return steps


def to_read(steps: Sequence[Step]) -> int:
    """Bytes of files the steps read (besides the parts read again)."""
    return sum(step.end - step.start for step in steps if isinstance(step, Read))


def ranges_read(steps: Sequence[Step]) -> list[tuple[Path, int, int]]:
    """The ranges of files the steps read (besides the parts read again)."""
    return [(step.path, step.start, step.end) for step in steps if isinstance(step, Read)]


def _still_first(step: OpenPart | Piece, made: Sequence[OpenPart], kept: Kept) -> bool:
    """Whether a kept part's papers (or a piece's of one) are still those its ranges hold
    that no part before it holds (the first place a paper appears wins), after these parts
    (kept or new). It gains no paper when every paper of what was before it and is gone is
    held by one of these, or when it dropped none a part before it held (-1: not known); it
    loses those of the parts now before it that were not, if it holds any (by the keys of
    their ids: keys two ids share read as one)."""
    part = _part_of(step)
    names = [old.facts.name for old in kept.parts]
    place = names.index(part.facts.name)
    now = {other.facts.name for other in made}
    gone = keys_of([old for old in kept.parts[:place] if old.facts.name not in now])
    met_before, mine = part.facts.met_before, np.asarray(part.arrays["sorted_keys"])
    if isinstance(step, Piece):
        first, stop = step.papers()
        keys = np.asarray(part.arrays["keys"])
        gone = np.concatenate([gone, keys[:first]])  # the part's own papers before it
        met_before, mine = -1 if first else met_before, np.sort(keys[first:stop])
    if met_before != 0 and not _held(gone, made):
        return False
    for other in made:
        if len(mine) and other.facts.name not in names[:place]:
            theirs = np.asarray(other.arrays["keys"])
            found = np.searchsorted(mine, theirs).clip(max=len(mine) - 1)
            if np.any(mine[found] == theirs):
                return False
    return True


def _held(keys: Numbers, parts: Sequence[OpenPart]) -> bool:
    """Whether each of these keys is held by one of the parts."""
    for part in parts:
        held = np.asarray(part.arrays["sorted_keys"])
        if len(held) and len(keys):
            keys = keys[held[np.searchsorted(held, keys).clip(max=len(held) - 1)] != keys]
    return not len(keys)


def write(
    root: Path,
    files: Sequence[Path],
    steps: Sequence[Step],
    kept: Kept,
    most: int | None = None,
    fresh: bool = False,
) -> Path:
    """Write the entry of these files made of these steps from the kept entry, in place of
    the one there (with `fresh`, its view made anew: its parts' indexes were built again);
    its folder. TooMuch when it would read more than `most` bytes of the files; OSError
    when it cannot be written, LoadError when a file cannot be read, Rejected when a part
    kept has no index to join to the others."""
    sources = [identity(file) for file in files]
    root.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=writing_prefix(), dir=root))
    try:
        parts = _parts(temporary / PARTS, steps, kept, most)
        known = {part.facts.name for part in kept.parts}
        made = keys_of([p for p in parts if p.facts.name not in known])
        added = taken_in(kept.added, kept.parts, made)
        merged = merge_runs(temporary / PARTS, parts)
        left = {part.facts.name for part in merged}
        for gone in parts:
            if gone.facts.name not in left:
                shutil.rmtree(gone.folder)
        parts = merged
        names = [part.facts.name for part in parts]
        manifest: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "files": [str(file.resolve()) for file in files],
            "filter": as_json(kept.load_filter),
            "sources": sources,
            "parts": names,
            "count": sum(part.facts.count for part in parts),
            "problems": [problem for part in parts for problem in part.facts.problems],
            "duplicates": _duplicates(kept, parts),
            "added": added,
        }
        manifest["arrays"], manifest["digests"] = _view_arrays(
            temporary, parts, _before(parts if fresh else kept)
        )
        (temporary / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
        final = folder_for(root, files, kept.load_filter)
        disk.put_in_place(temporary, final)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    return final


def _duplicates(kept: Kept, parts: Sequence[OpenPart]) -> int:
    """How many papers were met again in the files of the parts: those each part counted;
    for parts that did not count theirs, what was counted for all of them in the kept
    entry, in the share of their papers still kept."""
    unknown = [part for part in kept.parts if part.facts.duplicates < 0]
    known = sum(max(part.facts.duplicates, 0) for part in parts)
    if not unknown:
        return known
    names = {part.facts.name for part in parts}
    left = sum(part.facts.count for part in unknown if part.facts.name in names)
    share = left / max(sum(part.facts.count for part in unknown), 1)
    rest = kept.duplicates - sum(max(part.facts.duplicates, 0) for part in kept.parts)
    return known + round(max(rest, 0) * share)


def _before(kept: Kept | Sequence[OpenPart]) -> View:
    """The view the new one is made from: the kept entry's; of its only part; or, of parts
    whose view is made anew, the biggest one's."""
    if isinstance(kept, Kept) and kept.view is not None:
        return kept.view
    parts = kept.parts if isinstance(kept, Kept) else kept
    biggest = max(parts, key=lambda part: part.facts.count)
    if biggest.index is None:
        raise Rejected("a part without its index cannot be joined to others")
    return View.of_part(biggest, biggest.index)


def _parts(folder: Path, steps: Sequence[Step], kept: Kept, most: int | None) -> list[OpenPart]:
    """The parts of the steps, in the entry's folder of parts: those kept linked, the others
    read and written; each opened from there."""
    parts: list[OpenPart] = []
    read = 0
    for step in steps:
        if isinstance(step, OpenPart) and _still_first(step, parts, kept):
            _link(step.folder, folder / step.facts.name)
            parts.append(open_part(folder / step.facts.name, step.facts.name))
            continue
        if isinstance(step, Piece) and _still_first(step, parts, kept):
            name = write_piece(folder, step)
            parts.append(open_part(folder / name, name))
            continue
        reads = [step] if isinstance(step, Read) else _read_again(step)
        for again in reads:
            read += again.end - again.start
            if most is not None and read > most:
                raise TooMuch(f"more than {most} bytes to read")
            name = secrets.token_hex(8)
            before = [part.store() for part in parts]
            _make(folder / name, name, again, before, kept.load_filter)
            parts.append(open_part(folder / name, name))
    return parts


def _read_again(step: OpenPart | Piece) -> list[Read]:
    ranges = step.ranges if isinstance(step, Piece) else step.facts.ranges
    return [Read(Path(r.path), r.start, r.end, r.line) for r in ranges]


def _make(
    folder: Path, name: str, step: Read, before: Sequence[PaperStore], load_filter: LoadFilter
) -> None:
    kept = scanned(step.path, step.start, step.end, step.line)
    read = read_part([(step.path, step.start, step.line, step.end)], before, load_filter)
    store = read.store
    index = build_index(store)
    facts = PartFacts(
        name,
        [kept],
        len(store),
        list(store.collections),
        store.arrays()[1],
        read.problems,
        read.duplicates,
        read.met_before,
        counts=[len(store)],
    )
    write_part(folder, facts, store.arrays()[0], index.arrays)


def _link(source: Path, target: Path) -> None:
    """The files of a part's folder in another folder: hard links, else copies."""
    for path in sorted(source.rglob("*")):
        there = target / path.relative_to(source)
        if path.is_dir():
            there.mkdir(parents=True)
            continue
        there.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, there)
        except OSError:
            shutil.copyfile(path, there)


def _view_arrays(
    folder: Path, parts: Sequence[OpenPart], before: View
) -> tuple[dict[str, object], Digests]:
    """Write the view of the parts (of several) into the entry's folder; what it wrote, and
    the digests."""
    if len(parts) == 1:
        return {}, {}
    indexes = [part.index for part in parts]
    if any(index is None for index in indexes):
        raise Rejected("a part without its index cannot be joined to others")
    view = view_after(before, parts, [index for index in indexes if index is not None])
    arrays, _ = joined_store(parts, view.ranks)
    return save_arrays(folder, arrays | view.arrays())


def save_arrays(folder: Path, arrays: dict[str, Array]) -> tuple[dict[str, object], Digests]:
    """Write arrays as `.npy` files of a folder; how the manifest describes them, and their
    digests, taken as they were written."""
    shapes: dict[str, object] = {}
    digests: Digests = {}
    for name, array in arrays.items():
        digests[name] = disk.save_array(folder / f"{name}.npy", array)
        shapes[name] = {"dtype": array.dtype.str, "shape": list(array.shape)}
    return shapes, digests
