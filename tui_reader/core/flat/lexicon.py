"""The words of an index kept in parts, numbered as one index numbers them.

Each part numbers its own words alphabetically. A lexicon is the sorted union of the parts'
words (as UTF-8 with offsets, core.flat.words) with, for each part, the places of its words in
it (`ids`, increasing as the part's own numbering does): an index of all the parts' papers
built at once would have these words, numbered so. A lexicon is made from another by taking
parts away (the words no part left holds go) and adding parts (their words not yet there are
put in their places): the words of a day's papers are looked up among a million papers'
(thousands of look-ups, each reading twenty words), and the rest is done on whole arrays.
"""

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.words import Array

Ids = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Lexicon:
    """Sorted words as UTF-8 (`data`) with offsets, and the places among them of each part's
    words."""

    data: Array
    offsets: Array
    ids: list[Ids]

    @classmethod
    def of_part(cls, data: Array, offsets: Array) -> "Lexicon":
        """The lexicon of one part: its own words."""
        return cls(data, offsets, [np.arange(len(offsets) - 1, dtype=np.int32)])

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def without(self, dropped: Sequence[int]) -> "Lexicon":
        """This lexicon without the parts at these places, nor the words only they held."""
        gone = set(dropped)
        kept = [ids for place, ids in enumerate(self.ids) if place not in gone]
        used = np.zeros(len(self), dtype=bool)
        for ids in kept:
            used[ids] = True
        if used.all():
            return Lexicon(self.data, self.offsets, kept)
        renumbered = (np.cumsum(used) - 1).astype(np.int32)
        lengths = np.diff(self.offsets)
        data = np.asarray(self.data)[np.repeat(used, lengths)]
        offsets = np.concatenate(([0], np.cumsum(lengths[used]))).astype(np.int64)
        return Lexicon(data, offsets, [renumbered[ids] for ids in kept])

    def adding(self, data: Array, offsets: Array) -> "Lexicon":
        """This lexicon with one more part, of these words (sorted, as UTF-8 with offsets),
        put last."""
        mine, theirs = _encoded(self.data, self.offsets), _encoded(data, offsets)
        places = np.fromiter(
            (bisect_left(mine, word) for word in theirs), dtype=np.int64, count=len(theirs)
        )
        known = np.zeros(len(theirs), dtype=bool)
        for at in np.flatnonzero(places < len(mine)).tolist():
            known[at] = mine[int(places[at])] == theirs[at]
        new_places = places[~known]
        # A word put in before a place moves it, and the words after it, one further on.
        moved = np.arange(len(mine), dtype=np.int64)
        moved += np.searchsorted(new_places, moved, side="right")
        part_ids = np.empty(len(theirs), dtype=np.int64)
        part_ids[known] = moved[places[known]]
        # A new word lands after the words (new or not) before it.
        part_ids[~known] = new_places + np.arange(len(new_places))
        ids = [moved[ids].astype(np.int32) for ids in self.ids]
        if not len(new_places):
            return Lexicon(self.data, self.offsets, [*ids, part_ids.astype(np.int32)])
        bounds = np.asarray(offsets, dtype=np.int64)
        their_lengths = (bounds[1:] - bounds[:-1])[~known]
        inserted = np.concatenate(
            [np.asarray(data)[begin:end] for begin, end in _bounds(offsets, ~known)]
        )
        at = np.repeat(np.asarray(self.offsets, dtype=np.int64)[new_places], their_lengths)
        joined_data = np.insert(np.asarray(self.data, dtype=np.uint8), at, inserted)
        lengths = np.insert(np.diff(self.offsets), new_places, their_lengths)
        joined_offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
        return Lexicon(joined_data, joined_offsets, [*ids, part_ids.astype(np.int32)])


def joined(vocabularies: Sequence[tuple[Array, Array]]) -> Lexicon:
    """The lexicon of parts of these vocabularies (sorted words as UTF-8 with offsets): the
    words of the others are put among those of the one of most words."""
    sizes = [len(offsets) - 1 for _, offsets in vocabularies]
    biggest = sizes.index(max(sizes))
    lexicon = Lexicon.of_part(*vocabularies[biggest])
    for place, (data, offsets) in enumerate(vocabularies):
        if place != biggest:
            lexicon = lexicon.adding(data, offsets)
    order = [biggest, *(place for place in range(len(sizes)) if place != biggest)]
    ids: list[Ids] = [np.zeros(0, dtype=np.int32)] * len(sizes)
    for place, part_ids in zip(order, lexicon.ids, strict=True):
        ids[place] = part_ids
    return Lexicon(lexicon.data, lexicon.offsets, ids)


def _bounds(offsets: Array, chosen: npt.NDArray[np.bool_]) -> list[tuple[int, int]]:
    """The byte ranges of the chosen words, runs of neighbours as one range."""
    places = np.flatnonzero(chosen)
    if not len(places):
        return []
    breaks = np.flatnonzero(np.diff(places) > 1)
    firsts = np.concatenate(([places[0]], places[breaks + 1]))
    lasts = np.concatenate((places[breaks], [places[-1]]))
    bounds = np.asarray(offsets, dtype=np.int64)
    return list(zip(bounds[firsts].tolist(), bounds[lasts + 1].tolist(), strict=True))


def _encoded(data: Array, offsets: Array) -> list[bytes]:
    """Words as UTF-8, compared as bytes (which sort as the words do), without decoding: a
    list, which `bisect` searches in C."""
    raw = np.asarray(data).tobytes()
    return [raw[begin:end] for begin, end in pairwise(np.asarray(offsets).tolist())]
