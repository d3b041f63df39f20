"""A part of a kept entry: papers read from ranges of files, their columns and their index.

A part is a folder: the store's columns as `.npy` (core.store), the flat index's own folder
(core.flat.disk) and a JSON manifest naming the format and version, the ranges of files its
papers were read from (core.segments.ranges), how many papers it holds, the names its codes
stand for, the records its files skipped and how many papers were met again, the length of
each framed column's longest text (no frame may claim more: core.frames), each array's
digest (checked after it is opened: core.segments.sound) and how the formats that read
records otherwise than at first read them (`readings`: a part of a file read another way is
rejected, and the file read again). Arrays are
read by memory map with `allow_pickle=False`: nothing is unpickled, no code runs. A part is
never changed once written: a file grown is read from where its last part ended, into a new
part; a file changed is read again whole, into a new part.

A part holds the papers of its ranges that no part before it in its entry holds (the first
place a paper appears wins, as loading the files one after the other gives), so a part made
after others is read in their light (`read_part`).
"""

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from tui_reader.core import wording
from tui_reader.core.columns import Chunk, view
from tui_reader.core.flat import disk
from tui_reader.core.flat.parts import IndexPart
from tui_reader.core.formats import read_as_now, readings
from tui_reader.core.frames import LARGEST, FrameReader, bytes_file, framed, longest, reader, usable
from tui_reader.core.loading import NO_FILTER, LoadFilter, iter_file
from tui_reader.core.paper_columns import TEXTS, PaperColumns
from tui_reader.core.segments.ranges import FileRange, OtherVersion, Rejected
from tui_reader.core.store import Array, PaperStore

