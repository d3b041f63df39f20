"""The papers most like one paper: a helper of core.flat.index.

A paper is its headline and title, and its abstract (not its authors, venue or file). Its
words that tell what it is about begin with a letter, are of two papers or more but of at most
a tenth of all, and are not common English (core.topic_words). A word weighs its rarity
(inverse document frequency) in each paper holding it, once for its title and once for its
abstract: a word of both counts twice. Two papers are as alike as the words they share weigh
in both, summed (a word's rarity counted twice, as in a cosine of TF-IDF vectors: sharing
"coalescent" outweighs sharing "clustering"), over the square root of the other paper's number
of telling words. How often a paper repeats a word does not count: a coined name said ten
times says no more than its title. Pairs of words that follow each other once common English
is left out ("drug design", "kv cache") count too, PAIR_WEIGHT as much as a word as rare as
the rarer of their two.

A short form both papers define, each as something else ("SEGA (sketched gradient method)",
"semantic guidance (SEGA)"), relates nothing: the word, and the pairs holding it, are not
counted between them. A short form is defined where it is first written as "long form (LF)"
or "LF (long form)", its letters found in the long form from right to left, its first at the
start of a word (Schwartz and Hearst's rule); another short form in a long form reads as its
own long form ("stochastic GD (SGD)"). Two long forms say the same when their words that are
not common English begin alike (their first SAME_BEGINNING letters: "network" and "nets") for
half the words of the longer at least ("generative adversarial nets" and "generative
adversarial networks" say the same, "deep belief networks" and "dynamic Bayesian networks"
do not).

The paper's RELATED_WORDS rarest words first find, from the index's postings, the
RELATED_CANDIDATES papers sharing most of them (each weighing its rarity squared, twice in a
title, over the square root of a paper's number of words); these are weighed as above, from
their text.
"""

import re
from functools import cached_property
from itertools import pairwise
from operator import countOf

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.parts import Parts
from tui_reader.core.store import Numbers
from tui_reader.core.topic_words import STOP_WORDS

Floats = npt.NDArray[np.float32]
Pair = tuple[str, str]

RELATED_WORDS = 40
RELATED_CANDIDATES = 100
PAIR_WEIGHT = 0.25
SAME_BEGINNING = 4
_TOPICAL = re.compile(r"\b[^\W\d_]\w+")  # a letter, then a letter, digit or _
_BRACKETED = re.compile(r"\(([^()]{1,80})\)")
_ALPHANUMERIC = re.compile(r"[^\W_]+")
_SHORT_FORM = range(2, 11)  # its letters and digits
_BEFORE = 200  # characters before a bracket where a long form is looked for


class _Said:
    """The telling words and pairs of words of a paper's headline and title, and of its
    abstract (each word begins with a letter and is not common English)."""

    def __init__(self, text: str) -> None:
        headline, title, abstract, *_ = [*text.split("\n"), "", ""]
        self._text = f"{headline}\n{title}\n{abstract}"
        titled, written = _topical(f"{headline} {title}"), _topical(abstract)
        self.words = {*titled, *written}
        self.titled, self.written = set(titled), set(written)
        self.titled_pairs, self.written_pairs = set(pairwise(titled)), set(pairwise(written))
        self.pairs = self.titled_pairs | self.written_pairs

    def times(self, term: str | Pair) -> int:
        """In how many of its two parts (title, abstract) the paper says a word or pair."""
        if isinstance(term, str):
            return (term in self.titled) + (term in self.written)
        return (term in self.titled_pairs) + (term in self.written_pairs)

    @cached_property
    def defined(self) -> dict[str, frozenset[str]]:
        """The short forms the paper defines (singular), each with its long form's telling
        beginnings."""
        return _short_forms(self._text)

    def clashing(self, other: "_Said") -> set[str]:
        """The words of both papers that are short forms each defines otherwise."""
        if not self.defined:
            return set()
        written = {word for word in self.words & other.words if _singular(word) in self.defined}
        if not written:
            return set()
        theirs = other.defined
        return {
            word
            for word in written
            if _singular(word) in theirs
            and _otherwise(self.defined[_singular(word)], theirs[_singular(word)])
        }


def _short_forms(text: str) -> dict[str, frozenset[str]]:
    """The short forms the text defines, each at its first definition, with the beginnings of
    its long form's telling words; a short form in a long form ("stochastic GD (SGD)") read as
    its own."""
    longs: dict[str, list[str]] = {}
    for bracketed in _BRACKETED.finditer(text):
        inside = _ALPHANUMERIC.findall(bracketed.group(1))
        line = text.rfind("\n", 0, bracketed.start()) + 1
        before = _ALPHANUMERIC.findall(
            text[max(line, bracketed.start() - _BEFORE) : bracketed.start()]
        )
        if len(inside) == 1:  # long form (LF): the fewest words before that it can stand for
            short = inside[0]
            tried = [before[-words:] for words in range(1, min(len(before), 2 * len(short)) + 1)]
        elif len(inside) > 1 and before and inside[0] not in STOP_WORDS:  # LF (long form)
            short, tried = before[-1], [inside]
        else:
            continue
        if len(short) not in _SHORT_FORM or short.isdigit() or _singular(short) in longs:
            continue
        long = next((words for words in tried if _stands_for(_singular(short), words)), None)
        if long is not None:
            longs[_singular(short)] = long
    beginnings = {short: _beginnings(short, long, longs) for short, long in longs.items()}
    return {short: said for short, said in beginnings.items() if said}  # not all common English


