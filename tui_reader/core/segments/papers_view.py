"""The parts of an entry read as one store and one index: what joins them (the view).

The papers are numbered one part after the other. The view holds the store's columns of one
value a paper, all the parts' one after the other (codes made the codes of one list of
names, offsets made offsets into the parts' texts one after the other, the ids' keys sorted
again), the headlines' ranks among all the papers' (to sort by headline), and the lexicons
of the parts' words (core.flat.lexicon). The parts' texts stay in the parts.

A view is made from the one before it: the parts kept keep their words' places and their
headlines' ranks, those gone are taken away, and only the papers of the new parts are
looked up among the others (a day's papers among a million: thousands of look-ups).
"""

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.lexicon import Lexicon
from tui_reader.core.flat.merge import joined_offsets
from tui_reader.core.flat.parts import IndexPart, Lexicons
from tui_reader.core.paper_columns import NUMBERS, TEXTS
from tui_reader.core.segments.part import NAMES, TYPES, OpenPart
from tui_reader.core.store import Array

Ints = npt.NDArray[np.int64]
# The lexicons' arrays, and each part's words' places in them (by the part's place).
LEXICONS = {"words": "words", "cased": "cased_words"}
_JOINED = {name: kind for name, kind in TYPES.items() if name not in TEXTS}


@dataclass(frozen=True)
class View:
    """What joins an entry's parts: the parts' names in order, the lexicons of their words,
    and the ranks of their papers' headlines, all the papers' one after the other."""

    names: list[str]
    counts: list[int]
    lexicons: Lexicons
    ranks: Ints

    @classmethod
    def of_part(cls, part: OpenPart, index: IndexPart) -> "View":
        return cls(
            [part.facts.name],
            [part.facts.count],
            Lexicons(
                Lexicon.of_part(index.arrays["words"], index.arrays["words_offsets"]),
                Lexicon.of_part(index.arrays["cased_words"], index.arrays["cased_words_offsets"]),
            ),
            np.asarray(part.arrays["headline_ranks"], dtype=np.int64),
        )

    def arrays(self) -> dict[str, Array]:
        """The lexicons' arrays, to keep (`from_arrays` reads them back)."""
        arrays: dict[str, Array] = {}
        for kind, name in LEXICONS.items():
            lexicon: Lexicon = getattr(self.lexicons, kind)
            arrays[name], arrays[f"{name}_offsets"] = lexicon.data, lexicon.offsets
            for place, ids in enumerate(lexicon.ids):
                arrays[f"{kind}_ids_{place}"] = ids
        return arrays

    @classmethod
    def from_arrays(
        cls, names: list[str], counts: list[int], arrays: Mapping[str, Array]
    ) -> "View":
        lexicons = [
            Lexicon(
                arrays[name],
                arrays[f"{name}_offsets"],
                [np.asarray(arrays[f"{kind}_ids_{place}"]) for place in range(len(names))],
            )
            for kind, name in LEXICONS.items()
        ]
        return cls(names, counts, Lexicons(*lexicons), np.asarray(arrays["headline_ranks"]))


def view_after(before: View, parts: Sequence[OpenPart], indexes: Sequence[IndexPart]) -> View:
    """The view of these parts (with their indexes), made from the view `before` of parts
    of which some are kept."""
    names = [part.facts.name for part in parts]
    dropped = [place for place, name in enumerate(before.names) if name not in names]
    kept = [name for name in before.names if name in names]
    words, cased = before.lexicons.words.without(dropped), before.lexicons.cased.without(dropped)
    order = list(kept)
    for part, index in zip(parts, indexes, strict=True):
        if part.facts.name not in before.names:
            words = words.adding(index.arrays["words"], index.arrays["words_offsets"])
            cased = cased.adding(index.arrays["cased_words"], index.arrays["cased_words_offsets"])
            order.append(part.facts.name)
    places = [order.index(name) for name in names]
    lexicons = Lexicons(
        Lexicon(words.data, words.offsets, [words.ids[place] for place in places]),
        Lexicon(cased.data, cased.offsets, [cased.ids[place] for place in places]),
    )
    starts = np.concatenate(([0], np.cumsum(before.counts, dtype=np.int64))).tolist()
    slices = {name: before.ranks[starts[i] : starts[i + 1]] for i, name in enumerate(before.names)}
    counts = [part.facts.count for part in parts]
    return View(names, counts, lexicons, _ranks(parts, slices))


def _ranks(parts: Sequence[OpenPart], kept: Mapping[str, Ints]) -> Ints:
    """The headline ranks of the parts' papers, one part after the other: those of the parts
    kept (`kept`, by name) moved for the headlines of the others, put among them."""
    old = [part for part in parts if part.facts.name in kept]
    new = [part for part in parts if part.facts.name not in kept]
    if not old:  # read the biggest part's own
        biggest = max(new, key=lambda part: part.facts.count)
        old, new = [biggest], [part for part in new if part is not biggest]
        kept = {biggest.facts.name: np.asarray(biggest.arrays["headline_ranks"], dtype=np.int64)}
    stores = [part.store() for part in old]
    starts = np.cumsum([0, *(part.facts.count for part in old)]).tolist()

    def headline(number: int) -> str:
        place = bisect_left(starts, number + 1) - 1
        return stores[place].headline_of(number - starts[place])

    base = np.concatenate([kept[part.facts.name] for part in old]) if old else np.zeros(0, np.int64)
    added = [part.store().texts("headline") for part in new]
    moved, ranked = merged_ranks(base, headline, added)
    by_name = {part.facts.name: moved[starts[i] : starts[i + 1]] for i, part in enumerate(old)}
    by_name |= {part.facts.name: ranks for part, ranks in zip(new, ranked, strict=True)}
    joined = [by_name[part.facts.name] for part in parts]
    return np.concatenate(joined) if joined else np.zeros(0, dtype=np.int64)


