"""The filter's query and what the list shows for it.

Each query is searched (with none, every paper sorted) in a thread worker of the screen, which
posts `ResultsReady`; a newer query's search cancels it, and results come to the list only if
the query has not changed since. A query whose results take long to find all (a quoted
phrase's first letters among many papers) posts its first papers at once, said as counting,
then all of them, unless a newer query's search cancelled it first. In the for-you order, the
papers found are put in the order the for-you room gives as the search starts (ui/for_you).
What the header says of the list comes from here too."""

from collections.abc import Callable, Sequence
from functools import partial

from textual.widget import Widget
from textual.worker import get_current_worker

from tui_reader.core.engine import SearchEngine, Stopped
from tui_reader.core.for_you import ForYouOrder
from tui_reader.core.library import Library
from tui_reader.core.nothing_found import why_nothing
from tui_reader.core.paper_state import UnreadStill
from tui_reader.core.query import parse_query
from tui_reader.core.search_service import Results, search_papers
from tui_reader.core.sorting import Sort
from tui_reader.core.store import Numbers, PaperStore
from tui_reader.ui.messages import ResultsReady
from tui_reader.ui.paper_list import PaperList

FIRST_SHOWN = 200  # papers found first, when finding them all takes long


class Filtering:
    """The query typed, the one whose results the list shows, and how many it found."""

    def __init__(
        self,
        screen: Widget,
        paper_list: PaperList,
        store: PaperStore,
        library: Library,
        for_you: Callable[[str, bool], ForYouOrder],
    ) -> None:
        """`for_you(query, asked)`: the for-you order for the results of `query`; `asked`:
        the list was in another order (the reader turned to it)."""
        self._screen, self._paper_list = screen, paper_list
        self._store, self._library, self._for_you = store, library, for_you
        self._query = ""  # as typed (a space after the last word: typed in full)
        self._read_since: set[str] = set()  # papers read by resting on or using them
        self.shown_query = ""  # the query whose results the list shows
        self.typed = False  # the query was typed in the filter (not restored or jumped to)
        self.waited_for = ""  # a query whose results keys waited for in vain
        self.shown, self.close = len(store), 0  # papers matching every term; all but one
        self.counting = False  # the list shows the first papers found: the rest to come
        self.among: int | None = None  # the papers the list's search looked among
        self.showing = ""  # the words the list's search read for typos no paper holds
        self._sorted: Sort | None = None  # the order of the last search or sort started

    @property
    def query(self) -> str:
        return self._query

    @query.setter
    def query(self, query: str) -> None:
        if query != self._query:  # the next search: the papers read before it are read
            self._read_since.clear()
        self._query = query

    def read(self, paper_ids: Sequence[str], in_step: bool = False) -> bool:
        """Read papers the reader rested on or used: they stay in the list until the next
        query, its searches again (after a bookmark, say) taking them as unread still, also
        under `is:unread`; whether any was not read. `in_step`: read by the library's last
        step (a bookmark, a tag), which u undoes with the read."""
        unread = [i for i in paper_ids if not self._library.is_read(i)]
        self._read_since.update(unread)  # first: a search reading the library now keeps them
        return bool(unread) and self._library.set_read(unread, True, in_step=in_step)

    def read_there(self, paper_id: str) -> bool:
        """Whether the list shows the paper only as it stays in the query's results once read
        (by resting on or using it: `is:unread`), not marked read with r."""
        return paper_id in self._read_since

    def left_on(self, paper_id: str) -> None:
        """The paper the reader left on when it quit (`read_there` then), its query restored:
        it stays in the query's results as it did in that session, until the next query."""
        self._read_since.add(paper_id)

    def marked_read(self, paper_ids: Sequence[str]) -> None:
        """The reader marked these papers read or unread (r, R): the list's searches take
        them as they are, so that one marked read under `is:unread` leaves it."""
        self._read_since.difference_update(paper_ids)

    @property
    def asked(self) -> bool:
        """Whether there is a query (not only spaces)."""
        return bool(self.query.strip())

    def search(self, index: SearchEngine, sort: Sort) -> None:
        """Search the query among the papers `index` holds."""
        self._start(partial(self._search, index, self.query, sort, self._order(sort)))

    def sort_all(self, sort: Sort) -> None:
        """Show every paper in the `sort`'s order, once sorted."""
        self._start(partial(self._sort_all, sort, self._order(sort)))
        self.shown, self.close = len(self._store), 0

    def _order(self, sort: Sort) -> ForYouOrder | None:
        asked, self._sorted = self._sorted not in (None, sort), sort  # None: at the start
        return self._for_you(self.query, asked) if sort == "for you" else None

    def show(self, results: ResultsReady, ranked: bool) -> None:
        """Show the results of the query in the list. `ranked`: by relevance, so that the
        list opens a new query's results on the first (PaperList.show)."""
        papers, query = results.papers, results.query
        new_query = ranked and query.strip() not in ("", self.shown_query.strip())
        again = query == self.shown_query
        self.shown_query = query
        message = "No papers" if not query.strip() else "" if papers else self._nothing(query)
        full = len(papers) if results.full is None else results.full
        self._paper_list.show(papers, message, full, new_query=new_query, again=again)
        self.shown, self.close = full, len(papers) - full
        self.among, self.showing, self.counting = results.among, results.showing, results.counting

    def results_due(self) -> bool:
        """Whether the results of the query typed are on their way, and not waited for in
        vain before."""
        return self.asked and self.shown_query != self.query and self.waited_for != self.query

    def _nothing(self, query: str) -> str:
        """Why a query finds no paper: a tag or a field that no paper has, else the query."""
        why = why_nothing(parse_query(query), self._library.tag_counts(), self._store)
        return why[:1].upper() + why[1:] if why else f"No papers match “{query.strip()}”"

    def _start(self, search: partial[None]) -> None:
        self._screen.run_worker(search, name="search", group="search", thread=True, exclusive=True)

    def _sort_all(self, sort: Sort, order: ForYouOrder | None) -> None:
        """Every paper in the chosen order, sorted off the screen's thread (slow at a
        million papers)."""
        found = search_papers(None, "", self._library, sort, self._store)
        self._post(ResultsReady(self._store.view(_ordered(found.numbers, found.full, order)), ""))

    def _search(
        self, index: SearchEngine, query: str, sort: Sort, order: ForYouOrder | None
    ) -> None:
        worker, state = get_current_worker(), UnreadStill(self._library, self._read_since)
        try:
            found = search_papers(index, query, state, sort, self._store, first=FIRST_SHOWN)
            if found.counting:
                self._post(self._ready(found, index, query, order))
                found = search_papers(
                    index, query, state, sort, self._store, stop=lambda: worker.is_cancelled
                )
        except Stopped:
            return
        self._post(self._ready(found, index, query, order))

    def _ready(
        self, found: Results, index: SearchEngine, query: str, order: ForYouOrder | None
    ) -> ResultsReady:
        papers = self._store.view(_ordered(found.numbers, found.full, order))
        return ResultsReady(
            papers,
            query,
            found.full,
            found.highlight,
            len(index),
            found.showing,
            found.named,
            found.counting,
        )

    def _post(self, results: ResultsReady) -> None:
        if not get_current_worker().is_cancelled:  # a later key's search replaced this one
            self._screen.post_message(results)


def _ordered(numbers: Numbers, full: int, order: ForYouOrder | None) -> Numbers:
    """The papers found in the for-you order, when it is asked for."""
    return numbers if order is None else numbers[order.positions(numbers, full)]
