"""Ranked, typo-tolerant search over the flat arrays of core.flat.build, kept whole or in
parts (core.flat.parts), which rank as one index of all their papers.

The words of a query match indexed words as core.flat.matching finds them (as typed, as a
prefix, with typos). Scores add up per paper:

- how well the word matched (exact > prefix > typo);
- how rare the matched word is (inverse document frequency);
- where it matched (a title or headline counts double; of a word typed with capitals and
  found as written, a prefix or a typo never raised to its value: core.flat.ranking.raised);
- papers matching every term rank above those matching all but one ("close").
"""

import math
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import IO, NamedTuple

import numpy as np
import numpy.typing as npt

from tui_reader.core.engine import Ranking, Stop
from tui_reader.core.flat.build import Columns, build_arrays
from tui_reader.core.flat.fold import fold, phrase_text
from tui_reader.core.flat.folded_text import holds
from tui_reader.core.flat.matching import WordMatcher
from tui_reader.core.flat.parts import IndexPart, Lexicons, Parts
from tui_reader.core.flat.ranking import (
    BELOW_TYPED,
    RANKED_EXACTLY,
    TITLE_WEIGHT,
    as_typed,
    best_first,
    by_value,
    raised,
    said,
    smallest_window,
    valued,
)
from tui_reader.core.flat.recent import recently_used
from tui_reader.core.flat.related import Rarities, related
from tui_reader.core.flat.words import Array
from tui_reader.core.query import NOT, Alternative, Query, Term
from tui_reader.core.search_turns import at_once
from tui_reader.core.store import Numbers

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Corrected = frozenset[tuple[str, str]]  # (word typed, the word a typo of it was read as)


class Scored(NamedTuple):
    """Each paper's score for a term or an alternative, and the values those scores take
    when there are only these (empty: not known)."""

    scores: Floats
    values: frozenset[float]


# A paper without a title (its headline made from its abstract) has its words weighed more,
# as if some were its title's: else it loses to every titled paper with the words in its title.
UNTITLED_WEIGHT = 1.8
PHRASE_BONUS = 1.5
# Of the best papers found, so many are read to rank first those where a word typed with
# punctuation in it ("O(1/T)", "k-nearest") stands as typed (2-3 ms a thousand: reading all
# that hold its words took 80 ms a key at a million).
JOINED_RANKED = 1000
PHRASE_TEXTS_KEPT = 2000  # the texts of a phrase's papers kept for the next key, when so few
# A quoted phrase alone in a query whose words' papers are more than so many, their texts not
# read yet, gives its first papers when asked (`run`'s `first`), the best read first: at
# 2,700,000 papers `"sparse a` read 300,000 texts (1.5 s), one in twelve holding it.
PHRASE_READ_AT_ONCE = 10_000
FIRST_READ_TIMES = 8  # the first papers asked for, times so many read first (then 4x more)
# After so many rounds, read on only while fewer than 1/FIRST_ENOUGH of the first papers asked
# for were found (`"sparse at` holds 926 of 300,000: a round more read 12,800 texts, 80 ms).
FIRST_ROUNDS, FIRST_ENOUGH = 1, 4
TERM_SCALE = 1000.0  # a paper matching one more term always ranks higher
CLOSENESS_TOP = 30  # the best papers that are ranked again by how close their terms stand
CLOSENESS_WEIGHT = 2.0
TOKENS_KEPT = 300  # papers whose words are kept for ranking by closeness again
# Scores of recent alternatives kept for the next keys (and for Backspace): so many at most.
SCORES_KEPT, SCORES_KEPT_BYTES = 16, 48_000_000
FEW_VALUES = 12  # a word's papers are ranked a score at a time while it gives so few
# Papers matching all terms but one are listed after the full matches while these are fewer:
# past a thousand full matches nobody scrolls to them, and ranking them (most of a million
# papers for "diffusion m") took most of a key's search.
CLOSE_UNDER = 1000
WARMED_PREFIX = 3  # letters: `warm` readies the words so short typed
RARITIES_KEPT = 100_000  # words whose rarity related papers keep looked up (some 12 MB)
_WORDS = re.compile(r"\w+")


