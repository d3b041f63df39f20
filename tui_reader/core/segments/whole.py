"""An entry written from papers loaded and indexed whole: one part a file.

The papers of a load are numbered file after file, so each file's are a run of them; the
store's columns and the index (core.flat.split) are cut at the runs' ends. Each part's range
is the whole file as it is when the entry is written. Whether a file's papers met in an
earlier file were dropped, or how many of its own it met again, is not known then (-1).
"""

import json
import secrets
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from tui_reader.core.columns import Chunk
from tui_reader.core.flat import disk
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.flat.split import split
from tui_reader.core.loading import NO_FILTER, LoadFilter
from tui_reader.core.paper_columns import TEXTS
from tui_reader.core.segments.entry import FORMAT, PARTS, VERSION, folder_for, save_arrays
from tui_reader.core.segments.filtered import as_json
from tui_reader.core.segments.papers_view import View, joined_store
from tui_reader.core.segments.part import MANIFEST, PartFacts, open_part, write_part
from tui_reader.core.segments.ranges import FileRange, identity, scanned
from tui_reader.core.store import Array, PaperStore
from tui_reader.core.text import displayed
from tui_reader.core.writing import writing_prefix

Columns = dict[str, Iterator[Chunk] | Array]


@dataclass(frozen=True)
class FilesRead:
    """The files of an entry as they are when it is written: each one's identity, and its
    range read whole (every byte inflated and summed: seconds at a million papers)."""

    sources: list[dict[str, object]]
    ranges: list[FileRange]


def files_read(files: Sequence[Path]) -> FilesRead:
    """The files as an entry of them keeps them; OSError when one cannot be read, ValueError
    when a gzip file's bytes are not whole members."""
    sources = [identity(file) for file in files]
    ranges = [
        scanned(file.resolve(), 0, int(str(source["size"])))
        for file, source in zip(files, sources, strict=True)
    ]
    return FilesRead(sources, ranges)


_SLICED = ("years", "flags", "collections", "sources", "keys", "dates", "headline_ranks")


