"""Ranked, typo-tolerant search over the flat arrays of core.flat.build.

Every word of a query matches indexed words as typed and as a prefix. Typos are forgiven (one
edit from 5 letters, two from 9, a swap of two letters one edit; also as a prefix: "difus"
finds diffusion) only where the word as typed finds nothing, or almost nothing while a word
one typo away is in many papers (a misspelling some papers hold too): a count then means the
papers holding the word typed, never its neighbours ("convex" is not "conventional"), and the
ranking says which word a typo was read as (`Ranking.corrected`). A word with capitals matches
only words written that way (as a prefix while it is being typed). Scores add up per paper:

- how well the word matched (exact > prefix > typo);
- how rare the matched word is (inverse document frequency);
- where it matched (a title or headline counts double);
- papers matching every term rank above those matching all but one ("close").
"""

import math
import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import IO, NamedTuple, overload

import numpy as np
import numpy.typing as npt

from tui_reader.core.engine import Ranking
from tui_reader.core.flat.build import Array, Columns, build_arrays
from tui_reader.core.flat.fold import fold, phrase_text
from tui_reader.core.flat.folded_text import FoldedText
from tui_reader.core.paper import Paper
from tui_reader.core.query import Alternative, Query, Term
from tui_reader.core.store import Numbers

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
Corrected = frozenset[tuple[str, str]]  # (word typed, the word a typo of it was read as)


class Scored(NamedTuple):
    """Each paper's score for a term or an alternative, and the values those scores take
    when there are only these (empty: not known)."""

    scores: Floats
    values: frozenset[float]


EXACT, PREFIX, TYPO, TYPO_PREFIX = 1.0, 0.75, 0.55, 0.45
SECOND_TYPO = 0.25  # a word two edits away is a much weaker match than one edit away
EXACT_RARER_AT_MOST = math.log(4)  # a weight: 1 + log(papers / papers with the word)
TITLE_WEIGHT = 2.0
# A paper without a title (its headline made from its abstract) has its words weighed more,
# as if some were its title's: else it loses to every titled paper with the words in its title.
UNTITLED_WEIGHT = 1.8
PHRASE_BONUS = 1.5
# Of the best papers found, so many are read to rank first those where a word typed with
# punctuation in it ("O(1/T)", "k-nearest") stands as typed (2-3 ms a thousand: reading all
# that hold its words took 80 ms a key at a million).
JOINED_RANKED = 1000
PREFIX_WORDS_MAX = 400  # a short prefix ("co") matches the most common words only
SHORT_PREFIX_WORDS = {1: 25, 2: 100}
TERM_SCALE = 1000.0  # a paper matching one more term always ranks higher
CLOSENESS_TOP = 30  # the best papers that are ranked again by how close their terms stand
CLOSENESS_WEIGHT = 2.0
# Scores of recent alternatives kept for the next keys (and for Backspace): so many at most.
SCORES_KEPT, SCORES_KEPT_BYTES = 16, 48_000_000
DENSE_FROM, DENSE_SHARE = 65536, 16  # from so many papers, a word of 1/16 of them is a bitmap
RANKED_EXACTLY = 1000  # of many papers found, the best ranked by their exact score
FEW_VALUES = 12  # a word's papers are ranked a score at a time while it gives so few
# Papers matching all terms but one are listed after the full matches while these are fewer:
# past a thousand full matches nobody scrolls to them, and ranking them (most of a million
# papers for "diffusion m") took most of a key's search.
CLOSE_UNDER = 1000
RELATED_WORDS = 40  # a paper's most telling words that find the papers most like it
_WORDS = re.compile(r"\w+")


TYPOS_FROM = 5  # letters a word needs before a typo in it is forgiven
# A word as typed in so few papers is read as a typo too when a word a typo away is in many
# times more: "adverserial" is in a few abstracts, adversarial in 1,934.
ALMOST_NOTHING, TYPO_OUTNUMBERS = 3, 20


def _within(word: str, choices: Sequence[str], edits: int) -> list[tuple[str, int, int]]:
    """The choices at most `edits` edits from the word: (choice, edits, place)."""
    # Imported by the first search, not at every start (13 ms).
    from rapidfuzz import process
    from rapidfuzz.distance import OSA  # two letters swapped are one edit: "bayesain"

    return process.extract(word, choices, scorer=OSA.distance, score_cutoff=edits, limit=None)


