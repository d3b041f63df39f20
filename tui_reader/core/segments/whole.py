"""An entry written from papers loaded and indexed whole: one part a file.

The papers of a load are numbered file after file, so each file's are a run of them; the
store's columns and the index (core.flat.split) are cut at the runs' ends. Each part's range
is the whole file as it is when the entry is written. How many of a file's papers met in an
earlier file were dropped is what the store counted as it was loaded (`met_elsewhere`), not
known (-1) for a store over arrays (but when no paper was met twice); how many of its own a
file met again is not known then (-1).
"""

import json
import secrets
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from tui_reader.core.flat import disk
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.flat.split import split
from tui_reader.core.loading import NO_FILTER, LoadFilter
from tui_reader.core.paper_columns import TEXTS
from tui_reader.core.segments.entry import FORMAT, PARTS, VERSION, folder_for, save_arrays
from tui_reader.core.segments.filtered import as_json
from tui_reader.core.segments.papers_view import View, joined_store
from tui_reader.core.segments.part import (
    MANIFEST,
    FramedTexts,
    PartFacts,
    framed_texts,
    open_part,
    write_part,
)
from tui_reader.core.segments.piece import Columns, run_columns
from tui_reader.core.segments.ranges import FileRange, identity, read_whole
from tui_reader.core.store import Array, PaperStore
from tui_reader.core.text import displayed
from tui_reader.core.writing import writing_prefix


@dataclass(frozen=True)
class FilesRead:
    """The files of an entry as they are when it is written: each one's identity, and its
    range read whole (every byte inflated and summed: seconds at a million papers)."""

    sources: list[dict[str, object]]
    ranges: list[FileRange]
    framed: FramedTexts | None = None  # the store's long texts written, of one file's entry


def framed_ahead(root: Path, store: PaperStore) -> FramedTexts:
    """The store's long texts written as its entry of one file will keep them (in a
    temporary folder of the cache, which `write_whole` moves into its part, or a later prune
    removes): while the index's arrays are made after the last papers, a core is free."""
    root.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=writing_prefix(), dir=root))
    try:
        return framed_texts(folder, len(store), store.text_arrays)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def files_read(files: Sequence[Path]) -> FilesRead:
    """The files as an entry of them keeps them; OSError when one cannot be read, ValueError
    when a gzip file's bytes are not whole members."""
    sources = [identity(file) for file in files]
    ranges = [
        read_whole(file, int(str(source["size"])), int(str(source["mtime_ns"])))
        for file, source in zip(files, sources, strict=True)
    ]
    return FilesRead(sources, ranges)


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
    (read while the index was finished), and is of these files; the long texts it wrote
    of their papers are moved into the part. OSError when it cannot be written."""
    named, names = store.arrays()
    cuts = _cuts(np.asarray(named["sources"]), names["sources"], files)
    if cuts is None or (index is None and len(files) > 1):
        return None
    paths = [str(file.resolve()) for file in files]
    if read is None or [source["path"] for source in read.sources] != paths:
        read = files_read(files)
    framed = read.framed  # moved into its part: of a folder of the root, of these papers
    if framed is not None and (framed.folder.parent != root or framed.count != len(store)):
        framed = None
    sources, ranges = read.sources, read.ranges
    root.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=writing_prefix(), dir=root))
    try:
        folder = temporary / PARTS
        if len(files) == 1:
            facts = _facts(ranges[0], len(store), store.collections, names, problems)
            facts = replace(facts, duplicates=duplicates, met_before=0)
            indexed = None if index is None else index.arrays
            write_part(folder / facts.name, facts, named, indexed, framed)
            parts, (arrays, digests) = [facts.name], (dict[str, object](), dict[str, str]())
        else:
            assert index is not None
            met = _met_before(store, files, duplicates)
            parts, (arrays, digests) = _write_parts(
                temporary, named, names, index, cuts, ranges, problems, met
            )
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
            "digests": digests,
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
        secrets.token_hex(8),
        [kept],
        count,
        list(collections),
        names,
        list(problems),
        -1,
        -1,
        counts=[count],
    )


def _write_parts(
    entry: Path,
    named: Columns,
    names: dict[str, list[str]],
    index: FlatIndex,
    cuts: list[int],
    ranges: list[FileRange],
    problems: Sequence[str],
    met_before: Sequence[int],
) -> tuple[list[str], tuple[dict[str, object], dict[str, str]]]:
    """Write a part for each run of papers (of a file whose papers a file before held
    `met_before`), and the view that joins them; their names, and what the view's manifest
    says of its arrays (what each is, its digest)."""
    texts = {name: list(named[name]) for name in TEXTS}
    index_parts, lexicons = split(index.arrays, cuts)
    written = []
    for (first, stop), kept, arrays, met in zip(
        pairwise(cuts), ranges, index_parts, met_before, strict=True
    ):
        columns = run_columns(named, texts, first, stop)
        codes = np.asarray(named["collections"])[first:stop]
        seen = np.unique(codes, return_index=True)
        collections = [names["collections"][code] for code in seen[0][np.argsort(seen[1])]]
        told = f"{displayed(kept.path)}:"
        own = [problem for problem in problems if problem.startswith(told)]
        facts = replace(_facts(kept, stop - first, collections, names, own), met_before=met)
        write_part(entry / PARTS / facts.name, facts, columns, arrays)
        written.append(open_part(entry / PARTS / facts.name, facts.name))
    ranks = np.asarray(named["headline_ranks"], dtype=np.int64)
    part_names = [part.facts.name for part in written]
    view = View(part_names, [part.facts.count for part in written], lexicons, ranks)
    arrays, _ = joined_store(written, ranks)
    return part_names, save_arrays(entry, arrays | view.arrays())


def _met_before(store: PaperStore, files: Sequence[Path], duplicates: int) -> list[int]:
    """How many papers of each file a file before it held, as the store counted them; -1
    when not known."""
    counted = store.met_elsewhere
    if counted is None:
        return [0, *[0 if not duplicates else -1 for _ in files[1:]]]
    return [0, *[counted.get(str(file), 0) for file in files[1:]]]


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
