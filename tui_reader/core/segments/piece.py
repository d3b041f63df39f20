"""A run of a merged part's ranges cut out of it into a part of its own, its files not read.

A merged part (core.segments.merge) holds the ranges of neighbouring parts, of one file or
of several (a day's file a day). When one of its files changes, or grows before another of
its files, the part cannot be kept whole; the runs of its ranges still wanted are cut out
of it (their papers, a run of the part's, by the count of each range: `PartFacts.counts`)
rather than read again, so that an edit to one file reads that file alone. Whether a piece
still holds the papers no part before it holds is judged as for a part kept
(core.segments.entry); how many of them a file before it held is then not known.
"""

import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tui_reader.core.columns import Chunk
from tui_reader.core.flat.split import split
from tui_reader.core.paper_columns import TEXTS
from tui_reader.core.segments.part import OpenPart, PartFacts, write_part
from tui_reader.core.segments.ranges import FileRange
from tui_reader.core.store import Array
from tui_reader.core.text import displayed

Columns = dict[str, Iterator[Chunk] | Array]
_SLICED = ("years", "flags", "collections", "sources", "keys", "dates", "headline_ranks")


@dataclass(frozen=True)
class Piece:
    """Ranges `first` to `stop` of a kept part whose papers each range holds are known."""

    part: OpenPart
    first: int
    stop: int

    @property
    def ranges(self) -> list[FileRange]:
        return self.part.facts.ranges[self.first : self.stop]

    def papers(self) -> tuple[int, int]:
        """The numbers of its first paper in the part and of the one after its last."""
        counts = self.part.facts.counts
        assert counts is not None
        return sum(counts[: self.first]), sum(counts[: self.stop])


def write_piece(folder: Path, piece: Piece) -> str:
    """Write the part of a piece's papers and index into the folder of parts; its name.
    OSError when the part it is cut from has no index."""
    part, (first, stop) = piece.part, piece.papers()
    if part.index is None:
        raise OSError("a part without its index cannot be cut")
    named, names = part.store().arrays()
    texts = {name: list(named[name]) for name in TEXTS}
    columns = run_columns(named, texts, first, stop)
    index = split(part.index.arrays, [0, first, stop, part.facts.count])[0][1]
    codes = np.asarray(named["collections"])[first:stop]
    seen = np.unique(codes, return_index=True)
    told = tuple(f"{displayed(kept.path)}:" for kept in piece.ranges)
    counts = part.facts.counts
    assert counts is not None
    name = secrets.token_hex(8)
    facts = PartFacts(
        name,
        piece.ranges,
        stop - first,
        [names["collections"][code] for code in seen[0][np.argsort(seen[1])]],
        names,
        [problem for problem in part.facts.problems if problem.startswith(told)],
        -1,
        0 if first == 0 and part.facts.met_before == 0 else -1,
        counts=counts[piece.first : piece.stop],
    )
    write_part(folder / name, facts, columns, index)
    return name


def run_columns(named: Columns, texts: Mapping[str, list[Chunk]], first: int, stop: int) -> Columns:
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
