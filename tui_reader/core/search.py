"""Ranked, typo-tolerant search over papers, fast at 100,000 papers.

Every word of every paper goes into an inverted index (numpy arrays, one slice of paper
numbers per word, for the whole paper and for its title, authors and venue). A query word
matches indexed words exactly, as a prefix when it is being typed, or within one or two edits;
the matches' scores add up per paper with weights:

- how well the word matched (exact > prefix > typo);
- how rare the matched word is (inverse document frequency);
- where it matched (a title or headline counts double);
- papers matching every term rank above those matching all but one.
"""

import re
from array import array
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from tui_reader.core.engine import Ranking
from tui_reader.core.paper import Paper
from tui_reader.core.query import (
    Alternative,
    Query,
    Term,
    capitalised_words,
    words,
    words_and_compounds,
)
from tui_reader.core.store import Numbers

if TYPE_CHECKING:  # array is generic for the type checker only (Python 3.12 at run time)
    Ints: TypeAlias = array[int]
else:
    Ints: TypeAlias = array

EXACT, PREFIX, TYPO, TYPO_PREFIX = 1.0, 0.75, 0.55, 0.45
SECOND_TYPO = 0.25  # a word two edits away is a much weaker match than one edit away
TITLE_WEIGHT = 2.0
PHRASE_BONUS = 1.5
PREFIX_WORDS_MAX = 400  # a short prefix ("co") matches the most common words only
# One or two letters match nearly every paper whichever words they stand for: fewer words
# rank the same and cost far less ("a" alone would add up the postings of 400 common words).
SHORT_PREFIX_WORDS = {1: 25, 2: 100}
TERM_SCALE = 1000.0  # a paper matching one more term always ranks higher
CLOSENESS_TOP = 30  # the best papers that are ranked again by how close their terms stand
CLOSENESS_WEIGHT = 2.0  # the bonus for terms side by side (a title match adds about 2 to 20)
RELATED_WORDS = 30  # a paper's rarest words that find the papers most like it
SCORED_KEPT = 64  # alternatives whose scores are remembered (400 KB each at 100,000 papers)


def _typos_allowed(word: str) -> int:
    return 0 if len(word) < 4 else 1 if len(word) < 9 else 2


class _Postings:
    """For each word id, the (sorted) numbers of the papers that have it."""

    def __init__(self, pairs_words: Ints, pairs_docs: Ints, vocabulary_size: int):
        word_ids = np.frombuffer(pairs_words, dtype=np.int32)
        docs = np.frombuffer(pairs_docs, dtype=np.int32)
        order = np.argsort(word_ids, kind="stable")
        self.docs = docs[order]
        counts = np.bincount(word_ids, minlength=vocabulary_size)
        self.offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)

    def of(self, word_id: int) -> np.ndarray:
        if word_id + 1 >= len(self.offsets):
            return self.docs[:0]
        return self.docs[self.offsets[word_id] : self.offsets[word_id + 1]]

    def frequency(self, word_id: int) -> int:
        return int(self.offsets[word_id + 1] - self.offsets[word_id])


def _smallest_window(tokens: list[str], term_words: list[set[str]]) -> int:
    """The length of the shortest run of tokens holding a match of every term (0: none)."""
    seen: dict[int, int] = {}  # term -> how many times it is in the window
    best, start = 0, 0
    hits = [[term for term, found in enumerate(term_words) if token in found] for token in tokens]
    for end, terms in enumerate(hits):
        for term in terms:
            seen[term] = seen.get(term, 0) + 1
        while len(seen) == len(term_words):
            length = end - start + 1
            best = length if not best or length < best else best
            for term in hits[start]:
                seen[term] -= 1
                if not seen[term]:
                    del seen[term]
            start += 1
    return best