def _typos_allowed(word: str) -> int:
    # A word of four letters has too many neighbours: `sati` matched 332,433 of a million
    # papers where `sat` matched 52,560, and `band` matched "and".
    return 0 if len(word) < TYPOS_FROM else 1 if len(word) < 9 else 2


class _Words(Sequence[str]):
    """Sorted strings kept as UTF-8 with offsets (core.flat.build), each decoded when it is
    read: a search opens the index without decoding the whole vocabulary (0.2 s at 100,000
    papers), and a look-up by `bisect` decodes the twenty it compares. UTF-8 sorts as the
    strings do. A long-lived index decodes them all (`[:]`): `bisect` on a list is C."""

    def __init__(self, data: Array, offsets: Array) -> None:
        self._data = np.asarray(data).tobytes()
        self._offsets = np.asarray(offsets, dtype=np.int64)

    def __len__(self) -> int:
        return len(self._offsets) - 1

    @overload
    def __getitem__(self, place: int) -> str: ...

    @overload
    def __getitem__(self, place: slice) -> list[str]: ...

    def __getitem__(self, place: int | slice) -> str | list[str]:
        offsets = self._offsets
        if isinstance(place, slice):
            start, stop, _ = place.indices(len(self))
            bounds = offsets[start : max(start, stop) + 1].tolist()
            data = self._data
            return [data[begin:end].decode() for begin, end in pairwise(bounds)]
        if place < 0:
            place += len(self)
        if not 0 <= place < len(self):
            raise IndexError(f"word {place} of {len(self)}")
        begin, end = offsets[place : place + 2].tolist()
        return self._data[begin:end].decode()


