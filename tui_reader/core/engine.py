"""What a search engine gives the rest of the reader: paper numbers, never Paper objects.

`core.flat.index.FlatIndex` is the engine: flat numpy arrays, built on every core and kept on
disk as a folder opened by memory map (core.flat). Another one (a library such as tantivy)
would replace it by meeting `SearchEngine` and being returned by
`core.search_service.build_index`; nothing else changes.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

from tui_reader.core.query import Query
from tui_reader.core.search_turns import at_once
from tui_reader.core.store import Numbers

Scores: TypeAlias = npt.NDArray[np.float64]
Stop: TypeAlias = Callable[[], bool]  # whether a search is given up (a newer one replaced it)


class Stopped(Exception):
    """A search given up as its `Stop` asked."""


@dataclass(frozen=True)
class Ranking:
    """The papers a query's terms find, best first.

    The first `full` match every term; the rest match all but one ("close"). A query with no
    terms finds every paper indexed, in load order. State filters (`#tag`, `is:read`) are not
    an engine's business: the search service applies them.
    """

    numbers: Numbers
    full: int
    scores: Scores  # aligned with numbers: higher is better
    matched: frozenset[str] = frozenset()  # the indexed words the terms matched, to highlight
    # Each word the terms found in no paper (or almost none), and the word a typo away it
    # was read as: ("satisficng", "satisficing"); or a word with capitals no paper writes so,
    # as typed, and the word it was read as in any case: ("SAM", "sam"); one left out so
    # (`!SAM`) with the `!`: ("!SAM", "sam").
    corrected: tuple[tuple[str, str], ...] = ()
    # Only the first papers of the ranking, exactly as the whole one begins: the rest, and
    # how many there are, still to be found (`SearchEngine.run`'s `first`).
    counting: bool = False


class SearchEngine(Protocol):
    """An index over the first `len(engine)` papers of a store, numbered as the store numbers
    them (0 is the first loaded)."""

    def __len__(self) -> int: ...

    def run(self, query: Query, first: int | None = None, stop: Stop | None = None) -> Ranking:
        """The papers matching the query's terms (all but one term, for the close ones).
        With `first`, the engine may give only the first papers of the ranking (up to about
        so many), `counting`, where finding them all takes long; `stop` is asked now and then
        while it reads, and gives the search up (`Stopped`) when it says so."""
        ...

    def related(self, number: int, count: int = 5) -> Numbers:
        """Up to `count` papers most like paper `number`, most alike first (never itself)."""
        ...

    def warm(self, make_way: Callable[[], None] = at_once) -> None:
        """Make ready, ahead of time, what typing a query will need (may take seconds),
        calling `make_way` between steps: it returns once they may go on (core.search_turns)."""
        ...
