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
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from tui_reader.core.paper import Paper
from tui_reader.core.query import Alternative, Query, Term, parse_query, words

EXACT, PREFIX, TYPO, TYPO_PREFIX = 1.0, 0.75, 0.55, 0.45
TITLE_WEIGHT = 2.0
PHRASE_BONUS = 1.5
PREFIX_WORDS_MAX = 400  # a short prefix ("co") matches the most common words only
TERM_SCALE = 1000.0  # a paper matching one more term always ranks higher


def _typos_allowed(word: str) -> int:
    return 0 if len(word) < 4 else 1 if len(word) < 8 else 2


class _Postings:
    """For each word id, the (sorted) numbers of the papers that have it."""

    def __init__(self, pairs_words: list[int], pairs_docs: list[int], vocabulary_size: int):
        word_ids = np.asarray(pairs_words, dtype=np.int32)
        docs = np.asarray(pairs_docs, dtype=np.int32)
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


@dataclass
class SearchResult:
    """Papers in rank order: `full` match every term, the rest all but one."""

    papers: Sequence[Paper]
    full: int
    matched_words: set[str] = field(default_factory=set)


def highlight_pattern(matched: set[str], limit: int = 300) -> re.Pattern[str] | None:
    """A pattern finding the matched words in a paper's text, to highlight them."""
    if not matched:
        return None
    chosen = sorted(matched, key=len, reverse=True)[:limit]
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, chosen)) + r")(?!\w)", re.IGNORECASE)


class RankedPapers(Sequence[Paper]):
    """A view of papers in a given order, without copying them."""

    def __init__(self, papers: Sequence[Paper], order: np.ndarray) -> None:
        self._papers, self._order = papers, order

    def __len__(self) -> int:
        return len(self._order)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self._papers[i] for i in self._order[index]]
        return self._papers[int(self._order[index])]