class _Vocabulary:
    """Indexed words (by id: their alphabetical rank) with their postings in each field."""

    def __init__(self, arrays: Mapping[str, Array], prefix: str, fields: tuple[str, ...]):
        words = _Words(arrays[f"{prefix}words"], arrays[f"{prefix}words_offsets"])
        self.words: Sequence[str] = words
        self.postings = {  # plain arrays: slicing a memmap costs a Python object each
            name: (np.asarray(arrays[f"{name}_offsets"]), np.asarray(arrays[f"{name}_papers"]))
            for name in fields
        }
        offsets = self.postings[fields[0]][0]
        self.frequency = np.diff(offsets)
        self._bitmaps: dict[tuple[str, int], npt.NDArray[np.uint8]] = {}

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
        offsets, papers = self.postings[field]
        ids = np.asarray(ids, dtype=np.int64)
        starts, ends = offsets[ids].tolist(), offsets[ids + 1].tolist()
        parts = [papers[start:end] for start, end in zip(starts, ends, strict=True)]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)

    def mark(self, scores: Floats, field: str, ids: list[int], value: float) -> None:
        """Give the papers having any of these words the value, called with values lowest
        first so that a paper keeps its best. A word of many papers is read as a bitmap of
        all papers (made once), eight times smaller than its postings: the words of a
        one-letter prefix are a few bitmaps or'ed, not millions of numbers; and a pass of
        `maximum` over all the scores costs the same at any share of papers, where writing
        through a mask of most of them cost 5x more."""
        offsets = np.asarray(self.postings[field][0], dtype=np.int64)
        many = len(scores) // DENSE_SHARE if len(scores) >= DENSE_FROM else len(scores)
        words = np.asarray(ids, dtype=np.int64)
        dense = offsets[words + 1] - offsets[words] > many
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
        """Make the bitmaps of the commonest words."""
        for field, (offsets, _) in self.postings.items():
            if count >= DENSE_FROM:
                for word in np.flatnonzero(np.diff(offsets) > count // DENSE_SHARE).tolist():
                    self._bitmap(field, word, count)


class FlatIndex:
    """A search engine over the arrays of core.flat.build (in memory, or memory-mapped by
    core.flat.disk). Meets core.engine.SearchEngine. `text` reads the `text` array from its
    file, where its bytes start at `text_start`."""

    def __init__(self, arrays: Mapping[str, Array], text: IO[bytes], text_start: int = 0) -> None:
        self._count = int(np.asarray(arrays["papers"])[0])
        self._words = _Vocabulary(arrays, "", ("all", "title", "author", "venue"))
        self._cased = _Vocabulary(arrays, "cased_", ("cased",))
        self._text = FoldedText(text, text_start, np.asarray(arrays["text_offsets"]))
        self._arrays = arrays
        self._compounds: tuple[Sequence[str], Sequence[str]] | None = None  # joined, written
        self._weight = self._weights(self._words.frequency)
        self._cased_weight = self._weights(self._cased.frequency)
        self._starting: list[str] | None = None  # the letters words start with
        self._beginnings: dict[tuple[int, str], tuple[list[str], list[int]]] = {}
        # Each alternative's scores, the words it matched and the typos read: for the next keys.
        self._scored: dict[tuple[object, ...], tuple[Scored, frozenset[str], Corrected]] = {}
        self._paper_lengths: Floats | None = None  # the square root of each paper's words
        untitled = np.flatnonzero(np.asarray(arrays["untitled"]))
        # Weighed up only among titled papers: among papers all untitled it changes nothing.
        self._untitled = untitled if len(untitled) < self._count else untitled[:0]
        # The last phrase looked for in the text (and whether its last word was whole), and
        # whether each paper was read and found not to hold it: such a paper cannot hold a
        # longer phrase beginning with it, unless that word was whole ("sparse a" is not in
        # "sparse attention").
        self._lacking: tuple[bytes, bool, npt.NDArray[np.bool_]] | None = None

    @classmethod
    def of(cls, papers: Sequence[Paper] | Columns) -> "FlatIndex":
        """The index of these papers, built in memory."""
        return cls(*build_arrays(papers))

    @property
    def arrays(self) -> Mapping[str, Array]:
        """The arrays it answers from, to keep on disk (core.flat.disk.save)."""
        return self._arrays

    def _weights(self, frequencies: Ints) -> Floats:
        return (1 + np.log(max(self._count, 1) / np.maximum(frequencies, 1))).astype(np.float32)

    def __len__(self) -> int:
        return self._count

    def warm(self) -> None:
        """Decode the vocabularies and make the bitmaps of the commonest words, ahead of
        time (0.8 s at a million papers)."""
        for vocabulary in (self._words, self._cased):
            vocabulary.words = vocabulary.words[:]
        self._paper_words()
        self._highlighted([])
        assert self._compounds is not None
        self._compounds = (self._compounds[0][:], self._compounds[1][:])
        self._words.warm(self._count)
        self._cased.warm(self._count)
        self._first_letters()  # the beginnings typos need are made as asked: 1-4 ms each
        _within("", [], 0)  # imports what finds typos

    # Which indexed words a query word matches

    def _first_letters(self) -> list[str]:
        """Every character an indexed word starts with."""
        if self._starting is None:
            words, letters, place = self._words.words, [], 0
            while place < len(words):
                if not words[place]:
                    place += 1
                    continue
                letters.append(words[place][0])
                place = bisect_left(words, letters[-1] + "\U0010ffff", place + 1)
            self._starting = letters
        return self._starting

    def _typo_words(self, word: str) -> list[tuple[str, int]]:
        """Indexed words within the typos allowed of the word, with their distance; of those
        starting with another letter, only the ones a single edit away (_matching keeps no
        others: "cotraining" is not two typos of "training")."""
        allowed = _typos_allowed(word)
        if not allowed:
            return []
        words = self._words.words
        # The words starting with the same letter are neighbours in the sorted vocabulary.
        start = bisect_left(words, word[0])
        end = bisect_left(words, word[0] + "\U0010ffff", start)
        found = [
            (match, int(distance))
            for match, distance, _ in _within(word, words[start:end], allowed)
        ]
        # One edit of the first letter: replaced, another put before it, or it left out.
        letters = self._first_letters()
        edited = {letter + word[1:] for letter in letters} | {letter + word for letter in letters}
        edited.add(word[1:])
        for text in edited:
            if text[:1] != word[0] and self._words.id_of(text) is not None:
                found.append((text, 1))
        return found

    def _beginnings_of(self, length: int, letter: str) -> tuple[list[str], list[int]]:
        """The distinct beginnings of `length` letters of the words starting with `letter`,
        and where their words start in the sorted vocabulary (words sharing a beginning are
        neighbours there)."""
        if (length, letter) not in self._beginnings:
            words = self._words.words
            first = bisect_left(words, letter)
            last = bisect_left(words, letter + "\U0010ffff", first)
            starts: dict[str, int] = {}
            for position, word in enumerate(words[first:last], first):
                if len(word) >= length:
                    starts.setdefault(word[:length], position)
            self._beginnings[length, letter] = (list(starts), list(starts.values()))
        return self._beginnings[length, letter]

    def _typo_prefix_words(self, stem: str) -> list[int]:
        """Ids of words whose beginning is one edit from the stem ("difus" → diffusion)."""
        if len(stem) < TYPOS_FROM:
            return []
        found: list[int] = []
        words, letters = self._words.words, self._first_letters()
        # Beginnings as long as the stem are one letter replaced, one letter longer one put in.
        for length, edited in (
            (len(stem), {letter + stem[1:] for letter in letters}),
            (len(stem) + 1, {letter + stem for letter in letters}),
        ):
            beginnings, starts = self._beginnings_of(length, stem[0])
            near = [
                (int(distance), beginnings[place], starts[place])
                for _, distance, place in _within(stem, beginnings, 1)
            ]
            for text in edited:  # one edit of the first letter: a word beginning so
                place = bisect_left(words, text)
                if text[0] != stem[0] and place < len(words) and words[place].startswith(text):
                    near.append((1, text, place))
            for _, beginning, start in sorted(near):
                end = bisect_left(words, beginning + "\U0010ffff", start)
                found += range(start, min(end, start + PREFIX_WORDS_MAX))
                if len(found) > PREFIX_WORDS_MAX * 4:
                    return found
        return found

    def _matching(
        self,
        alternative: Alternative,
        word: str,
        last: bool,
        negated: bool,
        cased: bool,
        whole: bool = False,
    ) -> tuple[dict[int, float], str]:
        """Ids of the indexed words matching one word of an alternative, with the quality of
        each match, and the word a typo was read as ("" when none was); a `whole` word
        matches as typed or with typos, not as a beginning."""
        found: dict[int, float] = {}
        typing = alternative.prefix and last
        if cased:
            if typing:
                found = dict.fromkeys(self._cased.prefixed(alternative.text).tolist(), PREFIX)
            if (exact := self._cased.id_of(alternative.text)) is not None:
                found[exact] = EXACT
            return found, ""
        word = fold(word)
        beginning = not alternative.exact and not negated and not whole
        if beginning or typing:
            found = dict.fromkeys(self._words.prefixed(word).tolist(), PREFIX)
        if (exact := self._words.id_of(word)) is not None:
            found[exact] = EXACT
        as_typed = int(self._words.frequency[list(found)].sum()) if found else 0
        if alternative.exact or negated or as_typed >= ALMOST_NOTHING:
            return found, ""
        typos = self._typos(word, beginning)
        most = max((int(self._words.frequency[i]) for i in typos), default=0)
        if not most or (as_typed and most < TYPO_OUTNUMBERS * as_typed):
            return found, ""
        for typo, quality in typos.items():
            found.setdefault(typo, quality)
        shown = max(typos, key=lambda i: (typos[i], int(self._words.frequency[i])))
        return found, self._words.words[shown]

    def _typos(self, word: str, beginning: bool) -> dict[int, float]:
        """The indexed words fewest typos away from the word (or from its beginning, when it
        may be one), with the quality of each match: those two edits away only when none is
        one edit away ("satisficng" is satisficing, not satisfying)."""
        found: dict[int, float] = {}
        if beginning:
            found = dict.fromkeys(self._typo_prefix_words(word), TYPO_PREFIX)
        for text, distance in self._typo_words(word):
            typo = self._words.id_of(text)
            # Two edits from another first letter is another word ("cotraining", "training").
            if typo is not None and (distance == 1 or text[0] == word[0]):
                quality = TYPO if distance == 1 else SECOND_TYPO
                found[typo] = max(found.get(typo, 0), quality)
        if any(quality != SECOND_TYPO for quality in found.values()):
            found = {typo: quality for typo, quality in found.items() if quality != SECOND_TYPO}
        return found

    def _is_cased(self, alternative: Alternative) -> bool:
        """Whether the alternative matches words only as written: it has a capital and the
        case-sensitive index knows it that way (else "Schrodinger" would find nothing)."""
        if not alternative.case_sensitive or alternative.is_phrase:
            return False
        if alternative.prefix:
            return len(self._cased.prefixed(alternative.text)) > 0
        return self._cased.id_of(alternative.text) is not None

    def _highlighted(self, ids: list[int]) -> set[str]:
        """The words to highlight for these ids, each as indexed and, when some paper wrote it
        as a compound ("pol-icy" for policy, "co-training"), as written there too."""
        if self._compounds is None:
            arrays = self._arrays
            self._compounds = (
                _Words(arrays["compound_keys"], arrays["compound_keys_offsets"]),
                _Words(arrays["compound_values"], arrays["compound_values_offsets"]),
            )
        joined, written = self._compounds
        words = {self._words.words[i] for i in ids}
        for word in list(words):
            place = bisect_left(joined, word)
            if place < len(joined) and joined[place] == word:
                words.add(written[place])
        return words

    # Scoring

    def _score_word(
        self, scores: Floats, alternative: Alternative, matches: dict[int, float], cased: bool
    ) -> set[float]:
        """Give each paper the best value of the matches it has; the values given."""
        vocabulary = self._cased if cased else self._words
        field = "cased" if cased else alternative.field or "all"
        weights = self._cased_weight if cased else self._weight
        # A prefix or a typo stands for all its completions at once: it weighs as much as the
        # commonest of them, so that "mo" does not rank the rare "mollification" first. The
        # word as typed weighs by its own rarity, unless it is more than four times rarer than
        # the commonest word it begins: then it is read as a beginning too (typed "conv", a
        # stray word "Conv" does not outrank convolutional; typos do not count here).
        ids = np.fromiter(matches, dtype=np.int64, count=len(matches))
        weakest = float(weights[ids].min()) if len(ids) else 0.0
        begun = [word_id for word_id, quality in matches.items() if quality == PREFIX]
        commonest_begun = float(weights[begun].min()) if begun else math.inf
        by_value: dict[tuple[float, str], list[int]] = defaultdict(list)
        for word_id, quality in matches.items():
            own = float(weights[word_id])
            if quality == EXACT and own > commonest_begun + EXACT_RARER_AT_MOST:
                quality = PREFIX  # far rarer than the words it begins: read as a beginning
            value = quality * (own if quality == EXACT else weakest)
            by_value[value, field].append(word_id)
            if field == "all":
                by_value[value * TITLE_WEIGHT, "title"].append(word_id)
        # Lowest first: a paper keeps its best value (see mark) without reading it back.
        for (value, source), word_ids in sorted(by_value.items()):
            vocabulary.mark(scores, source, word_ids, value)
        values = {value for value, _ in by_value}
        # The values given for words not in a title: a paper without one has them raised.
        untitled = {np.float32(value): value for value, source in by_value if source == "all"}
        if cased:  # and the words in any case: in the field asked, or in a title counting double
            words = self._words
            matched = {fold(self._cased.words[i]) for i in matches} | {fold(alternative.text)}
            folded = [i for word in matched if (i := words.id_of(word)) is not None]
            inside = np.zeros(self._count, dtype=bool)
            inside[words.papers(alternative.field or "title", folded)] = True
            if alternative.field:
                scores[~inside] = 0
            else:
                untitled = {np.float32(value): value for value in values}
                scores[inside] *= TITLE_WEIGHT
                values |= {value * TITLE_WEIGHT for value in values}
        if len(self._untitled) and not alternative.field:
            untitled = {
                kept: value
                for kept, value in untitled.items()
                if kept not in {np.float32(v) for v, source in by_value if source == "title"}
            }
            found = scores[self._untitled]
            for kept, value in untitled.items():
                found[found == kept] = value * UNTITLED_WEIGHT
            scores[self._untitled] = found
            values |= {value * UNTITLED_WEIGHT for value in untitled.values()}
        return values

    def _score_alternative(
        self,
        alternative: Alternative,
        negated: bool,
        matched: set[str],
        corrected: set[tuple[str, str]],
    ) -> Scored:
        """The alternative's score for every paper (0: no match), kept for the next keys:
        typing "difusion m", "difusion mo"... scores "difusion" once. The words it matched
        are added to `matched`, and (typed, read as) for each typo read, to `corrected`."""
        # Every word not quoted matches as a prefix: whether it is being typed changes nothing.
        typing = alternative.prefix and (alternative.exact or alternative.case_sensitive)
        key = (alternative.text, alternative.exact, typing, alternative.field, negated)
        cached = self._scored.get(key)
        if cached is None:
            while len(self._scored) >= SCORES_KEPT or (
                self._scored and len(self._scored) * 4 * self._count > SCORES_KEPT_BYTES
            ):
                try:  # the oldest; another search (feeds, one cancelled) may evict at once
                    self._scored.pop(next(iter(self._scored)), None)
                except (StopIteration, RuntimeError):
                    break
            words_matched: set[str] = set()
            read_as: set[tuple[str, str]] = set()
            scored = self._compute_alternative(alternative, negated, words_matched, read_as)
            cached = self._scored[key] = (scored, frozenset(words_matched), frozenset(read_as))
        matched.update(cached[1])
        corrected.update(cached[2])
        return cached[0]

    def _compute_alternative(
        self,
        alternative: Alternative,
        negated: bool,
        matched: set[str],
        corrected: set[tuple[str, str]],
    ) -> Scored:
        cased = self._is_cased(alternative)
        # The words of one typed with punctuation ("O(1/T)"): each ended by it is whole.
        joined = len(alternative.words) > 1 and not alternative.exact
        ended = not alternative.text[-1:].isalnum()
        each, values = [], set()
        for position, word in enumerate(alternative.words):
            last = position == len(alternative.words) - 1
            whole = joined and (ended or not last)
            matches, read_as = self._matching(
                alternative, word, last and not whole, negated, cased, whole
            )
            if read_as:
                corrected.add((word, read_as))
            if cased:
                matched.update(self._cased.words[i] for i in matches)
            else:
                matched.update(self._highlighted(list(matches)))
            scores = np.zeros(self._count, dtype=np.float32)
            values = self._score_word(scores, alternative, matches, cased)
            each.append(scores)
        total = each[0]
        if len(each) > 1 or alternative.is_phrase:  # scores added or raised: values not known
            values = set()
        if len(each) > 1:  # a phrase: every word in the paper
            every = np.logical_and.reduce([scores > 0 for scores in each])
            total = np.sum(each, axis=0, dtype=np.float32)
            total[~every] = 0
        if alternative.exact and alternative.is_phrase:  # a quoted phrase stands in the text
            # One space between words, a dash one too, as in the text.
            needle = phrase_text(fold(" ".join(alternative.text.split()))).encode()
            whole = not alternative.prefix  # its last word typed whole: "networks" lacks it
            candidates = np.flatnonzero(total)
            known = self._lacking  # of "sparse a" as "sparse at" is typed
            if known is not None and (
                (needle.startswith(known[0]) and not known[1]) or known[:2] == (needle, whole)
            ):
                lacking = known[2].copy()  # a search still running may read the old one
                candidates = candidates[~lacking[candidates]]
            else:
                lacking = np.zeros(self._count, dtype=bool)
            has = self._text.holding(candidates, needle, whole)
            holding = candidates[has]
            lacking[candidates[~has]] = True
            bonus = total[holding] * PHRASE_BONUS
            total[:] = 0
            total[holding] = bonus
            self._lacking = (needle, whole, lacking)
        return Scored(total, frozenset(values))

    def _score_term(self, term: Term, matched: set[str], corrected: set[tuple[str, str]]) -> Scored:
        first = term.alternatives[0]
        scores, values = self._score_alternative(first, term.negated, matched, corrected)
        if len(term.alternatives) > 1:
            scores = scores.copy()  # the kept scores stay as they are
        for alternative in term.alternatives[1:]:
            more, more_values = self._score_alternative(
                alternative, term.negated, matched, corrected
            )
            np.maximum(scores, more, out=scores)
            values = values | more_values if values and more_values else frozenset()
        return Scored(scores, values)

    def run(self, query: Query) -> Ranking:
        """The papers matching the query's terms (state filters are not applied here)."""
        positive = [term for term in query.terms if not term.negated]
        if not query.terms:
            return Ranking(
                np.arange(self._count, dtype=np.int64), self._count, np.zeros(self._count)
            )
        matched: set[str] = set()
        corrected: set[tuple[str, str]] = set()
        term_words: list[set[str]] = []
        if len(query.terms) == 1 and positive:  # one word, as a query starts: no counting
            scores, values = self._score_term(positive[0], matched, corrected)
            if 0 < len(values) <= FEW_VALUES:
                order, keys = _by_value(scores, values)
                return Ranking(
                    order, len(order), keys + TERM_SCALE, frozenset(matched), _said(corrected)
                )
            candidates = np.flatnonzero(scores)
            keys = scores[candidates].astype(np.float64) + TERM_SCALE
            ranking = _best_first(keys)
            order, keys = candidates[ranking].astype(np.int64), keys[ranking]
            self._as_typed(order, keys, query)
            return Ranking(order, len(order), keys, frozenset(matched), _said(corrected))
        count = np.zeros(self._count, dtype=np.int8)
        total = np.zeros(self._count, dtype=np.float32)
        for term in positive:
            term_words.append(set())
            scores = self._score_term(term, term_words[-1], corrected).scores
            matched |= term_words[-1]
            count += scores > 0
            total += scores
        keep = count >= len(positive)
        if len(positive) >= 2 and np.count_nonzero(keep) < CLOSE_UNDER:
            keep = count >= len(positive) - 1  # and the close ones: all terms but one
        for term in query.terms:
            if term.negated:
                keep &= self._score_term(term, set(), set()).scores == 0
        candidates = np.flatnonzero(keep)
        keys = count[candidates].astype(np.float64) * TERM_SCALE + total[candidates]
        ranking = _best_first(keys)
        order, keys = candidates[ranking], keys[ranking]
        full = int(np.count_nonzero(count[order] == len(positive))) if positive else len(order)
        self._as_typed(order, keys, query)
        if len(term_words) >= 2:
            self._by_closeness(order, keys, min(full, CLOSENESS_TOP), term_words)
        return Ranking(order.astype(np.int64), full, keys, frozenset(matched), _said(corrected))

    def _as_typed(self, order: Ints, keys: npt.NDArray[np.float64], query: Query) -> None:
        """Rank the best papers again (in place), the score of each holding a word typed with
        punctuation in it as typed ("O(1/T)" in `$\\mathcal{O}(1/T)$`) raised by PHRASE_BONUS:
        each of its words matched alone anywhere."""
        needles = {
            (phrase_text(fold(alternative.text)).encode(), not alternative.prefix)
            for term in query.terms
            if not term.negated
            for alternative in term.alternatives
            if len(alternative.words) > 1 and not alternative.exact
        }
        top = min(len(order), JOINED_RANKED)
        if not needles or not top:
            return
        best = order[:top]
        places = np.argsort(best, kind="stable")  # `holding` reads the papers in order
        holding = np.zeros(top, dtype=bool)
        for needle, whole in needles:
            holding[places] |= self._text.holding(best[places], needle, whole)
        terms = np.floor(keys[:top] / TERM_SCALE) * TERM_SCALE  # what the terms matched count
        keys[:top][holding] += (keys[:top][holding] - terms[holding]) * (PHRASE_BONUS - 1)
        ranking = np.argsort(-keys[:top], kind="stable")
        order[:top], keys[:top] = order[:top][ranking], keys[:top][ranking]

    def _by_closeness(
        self, order: Ints, keys: npt.NDArray[np.float64], top: int, term_words: list[set[str]]
    ) -> None:
        """Rank the best papers again (in place), adding a bonus when the query's terms stand
        close together in the text: the largest when they are next to each other."""
        terms_of: dict[str, list[int]] = defaultdict(list)  # a word: the terms it matches
        for term, found in enumerate(term_words):
            for word in {fold(word) for word in found}:
                terms_of[word].append(term)
        for rank in range(top):
            tokens = _WORDS.findall(self._text.of(int(order[rank])))
            window = _smallest_window(tokens, terms_of, len(term_words))
            if window:
                keys[rank] += CLOSENESS_WEIGHT * len(term_words) / window
        ranking = np.argsort(-keys[:top], kind="stable")
        order[:top], keys[:top] = order[:top][ranking], keys[:top][ranking]

    def related(self, number: int, count: int = 5) -> Numbers:
        """The papers most like this one: those sharing most of its telling words, each
        paper's share scaled by the square root of its number of words.

        A word of the paper's headline, title or abstract (not its authors, venue or file)
        tells what it is about as much as it is frequent in the paper and rare elsewhere
        (TF-IDF, doubled in its title); words of one paper or of a tenth of all say nothing.
        Its RELATED_WORDS most telling words count, by how telling they are, for each paper
        that has them, twice in that paper's title."""
        if not 0 <= number < self._count or self._count < 2:
            return np.zeros(0, dtype=np.int64)
        headline, title, abstract, *_ = [*self._text.of(number).split("\n"), "", ""]
        titled = set(_WORDS.findall(f"{headline} {title}"))
        written = Counter(_WORDS.findall(f"{headline} {title} {abstract}"))
        common = self._count // 10 if self._count >= 1000 else self._count
        telling: dict[int, float] = {}
        for word, times in written.items():
            word_id = self._words.id_of(word)
            if word_id is not None and 1 < self._words.frequency[word_id] <= common:
                boost = TITLE_WEIGHT if word in titled else 1.0
                telling[word_id] = boost * (1 + math.log(times)) * float(self._weight[word_id])
        chosen = sorted(telling, key=telling.__getitem__, reverse=True)[:RELATED_WORDS]
        parts, weights = [], []
        for word_id in chosen:
            worth = telling[word_id]
            for field, scale in (("all", 1.0), ("title", TITLE_WEIGHT - 1)):
                papers = self._words.papers(field, [word_id])
                parts.append(papers)
                weights.append(np.full(len(papers), worth * scale))
        if not parts:
            return np.zeros(0, dtype=np.int64)
        scores = (
            np.bincount(np.concatenate(parts), np.concatenate(weights), minlength=self._count)
            / self._paper_words()
        )
        scores[number] = 0
        best = np.argpartition(-scores, min(count, self._count - 1))[:count]
        best = best[np.argsort(-scores[best], kind="stable")]
        return best[scores[best] > 0].astype(np.int64)

    def _paper_words(self) -> Floats:
        """The square root of each paper's number of distinct words."""
        if self._paper_lengths is None:
            lengths = np.asarray(self._arrays["paper_words"])
            self._paper_lengths = np.sqrt(np.maximum(lengths, 1)).astype(np.float32)
        return self._paper_lengths


def _said(corrected: set[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(corrected))


def _by_value(scores: Floats, values: frozenset[float]) -> tuple[Ints, npt.NDArray[np.float64]]:
    """The papers scoring more than 0, best first, ties in paper order, with their scores,
    when the scores take only these few values: a pass over the scores a value costs less
    than sorting every paper found (most of a million for "co")."""
    parts, keys = [], []
    for value in sorted({np.float32(value) for value in values}, reverse=True):
        found = np.flatnonzero(scores == value)
        parts.append(found)
        keys.append(np.full(len(found), value, dtype=np.float64))
    return np.concatenate(parts).astype(np.int64), np.concatenate(keys)


def _best_first(keys: npt.NDArray[np.float64]) -> Ints:
    """Places of the keys, highest first, ties in place order. Of many keys, only the best
    RANKED_EXACTLY or so are ranked by their exact value, the rest by their value rounded to
    1/65536 of the keys' range: a stable sort of 16-bit integers (a radix sort) costs a tenth
    of sorting the floats."""
    if len(keys) <= 4 * RANKED_EXACTLY:
        return np.argsort(-keys, kind="stable")
    low, high = float(keys.min()), float(keys.max())
    below = np.subtract(high, keys, dtype=np.float32)
    below *= 65535 / (high - low) if high > low else 0.0
    # float32 may round the lowest key's 65535 up a little: cast, it would wrap round to 0.
    rounded = np.minimum(below, 65535, out=below).astype(np.uint16)
    order = np.argsort(rounded, kind="stable")
    # Every key rounded as the RANKED_EXACTLY-th best or better is above all the others.
    exactly = int(np.count_nonzero(rounded <= rounded[order[RANKED_EXACTLY - 1]]))
    best = order[:exactly]
    order[:exactly] = best[np.argsort(-keys[best], kind="stable")]
    return order


def _smallest_window(tokens: list[str], terms_of: Mapping[str, list[int]], terms: int) -> int:
    """The length of the shortest run of tokens holding a match of every term (0: none)."""
    hits = [(place, terms_of[token]) for place, token in enumerate(tokens) if token in terms_of]
    seen: dict[int, int] = {}  # a term: how many times it is in the window
    best, start = 0, 0
    for place, found in hits:
        for term in found:
            seen[term] = seen.get(term, 0) + 1
        while len(seen) == terms:
            first, leaving = hits[start]
            length = place - first + 1
            best = length if not best or length < best else best
            for term in leaving:
                seen[term] -= 1
                if not seen[term]:
                    del seen[term]
            start += 1
    return best
