"""An index's words with their postings, over the parts the index is kept in.

A part (core.flat.parts) numbers its own words alphabetically and its papers from 0; the
vocabulary numbers the words of all parts alphabetically (a lexicon, core.flat.lexicon) and
the papers one part after the other. Each part knows where its words stand among all
(`ids`, sorted as its own are): a word's papers are its papers in each part holding it, and
the number of papers holding a word, which ranks by rarity, is summed over the parts. A
vocabulary of one part is that part's own, read as it is.
"""

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.recent import recently_used
from tui_reader.core.flat.words import Array

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
Ids = npt.NDArray[np.int32]

PREFIX_WORDS_MAX = 400  # a short prefix ("co") matches the most common words only
SHORT_PREFIX_WORDS = {1: 25, 2: 100}
DENSE_FROM, DENSE_SHARE = 65536, 16  # from so many papers, a word of 1/16 of them is a bitmap
# The rarer words one value is given to ("co": 85 of its 100 words), when their postings number
# more than 1/4 of the papers, are read as one bitmap of them all, kept: writing millions of
# postings one by one took most of such a key's search. So many are kept beyond those `warm`
# makes, the last used.
UNION_SHARE, UNIONS_KEPT = 4, 16


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
        # Bitmaps of rarer words together, by field and the words' ids: made by `warm`, and
        # the last made as asked.
        self._unions_warmed: dict[tuple[str, bytes], npt.NDArray[np.uint8]] = {}
        self._unions: dict[tuple[str, bytes], npt.NDArray[np.uint8]] = {}

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
        through a mask of most of them cost 5x more. The rarer words, when their postings are
        many, are one bitmap too (UNION_SHARE)."""
        count = len(scores)
        dense, rarer, postings = self._sorted_out(field, ids, count)
        bitmaps = [self._bitmap(field, i, count) for i in dense.tolist()]
        if _as_union(count, postings):
            bitmaps.append(self._union(field, rarer, count))
            rarer = rarer[:0]
        if bitmaps:
            having = np.unpackbits(np.bitwise_or.reduce(bitmaps), count=count)
            np.maximum(scores, np.multiply(having, value, dtype=np.float32), out=scores)
        if len(rarer):
            scores[self.papers(field, rarer)] = value  # the values come lowest first

    def union_beginnings(self, count: int, length: int) -> Iterator[str]:
        """The beginnings of `length` characters of the words whose rarer words, among so
        many papers, may be read as one bitmap (`mark`): those holding postings enough."""
        held = self.frequency
        rarer = np.concatenate([[0], np.cumsum(np.where(held <= count // DENSE_SHARE, held, 0))])
        for beginning, start, end in beginnings(self.words, length):
            if _as_union(count, int(rarer[end] - rarer[start])):
                yield beginning

    def warm_union(self, field: str, ids: list[int], count: int) -> None:
        """Make and keep the bitmap `mark` reads for the rarer of these words, when it reads one."""
        _, rarer, postings = self._sorted_out(field, ids, count)
        key = (field, np.sort(rarer).tobytes())
        if _as_union(count, postings) and key not in self._unions_warmed:
            self._unions_warmed[key] = self._union_of(field, rarer, count)

    def _sorted_out(self, field: str, ids: list[int], count: int) -> tuple[Ints, Ints, int]:
        """Of these words, among so many papers: those read as a bitmap each, the rarer, and
        how many postings the rarer have."""
        words = np.asarray(ids, dtype=np.int64)
        held = self.counts(field)[words]
        dense = held > (count // DENSE_SHARE if count >= DENSE_FROM else count)
        return words[dense], words[~dense], int(held[~dense].sum())

    def _union(self, field: str, words: Ints, count: int) -> npt.NDArray[np.uint8]:
        key = (field, np.sort(words).tobytes())
        bitmap = self._unions_warmed.get(key)
        if bitmap is not None:
            return bitmap
        return recently_used(
            self._unions, key, lambda: self._union_of(field, words, count), UNIONS_KEPT
        )

    def _union_of(self, field: str, words: Ints, count: int) -> npt.NDArray[np.uint8]:
        having = np.zeros(count, dtype=bool)
        having[self.papers(field, words)] = True
        return np.packbits(having)

    def _bitmap(self, field: str, word: int, count: int) -> npt.NDArray[np.uint8]:
        bitmap = self._bitmaps.get((field, word))
        if bitmap is None:
            having = np.zeros(count, dtype=bool)
            having[self.papers(field, [word])] = True
            bitmap = self._bitmaps[field, word] = np.packbits(having)
        return bitmap

    def warm(self, count: int, make_way: Callable[[], None]) -> None:
        """Decode the words, and make the bitmaps of the commonest words, `make_way` called
        before each."""
        self.words = self.words[:]
        if count < DENSE_FROM:
            return
        for field in self._parts[0][2]:
            for word in np.flatnonzero(self.counts(field) > count // DENSE_SHARE).tolist():
                make_way()
                self._bitmap(field, word, count)


def beginnings(words: Sequence[str], length: int) -> Iterator[tuple[str, int, int]]:
    """The distinct beginnings of `length` characters of these sorted words, each with where
    the words having it start and end."""
    place = 0
    while place < len(words):
        if len(words[place]) < length:
            place += 1
            continue
        beginning = words[place][:length]
        end = bisect_left(words, beginning + "\U0010ffff", place + 1)
        yield beginning, place, end
        place = end


def _as_union(count: int, postings: int) -> bool:
    """Whether rarer words with so many postings among so many papers are read as a bitmap."""
    return count >= DENSE_FROM and postings > count // UNION_SHARE


def _places(ids: Ids, wanted: Ints) -> Ints:
    """The places among a part's words (whose ids these are, sorted) of the wanted words it
    has."""
    if not len(ids):
        return wanted[:0]
    places: Ints = np.searchsorted(ids, wanted).clip(max=len(ids) - 1)
    found: Ints = places[ids[places] == wanted]
    return found