class SearchIndex:
    """An inverted index over papers, answering queries of the filter's language."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = papers
        self._texts: list[str] | None = None
        vocabulary: dict[str, int] = {}
        pairs: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for number, paper in enumerate(papers):
            fields = {
                "title": f"{paper.headline} {paper.title}",
                "author": " ".join(paper.authors),
                "venue": f"{paper.venue} {paper.collection}",
            }
            everything: set[str] = set(words(paper.abstract))
            for name, text in fields.items():
                found = set(words(text))
                everything |= found
                self._add(pairs[name], vocabulary, found, number)
            self._add(pairs["all"], vocabulary, everything, number)
        size = len(vocabulary)
        self._postings = {name: _Postings(*pair, size) for name, pair in pairs.items()}
        for name in ("all", "title", "author", "venue"):
            self._postings.setdefault(name, _Postings([], [], size))
        self._vocabulary = vocabulary
        self._sorted = sorted(vocabulary)
        self._by_length: dict[int, list[str]] = defaultdict(list)
        for word in self._sorted:
            self._by_length[len(word)].append(word)
        total = max(len(papers), 1)
        frequencies = np.diff(self._postings["all"].offsets)
        self._weight = (1 + np.log(total / np.maximum(frequencies, 1))).astype(np.float32)
        self._prefixes: dict[int, dict[str, list[str]]] = {}

    @staticmethod
    def _add(
        pair: tuple[list[int], list[int]], vocabulary: dict[str, int], found: Iterable[str], n: int
    ) -> None:
        word_ids, docs = pair
        for word in found:
            word_ids.append(vocabulary.setdefault(word, len(vocabulary)))
            docs.append(n)

    def __len__(self) -> int:
        return len(self._papers)

    # Which indexed words a query word matches

    def _prefix_words(self, stem: str) -> list[str]:
        start = bisect_left(self._sorted, stem)
        end = bisect_left(self._sorted, stem + "\U0010ffff", start)
        found = self._sorted[start:end]
        if len(found) > PREFIX_WORDS_MAX:
            postings = self._postings["all"]
            found.sort(key=lambda w: -postings.frequency(self._vocabulary[w]))
            found = found[:PREFIX_WORDS_MAX]
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

    def _typo_prefix_words(self, stem: str) -> list[str]:
        """Words whose beginning is one edit from the stem being typed ("difus" → diffusion)."""
        if len(stem) < 4:
            return []
        length = len(stem)
        prefixes = self._prefixes.get(length)
        if prefixes is None:
            prefixes = defaultdict(list)
            for word in self._sorted:
                if len(word) > length:
                    prefixes[word[:length]].append(word)
            self._prefixes[length] = prefixes
        found: list[str] = []
        for prefix, _, _ in process.extract(
            stem, list(prefixes), scorer=Levenshtein.distance, score_cutoff=1, limit=None
        ):
            found += prefixes[prefix]
        return found[: PREFIX_WORDS_MAX * 4]

    def matching_words(self, alternative: Alternative, word: str, last: bool) -> dict[str, float]:
        """Indexed words matching one word of an alternative, with the quality of each match."""
        found: dict[str, float] = {}
        if not alternative.exact:
            if alternative.prefix and last:
                for match in self._typo_prefix_words(word):
                    found[match] = TYPO_PREFIX
                for match in self._prefix_words(word) if len(word) >= 2 else []:
                    found[match] = PREFIX
            for match, distance in self._typo_words(word):
                found[match] = max(found.get(match, 0), TYPO - 0.1 * (distance - 1))
        if word in self._vocabulary:
            found[word] = EXACT
        return found

    # Scoring

    def _searchable(self, number: int) -> str:
        if self._texts is None:
            self._texts = [""] * len(self._papers)
        if not self._texts[number]:
            paper = self._papers[number]
            self._texts[number] = " ".join(
                (paper.headline, paper.title, paper.abstract, " ".join(paper.authors), paper.venue)
            )
        return self._texts[number]

    def _score_word(
        self, scores: np.ndarray, alternative: Alternative, matches: dict[str, float]
    ) -> None:
        field_name = alternative.field or "all"
        postings = self._postings[field_name]
        titles = self._postings["title"]
        for word, quality in matches.items():
            word_id = self._vocabulary[word]
            value = quality * self._weight[word_id]
            docs = postings.of(word_id)
            scores[docs] = np.maximum(scores[docs], value)
            if field_name == "all":
                boosted = titles.of(word_id)
                scores[boosted] = np.maximum(scores[boosted], value * TITLE_WEIGHT)

    def _score_alternative(self, alternative: Alternative, matched: set[str]) -> np.ndarray:
        total = np.zeros(len(self._papers), dtype=np.float32)
        every: np.ndarray | None = None
        for position, word in enumerate(alternative.words):
            last = position == len(alternative.words) - 1
            matches = self.matching_words(alternative, word, last)
            matched.update(matches)
            scores = np.zeros(len(self._papers), dtype=np.float32)
            self._score_word(scores, alternative, matches)
            total += scores
            every = scores > 0 if every is None else every & (scores > 0)
        assert every is not None
        total[~every] = 0
        if alternative.is_phrase or alternative.case_sensitive:
            self._check_text(total, alternative)
        return total

    def _check_text(self, scores: np.ndarray, alternative: Alternative) -> None:
        """Keep only papers whose text has the phrase, or the word in its exact case."""
        if alternative.case_sensitive:
            pattern = re.compile(r"(?<!\w)" + re.escape(alternative.text))
        else:
            pattern = re.compile(re.escape(alternative.text), re.IGNORECASE)
        for number in np.flatnonzero(scores):
            if pattern.search(self._searchable(int(number))):
                scores[number] *= PHRASE_BONUS if alternative.is_phrase else 1
            else:
                scores[number] = 0

    def _score_term(self, term: Term, matched: set[str]) -> np.ndarray:
        scores = self._score_alternative(term.alternatives[0], matched)
        for alternative in term.alternatives[1:]:
            np.maximum(scores, self._score_alternative(alternative, matched), out=scores)
        return scores

    def run(self, query: Query) -> SearchResult:
        """The papers matching the query's terms (state filters are not applied here)."""
        positive = [term for term in query.terms if not term.negated]
        if not positive and not query.terms:
            return SearchResult(self._papers, len(self._papers))
        matched: set[str] = set()
        count = np.zeros(len(self._papers), dtype=np.int32)
        total = np.zeros(len(self._papers), dtype=np.float32)
        for term in positive:
            scores = self._score_term(term, matched)
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
        order = candidates[np.argsort(-keys, kind="stable")]
        full = int(np.count_nonzero(count[order] == len(positive))) if positive else len(order)
        return SearchResult(RankedPapers(self._papers, order), full, matched)

    def search(self, text: str) -> list[Paper]:
        """The papers matching every term of a query, best first (all papers for none)."""
        result = self.run(parse_query(text))
        return list(result.papers[: result.full])