def _beginnings(short: str, long: list[str], longs: dict[str, list[str]]) -> frozenset[str]:
    """The first SAME_BEGINNING letters of the long form's telling words, another short form
    in it read as its long form."""
    words = [
        nested
        for word in long
        for nested in (
            longs[_singular(word)] if _singular(word) in longs.keys() - {short} else [word]
        )
    ]
    return frozenset(word[:SAME_BEGINNING] for word in words if word not in STOP_WORDS)


def _otherwise(long: frozenset[str], other: frozenset[str]) -> bool:
    """Whether two long forms say different things: fewer than half the words of the longer
    begin alike."""
    return 2 * len(long & other) < max(len(long), len(other))


def _stands_for(short: str, long: list[str]) -> bool:
    """Whether the short form's letters are found in the long form from right to left, its
    first at the start of the long form's first word."""
    if not long or long[0][0] != short[0]:
        return False
    written, place = " ".join(long), len(" ".join(long))
    for letter in reversed(short[1:]):
        place = written.rfind(letter, 0, place)
        if place <= 0:
            return False
    return True


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 2 and word.endswith("s") else word


def _topical(text: str) -> list[str]:
    return [word for word in _TOPICAL.findall(text) if word not in STOP_WORDS]


class Rarities:
    """Each word's rarity, looked up once (0: a word that tells nothing), kept between papers:
    the words of a paper's candidates are much the same from one paper to the next."""

    def __init__(self, parts: Parts, weight: Floats, known: dict[str, float]) -> None:
        self._words, self._weight, self._known = parts.words, weight, known
        self._common = parts.count // 10 if parts.count >= 1000 else parts.count

    def of(self, word: str) -> float:
        rarity = self._known.get(word)
        return self._look_up(word) if rarity is None else rarity

    def telling(self, words: set[str]) -> int:
        """How many of these words tell something."""
        for word in words.difference(self._known):
            self._look_up(word)
        return len(words) - countOf(map(self._known.__getitem__, words), 0.0)

    def _look_up(self, word: str) -> float:
        word_id = self._words.id_of(word)
        rarity = 0.0
        if word_id is not None and 1 < self._words.frequency[word_id] <= self._common:
            rarity = float(self._weight[word_id])
        self._known[word] = rarity
        return rarity


def related(
    parts: Parts, rarity: Rarities, paper_words: Floats, number: int, count: int
) -> Numbers:
    """The `count` papers most like paper `number`, best first (see the module's doc):
    `paper_words` is each paper's number of words' square root."""
    said = _Said(parts.text.of(number))
    # Sorted: of words as rare, the same are chosen in every process.
    worth = {word: rarity.of(word) * said.times(word) for word in sorted(said.words)}
    worth = {word: value for word, value in worth.items() if value}
    candidates = _candidates(parts, worth, rarity, paper_words, number)
    terms: dict[str | Pair, float] = {
        word: value * rarity.of(word) for word, value in worth.items()
    }
    for pair in said.pairs:
        first, second = rarity.of(pair[0]), rarity.of(pair[1])
        if first and second:  # as rare as its rarer word, at least
            terms[pair] = PAIR_WEIGHT * max(first, second) ** 2 * said.times(pair)
    keys = _alike(parts, candidates, said, terms, rarity)
    best = np.argsort(-keys, kind="stable")[:count]
    return candidates[best[keys[best] > 0]].astype(np.int64)


def _candidates(
    parts: Parts, worth: dict[str, float], rarity: Rarities, paper_words: Floats, number: int
) -> Numbers:
    """The papers sharing most of the paper's RELATED_WORDS rarest words, by the postings, in
    the order of their numbers."""
    chosen = sorted(worth, key=worth.__getitem__, reverse=True)[:RELATED_WORDS]
    found, weights = [], []
    for word in chosen:
        word_id = parts.words.id_of(word)
        for field in ("all", "title"):
            papers = parts.words.papers(field, [] if word_id is None else [word_id])
            found.append(papers)
            weights.append(np.full(len(papers), worth[word] * rarity.of(word)))
    if not found:
        return np.zeros(0, dtype=np.int64)
    scores = (
        np.bincount(np.concatenate(found), np.concatenate(weights), minlength=parts.count)
        / paper_words
    )
    scores[number] = 0
    candidates = np.flatnonzero(scores)
    if len(candidates) > RELATED_CANDIDATES:
        candidates = np.sort(np.argpartition(-scores, RELATED_CANDIDATES)[:RELATED_CANDIDATES])
    return candidates


def _alike(
    parts: Parts,
    candidates: Numbers,
    said: _Said,
    terms: dict[str | Pair, float],
    rarity: Rarities,
) -> Floats:
    """How alike each candidate is to the paper: each word or pair it shares (but short forms
    defined otherwise) weighs its worth in the paper times its own there, over the square root
    of its number of telling words."""
    keys = np.zeros(len(candidates), dtype=np.float32)
    for place, candidate in enumerate(candidates.tolist()):
        other = _Said(parts.text.of(candidate))
        shared: list[str | Pair] = [*(other.words & terms.keys()), *(other.pairs & terms.keys())]
        clashing = said.clashing(other)
        if clashing:
            shared = [term for term in shared if clashing.isdisjoint(_words_of(term))]
        total = sum(terms[term] * other.times(term) for term in shared)
        keys[place] = total / max(rarity.telling(other.words), 1) ** 0.5
    return keys


def _words_of(term: str | Pair) -> tuple[str, ...]:
    return (term,) if isinstance(term, str) else term