class FlatIndex:
    """A search engine over the arrays of core.flat.build (in memory, or memory-mapped by
    core.flat.disk). Meets core.engine.SearchEngine. `text` reads the `text` array from its
    file, where its bytes start at `text_start`; `joined` makes one of several parts."""

    def __init__(self, arrays: Mapping[str, Array], text: IO[bytes], text_start: int = 0) -> None:
        self._open(Parts([IndexPart(arrays, text, text_start)]))

    @classmethod
    def joined(cls, parts: Sequence[IndexPart], lexicons: Lexicons | None = None) -> "FlatIndex":
        """The index of the papers of these parts, one part after the other, their words read
        through these lexicons (one part needs none)."""
        index = cls.__new__(cls)
        index._open(Parts(parts, lexicons))
        return index

    def _open(self, parts: Parts) -> None:
        # The ids of the papers the collection kept took in last (core.segments.added):
        # `is:new` finds them.
        self.new: frozenset[str] = frozenset()
        self._parts = parts
        self._count = parts.count
        self._words, self._cased = parts.words, parts.cased
        self._matcher = WordMatcher(parts.words, parts.cased, parts.compounds())
        self._text = parts.text
        self._weight = self._weights(self._words.frequency)
        self._cased_weight = self._weights(self._cased.frequency)
        # Each alternative's scores, the words it matched and the typos read: for the next keys.
        self._scored: dict[tuple[object, ...], tuple[Scored, frozenset[str], Corrected]] = {}
        self._paper_lengths: Floats | None = None  # the square root of each paper's words
        self._rarities: dict[str, float] = {}  # words' rarities, for related papers
        untitled = np.concatenate(
            [
                np.flatnonzero(np.asarray(part.arrays["untitled"])) + base
                for part, base in zip(parts.parts, parts.bases.tolist(), strict=False)
            ]
        )
        # Weighed up only among titled papers: among papers all untitled it changes nothing.
        self._untitled = untitled if len(untitled) < self._count else untitled[:0]
        # The last phrase looked for in the text (and whether its last word was whole), and
        # whether each paper was read and found not to hold it: such a paper cannot hold a
        # longer phrase beginning with it, unless that word was whole ("sparse a" is not in
        # "sparse attention").
        self._lacking: tuple[bytes, bool, npt.NDArray[np.bool_]] | None = None
        self._tokens: dict[int, list[str]] = {}  # the words of papers ranked by closeness
        # The folded texts of the papers holding the last phrase looked for, by number.
        self._phrase_texts: tuple[Ints, list[bytes]] = (np.zeros(0, dtype=np.int64), [])
        # A phrase's words' scores `_first_holding` found, the words matched and the typos
        # read, for the ranking found whole next (not scored twice).
        self._begun: tuple[Alternative, Floats, frozenset[str], Corrected] | None = None

    @classmethod
    def of(cls, papers: Columns) -> "FlatIndex":
        """The index of these papers, built in memory."""
        return cls(*build_arrays(papers))

    @property
    def arrays(self) -> Mapping[str, Array]:
        """The arrays of an index of one part, to keep on disk (core.flat.disk.save)."""
        (part,) = self._parts.parts
        return part.arrays

    @property
    def parts(self) -> list[IndexPart]:
        """The parts it answers from, in the order their papers are numbered."""
        return list(self._parts.parts)

    def _weights(self, frequencies: Ints) -> Floats:
        return (1 + np.log(max(self._count, 1) / np.maximum(frequencies, 1))).astype(np.float32)

    def __len__(self) -> int:
        return self._count

    def warm(self, make_way: Callable[[], None] = at_once) -> None:
        """Decode the vocabularies and make the bitmaps of the commonest words, ahead of
        time (0.8 s at a million papers), `make_way` called between steps."""
        self._paper_words()
        self._words.warm(self._count, make_way)
        self._cased.warm(self._count, make_way)
        self._matcher.warm()
        self._warm_prefixes(make_way)

    def _warm_prefixes(self, make_way: Callable[[], None]) -> None:
        """Make the bitmaps of the rarer words that words of up to WARMED_PREFIX letters
        typed give a value to, where they are read as one (core.flat.vocabulary.UNION_SHARE):
        the first keys of a query ("co": 20 ms at a million papers, most of it writing the
        postings of its rarer words)."""
        for length in range(1, WARMED_PREFIX + 1):
            for stem in self._words.union_beginnings(self._count, length):
                make_way()
                typed = Alternative(stem, (stem,), prefix=True)
                matches, _ = self._matcher.matching(typed, stem, True, False, False)
                for (_, field), ids in valued(matches, self._weight, "all").items():
                    self._words.warm_union(field, ids, self._count)

    # Scoring

    def _score_word(
        self, scores: Floats, alternative: Alternative, matches: dict[int, float], cased: bool
    ) -> set[float]:
        """Give each paper the best value of the matches it has; the values given."""
        vocabulary = self._cased if cased else self._words
        field = "cased" if cased else alternative.field or "all"
        weights = self._cased_weight if cased else self._weight
        by_value = valued(matches, weights, field)
        # Typed with capitals and found as written, a word's beginnings in a title never rank
        # above it (SAM, not SAMURAI); in any case, a title's plural does (bandit: Bandits).
        typed = as_typed(matches, weights) if cased else math.inf
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
                np.multiply(scores, TITLE_WEIGHT, out=scores, where=inside)  # no copy out
                if typed < math.inf:  # a beginning raised: never to the word as typed
                    below = inside & (scores < np.float32(typed * TITLE_WEIGHT))
                    np.minimum(scores, np.float32(typed * BELOW_TYPED), out=scores, where=below)
                values |= {raised(value, TITLE_WEIGHT, typed) for value in values}
        if len(self._untitled) and not alternative.field:
            untitled = {
                kept: value
                for kept, value in untitled.items()
                if kept not in {np.float32(v) for v, source in by_value if source == "title"}
            }
            found = scores[self._untitled]
            for kept, value in untitled.items():
                found[found == kept] = raised(value, UNTITLED_WEIGHT, typed)
            scores[self._untitled] = found
            values |= {raised(value, UNTITLED_WEIGHT, typed) for value in untitled.values()}
        return values

    def _score_alternative(
        self,
        alternative: Alternative,
        negated: bool,
        matched: set[str],
        corrected: set[tuple[str, str]],
        stop: Stop | None = None,
    ) -> Scored:
        """The alternative's score for every paper (0: no match), kept for the next keys:
        typing "difusion m", "difusion mo"... scores "difusion" once. The words it matched
        are added to `matched`, and (typed, read as) for each typo read, to `corrected`."""
        key = _kept_as(alternative, negated)
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
            scored = self._compute_alternative(alternative, negated, words_matched, read_as, stop)
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
        stop: Stop | None,
    ) -> Scored:
        begun, self._begun = self._begun, None
        if begun is not None and (begun[0], False) == (alternative, negated):
            total, values = begun[1], set[float]()
            matched.update(begun[2])
            corrected.update(begun[3])
        else:
            total, values = self._words_scored(alternative, negated, matched, corrected)
        if _in_text(alternative):  # a quoted phrase stands in the text
            needle, whole = _needle(alternative)
            candidates, lacking = self._unread(total, needle, whole)
            has = self._phrase_held(candidates, needle, whole, stop)
            holding = candidates[has]
            lacking[candidates[~has]] = True
            bonus = total[holding] * PHRASE_BONUS
            total[:] = 0
            total[holding] = bonus
            self._lacking = (needle, whole, lacking)
        return Scored(total, frozenset(values))

    def _words_scored(
        self,
        alternative: Alternative,
        negated: bool,
        matched: set[str],
        corrected: set[tuple[str, str]],
    ) -> tuple[Floats, set[float]]:
        """Each paper's score for the alternative's words (every one in the paper), and the
        values those scores take when known (else empty); a phrase not yet looked for."""
        cased = self._matcher.is_cased(alternative)
        # The words of one typed with punctuation ("O(1/T)"): each ended by it is whole.
        joined = len(alternative.words) > 1 and not alternative.exact
        ended = not alternative.text[-1:].isalnum()
        each, values = [], set()
        for position, word in enumerate(alternative.words):
            last = position == len(alternative.words) - 1
            whole = joined and (ended or not last)
            matches, read_as = self._matcher.matching(
                alternative, word, last and not whole, negated, cased, whole
            )
            if read_as:  # a word read in any case is said as typed: "SAM" as sam
                corrected.add((alternative.text if read_as == fold(word) else word, read_as))
            if cased:
                matched.update(self._cased.words[i] for i in matches)
            else:
                matched.update(self._matcher.highlighted(list(matches)))
            scores = np.zeros(self._count, dtype=np.float32)
            values = self._score_word(scores, alternative, matches, cased)
            each.append(scores)
        total = each[0]
        if len(each) > 1 or alternative.is_phrase:  # scores added or raised: values not known
            values = set()
        if len(each) > 1:  # a phrase: every word in the paper
            every, total = each[0] > 0, each[0]  # added in place, not stacked first
            for scores in each[1:]:
                every &= scores > 0
                total += scores
            total[~every] = 0
        return total, values

    def _unread(self, total: Floats, needle: bytes, whole: bool) -> tuple[Ints, Bools]:
        """The papers with every word of a phrase (`total`'s) that are not known to lack it,
        and the papers known to lack it, to add those found to."""
        candidates = np.flatnonzero(total != 0)
        known = self._lacking  # of "sparse a" as "sparse at" is typed
        if known is not None and (
            (needle.startswith(known[0]) and not known[1]) or known[:2] == (needle, whole)
        ):
            lacking = known[2].copy()  # a search still running may read the old one
            return candidates[~lacking[candidates]], lacking
        return candidates, np.zeros(self._count, dtype=bool)

    def _first_holding(self, query: Query, first: int) -> Ranking | None:
        """The first papers of the ranking of a query that is one quoted phrase, where more
        than PHRASE_READ_AT_ONCE texts would be read for it all: read best first until
        `first` hold it (or a part of them: `_best_read`). None where the whole ranking comes
        at once."""
        (term, *others) = query.terms
        if others or term.negated or len(term.alternatives) != 1:
            return None
        alternative = term.alternatives[0]
        if not _in_text(alternative) or _kept_as(alternative, False) in self._scored:
            return None
        matched: set[str] = set()
        corrected: set[tuple[str, str]] = set()
        total, _ = self._words_scored(alternative, False, matched, corrected)
        self._begun = (alternative, total, frozenset(matched), frozenset(corrected))
        needle, whole = _needle(alternative)
        candidates, lacking = self._unread(total, needle, whole)
        if len(candidates) <= PHRASE_READ_AT_ONCE:
            return None
        # The keys the papers holding it get in `run`: these rank them, ties in paper order.
        keys = (total[candidates] * PHRASE_BONUS).astype(np.float64) + TERM_SCALE

        def holding(places: Ints) -> Bools:
            has = self._phrase_held(candidates[places], needle, whole)
            lacking[candidates[places[~has]]] = True
            return has

        held, unread = _best_read(keys, first, holding)
        self._lacking = (needle, whole, lacking)
        if not unread.any() or not held.any():  # the whole ranking, in `run`
            return None
        self._begun = None
        found = np.flatnonzero(held)
        # The whole ranking begins with them (best_first ranks its best exactly).
        found = found[np.argsort(-keys[found], kind="stable")][:RANKED_EXACTLY]
        words, typos = frozenset(matched), said(corrected)
        return Ranking(candidates[found], len(found), keys[found], words, typos, counting=True)

    def _phrase_held(
        self, candidates: Ints, needle: bytes, whole: bool, stop: Stop | None = None
    ) -> npt.NDArray[np.bool_]:
        """Whether each of these papers holds the needle (core.flat.folded_text), read from
        the texts kept, else from the index's; the texts of those that do kept when they are
        few, for the next key ("sparse atte" after "sparse att": reading 353 texts again took
        5 ms at a million papers)."""
        numbers, texts = self._phrase_texts
        places = np.searchsorted(numbers, candidates).clip(max=max(len(numbers) - 1, 0))
        known = numbers[places] == candidates if len(numbers) else np.zeros(len(candidates), bool)
        has = np.zeros(len(candidates), dtype=bool)
        has[~known] = self._text.holding(candidates[~known], needle, whole, stop)
        has[known] = holds([texts[place] for place in places[known].tolist()], needle, whole)
        if np.count_nonzero(has) <= PHRASE_TEXTS_KEPT:
            self._phrase_texts = (
                candidates[has],
                [
                    texts[place] if was_known else self._text.folded(number)
                    for number, place, was_known in zip(
                        candidates[has].tolist(),
                        places[has].tolist(),
                        known[has].tolist(),
                        strict=True,
                    )
                ],
            )
        return has

    def _score_term(
        self,
        term: Term,
        matched: set[str],
        corrected: set[tuple[str, str]],
        stop: Stop | None = None,
    ) -> Scored:
        first = term.alternatives[0]
        scores, values = self._score_alternative(first, term.negated, matched, corrected, stop)
        if len(term.alternatives) > 1:
            scores = scores.copy()  # the kept scores stay as they are
        for alternative in term.alternatives[1:]:
            more, more_values = self._score_alternative(
                alternative, term.negated, matched, corrected, stop
            )
            np.maximum(scores, more, out=scores)
            values = values | more_values if values and more_values else frozenset()
        return Scored(scores, values)

    def run(self, query: Query, first: int | None = None, stop: Stop | None = None) -> Ranking:
        """The papers matching the query's terms (state filters are not applied here); with
        `first`, only the first ones of a phrase's many (core.engine.SearchEngine.run)."""
        positive = [term for term in query.terms if not term.negated]
        if not query.terms:
            return Ranking(
                np.arange(self._count, dtype=np.int64), self._count, np.zeros(self._count)
            )
        if first is not None and (begun := self._first_holding(query, first)) is not None:
            return begun
        matched: set[str] = set()
        corrected: set[tuple[str, str]] = set()
        term_words: list[set[str]] = []
        if len(query.terms) == 1 and positive:  # one word, as a query starts: no counting
            scores, values = self._score_term(positive[0], matched, corrected, stop)
            if 0 < len(values) <= FEW_VALUES:
                order, keys = by_value(scores, values)
                keys += TERM_SCALE
                return Ranking(order, len(order), keys, frozenset(matched), said(corrected))
            candidates = np.flatnonzero(scores != 0)  # a float's `nonzero` costs 3x a bool's
            keys = scores[candidates].astype(np.float64) + TERM_SCALE
            ranking = best_first(keys)
            order, keys = candidates[ranking].astype(np.int64), keys[ranking]
            self._as_typed(order, keys, query)
            return Ranking(order, len(order), keys, frozenset(matched), said(corrected))
        count = np.zeros(self._count, dtype=np.int8)
        total = np.zeros(self._count, dtype=np.float32)
        for term in positive:
            term_words.append(set())
            scores = self._score_term(term, term_words[-1], corrected, stop).scores
            matched |= term_words[-1]
            count += scores > 0
            total += scores
        keep = count >= len(positive)
        if len(positive) >= 2 and np.count_nonzero(keep) < CLOSE_UNDER:
            keep = count >= len(positive) - 1  # and the close ones: all terms but one
        for term in query.terms:
            if term.negated:
                left_out: set[tuple[str, str]] = set()  # "TRANSFORMER" left out in any case
                keep &= self._score_term(term, set(), left_out, stop).scores == 0
                corrected |= {(NOT + typed, read) for typed, read in left_out}
        candidates = np.flatnonzero(keep)
        keys = count[candidates].astype(np.float64) * TERM_SCALE + total[candidates]
        ranking = best_first(keys)
        order, keys = candidates[ranking], keys[ranking]
        full = int(np.count_nonzero(count[order] == len(positive))) if positive else len(order)
        self._as_typed(order, keys, query)
        if len(term_words) >= 2:
            self._by_closeness(order, keys, min(full, CLOSENESS_TOP), term_words)
        return Ranking(order.astype(np.int64), full, keys, frozenset(matched), said(corrected))

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
            tokens = self._tokens_of(int(order[rank]))
            window = smallest_window(tokens, terms_of, len(term_words))
            if window:
                keys[rank] += CLOSENESS_WEIGHT * len(term_words) / window
        ranking = np.argsort(-keys[:top], kind="stable")
        order[:top], keys[:top] = order[:top][ranking], keys[:top][ranking]

    def _tokens_of(self, number: int) -> list[str]:
        """The words of a paper's text, kept for the next keys (TOKENS_KEPT papers' at most):
        the best papers of one key are most of the next one's."""
        return recently_used(
            self._tokens, number, lambda: _WORDS.findall(self._text.of(number)), TOKENS_KEPT
        )

    def related(self, number: int, count: int = 5) -> Numbers:
        """The papers most like this one, best first (core.flat.related)."""
        if not 0 <= number < self._count or self._count < 2:
            return np.zeros(0, dtype=np.int64)
        if len(self._rarities) > RARITIES_KEPT:
            self._rarities = {}  # a search still running keeps the one it has
        rarities = Rarities(self._parts, self._weight, self._rarities)
        return related(self._parts, rarities, self._paper_words(), number, count)

    def _paper_words(self) -> Floats:
        """The square root of each paper's number of distinct words."""
        if self._paper_lengths is None:
            lengths = self._parts.joined("paper_words")
            self._paper_lengths = np.sqrt(np.maximum(lengths, 1)).astype(np.float32)
        return self._paper_lengths


