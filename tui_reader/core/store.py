"""The papers of this session, in load order and by id."""

from collections.abc import Iterable, Iterator, Sequence

from tui_reader.core.paper import Paper


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
        """The paper's place in load order, or None when it is not in the store."""
        return self._positions.get(paper_id)

    @property
    def title(self) -> str:
        """How the header names what is open: the collection, or how many there are."""
        if len(self.collections) == 1:
            return self.collections[0]
        return f"{len(self.collections)} collections" if self.collections else "No papers"
