"""Following the list's cursor: the detail pane shows the paper under it, then its related papers
once the cursor rests there; a paper the reader moved to is read once they have rested on it.

Not in the for-you order: there a paper read and not kept is one the reader skipped, which
the model learns from and the order and a triage put last. A paper shown there, rested on,
opened or used, is not decided: it is read by a decision (r, or a triage's skip) alone, or
once it is bookmarked, which no model takes for a skip (core.recommend.decisions)."""

import time
from collections.abc import Callable, Sequence
from functools import partial

from textual.screen import Screen
from textual.timer import Timer

from tui_reader.core.engine import SearchEngine
from tui_reader.core.library import Library
from tui_reader.core.store import PaperStore
from tui_reader.ui.debounce import Debounce
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.messages import RelatedFound
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.timings import Timings


class CursorFollower:
    """What the screen does as the list's cursor moves: its timers run on the screen."""

    def __init__(
        self,
        screen: Screen[None],
        paper_list: PaperList,
        detail_pane: DetailPane,
        debounce: Debounce,
        timings: Timings,
        *,
        store: PaperStore,
        library: Library,
        read_after: float,
        index: Callable[[], SearchEngine | None],
        read: Callable[[str], None],
        reads: Callable[[], bool] = lambda: True,
    ) -> None:
        """`read_after`: seconds resting on a paper reads it (0: never); `index()`, the
        store's index once there is one; `read(paper_id)` reads a paper rested on;
        `reads()`: whether a paper rested on or used is read in the list's order now."""
        self._screen, self._paper_list, self._detail_pane = screen, paper_list, detail_pane
        self._debounce, self._timings = debounce, timings
        self._store, self._library, self._read_after = store, library, read_after
        self._index, self._read, self._reads = index, read, reads
        self.last_paper_id = ""  # the last paper under the cursor
        self.arriving: str | None = None  # a paper jumped to: read once the cursor rests there
        self._moved_at = 0.0  # when the reader last moved the cursor (time.monotonic)
        self._read_timer: Timer | None = None
        self._reading: str | None = None  # the paper the read timer is for
        self._related_timer: Timer | None = None

    def moved(self, event: PaperList.CursorMoved) -> None:
        """The cursor is on another paper (`event.chosen`: the reader moved it)."""
        now, moved = time.monotonic(), self._moved_at
        if event.chosen:
            self._moved_at = now
        settled_after = self._timings.settled_after
        if self._detail_pane.paper is None or (event.chosen and now - moved > settled_after):
            # The list repaints first; the detail pane (which may wrap a long abstract again)
            # follows in the next frame, so a move feels immediate. A new list of a search,
            # or moves as fast as a held key repeats, show the paper once the keys pause:
            # drawing each would take longer than the keys come.
            self._debounce.drop(self.show_detail)
            self._screen.call_after_refresh(self.show_detail)
        elif event.chosen:  # moves as fast as a held key repeats
            self._debounce.ask(self.show_detail, settled_after)
        elif self._detail_pane.shows(event.paper):  # a new list, the same paper under the cursor
            self._debounce.drop(self.show_detail)
        else:  # a search's new list
            self._debounce.ask(self.show_detail, self._timings.pane_settled_after)
        arrived = event.paper is not None and event.paper.id == self.arriving
        if event.paper is not None:
            self.last_paper_id = event.paper.id
            self.arriving = None
        if event.chosen or arrived:
            self._start_reading()
        elif event.paper is None or event.paper.id != self._reading:
            self.stop_reading()

    def left_at(self, paper_id: str) -> None:
        """The list's paper is this one, as a triage left it (a quit in it too: the session
        keeps it), until the cursor moves."""
        self.last_paper_id = paper_id

    def opened(self) -> None:
        """The reader opened the paper under the cursor (Enter, a double click)."""
        current = self._paper_list.current
        if current is None:
            return
        # Opened, it is the paper chosen: the cursor stays on it when the list changes (the
        # filter cleared), as on a paper moved to. Leaving the filter chooses nothing.
        self._paper_list.choose_later(current.id, asked_for=False)
        if current.id != self._reading:
            self._start_reading()

    def _start_reading(self) -> None:
        """Read the paper under the cursor once the reader has rested on it for read_after
        seconds. Only a paper the reader moved to, opened or jumped to: never one that is
        under the cursor because the reader started there or a new list put it there."""
        self.stop_reading()
        paper, delay = self._paper_list.current, self._read_after
        if delay and paper is not None and self._reads() and not self._library.is_read(paper.id):
            self._reading = paper.id
            self._read_timer = self._screen.set_timer(delay, self._read_current)

    def stop_reading(self) -> None:
        """Do not read the paper rested on (the reader read it, or went to triage)."""
        if self._read_timer is not None:
            self._read_timer.stop()
        self._read_timer = self._reading = None

    def _read_current(self) -> None:
        self._read_timer = self._reading = None
        paper = self._paper_list.current
        if paper is not None and self._reads():
            self._read(paper.id)

    def used(self, paper_ids: Sequence[str]) -> list[str]:
        """The paper to read, of those the reader bookmarked, tagged, annotated, copied from
        or opened: one alone, not several at once (marked papers, perhaps unread); none when
        read_after is 0, or in the for-you order unless it is bookmarked (kept: no skip)."""
        alone = len(paper_ids) == 1 and self._read_after
        kept = alone and self._library.is_bookmarked(paper_ids[0])
        return list(paper_ids) if alone and (kept or self._reads()) else []

    def show_detail(self) -> None:
        """Show the paper under the cursor, and its related papers once the cursor rests."""
        paper_list = self._paper_list
        self._detail_pane.show(paper_list.current, paper_list.empty_message)
        if self._related_timer is not None:
            self._related_timer.stop()
        if paper_list.current is not None and self._index() is not None:
            # Once the cursor rests, not at every key of a search or a scroll.
            find = partial(self._find_related, paper_list.current.id)
            self._related_timer = self._screen.set_timer(self._timings.related_after, find)

    def _find_related(self, paper_id: str) -> None:
        index = self._index()
        assert index is not None  # an index is never taken back
        self._screen.run_worker(
            partial(_related, paper_id, index, self._store, self._detail_pane),
            name="related",
            group="related",
            thread=True,
            exclusive=True,
        )


def _related(paper_id: str, index: SearchEngine, store: PaperStore, pane: DetailPane) -> None:
    """Find the papers related to `paper_id`, in a thread, and post them to the pane."""
    number = store.position_of(paper_id)
    if number is None or number >= len(index):  # not indexed yet
        related = []
    else:
        related = list(store.view(index.related(number)))
    pane.post_message(RelatedFound(paper_id, related))
