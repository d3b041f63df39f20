"""An index's words with their postings, over the parts the index is kept in.

A part (core.flat.parts) numbers its own words alphabetically and its papers from 0; the
vocabulary numbers the words of all parts alphabetically (a lexicon, core.flat.lexicon) and
the papers one part after the other. Each part knows where its words stand among all
(`ids`, sorted as its own are): a word's papers are its papers in each part holding it, and
the number of papers holding a word, which ranks by rarity, is summed over the parts. A
vocabulary of one part is that part's own, read as it is.
"""

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.words import Array

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
Ids = npt.NDArray[np.int32]

PREFIX_WORDS_MAX = 400  # a short prefix ("co") matches the most common words only
SHORT_PREFIX_WORDS = {1: 25, 2: 100}
DENSE_FROM, DENSE_SHARE = 65536, 16  # from so many papers, a word of 1/16 of them is a bitmap


@dataclass(frozen=True)
class VocabularyPart:
    """A part's postings of each field (`FIELD_offsets` by its own word ids, `FIELD_papers`
    numbered within the part), the number of its first paper, and where its words stand among
    all (None: its words are all the words)."""

    arrays: Mapping[str, Array]
    base: int
    ids: Ids | None = None


class Vocabulary:
    """Indexed words (by id: their alphabetical rank) with their postings in each field."""

    def __init__(
        self, words: Sequence[str], parts: Sequence[VocabularyPart], fields: tuple[str, ...]
    ) -> None:
        self.words = words
        self._parts = [
            (
                part.base,
                part.ids,
                # Plain arrays: slicing a memmap costs a Python object each.
                {
                    name: (
                        np.asarray(part.arrays[f"{name}_offsets"]),
                        np.asarray(part.arrays[f"{name}_papers"]),
                    )
                    for name in fields
                },
            )
            for part in parts
        ]
        self._counts: dict[str, Ints] = {}
        self.frequency = self.counts(fields[0])
        self._bitmaps: dict[tuple[str, int], npt.NDArray[np.uint8]] = {}

    def counts(self, field: str) -> Ints:
        """How many papers hold each word in the field."""
        counts = self._counts.get(field)
        if counts is None:
            parts = self._parts
            if len(parts) == 1 and parts[0][1] is None:
                counts = np.diff(parts[0][2][field][0])
            else:
                counts = np.zeros(len(self.words), dtype=np.int64)
                for _, ids, postings in parts:
                    # A part's words are distinct: each place is added to once.
                    counts[slice(None) if ids is None else ids] += np.diff(postings[field][0])
            counts = self._counts[field] = counts
        return counts

    def id_of(self, word: str) -> int | None:
        place = bisect_left(self.words, word)
        if place < len(self.words) and self.words[place] == word:
            return place
        return None

    def prefixed(self, stem: str) -> npt.NDArray[np.int32]:
        """Ids of the words beginning with the stem; only the commonest when there are many."""
        start = bisect_left(self.words, stem)
        end = bisect_left(self.words, stem + "\U0010ffff", start)
        ids = np.arange(start, end, dtype=np.int32)
        most = SHORT_PREFIX_WORDS.get(len(stem), PREFIX_WORDS_MAX)
        if len(ids) > most:
            ids = ids[np.argsort(-self.frequency[ids], kind="stable")[:most]]
        return ids

    def papers(self, field: str, ids: npt.NDArray[np.int32 | np.int64] | list[int]) -> Array:
        """The numbers of the papers holding any of these words in the field (a paper once
        for each word it holds)."""
        wanted = np.asarray(ids, dtype=np.int64)
        found: list[Array] = []
        for base, part_ids, postings in self._parts:
            offsets, papers = postings[field]
            local = wanted if part_ids is None else _places(part_ids, wanted)
            starts, ends = offsets[local].tolist(), offsets[local + 1].tolist()
            held = [papers[start:end] for start, end in zip(starts, ends, strict=True)]
            if held:
                joined = np.concatenate(held)
                found.append(joined + base if base else joined)
        if len(found) == 1:
            return found[0]
        return np.concatenate(found) if found else np.zeros(0, dtype=np.int32)

    def mark(self, scores: Floats, field: str, ids: list[int], value: float) -> None:
        """Give the papers having any of these words the value, called with values lowest
        first so that a paper keeps its best. A word of many papers is read as a bitmap of
        all papers (made once), eight times smaller than its postings: the words of a
        one-letter prefix are a few bitmaps or'ed, not millions of numbers; and a pass of
        `maximum` over all the scores costs the same at any share of papers, where writing
        through a mask of most of them cost 5x more."""
        many = len(scores) // DENSE_SHARE if len(scores) >= DENSE_FROM else len(scores)
        words = np.asarray(ids, dtype=np.int64)
        dense = self.counts(field)[words] > many
        if dense.any():
            bitmaps = [self._bitmap(field, i, len(scores)) for i in words[dense].tolist()]
            having = np.unpackbits(np.bitwise_or.reduce(bitmaps), count=len(scores))
            np.maximum(scores, np.multiply(having, value, dtype=np.float32), out=scores)
        if not dense.all():
            scores[self.papers(field, words[~dense])] = value  # the values come lowest first

    def _bitmap(self, field: str, word: int, count: int) -> npt.NDArray[np.uint8]:
        bitmap = self._bitmaps.get((field, word))
        if bitmap is None:
            having = np.zeros(count, dtype=bool)
            having[self.papers(field, [word])] = True
            bitmap = self._bitmaps[field, word] = np.packbits(having)
        return bitmap

    def warm(self, count: int) -> None:
        """Decode the words, and make the bitmaps of the commonest words."""
        self.words = self.words[:]
        if count < DENSE_FROM:
            return
        for field in self._parts[0][2]:
            for word in np.flatnonzero(self.counts(field) > count // DENSE_SHARE).tolist():
                self._bitmap(field, word, count)


def _places(ids: Ids, wanted: Ints) -> Ints:
    """The places among a part's words (whose ids these are, sorted) of the wanted words it
    has."""
    if not len(ids):
        return wanted[:0]
    places: Ints = np.searchsorted(ids, wanted).clip(max=len(ids) - 1)
    found: Ints = places[ids[places] == wanted]
    return found