def _best_read(
    keys: npt.NDArray[np.float64], first: int, holding: Callable[[Ints], Bools]
) -> tuple[Bools, Bools]:
    """Which papers (by their places among these keys) hold a phrase as `holding` reads
    them (places in increasing order), the best read first until `first` do (a part of them,
    after FIRST_ROUNDS rounds); and which were not read: they rank below all those read."""
    held, unread = np.zeros(len(keys), dtype=bool), np.ones(len(keys), dtype=bool)
    size, rounds = FIRST_READ_TIMES * first, 0
    while size < len(keys):
        found = np.count_nonzero(held)
        if found >= first or (rounds >= FIRST_ROUNDS and found >= max(first // FIRST_ENOUGH, 1)):
            break
        # The best `size` papers are read, of those tied last the first in paper order.
        least = np.partition(keys, len(keys) - size)[len(keys) - size]
        best = keys > least
        best[np.flatnonzero(keys == least)[: size - np.count_nonzero(best)]] = True
        batch = np.flatnonzero(best & unread)
        held[batch] = holding(batch)
        unread[batch] = False
        size, rounds = size * 4, rounds + 1
    return held, unread


def _kept_as(alternative: Alternative, negated: bool) -> tuple[object, ...]:
    """What an alternative's scores are kept for the next keys by."""
    # Every word not quoted matches as a prefix: whether it is being typed changes nothing.
    typing = alternative.prefix and (alternative.exact or alternative.case_sensitive)
    return (alternative.text, alternative.exact, typing, alternative.field, negated)


def _in_text(alternative: Alternative) -> bool:
    """Whether the alternative is a quoted phrase looked for in the papers' folded text; in
    `venue:` its words are enough (a collection's name, which `venue:` holds, is not in the
    text, and a venue is a few words)."""
    return alternative.exact and alternative.is_phrase and alternative.field != "venue"


def _needle(alternative: Alternative) -> tuple[bytes, bool]:
    """A quoted phrase as its papers' folded text holds it, and whether its last word is
    typed whole ("networks" lacks "network" then)."""
    # One space between words, a dash one too, as in the text.
    return phrase_text(fold(" ".join(alternative.text.split()))).encode(), not alternative.prefix