class SearchIndex:
    """An inverted index over papers, answering queries of the filter's language with paper
    numbers (a paper's place in `papers`). It meets core.engine.SearchEngine."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = papers
        self._texts: list[str] | None = None
        self._folded_texts: list[str] | None = None
        self._hyphenated: dict[str, str] = {}  # "cotraining": "co-training", to highlight it
        vocabulary: dict[str, int] = {}
        cased: dict[str, int] = {}  # words with capitals, as written, for case-sensitive terms
        pairs: dict[str, tuple[Ints, Ints]] = defaultdict(lambda: (array("i"), array("i")))
        for number, paper in enumerate(papers):
            fields = {
                "title": f"{paper.headline} {paper.title}",
                "author": " ".join(paper.authors),
                "venue": f"{paper.venue} {paper.collection}",
            }
            # Words in the order they come (dicts, not sets): word ids, and so ties in ranking
            # and related papers, are then the same in every run.
            everything = dict.fromkeys(self._words(paper.abstract))
            for name, text in fields.items():
                found = dict.fromkeys(self._words(text))
                everything.update(found)
                self._add(pairs[name], vocabulary, found, number)
            self._add(pairs["all"], vocabulary, everything, number)
            text = f"{fields['title']} {paper.abstract} {fields['author']}"
            capitalised = dict.fromkeys(capitalised_words(text))  # the case-sensitive index
            self._add(pairs["cased"], cased, capitalised, number)
        self._postings = {
            name: _Postings(*pairs[name], len(cased if name == "cased" else vocabulary))
            for name in ("all", "title", "author", "venue", "cased")
        }
        self._vocabulary, self._cased = vocabulary, cased
        self._sorted = sorted(vocabulary)
        self._sorted_cased = sorted(cased)
        self._by_length: dict[int, list[str]] = defaultdict(list)
        for word in self._sorted:
            self._by_length[len(word)].append(word)
        self._weight = self._weights(self._postings["all"])
        self._lengths = np.bincount(self._postings["all"].docs, minlength=len(papers))
        self._cased_weight = self._weights(self._postings["cased"])
        self._prefixes: dict[int, tuple[list[str], np.ndarray]] = {}
        self._scored: dict[Alternative, tuple[np.ndarray, frozenset[str]]] = {}

    def __getstate__(self) -> dict[str, object]:
        # Kept on disk without what searches cached: scores of recent words, phrase texts.
        return {**self.__dict__, "_scored": {}, "_texts": None, "_folded_texts": None}

    def _weights(self, postings: _Postings) -> np.ndarray:
        frequencies = np.diff(postings.offsets)
        return (1 + np.log(max(len(self._papers), 1) / np.maximum(frequencies, 1))).astype(
            np.float32
        )

    def _words(self, text: str) -> list[str]:
        """A text's words, and its hyphenated compounds as one word too."""
        found, compounds = words_and_compounds(text)
        for compound in compounds:
            joined = compound.replace("-", "")
            self._hyphenated.setdefault(joined, compound)
            found.append(joined)
        return found

    @staticmethod
    def _add(
        pair: tuple[Ints, Ints], vocabulary: dict[str, int], found: Iterable[str], n: int
    ) -> None:
        word_ids, docs = pair
        new = [word for word in found if word not in vocabulary]
        vocabulary.update(zip(new, range(len(vocabulary), len(vocabulary) + len(new)), strict=True))
        ids = list(map(vocabulary.__getitem__, found))
        word_ids.extend(ids)
        docs.extend([n] * len(ids))

    def __len__(self) -> int:
        return len(self._papers)

    # Which indexed words a query word matches

    def _prefix_words(self, stem: str, cased: bool = False) -> list[str]:
        ordered = self._sorted_cased if cased else self._sorted
        start = bisect_left(ordered, stem)
        end = bisect_left(ordered, stem + "\U0010ffff", start)
        found = ordered[start:end]
        most = SHORT_PREFIX_WORDS.get(len(stem), PREFIX_WORDS_MAX)
        if len(found) > most:
            postings = self._postings["cased" if cased else "all"]
            ids = self._cased if cased else self._vocabulary
            word_ids = np.fromiter((ids[word] for word in found), dtype=np.int64, count=len(found))
            frequencies = postings.offsets[word_ids + 1] - postings.offsets[word_ids]
            commonest = np.argsort(-frequencies, kind="stable")[:most]
            found = [found[i] for i in commonest]
        return found

    def _typo_words(self, word: str) -> list[tuple[str, int]]:
        allowed = _typos_allowed(word)
        if not allowed:
            return []
        found = []
        for length in range(len(word) - allowed, len(word) + allowed + 1):
            candidates = self._by_length.get(length)
            if candidates:
                matches = process.extract(
                    word, candidates, scorer=Levenshtein.distance, score_cutoff=allowed, limit=None
                )
                found += [(match, int(distance)) for match, distance, _ in matches]
        return found

    def _prefix_table(self, length: int) -> tuple[list[str], np.ndarray]:
        """The distinct beginnings of `length` letters, with where their words start and end
        in the sorted vocabulary (words sharing a beginning are neighbours there)."""
        if length not in self._prefixes:
            beginnings: list[str] = []
            bounds: list[int] = []
            for position, word in enumerate(self._sorted):
                if len(word) >= length and (not beginnings or word[:length] != beginnings[-1]):
                    beginnings.append(word[:length])
                    bounds.append(position)
            self._prefixes[length] = (beginnings, np.asarray(bounds, dtype=np.int64))
        return self._prefixes[length]

    def warm(self) -> None:
        """Build the tables typing will need, ahead of time."""
        for length in range(4, 12):
            self._prefix_table(length)

    def _typo_prefix_words(self, stem: str) -> list[str]:
        """Words whose beginning is one edit from the stem being typed ("difus" → diffusion)."""
        if len(stem) < 4:
            return []
        found: list[str] = []
        for length in (len(stem), len(stem) + 1):
            beginnings, bounds = self._prefix_table(length)
            for _, _, index in process.extract(
                stem, beginnings, scorer=Levenshtein.distance, score_cutoff=1, limit=None
            ):
                start = int(bounds[index])
                end = bisect_left(self._sorted, beginnings[index] + "\U0010ffff", start)
                found += self._sorted[start:end][:PREFIX_WORDS_MAX]
                if len(found) > PREFIX_WORDS_MAX * 4:
                    return found
        return found

    def matching_words(self, alternative: Alternative, word: str, last: bool) -> dict[str, float]:
        """Indexed words matching one word of an alternative, with the quality of each match.

        A word with capitals matches only words written that way, exactly or as a prefix.
        """
        found: dict[str, float] = {}
        typing = alternative.prefix and last
        if alternative.case_sensitive and not alternative.is_phrase:
            if typing:
                found = dict.fromkeys(self._prefix_words(alternative.text, cased=True), PREFIX)
            if alternative.text in self._cased:
                found[alternative.text] = EXACT
            return found
        if typing:
            if not alternative.exact:
                for match in self._typo_prefix_words(word):
                    found[match] = TYPO_PREFIX
            for match in self._prefix_words(word):
                found[match] = PREFIX
        if not alternative.exact and not typing:  # for the word being typed, the above covers it
            for match, distance in self._typo_words(word):
                quality = TYPO if distance == 1 else SECOND_TYPO
                found[match] = max(found.get(match, 0), quality)
        if word in self._vocabulary:
            found[word] = EXACT
        return found

    # Scoring

    def _searchable(self, number: int) -> str:
        """A paper's text, all its fields in one string, and the same in lower case, made
        the first time a phrase or a case-sensitive word has to be checked in it."""
        if self._texts is None:
            self._texts = [""] * len(self._papers)
        if not self._texts[number]:
            paper = self._papers[number]
            self._texts[number] = " ".join(
                (paper.headline, paper.title, paper.abstract, " ".join(paper.authors), paper.venue)
            )
        return self._texts[number]

    def _folded(self, number: int) -> str:
        if self._folded_texts is None:
            self._folded_texts = [""] * len(self._papers)
        if not self._folded_texts[number]:
            self._folded_texts[number] = self._searchable(number).casefold()
        return self._folded_texts[number]

    def _score_word(
        self, scores: np.ndarray, alternative: Alternative, matches: dict[str, float]
    ) -> None:
        cased = alternative.case_sensitive and not alternative.is_phrase
        field_name = "cased" if cased else alternative.field or "all"
        postings = self._postings[field_name]
        titles = self._postings["title"]
        ids = self._cased if cased else self._vocabulary
        weights = self._cased_weight if cased else self._weight
        # A prefix or a typo stands for all its completions at once: it weighs as much as the
        # commonest of them, so that "mo" does not rank the rare "mollification" first.
        weakest = float(min((weights[ids[word]] for word in matches), default=0.0))
        # Every word of one kind of match (prefix, typo...) then scores the same: their papers
        # are marked in one numpy step rather than one per word.
        by_value: dict[float, list[int]] = defaultdict(list)
        for word, quality in matches.items():
            word_id = ids[word]
            by_value[quality * (float(weights[word_id]) if quality == EXACT else weakest)].append(
                word_id
            )
        for value, word_ids in sorted(by_value.items()):
            sources = [(postings, value)]
            if field_name == "all":
                sources.append((titles, value * TITLE_WEIGHT))
            for source, score in sources:
                docs = np.concatenate([source.of(word_id) for word_id in word_ids])
                scores[docs] = np.maximum(scores[docs], score)

    def _score_alternative(self, alternative: Alternative, matched: set[str]) -> np.ndarray:
        """The alternative's score for every paper (0: no match), remembered for the next keys:
        typing "difusion m", "difusion mo"... scores "difusion" once."""
        cached = self._scored.get(alternative)
        if cached is None:
            if len(self._scored) >= SCORED_KEPT:
                del self._scored[next(iter(self._scored))]  # the oldest
            words_matched: set[str] = set()
            cached = self._scored[alternative] = (
                self._compute_alternative(alternative, words_matched),
                frozenset(words_matched),
            )
        matched.update(cached[1])
        return cached[0]

    def _compute_alternative(self, alternative: Alternative, matched: set[str]) -> np.ndarray:
        total = np.zeros(len(self._papers), dtype=np.float32)
        every: np.ndarray | None = None
        for position, word in enumerate(alternative.words):
            last = position == len(alternative.words) - 1
            matches = self.matching_words(alternative, word, last)
            matched.update(self._hyphenated.get(match, match) for match in matches)
            scores = np.zeros(len(self._papers), dtype=np.float32)
            self._score_word(scores, alternative, matches)
            total += scores
            every = scores > 0 if every is None else every & (scores > 0)
        assert every is not None
        total[~every] = 0
        # A quoted phrase must stand in the text as typed; a word joined by punctuation
        # ("co-trainng") only needs its parts, each forgiving typos.
        quoted_phrase = alternative.exact and alternative.is_phrase
        if quoted_phrase or (alternative.case_sensitive and alternative.field):
            self._check_text(total, alternative)
        return total

    def _check_text(self, scores: np.ndarray, alternative: Alternative) -> None:
        """Keep only papers whose text has the phrase, or the word in its exact case."""
        exact = r"(?<!\w)" + re.escape(alternative.text)
        pattern = re.compile(exact) if alternative.case_sensitive else None
        folded = alternative.text.casefold()  # else a substring search: 5x faster than a regex
        for number in np.flatnonzero(scores):
            if (
                pattern.search(self._searchable(int(number)))
                if pattern is not None
                else folded in self._folded(int(number))
            ):
                scores[number] *= PHRASE_BONUS if alternative.is_phrase else 1
            else:
                scores[number] = 0

    def _score_term(self, term: Term, matched: set[str]) -> np.ndarray:
        scores = self._score_alternative(term.alternatives[0], matched)
        if len(term.alternatives) > 1:
            scores = scores.copy()  # the cached scores stay as they are
        for alternative in term.alternatives[1:]:
            np.maximum(scores, self._score_alternative(alternative, matched), out=scores)
        return scores

    def run(self, query: Query) -> Ranking:
        """The papers matching the query's terms (state filters are not applied here)."""
        positive = [term for term in query.terms if not term.negated]
        if not positive and not query.terms:
            every = len(self._papers)
            return Ranking(np.arange(every, dtype=np.int64), every, np.zeros(every))
        matched: set[str] = set()
        term_words: list[set[str]] = []
        count = np.zeros(len(self._papers), dtype=np.int32)
        total = np.zeros(len(self._papers), dtype=np.float32)
        for term in positive:
            term_words.append(set())
            scores = self._score_term(term, term_words[-1])
            matched |= term_words[-1]
            count += scores > 0
            total += scores
        excluded = np.zeros(len(self._papers), dtype=bool)
        for term in query.terms:
            if term.negated:
                excluded |= self._score_term(term, set()) > 0
        needed = max(1, len(positive) - 1) if len(positive) >= 2 else len(positive)
        keep = (count >= needed) & ~excluded
        candidates = np.flatnonzero(keep)
        keys = count[candidates].astype(np.float64) * TERM_SCALE + total[candidates]
        ranking = np.argsort(-keys, kind="stable")
        order, keys = candidates[ranking], keys[ranking]
        full = int(np.count_nonzero(count[order] == len(positive))) if positive else len(order)
        if len(term_words) >= 2:
            order, keys = self._by_closeness(order, keys, min(full, CLOSENESS_TOP), term_words)
        return Ranking(order.astype(np.int64, copy=False), full, keys, frozenset(matched))

    def _by_closeness(
        self, order: np.ndarray, keys: np.ndarray, top: int, term_words: list[set[str]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Rank the best papers again, adding a bonus when the query's terms stand close
        together in the text: the bonus is largest when they are next to each other."""
        keys = keys.copy()
        for rank in range(top):
            tokens = words(self._searchable(int(order[rank])))
            window = _smallest_window(tokens, term_words)
            if window:
                keys[rank] += CLOSENESS_WEIGHT * len(term_words) / window
        ranking = np.argsort(-keys[:top], kind="stable")
        order, keys = order.copy(), keys
        order[:top], keys[:top] = order[:top][ranking], keys[:top][ranking]
        return order, keys

    def related(self, number: int, count: int = 5) -> Numbers:
        """The papers most like this one: its rarest words, weighted by rarity, shared with
        them (a cosine of binary TF-IDF vectors, over the paper's RELATED_WORDS rarest words)."""
        if not 0 <= number < len(self._papers) or len(self._papers) < 2:
            return np.zeros(0, dtype=np.int64)
        paper = self._papers[number]
        found = dict.fromkeys(
            self._vocabulary[w] for w in words(f"{paper.headline} {paper.abstract}")
        )
        shared = [word_id for word_id in found if self._postings["all"].frequency(word_id) > 1]
        shared.sort(key=lambda word_id: -self._weight[word_id])
        scores = np.zeros(len(self._papers), dtype=np.float32)
        postings = self._postings["all"]
        for word_id in shared[:RELATED_WORDS]:
            scores[postings.of(word_id)] += self._weight[word_id] ** 2
        scores /= np.sqrt(np.maximum(self._lengths, 1))
        scores[number] = 0
        best = np.argsort(-scores, kind="stable")[:count]
        return best[scores[best] > 0].astype(np.int64, copy=False)
