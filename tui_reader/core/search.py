"""Fuzzy, ranked filtering of papers by the words of a query.

Each paper's words go into an inverted index. A query term matches a word exactly, as a
prefix (the word being typed) or within a small edit distance (typos), and every term of the
query must match for a paper to be shown. Papers rank by the quality of their matches,
weighted by how rare the matched word is, with words of the headline counting double.
"""

import math
import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence

from rapidfuzz import fuzz, process

from tui_reader.core.paper import Paper

_WORD = re.compile(r"\w+")
EXACT, PREFIX, FUZZY = 1.0, 0.8, 0.6
HEADLINE_WEIGHT = 2.0
MIN_PREFIX = 2
MIN_FUZZY = 4


def words(text: str) -> list[str]:
    """The lower-case words of a text, as the index and the query see them."""
    return _WORD.findall(text.casefold())


def _fuzzy_cutoff(term: str) -> float:
    """Similarity (0-100) a word needs to count as a typo of `term`: about one edit in five."""
    return 100 * (1 - 1 / (len(term) + 1)) if len(term) < 8 else 85


class SearchIndex:
    """An inverted index over papers' headlines and abstracts."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = papers
        postings: dict[str, set[int]] = defaultdict(set)
        self._headline_words: list[frozenset[str]] = []
        for index, paper in enumerate(papers):
            headline = words(paper.headline)
            self._headline_words.append(frozenset(headline))
            for word in (*headline, *words(paper.abstract)):
                postings[word].add(index)
        self._postings = dict(postings)
        self._vocabulary = sorted(postings)
        total = max(len(papers), 1)
        self._weight = {w: 1 + math.log(total / len(p)) for w, p in postings.items()}

    def _matching_words(self, term: str) -> dict[str, float]:
        """Each indexed word that `term` matches, with the quality of the match."""
        found: dict[str, float] = {}
        if len(term) >= MIN_FUZZY:
            for word, similarity, _ in process.extract(
                term,
                self._vocabulary,
                scorer=fuzz.ratio,
                score_cutoff=_fuzzy_cutoff(term),
                limit=None,
            ):
                found[word] = FUZZY * similarity / 100
        if len(term) >= MIN_PREFIX:
            start = bisect_left(self._vocabulary, term)
            for word in self._vocabulary[start:]:
                if not word.startswith(term):
                    break
                found[word] = PREFIX
        if term in self._postings:
            found[term] = EXACT
        return found

    def search(self, query: str) -> list[Paper]:
        """The papers matching every term of the query, best first; all papers for no terms."""
        terms = list(dict.fromkeys(words(query)))
        if not terms:
            return list(self._papers)
        scores: dict[int, float] | None = None
        for term in terms:
            term_scores: dict[int, float] = {}
            for word, quality in self._matching_words(term).items():
                base = quality * self._weight[word]
                for index in self._postings[word]:
                    score = base * (HEADLINE_WEIGHT if word in self._headline_words[index] else 1)
                    if score > term_scores.get(index, 0.0):
                        term_scores[index] = score
            if scores is None:
                scores = term_scores
            else:
                scores = {i: s + term_scores[i] for i, s in scores.items() if i in term_scores}
            if not scores:
                return []
        assert scores is not None
        ranked = sorted(scores, key=lambda index: (-scores[index], index))
        return [self._papers[index] for index in ranked]
