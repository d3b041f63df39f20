"""Saved searches as feeds: how many papers each finds, and how many of those are unread.

A feed's papers are those its query matches in full (as `list --query` lists them), through the
one search service with the library as the state. Running a query costs tens of milliseconds
at 30,000 papers, so a `FeedCounter` keeps each query's matches while the papers and the index
stay the same: once a paper is read, the counts are recounted from the kept matches. A query
that filters on the user's state (`!#done`, `is:unread`) is run again every time.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from tui_reader.core.engine import SearchEngine
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState
from tui_reader.core.query import parse_query
from tui_reader.core.search_service import needs_index, search_papers
from tui_reader.core.store import Numbers, PaperStore


@dataclass(frozen=True)
class FeedCount:
    """A saved search with its counts; None while its query waits for the index."""

    name: str
    query: str
    unread: int | None
    total: int | None

    @property
    def counts(self) -> str:
        """Unread of total ("3 / 40"); "…" while they are not known."""
        if self.unread is None or self.total is None:
            return "…"
        return f"{self.unread:,} / {self.total:,}"


def feed_numbers(
    index: SearchEngine | None, query: str, state: PaperState, papers: PaperStore
) -> Numbers:
    """The numbers of the papers the query matches in full, best first."""
    found = search_papers(index, query, state, "relevance", papers)
    return found.numbers[: found.full]


def unread_papers(numbers: Numbers, state: PaperState, papers: PaperStore) -> list[Paper]:
    """The papers these numbers name that are not read, in their order."""
    named = (papers[int(number)] for number in numbers)
    return [paper for paper in named if not state.is_read(paper.id)]


class FeedCounter:
    """Counts saved searches, keeping each query's matches while papers and index stay."""

    def __init__(self) -> None:
        # query -> the index and the number of papers it ran over, and its matches
        self._kept: dict[str, tuple[SearchEngine | None, int, Numbers]] = {}

    def count(
        self,
        searches: Mapping[str, str],
        index: SearchEngine | None,
        state: PaperState,
        papers: PaperStore,
    ) -> list[FeedCount]:
        """Each saved search (name -> query) with its unread and total counts, by name."""
        counts, kept = [], {}
        for name, query in searches.items():
            if index is None and needs_index(query):
                counts.append(FeedCount(name, query, None, None))
                continue
            before = self._kept.get(query)
            if before is not None and before[0] is index and before[1] == len(papers):
                numbers = before[2]
            else:
                numbers = feed_numbers(index, query, state, papers)
            if not parse_query(query).asks_state:  # its matches do not change with the state
                kept[query] = (index, len(papers), numbers)
            unread = sum(not state.is_read(papers.id_of(n)) for n in numbers.tolist())
            counts.append(FeedCount(name, query, unread, len(numbers)))
        self._kept = kept
        return counts