FORMAT = "tui-reader part"
VERSION = 2  # 2: long texts kept as zstd frames, each column with its dictionary
MANIFEST = "manifest.json"
MANIFEST_LIMIT = 64_000_000  # bytes: source names and problems; a bigger file is not ours
BATCH = 1000  # papers read from a file before they are checked against the parts before
# Each array's type; those of one value per paper, and the offsets (one more).
TYPES = {name: "|u1" for name in TEXTS} | {f"{name}_offsets": "<i8" for name in TEXTS}
# Texts kept as zstd frames, a paper's each (core.frames): all but the short ones (id, venue,
# headline, published), which frames would make longer. A search reads none of them (the
# index has their words, and its own folded text); a row shown reads its title's frame.
FRAMED = ("abstract", "title", "authors", "extra")
TYPES |= {f"{name}_dictionary": "|u1" for name in FRAMED}
TYPES |= {"years": "<i8", "flags": "|i1", "collections": "<i4", "sources": "<i4", "dates": "<i4"}
TYPES |= {"category_codes": "<i4", "category_starts": "<i8"}
TYPES |= {"keys": "<i8", "sorted_keys": "<i8", "sorted_numbers": "<i8", "headline_ranks": "<i8"}
# The names the codes of an array stand for: the store's, and the manifest's list of them.
NAMES = {
    "collections": "collection_names",
    "sources": "source_names",
    "categories": "category_names",
}
PER_PAPER = (
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


@dataclass(frozen=True)
class PartFacts:
    """What a part's manifest says of it, besides its arrays."""

    name: str
    ranges: list[FileRange]
    count: int
    collections: list[str]
    names: dict[str, list[str]]  # by NAMES: the names the codes stand for
    problems: list[str] = field(default_factory=list)  # records its files skipped
    duplicates: int = 0  # papers met again; -1: not known
    met_before: int = 0  # of those, papers a part before it holds; -1: not known
    made: float = field(default_factory=time.time)
    largest: dict[str, int] = field(default_factory=dict)  # of FRAMED: its longest text
    counts: list[int] | None = None  # the papers of each range, in order; None: not known


@dataclass(frozen=True)
class OpenPart:
    """A part read from its folder, memory-mapped."""

    folder: Path
    facts: PartFacts
    arrays: dict[str, Array]  # the store's columns
    index: IndexPart | None  # None: its index is of another version, or damaged

    def store(self) -> PaperStore:
        readers = {name: [self.reader(name)] for name in FRAMED}
        return PaperStore.from_arrays(
            self.arrays, self.facts.collections, self.facts.names, readers=readers
        )

    def reader(self, name: str) -> FrameReader:
        """What reads the frames of a FRAMED column."""
        largest = self.facts.largest.get(name, LARGEST)
        where = str(self.folder / f"{name}.npy")
        return reader(self.arrays[f"{name}_dictionary"], largest, where)


def sources_of(ranges: Sequence[FileRange]) -> list[dict[str, object]]:
    """What a part's index is kept for (core.flat.disk): its ranges."""
    return [kept.as_json() for kept in ranges]


@dataclass(frozen=True)
class FramedTexts:
    """A part's FRAMED columns written as frames (`framed_texts`), in its folder or in one
    of their own (written before the rest of the part: `write_part` moves them in)."""

    folder: Path
    count: int  # papers
    shapes: dict[str, dict[str, dict[str, object]]]  # each column's arrays, as `save_framed`
    digests: dict[str, str]  # each array's, taken as it was written
    largest: dict[str, int]  # each column's longest text

    def moved(self, folder: Path) -> "FramedTexts":
        """The same, moved into another folder (of the same file system)."""
        for shapes in self.shapes.values():
            for array in shapes:
                os.replace(self.folder / f"{array}.npy", folder / f"{array}.npy")
        self.folder.rmdir()
        return replace(self, folder=folder)


def framed_texts(
    folder: Path, count: int, texts: Callable[[str], tuple[Iterable[Chunk], Array]]
) -> FramedTexts:
    """Write the FRAMED columns of `count` papers (each one's chunks and offsets, as
    `texts` gives them) as frames into a folder."""
    shapes, largest = {}, {}
    digests: dict[str, str] = {}
    for name in FRAMED:
        chunks, offsets = texts(name)
        shapes[name], framed_digests = save_framed(folder, name, chunks, offsets)
        digests |= framed_digests
        largest[name] = longest(offsets)
    return FramedTexts(folder, count, shapes, digests, largest)


def write_part(
    folder: Path,
    facts: PartFacts,
    columns: Mapping[str, Iterator[Chunk] | Array],
    index: Mapping[str, Array] | None,
    framed: FramedTexts | None = None,
) -> None:
    """Write a part into a new folder: the store's columns (as `PaperStore.arrays` gives
    them; its FRAMED ones moved in when `framed` has them written) and the index's arrays
    (None: papers alone, indexed when opened). OSError when it cannot be written."""
    folder.mkdir(parents=True)

    def texts(name: str) -> tuple[Iterable[Chunk], Array]:
        value, offsets = columns[name], columns[f"{name}_offsets"]
        assert isinstance(offsets, np.ndarray)
        return ([view(value)] if isinstance(value, np.ndarray) else value), offsets

    framed = framed_texts(folder, facts.count, texts) if framed is None else framed.moved(folder)
    shapes: dict[str, dict[str, object]] = {}
    digests: dict[str, str] = {}  # taken as each array is written
    largest: dict[str, int] = {}
    for name, value in columns.items():
        if name in FRAMED:
            shapes |= framed.shapes[name]
            largest[name] = framed.largest[name]
            digests |= {array: framed.digests[array] for array in framed.shapes[name]}
        elif name.removesuffix("_offsets") not in FRAMED:
            shapes[name], digests[name] = save_array(folder / f"{name}.npy", value)
    if index is not None:
        disk.save(folder, sources_of(facts.ranges), index)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "name": facts.name,
        "ranges": sources_of(facts.ranges),
        "count": facts.count,
        "collections": facts.collections,
        **{listed: facts.names[name] for name, listed in NAMES.items()},
        "problems": facts.problems,
        "duplicates": facts.duplicates,
        "met_before": facts.met_before,
        "made": facts.made,
        "arrays": shapes,
        "largest": largest,
        "digests": digests,
        "readings": readings(),
    }
    if facts.counts is not None:
        manifest["counts"] = facts.counts
    (folder / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


def save_framed(
    folder: Path, name: str, chunks: Iterable[Chunk], offsets: Array
) -> tuple[dict[str, dict[str, object]], dict[str, str]]:
    """Write a text column as frames (core.frames): the frames, their offsets and their
    dictionary; what each array is, and its digest."""
    with bytes_file(folder / f"{name}.npy") as into:
        places, dictionary = framed(chunks, offsets, into)
    shapes: dict[str, dict[str, object]] = {name: {"dtype": "|u1", "shape": [int(places[-1])]}}
    digests = {name: into.digest}
    for array, value in (
        (f"{name}_offsets", places),
        (f"{name}_dictionary", np.frombuffer(dictionary, dtype=np.uint8)),
    ):
        shapes[array], digests[array] = save_array(folder / f"{array}.npy", value)
    return shapes, digests


def replace_index(part: OpenPart, index: Mapping[str, Array]) -> None:
    """Keep a new index in a part, in place of one of another version (or a damaged one);
    OSError when it cannot be written."""
    disk.replace(part.folder, sources_of(part.facts.ranges), index)


def save_array(path: Path, value: Iterator[Chunk] | Array) -> tuple[dict[str, object], str]:
    """Write an array, or bytes given as chunks (written one after the other, not joined);
    what it is, and its digest, taken as it was written."""
    if isinstance(value, np.ndarray):
        digest = disk.save_array(path, value)
        return {"dtype": value.dtype.str, "shape": list(value.shape)}, digest
    size = 0
    with bytes_file(path) as stream:
        for chunk in value:
            size += stream.write(chunk)
    return {"dtype": "|u1", "shape": [size]}, stream.digest


def open_part(folder: Path, name: str) -> OpenPart:
    """The part kept in a folder, by memory map; Rejected when it is not a sound one, or not
    the part of this name. A part whose index cannot be used is opened without it."""
    manifest = read_manifest(folder, name)
    facts = _facts(folder, manifest)
    arrays = {array: array_of(folder, array, described) for array, described in manifest["arrays"]}
    check_store(folder, arrays, manifest["count"], facts.names)
    for framed_name in FRAMED:
        if not usable(arrays[f"{framed_name}_dictionary"]):
            raise Rejected(f"{folder}: {framed_name}_dictionary is not a zstd dictionary")
    try:
        index: IndexPart | None = disk.open_part(folder, sources_of(facts.ranges))
    except disk.Rejected:
        index = None
    if index is not None and len(index) != facts.count:
        index = None
    return OpenPart(folder, facts, arrays, index)


def read_manifest(folder: Path, name: str) -> dict[str, Any]:
    try:
        manifest = disk.read_manifest(folder, (FORMAT, VERSION), None, MANIFEST_LIMIT)
    except disk.Rejected as error:
        raise Rejected(str(error)) from None
    shapes = {
        "name": str,
        "ranges": list,
        "collections": list,
        "collection_names": list,
        "source_names": list,
        "category_names": list,
        "problems": list,
        "duplicates": int,
        "met_before": int,
        "count": int,
        "made": float,
        "arrays": dict,
    }
    for key, kind in shapes.items():
        if not isinstance(manifest.get(key), kind):
            raise Rejected(f"{folder}: the manifest has no {key}")
    if manifest["name"] != name:
        raise Rejected(f"{folder}: not the part {name}")
    largest = manifest.get("largest", {})  # none kept by an earlier version
    if not isinstance(largest, dict) or any(type(v) is not int for v in largest.values()):
        raise Rejected(f"{folder}: the manifest's largest are not lengths")
    for key in ("collections", "collection_names", "source_names", "category_names", "problems"):
        if not all(isinstance(item, str) for item in manifest[key]):
            raise Rejected(f"{folder}: the manifest's {key} are not all text")
    arrays = manifest["arrays"]
    if set(arrays) != set(TYPES):
        raise Rejected(f"{folder}: the manifest lists other arrays")
    manifest["arrays"] = [(array, arrays[array]) for array in sorted(arrays)]
    return manifest


def _facts(folder: Path, manifest: Mapping[str, Any]) -> PartFacts:
    ranges = [FileRange.from_json(kept) for kept in manifest["ranges"]]
    if not ranges:
        raise Rejected(f"{folder}: a part of no file")
    if stale := [r.path for r in ranges if not read_as_now(r.path, manifest.get("readings"))]:
        raise OtherVersion(f"{folder}: {stale[0]} is read otherwise now")
    counts = manifest.get("counts")  # none kept by an earlier version
    if counts is not None and (
        not isinstance(counts, list)
        or any(type(count) is not int or count < 0 for count in counts)
        or len(counts) != len(ranges)
        or sum(counts) != manifest["count"]
    ):
        raise Rejected(f"{folder}: the manifest's counts are not its ranges' papers")
    return PartFacts(
        manifest["name"],
        ranges,
        manifest["count"],
        manifest["collections"],
        {name: manifest[listed] for name, listed in NAMES.items()},
        manifest["problems"],
        manifest["duplicates"],
        manifest["met_before"],
        manifest["made"],
        manifest.get("largest", {}),
        counts,
    )


def array_of(folder: Path, name: str, described: object) -> Array:
    """An array of a folder, memory-mapped, as the manifest and the format describe it."""
    try:
        array = disk.mapped(folder, name, described)
    except disk.Rejected as error:
        raise Rejected(str(error)) from None
    if array.dtype.str != TYPES.get(name, array.dtype.str) or array.ndim != 1:
        raise Rejected(f"{folder}: {name} is not the array the manifest describes")
    return array


def check_store(
    folder: Path,
    arrays: Mapping[str, Array],
    count: int,
    names: Mapping[str, list[str]],
    texts: Mapping[str, int] | None = None,
) -> None:
    """The store's arrays agree: on how many papers, offsets that index their texts (of
    these sizes, when given: the texts are elsewhere), codes in range."""
    for name in PER_PAPER:
        if len(arrays[name]) != count:
            raise Rejected(f"{folder}: {name} is not of {wording.count(count, 'paper')}")
    offsets = {f"{name}_offsets": name for name in TEXTS} | {"category_starts": "category_codes"}
    for name, indexed in offsets.items():
        places = arrays[name]
        size = len(arrays[indexed]) if texts is None or indexed not in texts else texts[indexed]
        if (
            len(places) != count + 1
            or places[0] != 0
            or places[-1] != size
            or np.any(np.diff(places) < 0)
        ):
            raise Rejected(f"{folder}: {name} does not index {indexed}")
    coded = {"category_codes" if name == "categories" else name: name for name in NAMES}
    for name, listed in coded.items():
        codes, known = arrays[name], names[listed]
        if len(codes) and (codes.min() < 0 or codes.max() >= len(known)):
            raise Rejected(f"{folder}: {name} names what the manifest does not")
    numbers = arrays["sorted_numbers"]
    if count and (numbers.min() < 0 or numbers.max() >= count):
        raise Rejected(f"{folder}: sorted_numbers are not paper numbers")


@dataclass
class ReadPapers:
    """The papers of a part being made, as they are read."""

    store: PaperStore = field(default_factory=PaperStore)
    problems: list[str] = field(default_factory=list)
    duplicates: int = 0
    met_before: int = 0  # of those, papers the parts before hold


def read_part(
    ranges: Sequence[tuple[Path, int, int, int]],
    before: Sequence[PaperStore],
    load_filter: LoadFilter = NO_FILTER,
) -> ReadPapers:
    """The papers of these ranges of files (file, start, first line, end), in order, that
    the filter admits, but those the stores of the parts before hold. LoadError when a file
    cannot be read so."""
    read = ReadPapers()
    for path, start, line, end in ranges:
        for item in iter_file(path, load_filter, start=start, line=line, end=end):
            if isinstance(item, str):
                read.problems.append(item)
            else:
                _add(read, item, before)
    return read


def _add(read: ReadPapers, batch: PaperColumns, before: Sequence[PaperStore]) -> None:
    """Add the papers of a batch no part before holds."""
    if not len(batch):
        return
    ids = batch.ids
    known = np.zeros(len(ids), dtype=bool)
    for store in before:
        known |= store.positions_of(ids) >= 0
    read.met_before += int(np.count_nonzero(known))
    if known.any():
        batch = batch.taking(np.flatnonzero(~known).tolist())
    new = read.store.extend(batch)
    read.duplicates += len(ids) - new