def merged_ranks(
    base: Ints, headline: Callable[[int], str], added: Sequence[list[str]]
) -> tuple[Ints, list[Ints]]:
    """Each paper's rank among all the headlines, case-blind and in alphabetical order, equal
    ones sharing one (as core.store ranks them): of papers whose ranks among themselves are
    `base` (in order, with `headline` reading paper `number`'s), and of papers of these
    headlines."""
    dense, first = _dense(base)
    keys = sorted({text.casefold() for headlines in added for text in headlines})

    def base_key(rank: int) -> str:
        return headline(int(first[rank])).casefold()

    places = [bisect_left(range(len(first)), key, key=base_key) for key in keys]
    found = [
        place < len(first) and base_key(place) == key
        for place, key in zip(places, keys, strict=True)
    ]
    new_places = np.asarray(
        [place for place, known in zip(places, found, strict=True) if not known], dtype=np.int64
    )
    rank_of, put = {}, 0
    for key, place, known in zip(keys, places, found, strict=True):
        if known:
            rank_of[key] = place + int(np.searchsorted(new_places, place, side="right"))
        else:
            rank_of[key] = place + put
            put += 1
    moved = dense + np.searchsorted(new_places, dense, side="right")
    ranked = [
        np.fromiter((rank_of[text.casefold()] for text in headlines), np.int64, len(headlines))
        for headlines in added
    ]
    return moved.astype(np.int64), ranked


def _dense(ranks: Ints) -> tuple[Ints, Ints]:
    """Ranks made 0, 1, 2... keeping their order, and a paper of each."""
    top = int(ranks.max()) + 1 if len(ranks) else 0
    if len(ranks) and ranks.min() >= 0 and top <= len(ranks):
        first = np.full(top, -1, dtype=np.int64)
        first[ranks] = np.arange(len(ranks))
        if np.all(first >= 0):  # already so: no sort of a million ranks
            return ranks, first
    distinct, first = np.unique(ranks, return_index=True)
    return np.searchsorted(distinct, ranks).astype(np.int64), first.astype(np.int64)


def joined_store(parts: Sequence[OpenPart], ranks: Ints) -> tuple[dict[str, Array], list[str]]:
    """The store's columns of one value a paper and the texts' offsets, all the parts' one
    after the other, codes into the names of all (`names_of`); and the collections."""
    names = names_of(parts)
    arrays: dict[str, Array] = {}
    for name in TEXTS:
        arrays[f"{name}_offsets"] = joined_offsets(
            [part.arrays[f"{name}_offsets"] for part in parts]
        )
    arrays["category_starts"] = joined_offsets([part.arrays["category_starts"] for part in parts])
    for name in NUMBERS:
        column = [np.asarray(part.arrays[name]) for part in parts]
        if name in NAMES:  # codes: made codes of all the parts' names
            column = [
                _recoded(codes, part.facts.names[name], names, name)
                for codes, part in zip(column, parts, strict=True)
            ]
        arrays[name] = np.concatenate(column).astype(_JOINED[name])
    arrays["category_codes"] = np.concatenate(
        [
            _recoded(
                np.asarray(part.arrays["category_codes"]),
                part.facts.names["categories"],
                names,
            )
            for part in parts
        ]
    ).astype(np.int32)
    # Each part's keys are sorted: a stable sort (Timsort) merges the runs.
    starts = np.cumsum([0, *(part.facts.count for part in parts[:-1])]).tolist()
    keys = np.concatenate([np.asarray(part.arrays["sorted_keys"]) for part in parts])
    numbers = np.concatenate(
        [
            np.asarray(part.arrays["sorted_numbers"], dtype=np.int64) + start
            for part, start in zip(parts, starts, strict=True)
        ]
    )
    order = np.argsort(keys, kind="stable")
    arrays["sorted_keys"], arrays["sorted_numbers"] = keys[order], numbers[order]
    arrays["headline_ranks"] = ranks
    collections = list(dict.fromkeys(name for part in parts for name in part.facts.collections))
    return arrays, collections


def names_of(parts: Sequence[OpenPart]) -> dict[str, list[str]]:
    """The names the parts' codes stand for, each once, in the order the parts name them."""
    return {
        name: list(dict.fromkeys(listed for part in parts for listed in part.facts.names[name]))
        for name in NAMES
    }


def _recoded(
    codes: Array, names: list[str], joined: dict[str, list[str]], kind: str = "categories"
) -> Array:
    """Codes into `names` as codes into the joined names of their kind."""
    place = {name: code for code, name in enumerate(joined[kind])}
    table = np.asarray([place[name] for name in names], dtype=np.int32)
    return table[codes] if len(codes) else np.zeros(0, dtype=np.int32)
