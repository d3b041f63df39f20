"""The papers of this session, in load order and by id.

A paper's number is its place in the store (0 for the first loaded): searches, sorts and
related papers speak in numbers, and a `PaperView` shows the papers they name.
"""

from collections.abc import Iterable, Iterator, Sequence
from typing import TypeAlias, overload

import numpy as np
import numpy.typing as npt

from tui_reader.core.paper import Paper

Numbers: TypeAlias = npt.NDArray[np.int64]  # paper numbers: places in the store


class PaperStore(Sequence[Paper]):
    """An ordered, read-only collection of papers, also indexed by paper id."""

    def __init__(self, papers: Sequence[Paper] = (), collections: Sequence[str] = ()) -> None:
        self._papers: list[Paper] = []
        self._positions: dict[str, int] = {}
        self.collections = list(collections)
        self.extend(papers)

    def extend(self, papers: Iterable[Paper]) -> int:
        """Add papers not already here (by id), in order; how many were new."""
        before = len(self._papers)
        for paper in papers:
            if paper.id not in self._positions:
                self._positions[paper.id] = len(self._papers)
                self._papers.append(paper)
                if paper.collection not in self.collections:
                    self.collections.append(paper.collection)
        return len(self._papers) - before

    def __len__(self) -> int:
        return len(self._papers)

    def __getitem__(self, index: int) -> Paper:  # type: ignore[override]
        return self._papers[index]

    def __iter__(self) -> Iterator[Paper]:
        return iter(self._papers)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._positions

    def get(self, paper_id: str) -> Paper | None:
        position = self._positions.get(paper_id)
        return None if position is None else self._papers[position]

    def position_of(self, paper_id: str) -> int | None:
        """The paper's place in load order (its number), or None when it is not in the store."""
        return self._positions.get(paper_id)

    def view(self, numbers: Numbers) -> "PaperView":
        """The papers these numbers name, in their order."""
        return PaperView(self, numbers)

    @property
    def title(self) -> str:
        """How the header names what is open: the collection, or how many there are."""
        if len(self.collections) == 1:
            return self.collections[0]
        return f"{len(self.collections)} collections" if self.collections else "No papers"


class PaperView(Sequence[Paper]):
    """Papers of a store in the order of their numbers (a search's results), not copied."""

    def __init__(self, store: PaperStore, numbers: Numbers) -> None:
        self._store, self.numbers = store, numbers

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> Paper: ...

    @overload
    def __getitem__(self, index: slice) -> list[Paper]: ...

    def __getitem__(self, index: int | slice) -> Paper | list[Paper]:
        if isinstance(index, slice):
            return [self._store[int(number)] for number in self.numbers[index]]
        return self._store[int(self.numbers[index])]

    def position_of(self, paper_id: str) -> int | None:
        """Where the paper is in this view, or None; without walking the papers."""
        number = self._store.position_of(paper_id)
        if number is None:
            return None
        found = np.flatnonzero(self.numbers == number)
        return int(found[0]) if len(found) else None