def write_whole(
    root: Path,
    files: Sequence[Path],
    store: PaperStore,
    index: FlatIndex | None,
    problems: Sequence[str],
    duplicates: int,
    added: Sequence[tuple[int, float]] = (),
    load_filter: LoadFilter = NO_FILTER,
    read: FilesRead | None = None,
) -> Path | None:
    """Write the entry of these files from their papers (those the filter admits), loaded
    file after file, and their index (None: the papers of one file alone), noting the
    papers `added` as taken in (core.segments.added); its folder, or None when the papers
    are not runs of the files'. The files are read whole unless `read` says what they are
    (read while the index was finished), and is of these files. OSError when it cannot be
    written."""
    named, names = store.arrays()
    cuts = _cuts(np.asarray(named["sources"]), names["sources"], files)
    if cuts is None or (index is None and len(files) > 1):
        return None
    paths = [str(file.resolve()) for file in files]
    if read is None or [source["path"] for source in read.sources] != paths:
        read = files_read(files)
    sources, ranges = read.sources, read.ranges
    root.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=writing_prefix(), dir=root))
    try:
        folder = temporary / PARTS
        if len(files) == 1:
            facts = _facts(ranges[0], len(store), store.collections, names, problems)
            facts = replace(facts, duplicates=duplicates, met_before=0)
            write_part(folder / facts.name, facts, named, None if index is None else index.arrays)
            parts, arrays = [facts.name], dict[str, object]()
        else:
            assert index is not None
            parts, arrays = _write_parts(temporary, named, names, index, cuts, ranges, problems)
        manifest: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "files": [str(file.resolve()) for file in files],
            "filter": as_json(load_filter),
            "sources": sources,
            "parts": parts,
            "count": len(store),
            "problems": list(problems),
            "duplicates": duplicates,
            "added": list(added),
            "arrays": arrays,
            "digests": disk.digests(temporary, arrays),
        }
        (temporary / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
        final = folder_for(root, files, load_filter)
        disk.put_in_place(temporary, final)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    return final


def _facts(
    kept: FileRange,
    count: int,
    collections: Sequence[str],
    names: dict[str, list[str]],
    problems: Sequence[str],
) -> PartFacts:
    """A part's facts, of papers met again not known."""
    return PartFacts(
        secrets.token_hex(8), [kept], count, list(collections), names, list(problems), -1, -1
    )


def _write_parts(
    entry: Path,
    named: Columns,
    names: dict[str, list[str]],
    index: FlatIndex,
    cuts: list[int],
    ranges: list[FileRange],
    problems: Sequence[str],
) -> tuple[list[str], dict[str, object]]:
    """Write a part for each run of papers, and the view that joins them; their names, and
    what the view's manifest says."""
    texts = {name: list(named[name]) for name in TEXTS}
    index_parts, lexicons = split(index.arrays, cuts)
    written = []
    for (first, stop), kept, arrays in zip(pairwise(cuts), ranges, index_parts, strict=True):
        columns = _columns(named, texts, first, stop)
        codes = np.asarray(named["collections"])[first:stop]
        seen = np.unique(codes, return_index=True)
        collections = [names["collections"][code] for code in seen[0][np.argsort(seen[1])]]
        told = f"{displayed(kept.path)}:"
        own = [problem for problem in problems if problem.startswith(told)]
        facts = _facts(kept, stop - first, collections, names, own)
        if not first:  # no part before it
            facts = replace(facts, met_before=0)
        write_part(entry / PARTS / facts.name, facts, columns, arrays)
        written.append(open_part(entry / PARTS / facts.name, facts.name))
    ranks = np.asarray(named["headline_ranks"], dtype=np.int64)
    part_names = [part.facts.name for part in written]
    view = View(part_names, [part.facts.count for part in written], lexicons, ranks)
    arrays, _ = joined_store(written, ranks)
    return part_names, save_arrays(entry, arrays | view.arrays())


def _columns(named: Columns, texts: Mapping[str, list[Chunk]], first: int, stop: int) -> Columns:
    """The store's columns of papers `first` to `stop`, as `PaperStore.arrays` gives them."""
    columns: Columns = {}
    for name in TEXTS:
        offsets = np.asarray(named[f"{name}_offsets"])
        begin, end = int(offsets[first]), int(offsets[stop])
        columns[name] = _bytes(texts[name], begin, end)
        columns[f"{name}_offsets"] = offsets[first : stop + 1] - begin
    starts = np.asarray(named["category_starts"])
    columns["category_starts"] = starts[first : stop + 1] - starts[first]
    columns["category_codes"] = np.asarray(named["category_codes"])[starts[first] : starts[stop]]
    for name in _SLICED:
        columns[name] = np.asarray(named[name])[first:stop]
    keys = np.asarray(named["keys"])[first:stop]
    numbers = np.argsort(keys, kind="stable").astype(np.int64)
    columns["sorted_keys"], columns["sorted_numbers"] = keys[numbers], numbers
    return columns


def _bytes(chunks: list[Chunk], begin: int, end: int) -> Iterator[Chunk]:
    """Bytes `begin` to `end` of chunks laid one after the other."""
    start = 0
    for chunk in chunks:
        stop = start + len(chunk)
        if stop > begin and start < end:
            yield chunk[max(begin - start, 0) : min(end, stop) - start]
        start = stop


def _cuts(sources: Array, source_names: list[str], files: Sequence[Path]) -> list[int] | None:
    """Where each file's papers start (and the count), by the source of each paper; None
    when they are not runs of the files' papers, in their order."""
    if len(files) == 1:
        return [0, len(sources)]
    place = {name: code for code, name in enumerate(source_names)}
    ends = [*(np.flatnonzero(np.diff(sources)) + 1).tolist(), len(sources)]
    runs = sources[[0, *ends[:-1]]].tolist() if len(sources) else []
    cuts, run = [0], 0
    for file in files:
        if run < len(runs) and runs[run] == place.get(str(file)):
            cuts.append(ends[run])
            run += 1
        else:  # none of its papers: all were met before
            cuts.append(cuts[-1])
    return cuts if run == len(runs) else None
