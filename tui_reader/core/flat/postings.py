"""A field's postings as an index keeps them on disk: each paper number's low 16 bits, and
where its high bits change.

A word's papers are in increasing order, so their high bits (the paper number over 65,536)
rise a few times at most within a word: 15 times at a million papers, never below 65,536.
Kept so, a posting takes 2 bytes, not 4, and a word's papers are read back with a few passes
of numpy over its postings (benchmarks/RESULTS.md, "The cache on disk"):

- `{field}_papers`: the low 16 bits of each posting (uint16);
- `{field}_high`: the high bits of each word's first posting (uint8: 16 million papers);
- `{field}_rises`: the places among the postings where the high bits rise by one within a
  word (a place twice for a rise of two).

An index built in memory holds its postings as paper numbers (int32), which read as they are.
"""

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.words import Array, Arrays

Ints = npt.NDArray[np.int64]
LOW = 16
KEPT_UP_TO = 1 << (LOW + 8)  # papers a part may hold for its postings to be kept so
SLICE = 1 << 24  # postings made at once


def kept(offsets: Array, papers: Array, field: str) -> Arrays:
    """A field's postings (int32 paper numbers, where `offsets` say each word's start) as
    kept: the arrays named above, made SLICE postings at a time."""
    places: Ints = np.asarray(offsets, dtype=np.int64)
    counts = np.diff(places)
    starts = places[:-1][counts > 0]
    low = np.empty(len(papers), dtype=np.uint16)
    first = np.zeros(len(counts), dtype=np.uint8)
    rises, before = [], 0  # the high bits of the posting before the slice
    for begin in range(0, len(papers), SLICE):
        numbers = np.asarray(papers[begin : begin + SLICE], dtype=np.int32)
        low[begin : begin + len(numbers)] = numbers & 0xFFFF
        high = (numbers >> LOW).astype(np.int16)
        steps = np.diff(high, prepend=np.int16(before))
        inside = starts[(starts >= begin) & (starts < begin + len(numbers))] - begin
        steps[inside] = 0  # a word's first posting: its high bits are `first`'s
        risen = np.flatnonzero(steps)
        rises.append(np.repeat(risen + begin, steps[risen]))
        first[counts > 0] = np.where(
            (starts >= begin) & (starts < begin + len(numbers)),
            high[np.clip(starts - begin, 0, len(numbers) - 1)],
            first[counts > 0],
        )
        before = int(high[-1])
    return {
        f"{field}_papers": low,
        f"{field}_high": first,
        f"{field}_rises": np.concatenate(rises) if rises else np.zeros(0, dtype=np.int64),
    }


def is_kept(arrays: Mapping[str, Array], field: str) -> bool:
    return f"{field}_rises" in arrays


class Postings:
    """A field's postings, read by word: kept (above) or as built."""

    def __init__(self, arrays: Mapping[str, Array], field: str) -> None:
        # Plain arrays: slicing a memmap costs a Python object each.
        self.offsets = np.asarray(arrays[f"{field}_offsets"])
        self._papers = np.asarray(arrays[f"{field}_papers"])
        self._kept = is_kept(arrays, field)
        if self._kept:
            self._high = np.asarray(arrays[f"{field}_high"]).astype(np.int32) << LOW
            self._rises = np.asarray(arrays[f"{field}_rises"])

    def of(self, words: Ints) -> list[Array]:
        """The papers of each of these words (ids of this part's own)."""
        starts, ends = self.offsets[words].tolist(), self.offsets[words + 1].tolist()
        if not self._kept:
            return [self._papers[start:end] for start, end in zip(starts, ends, strict=True)]
        papers, rises = self._papers, self._rises
        found = []
        lows = np.searchsorted(rises, starts).tolist()
        highs = np.searchsorted(rises, ends).tolist()
        for word, start, end, low, high in zip(
            words.tolist(), starts, ends, lows, highs, strict=True
        ):
            numbers = papers[start:end].astype(np.int32) | self._high[word]
            if high > low:
                rise = np.bincount(rises[low:high] - start, minlength=end - start)
                numbers += np.cumsum(rise, dtype=np.int32) << LOW
            found.append(numbers)
        return found

    def all(self) -> Array:
        """Every word's papers, one word after the other."""
        if not self._kept:
            return self._papers
        counts = np.diff(self.offsets)
        risen = np.cumsum(np.bincount(self._rises, minlength=len(self._papers)))
        before = np.zeros(len(counts), dtype=np.int64)
        before[counts > 0] = risen[self.offsets[:-1][counts > 0]]
        high = np.repeat(self._high, counts) + ((risen - np.repeat(before, counts)) << LOW)
        numbers: Array = (self._papers.astype(np.int32) | high).astype(np.int32)
        return numbers
