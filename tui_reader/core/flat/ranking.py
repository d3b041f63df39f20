"""Orders of a search's results, what ranks them again, and the value each word matched gives
a paper: helpers of core.flat.index."""

import math
from collections import defaultdict
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.matching import EXACT, PREFIX

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]

RANKED_EXACTLY = 1000  # of many papers found, the best ranked by their exact score
EXACT_RARER_AT_MOST = math.log(4)  # a weight: 1 + log(papers / papers with the word)
TITLE_WEIGHT = 2.0
BELOW_TYPED = 0.99  # of the word as typed's value: the most a beginning or a typo is raised to


def said(corrected: set[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(corrected))


def by_value(scores: Floats, values: frozenset[float]) -> tuple[Ints, npt.NDArray[np.float64]]:
    """The papers scoring more than 0, best first, ties in paper order, with their scores,
    when the scores take only these few values: a pass over the scores a value costs less
    than sorting every paper found (most of a million for "co")."""
    ranked = sorted({np.float32(value) for value in values}, reverse=True)
    having = [scores == value for value in ranked]
    counts = [int(np.count_nonzero(found)) for found in having]
    # Filled in place: concatenating the parts cost as much again as finding them.
    order = np.empty(sum(counts), dtype=np.int64)
    keys = np.empty(sum(counts), dtype=np.float64)
    start = 0
    for value, found, count in zip(ranked, having, counts, strict=True):
        order[start : start + count] = np.flatnonzero(found)
        keys[start : start + count] = value
        start += count
    return order, keys


def best_first(keys: npt.NDArray[np.float64]) -> Ints:
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


def smallest_window(tokens: list[str], terms_of: Mapping[str, list[int]], terms: int) -> int:
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


def as_typed(matches: dict[int, float], weights: Floats) -> float:
    """The value of the word as typed, where it matched as typed and is read so (math.inf:
    nowhere): unless it is more than four times rarer than the commonest word it begins, then
    read as a beginning too (typed "conv", a stray word "Conv" does not outrank
    convolutional)."""
    begun = [word_id for word_id, quality in matches.items() if quality == PREFIX]
    commonest_begun = float(weights[begun].min()) if begun else math.inf
    typed = [float(weights[word_id]) for word_id, quality in matches.items() if quality == EXACT]
    return typed[0] if typed and typed[0] <= commonest_begun + EXACT_RARER_AT_MOST else math.inf


def raised(value: float, weight: float, typed: float) -> float:
    """A word's value raised by a weight (a title's, a paper's without one), a beginning's or a
    typo's never to the value of the word as typed (`typed`; math.inf: none), wherever that
    stands: typed with capitals and found as written, SAMURAI in a title ranks below SAM in
    an abstract."""
    return value * weight if value >= typed else min(value * weight, typed * BELOW_TYPED)


def valued(
    matches: dict[int, float], weights: Floats, field: str
) -> dict[tuple[float, str], list[int]]:
    """The words matched by the value each gives and the field it gives it for.

    A prefix or a typo stands for all its completions at once: it weighs as much as the
    commonest of them, so that "mo" does not rank the rare "mollification" first. The word as
    typed weighs by its own rarity (`as_typed`); typos do not count here."""
    ids = np.fromiter(matches, dtype=np.int64, count=len(matches))
    weakest = float(weights[ids].min()) if len(ids) else 0.0
    typed = as_typed(matches, weights)
    by_value: dict[tuple[float, str], list[int]] = defaultdict(list)
    for word_id, quality in matches.items():
        if quality == EXACT and typed == math.inf:
            quality = PREFIX  # far rarer than the words it begins: read as a beginning
        value = quality * (typed if quality == EXACT else weakest)
        by_value[value, field].append(word_id)
        if field == "all":
            by_value[value * TITLE_WEIGHT, "title"].append(word_id)
    return by_value
