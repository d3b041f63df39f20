"""The reader's main screen: the filter, the paper list and the detail pane over the papers."""

import asyncio
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from contextvars import ContextVar
from functools import wraps
from typing import Any, Literal, TypeAlias, TypeVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer
from textual.worker import get_current_worker

from tui_reader import startup
from tui_reader.core.browser import open_in_browser
from tui_reader.core.config import Config
from tui_reader.core.engine import SearchEngine
from tui_reader.core.highlight import Highlight
from tui_reader.core.index_cache import IndexedPapers
from tui_reader.core.library import Library, LibraryError
from tui_reader.core.nothing_found import why_nothing
from tui_reader.core.paper import Paper
from tui_reader.core.paper_columns import PaperColumns
from tui_reader.core.pools import stop_pools
from tui_reader.core.query import parse_query
from tui_reader.core.references import headline_text, links_of
from tui_reader.core.resolve import resolve_online, with_resolutions
from tui_reader.core.search_service import (
    build_index,
    growing_index,
    index_so_far,
    search_papers,
)
from tui_reader.core.session import Session
from tui_reader.core.sorting import SORTS, Sort
from tui_reader.core.store import PaperStore
from tui_reader.core.wording import count
from tui_reader.ui import flows
from tui_reader.ui.clipboard import CopyLog, notice
from tui_reader.ui.copied_screen import CopiedScreen
from tui_reader.ui.debounce import Debounce
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.dialogs import ConfirmByEnter
from tui_reader.ui.feeds_screen import FeedsScreen
from tui_reader.ui.filter_input import FilterInput
from tui_reader.ui.header import HeaderState, header_text
from tui_reader.ui.help_screen import HelpScreen, KeyTable
from tui_reader.ui.history import History
from tui_reader.ui.key_labels import described, key_display
from tui_reader.ui.messages import (
    EntryReopened,
    IndexFailed,
    IndexReady,
    LibraryReloaded,
    LibrarySaved,
    LoadFinished,
    PapersLoaded,
    PapersResolved,
    RelatedFound,
    ResultsReady,
    SaveFailed,
)
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.problems_screen import ProblemsScreen
from tui_reader.ui.title_bar import TitleBar

RELATED_AFTER = 0.6  # seconds the cursor rests on a paper before its related papers are found
# Seconds without a new count before the header shows it, and without a new list before the
# detail pane shows the paper a search put under the cursor: while keys come, each draws the
# list alone. The pane waits longer, for the typing to pause, not a key to come late: it
# lays out the whole screen and draws it again (20-30 ms, as long as the list's search and
# drawing at 100,000 papers), which held back the next key when done between keys.
SETTLED_AFTER = 0.1
PANE_SETTLED_AFTER = 0.25
RELOAD_EVERY = 2.0  # seconds between looks for changes another program saved
SAVING_SHOWN_AFTER = 0.3  # seconds a save may take before the header says it is in flight
LIST_SHARE = 4  # of 10: the list's part of the width, the detail pane has the rest
STACKED_BELOW = 100  # columns: a narrower terminal shows the detail pane below the list
# Most seconds a key waits for a dialog flow to act on the answer the keys before it gave,
# and, in the list, for the results of the query typed before it.
FLOW_WAIT, RESULTS_WAIT = 0.5, 2.0
POST_EVERY = 0.25  # seconds between showing the papers loaded so far
# Papers are indexed as they load. The filter finds among the first FIRST_INDEXED once they
# are, then among INDEX_GROWTH times as many each time, up to half the papers expected: each
# such index is made anew (0.5 s of this process at 40,000 papers), and held until the next.
FIRST_INDEXED, INDEX_GROWTH = 10_000, 2
INDEX_POLL = 0.2  # seconds between looks at how many papers have loaded
# Most seconds a quit waits for the papers' indexing to stop its pool of processes: killed
# at exit, a pool may leave the system semaphores to clean up (and say so, after the reader).
STOPPING_WAIT = 5.0

T = TypeVar("T")
Place = tuple[str, str | None]  # a query, and the paper under the cursor
Status: TypeAlias = Literal["loading", "indexing", "ready"]
Flow: TypeAlias = Callable[..., Coroutine[Any, Any, None]]
# Keeps the papers and their index for the next start (the store, the index, the problems
# the load met, duplicates), then gives the entry read back to the last argument (None: none
# was kept); called in a thread, once the index is built.
KeepIndex: TypeAlias = Callable[
    [PaperStore, SearchEngine, Sequence[str], int, Callable[[IndexedPapers | None], object]],
    object,
]

# Set by a dialog flow's first dialog once it is open (see `dialog_flow`).
_dialog_open: ContextVar[asyncio.Event] = ContextVar("dialog_open")


def dialog_flow(flow: Flow) -> Callable[..., Awaitable[None]]:
    """An action that asks in dialogs and acts on the answers, written top to bottom.

    It runs as a worker (a dialog's answer is awaited with `Workspace.ask`); the key that
    started it is done once its first dialog is open, or once it ended without one, so that
    the keys sent with it ("t" and a tag) go to that dialog, in order (see ordered_keys)."""

    @wraps(flow)
    async def action(screen: "Workspace", *arguments: object) -> None:
        opened = asyncio.Event()

        async def run() -> None:
            token = _dialog_open.set(opened)
            try:
                await flow(screen, *arguments)
            finally:
                screen._asked = None
                screen._moved_on()
                _dialog_open.reset(token)
                opened.set()  # it ended without a dialog

        screen.run_worker(run(), name=flow.__name__, group="dialog")
        await opened.wait()  # the worker's task runs on its own: it gets here

    return action


class Panes(Horizontal):
    """The list and the detail pane: side by side, or stacked under STACKED_BELOW columns."""

    list_share = reactive(LIST_SHARE, init=False)  # tenths of the width (or height) the list takes

    def on_resize(self) -> None:
        self.watch_list_share()

    def watch_list_share(self) -> None:
        share = {"list": f"{self.list_share}fr", "detail": f"{10 - self.list_share}fr"}
        stacked = self.size.width < STACKED_BELOW
        for name, pane in (
            ("list", self.query_one(PaperList)),
            ("detail", self.query_one(DetailPane)),
        ):
            pane.styles.width = "100%" if stacked else share[name]
            pane.styles.height = share[name] if stacked else "100%"


def in_background(name: str, work: Callable[[], object]) -> threading.Thread:
    """Run slow work (indexing: a minute at a million papers) in a daemon thread, which posts
    what it found. A worker's thread would hold a quit until it ended; this one is dropped at
    exit (a screen may wait a little for it to stop)."""
    thread = threading.Thread(target=work, name=name, daemon=True)
    thread.start()
    return thread


SHOW_COPIED = Binding("c", "show_copied", "What was copied", show=False, id="copied")


class Workspace(Screen[None]):
    """Filter, read and triage the papers; the user's library follows every change."""

    HORIZONTAL_BREAKPOINTS = [(0, "-stacked"), (STACKED_BELOW, "-side-by-side")]
    BINDINGS = [
        # Priority bindings act as soon as the key arrives, so that keys typed in the same
        # burst ("/dif", "diffusion<Enter>j") land in the pane they were meant for.
        Binding("slash", "focus_filter", "Filter", priority=True, id="filter"),
        Binding("enter", "leave_filter", show=False, priority=True),
        Binding("b", "bookmark", "Bookmark", id="bookmark"),
        Binding("t", "edit_tags", "Tags", id="tags"),
        Binding("n", "edit_note", "Note", id="note"),
        Binding("r", "toggle_read", "Read/unread", show=False, id="read"),
        Binding("R", "read_all", "Mark all shown read", show=False, id="read-all"),
        Binding("T", "tags_view", "All tags", show=False, id="all-tags"),
        Binding("u", "undo", "Undo", id="undo"),
        Binding("y", "copy_link", "Copy link", id="copy-link"),
        Binding("Y", "copy_picker", "Copy…", show=False, id="copy-picker"),
        SHOW_COPIED,
        Binding("o", "open_link", "Open link", show=False, id="open-link"),
        Binding("E", "export", "Export shown or marked", show=False, id="export"),
        Binding("I", "triage", "Triage the papers shown", show=False, id="triage"),
        Binding("S", "save_search", "Save the filter as a feed", show=False, id="save-search"),
        Binding("F", "feeds", "Feeds: saved searches", show=False, id="feeds"),
        Binding("vertical_line", "pipe", "Pipe to a command", show=False, id="pipe"),
        Binding("L", "resolve", "Find the real paper online", show=False, id="resolve"),
        Binding("z", "reading_mode", "Reading mode", show=False, id="reading-mode"),
        Binding("m", "toggle_raw", "Math and emphasis / raw text", show=False, id="raw-text"),
        Binding("s", "next_sort", "Sort order", show=False, id="sort"),
        Binding("left_square_bracket", "jump_back", "Back before a jump", show=False, id="back"),
        Binding("right_square_bracket", "jump_forward", "Forward again", show=False, id="forward"),
        *[
            Binding(str(n), f"related({n})", f"Related paper {n}", show=False, id=f"related-{n}")
            for n in range(1, 6)
        ],
        Binding("less_than_sign", "split(-1)", "Narrower list", show=False, id="narrower"),
        Binding("greater_than_sign", "split(1)", "Wider list", show=False, id="wider"),
        Binding("question_mark", "help", "Keys", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
        Binding("tab", "app.focus_next", "Next pane", show=False),
        Binding("shift+tab", "app.focus_previous", "Previous pane", show=False),
    ]
    # Actions that need a paper under the cursor, or marked papers.
    _PAPER_ACTIONS = (
        "bookmark", "edit_tags", "edit_note", "toggle_read", "copy_link", "copy_picker",
        "open_link", "export", "related", "read_all", "triage", "pipe", "resolve",
    )  # fmt: skip

    # What the list and the detail pane show follows these (data_bind); the header all four.
    # None of these repaints the screen itself (that would draw every widget on it again): the
    # widgets that show them repaint themselves.
    raw: reactive[bool] = reactive(False, init=False, repaint=False)  # text as written
    highlight: reactive[Highlight | None] = reactive[Highlight | None](
        None, init=False, repaint=False
    )
    sort: reactive[Sort] = reactive[Sort]("relevance", init=False, repaint=False)
    status: reactive[Status] = reactive[Status]("indexing", init=False, repaint=False)
    title: reactive[str | None] = reactive[str | None](None, init=False, repaint=False)
    sub_title: reactive[str | None] = reactive[str | None](None, init=False, repaint=False)

    def __init__(
        self,
        store: PaperStore,
        library: Library,
        config: Config,
        copy_log: CopyLog,
        search_template: str,
        *,
        messages: Sequence[str] = (),
        stream: Iterator[PaperColumns | str] | None = None,
        session: Session | None = None,
        index: SearchEngine | None = None,
        duplicates: int = 0,
        keep_index: KeepIndex | None = None,
        expected_papers: int | None = None,
        skipped: Sequence[str] = (),
    ) -> None:
        """`messages`, problems met at start, shown together; `stream`, when given, yields
        more papers (and problems) to load in the background, about `expected_papers` of
        them (None: not known); `session`, where the reader left off last time; `index`, the
        store's index when it was kept from before; `duplicates`, how many abstracts the load
        met again and shows once; `skipped`, the records of papers kept from before that could
        not be read (told as a load tells them, not among the problems: the same at every
        start); `keep_index`, what keeps the papers and their index for the next start, once
        it is built."""
        super().__init__()
        self.store, self.library, self.config = store, library, config
        self.copy_log, self.search_template = copy_log, search_template
        self._messages = list(messages)
        self._stream = stream
        self._restore = session
        self._kept_index, self._keep_index = index, keep_index
        self._expected_papers = expected_papers
        self._all_loaded = threading.Event()  # every paper loaded is in the store
        self._indexing: threading.Thread | None = None  # indexing the papers as they load
        self.duplicates = duplicates  # the background load adds those it meets
        self.set_reactive(Workspace.status, "loading" if stream is not None else "indexing")
        self._index: SearchEngine | None = None
        self._unindexed = False  # the index could not be built
        self._keeping = False  # the papers and their index are being kept for the next start
        self.load_problems = list(skipped)  # records skipped: kept with the index
        self._query = ""
        self.shown_query = ""  # the query whose results the list shows
        self._shown_count, self._close_count = len(store), 0
        self._shown_among: int | None = None  # the papers the list's search looked among
        self._showing = ""  # the words the list's search read for typos no paper holds
        self._last_paper_id = ""  # the last paper under the cursor
        self._read_timer: Timer | None = None
        self._reading: str | None = None  # the paper the read timer is for
        self._arriving: str | None = None  # a paper jumped to: read once the cursor rests there
        self._typed = False  # the query was typed in the filter (not restored or jumped to)
        self._read_once_shown: list[str] = []  # a paper used, read once its search is shown
        self._related_timer: Timer | None = None
        self._moved_at = 0.0  # when the reader last moved the cursor (time.monotonic)
        self._debounce = Debounce(self)  # the header and the pane follow once keys pause
        self._history = History[Place]()  # where jumps started: [ goes back, ] forward
        self._asked: Screen[Any] | None = None  # the dialog a flow asked last, until it ends
        self._moved = asyncio.Event()  # what keys wait for may have come (keys_caught_up)
        self._waited_for = ""  # a query whose results keys waited RESULTS_WAIT for, in vain
        self._save_failing = False
        self._leaving = threading.Event()  # set as the screen goes: loading, a look-up end
        self._filter_asked = False  # the filter was focused by a key
        self.title_bar = TitleBar()
        self.filter_input = FilterInput(
            self._filter_changed,
            self.library.tag_counts,  # what a #tag being typed completes to
            placeholder="Filter: words, #tag, !#tag, is:bookmarked, is:unread, has:note",
            id="filter",
        )
        # Kept at hand: a dialog over the screen makes `query_one` look in it.
        self.paper_list = PaperList(self.library, id="papers")
        self.detail_pane = DetailPane(self.library, self.search_template, id="detail")
        self.panes = Panes(id="panes")

    # The dialog flows (ui/flows): each asks, then acts on the answers.
    action_edit_tags = dialog_flow(flows.edit_tags)
    action_edit_note = dialog_flow(flows.edit_note)
    action_tags_view = dialog_flow(flows.tags_view)
    action_copy_picker = dialog_flow(flows.copy_picker)
    action_export = dialog_flow(flows.export)
    action_triage = dialog_flow(flows.triage)
    action_save_search = dialog_flow(flows.save_search)
    action_pipe = dialog_flow(flows.pipe)

    @property
    def filter_query(self) -> str:
        """The query in the filter, whose results the list shows or will."""
        return self._query

    @property
    def index(self) -> SearchEngine | None:
        """The search index over the store, once it is built."""
        return self._index

    def compose(self) -> ComposeResult:
        yield self.title_bar
        yield self.filter_input
        with self.panes:
            yield self.paper_list.data_bind(Workspace.raw, Workspace.highlight)
            yield self.detail_pane.data_bind(Workspace.raw, Workspace.highlight)
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.store.title
        if self._restore is not None:
            self._restore_place(self._restore)
        if self._kept_index is not None:  # searched at once: no thread to wait for
            self._use_index(self._kept_index)
        self._refilter()
        if not self._filter_asked:  # keys typed at once may have come first: "/satisf"
            self._focus(self.paper_list)
        if self.library.saved_searches():  # the feeds, under the problems to read first
            self.app.push_screen(self._feeds_screen(), self._feed_chosen)
        if self._messages:  # together, where all can be read: stacked notices scroll away
            self.app.push_screen(ProblemsScreen(self._messages))
        startup.searching_turns()
        if self._stream is not None:
            self._load()
            self._indexing = in_background("index", self._index_as_loaded)
        else:
            self._say_duplicates()
            self._tell_skipped()
            if self._kept_index is None:
                self._build_index()
        self.set_interval(RELOAD_EVERY, self._look_for_outside_changes)

    # Loading and indexing. Threads report in messages (ui/messages), handled in turn with
    # the keys; once the screen is gone they are dropped.

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        assert self._stream is not None
        problems = self.load_problems
        with startup.loading_turns():
            pending: list[PaperColumns] = []
            posted: float | None = None  # when papers were last posted: the first at once
            for item in self._stream:
                if self._leaving.is_set():  # the reader quits: stop reading (and its pool)
                    getattr(self._stream, "close", lambda: None)()
                    return
                if isinstance(item, str):
                    problems.append(item)
                    continue
                pending.append(item)
                if posted is None or time.monotonic() - posted > POST_EVERY:
                    self.post_message(PapersLoaded(pending))
                    pending, posted = [], time.monotonic()
            self.post_message(PapersLoaded(pending))
        self.post_message(LoadFinished())

    @on(PapersLoaded)
    def _add_papers(self, message: PapersLoaded) -> None:
        startup.keep_for_good()  # papers live as long as the app
        added = sum(self.store.extend(batch) for batch in message.batches)
        self.duplicates += sum(map(len, message.batches)) - added
        if added:
            self.title = self.store.title
            if not self._query.strip():
                self._refilter()
            self._update_header()
            if added == len(self.store):  # the first: "0 papers" is not left over their rows
                self._show_title()

    @on(LoadFinished)
    def _loaded(self, _: LoadFinished) -> None:
        self.status = "indexing"
        self._all_loaded.set()  # their messages came first
        self._say_duplicates()
        self._tell_skipped()

    def _tell_skipped(self) -> None:
        problems = self.load_problems
        if problems:
            listed = "\n".join(problems[:5]) + ("\n…" if len(problems) > 5 else "")
            skipped = count(len(problems), "record")
            self.tell(f"Skipped {skipped} that could not be read:\n{listed}", "warning")

    def _say_duplicates(self) -> None:
        if self.duplicates:
            self.tell(f"{count(self.duplicates, 'duplicate abstract')} shown once")

    def _build_index(self) -> None:
        in_background("index", self._index_papers)

    def _index_papers(self) -> None:
        self._index_built(self._index_growing)

    def _index_growing(self) -> SearchEngine | None:
        """Index the papers there are (kept, their index to be built again: 50 s at a
        million), the filter finding among the first FIRST_INDEXED once they are indexed,
        then among more, as while papers load."""
        total, leaving = len(self.store), self._leaving.is_set
        if total < INDEX_GROWTH * FIRST_INDEXED:
            return build_index(self.store)
        with growing_index(total) as growing:
            upto = FIRST_INDEXED
            while INDEX_GROWTH * upto <= total:
                if not growing.read(self.store, upto, stopping=leaving):
                    return None
                self.post_message(IndexReady(index_so_far(growing)))
                upto *= INDEX_GROWTH
            if not growing.read(self.store, total, stopping=leaving):
                return None
            return index_so_far(growing)

    def _index_as_loaded(self) -> None:
        self._index_built(self._index_each_once)

    def _index_each_once(self) -> SearchEngine | None:
        """Index the papers as they load, on every core, each once; the filter finds among
        the first FIRST_INDEXED once they are indexed, then among more (INDEX_GROWTH)."""
        expected = self._expected_papers or sys.maxsize  # None: not known
        with growing_index(self._expected_papers) as growing:
            shown_from = FIRST_INDEXED
            while True:
                loaded, leaving = self._all_loaded.wait(INDEX_POLL), self._leaving.is_set
                if leaving() or not growing.read(
                    self.store, len(self.store), not loaded, stopping=leaving
                ):
                    return None
                if loaded:
                    break
                if growing.count >= shown_from and 2 * growing.count <= expected:
                    self.post_message(IndexReady(index_so_far(growing)))
                    shown_from = INDEX_GROWTH * growing.count
            return index_so_far(growing)

    def _index_built(self, build: Callable[[], SearchEngine | None]) -> None:
        """Build the index of every paper (None: the reader quit first), use it, and keep it
        with the papers for the next start; or tell why it could not be built."""
        try:
            index = build()
        except Exception as error:  # told, not a reader left "indexing" for good
            self.post_message(IndexFailed(str(error) or type(error).__name__))
            return
        if index is None:
            return
        # Before the entry kept is read back: in order.
        self.post_message(IndexReady(index, keeping=self._keep_index is not None))
        if self._keep_index is not None:
            self._keep_index(
                self.store,
                index,
                self.load_problems,
                self.duplicates,
                lambda kept: self.post_message(EntryReopened(kept)),
            )

    @on(IndexReady)
    def _index_ready(self, message: IndexReady) -> None:
        index = message.index
        if self._index is not None and len(index) < len(self._index):
            return  # an index of fewer papers than the one in use (the entry reopened)
        self._keeping = message.keeping
        self._use_index(index)
        if self._query.strip():
            self._search(self._query)

    def _use_index(self, index: SearchEngine) -> None:
        startup.keep_for_good()  # the index lives as long as the papers
        self._index = index
        # Its tables for typos and related papers are made once the screen is drawn: made
        # at once, they held the first frame back 0.05 s.
        self.call_after_refresh(in_background, "warm", index.warm)
        if self.status == "indexing" and len(index) == len(self.store):
            self.status = "ready"
        self._update_header()
        self._show_detail()  # now related papers can be found

    @on(IndexFailed)
    def _index_failed(self, message: IndexFailed) -> None:
        self._unindexed = True
        self.tell(f"The papers could not be indexed: {message.reason}", "error")
        self._update_header()

    @on(EntryReopened)
    def _entry_reopened(self, message: EntryReopened) -> None:
        """Read the papers and their index from the entry just kept, by memory map: the
        memory that loading and indexing took is given back (2.3 GB at a million papers)."""
        kept: IndexedPapers | None = message.indexed
        self._keeping = False
        self._update_header()
        if kept is None:  # not kept (no room, say): the next start loads the papers again
            return
        try:
            self.store.adopt(kept.store)  # unless papers came since
        except ValueError:
            return
        self._index = kept.index

        def warm_and_give_back() -> None:
            kept.index.warm()
            startup.give_back_memory()  # what loading took and freed

        in_background("warm", warm_and_give_back)

    # Filtering

    def _filter_changed(self, query: str) -> None:
        self._query = query
        self._moved_on()
        self._arriving = None  # unless a jump set this query (_go)
        self._typed = self.focused is self.filter_input
        self._refilter()

    def _refilter(self) -> None:
        if self._query.strip():
            if self._index is not None:
                self._search(self._query)
            else:  # searched once the index is ready: no papers under the query till then
                had_papers = bool(self.paper_list.papers)
                nothing = PaperStore().view()
                self.paper_list.show(nothing, "Searching once the first papers are indexed…", 0)
                if had_papers:
                    self.refresh_bindings()
                self._update_header()
        elif self.sort in ("relevance", "file"):
            self.workers.cancel_group(self, "search")
            self._show(ResultsReady(self.store.view(), ""))
        else:
            self._sort_all()
            self._shown_count, self._close_count = len(self.store), 0
            self._update_header()  # the query cleared: the list follows once sorted

    @work(thread=True, exclusive=True, group="search")
    def _sort_all(self) -> None:
        """Every paper in the chosen order, sorted off the screen's thread (a second at 1M)."""
        found = search_papers(None, "", self.library, self.sort, self.store)
        self._post_results(ResultsReady(self.store.view(found.numbers), ""))

    @work(thread=True, exclusive=True, group="search")
    def _search(self, query: str) -> None:
        index = self._index
        assert index is not None
        found = search_papers(index, query, self.library, self.sort, self.store)
        papers = self.store.view(found.numbers)
        self._post_results(
            ResultsReady(
                papers, query, found.full, found.highlight, len(index), found.showing, found.named
            )
        )

    def _post_results(self, results: ResultsReady) -> None:
        if not get_current_worker().is_cancelled:  # a later key's search replaced this one
            self.post_message(results)

    @on(ResultsReady)
    def _show(self, results: ResultsReady) -> None:
        """Show a search's results, unless the query has changed since it started."""
        papers, query = results.papers, results.query
        if query != self._query:
            return
        # Another query's results, best first: the list opens on the first (PaperList.show).
        new_query = query.strip() not in ("", self.shown_query.strip())
        new_query = new_query and self.sort == "relevance"
        self.shown_query = query
        message = "No papers" if not query.strip() else "" if papers else self._nothing(query)
        full = len(papers) if results.full is None else results.full
        self.highlight = results.highlight  # the list and the detail pane follow (data_bind)
        if results.named and self._typed:  # a paper's id or link typed or pasted: a jump
            self._arriving = papers[0].id
        had_papers = bool(self.paper_list.papers)
        self.paper_list.show(papers, message, full, new_query=new_query)
        if bool(papers) != had_papers:  # the paper keys come (or go): the footer shows them
            self.refresh_bindings()
        self._shown_count, self._close_count = full, len(papers) - full
        self._shown_among, self._showing = results.among, results.showing
        self._update_header()
        self._moved_on()
        read, self._read_once_shown = self._read_once_shown, []
        if read and self.library.set_read(read, True):
            self.library_changed(refilter=False)

    def _nothing(self, query: str) -> str:
        """Why a query finds no paper: a tag or a field that no paper has, else the query."""
        why = why_nothing(parse_query(query), self.library.tag_counts(), self.store)
        return why[:1].upper() + why[1:] if why else f"No papers match “{query.strip()}”"

    def watch_status(self) -> None:
        self._update_header()

    def watch_sort(self) -> None:
        self._refilter()
        self._update_header()

    def watch_raw(self) -> None:
        self._update_header()

    def watch_title(self) -> None:
        self._show_title()

    def watch_sub_title(self) -> None:
        self._debounce.ask(self._show_title, SETTLED_AFTER)

    def _show_title(self) -> None:
        self.title_bar.show(self.title or "", self.sub_title or "")

    @property
    def settled(self) -> bool:
        """Whether the detail pane and the header show what the list does."""
        return not self._debounce.pending

    def _update_header(self) -> None:
        state = HeaderState(
            papers=len(self.store),
            query=self._query,
            shown_query=self.shown_query,
            shown=self._shown_count,
            close=self._close_count,
            among=self._shown_among,
            indexed=None if self._index is None else len(self._index),
            status=self.status,
            unindexed=self._unindexed,
            showing=self._showing,
            sort=self.sort,
            marked=len(self.paper_list.marked),
            save_failing=self._save_failing,
            saving=self.library.has_unsaved_changes or self.library.saving,
            keeping=self._keeping,
            raw=self.raw,
        )
        self.sub_title = header_text(state)

    # Following the cursor

    @on(PaperList.CursorMoved)
    def _cursor_moved(self, event: PaperList.CursorMoved) -> None:
        now, moved = time.monotonic(), self._moved_at
        if event.chosen:
            self._moved_at = now
        if self.detail_pane.paper is None or (event.chosen and now - moved > SETTLED_AFTER):
            # The list repaints first; the detail pane (which may wrap a long abstract again)
            # follows in the next frame, so a move feels immediate. A new list of a search,
            # or moves as fast as a held key repeats, show the paper once the keys pause:
            # drawing each would take longer than the keys come.
            self._debounce.drop(self._show_detail)
            self.call_after_refresh(self._show_detail)
        elif event.chosen:  # moves as fast as a held key repeats
            self._debounce.ask(self._show_detail, SETTLED_AFTER)
        else:  # a search's new list
            self._debounce.ask(self._show_detail, PANE_SETTLED_AFTER)
        arrived = event.paper is not None and event.paper.id == self._arriving
        if event.paper is not None:
            self._last_paper_id = event.paper.id
            self._arriving = None
        if event.chosen or arrived:
            self._start_reading()
        elif event.paper is None or event.paper.id != self._reading:
            self.stop_reading()

    @on(PaperList.Opened)
    def _opened(self) -> None:
        current = self.paper_list.current
        if current is None:
            return
        # Opened, it is the paper chosen: the cursor stays on it when the list changes (the
        # filter cleared), as on a paper moved to. Leaving the filter chooses nothing.
        self.paper_list.choose_later(current.id, asked_for=False)
        if current.id != self._reading:
            self._start_reading()

    def _start_reading(self) -> None:
        """Read the paper under the cursor once the reader has rested on it for read_after
        seconds. Only a paper the reader moved to, opened or jumped to: never one that is
        under the cursor because the reader started there or a new list put it there."""
        self.stop_reading()
        paper, delay = self.paper_list.current, self.config.read_after
        if delay and paper is not None and not self.library.is_read(paper.id):
            self._reading = paper.id
            self._read_timer = self.set_timer(delay, self._mark_current_read)

    def stop_reading(self) -> None:
        if self._read_timer is not None:
            self._read_timer.stop()
        self._read_timer = self._reading = None

    def _mark_current_read(self) -> None:
        self._read_timer = self._reading = None
        paper = self.paper_list.current
        if paper is not None and self.library.set_read([paper.id], True):
            self.library_changed(refilter=False)

    def _in_use(self, paper_ids: Sequence[str]) -> list[str]:
        """The paper to read, of those the reader bookmarked, tagged, annotated, copied from
        or opened: one alone, not several at once (marked papers, perhaps unread); none when
        read_after is 0."""
        return list(paper_ids) if len(paper_ids) == 1 and self.config.read_after else []

    def _show_detail(self) -> None:
        paper_list = self.paper_list
        self.detail_pane.show(paper_list.current, paper_list.empty_message)
        if self._related_timer is not None:
            self._related_timer.stop()
        if paper_list.current is not None and self._index is not None:
            # Related papers once the cursor rests, not at every key of a search or a scroll.
            paper_id = paper_list.current.id
            self._related_timer = self.set_timer(
                RELATED_AFTER, lambda: self._find_related(paper_id)
            )

    @work(thread=True, exclusive=True, group="related")
    def _find_related(self, paper_id: str) -> None:
        index = self._index
        assert index is not None
        number = self.store.position_of(paper_id)
        if number is None or number >= len(index):  # not indexed yet
            related = []
        else:
            related = list(self.store.view(index.related(number)))
        self.detail_pane.post_message(RelatedFound(paper_id, related))

    def action_related(self, number: int) -> None:
        """Go to the paper the detail pane lists as related number `number`."""
        paper_id, related = self.detail_pane.related
        current = self.paper_list.current
        if current is None or current.id != paper_id or number > len(related):
            return
        target = related[number - 1]
        # Not among the papers shown: show them all, then go to it.
        shown = self.paper_list.position_of(target.id) is not None
        self.jump((self._query if shown else "", target.id))

    @on(PaperList.MarksChanged)
    def _marks_changed(self) -> None:
        self._update_header()

    # Going back and forward over jumps

    def _place(self) -> Place:
        current = self.paper_list.current
        return self._query, current.id if current is not None else None

    def jump(self, place: Place) -> None:
        """Go to a query and a paper (None: the one chosen before, where shown), remembering
        where the reader was: [ goes back there, ] forward again."""
        self._history.jumped(self._place())
        self._go(place)

    def _go(self, place: Place) -> None:
        query, paper_id = place
        if paper_id is not None:
            self.paper_list.choose_later(paper_id)
        if query != self._query:
            self.filter_input.value = query  # the list follows, its cursor on the paper
        elif paper_id is not None:
            position = self.paper_list.position_of(paper_id)
            if position is not None:
                self.paper_list.choose(position)
        self._arriving = paper_id

    def action_jump_back(self) -> None:
        self._step(self._history.back(self._place()), "back")

    def action_jump_forward(self) -> None:
        self._step(self._history.forward(self._place()), "forward")

    def _step(self, place: Place | None, way: str) -> None:
        if place is None:
            self.tell(f"Nothing to go {way} to")
        else:
            self._go(place)

    # The user's library

    def targets(self) -> list[str]:
        """The marked papers (in store order) or else the one under the cursor."""
        paper_list = self.paper_list
        if paper_list.marked:  # found by id: a walk of a million papers took 40 s
            return self.store.in_order(paper_list.marked)
        return [paper_list.current.id] if paper_list.current is not None else []

    def library_changed(self, refilter: bool = True, used: Sequence[str] = ()) -> None:
        """Redraw what the library shows, filter again on state, and save. The paper `used`
        (see _in_use) is read, once the search that follows the change has run: it stays in
        the list (`is:unread`), as a paper read by resting on it does."""
        read = self._in_use(used)
        if refilter and parse_query(self._query).asks_state:
            self._read_once_shown += read
            self._refilter()
        elif read:
            self.library.set_read(read, True)
        self._redraw_library_state()
        self.save_library()
        # A save takes a millisecond; one that takes longer (another program holds the lock, a
        # slow disk) is shown in the header until it is done.
        self.set_timer(SAVING_SHOWN_AFTER, self._update_header)

    def _redraw_library_state(self) -> None:
        paper_list = self.paper_list
        paper_list.refresh_rows()
        self.detail_pane.show(paper_list.current, paper_list.empty_message)

    @work(thread=True, group="save")
    def save_library(self) -> None:
        try:
            messages = self.library.save()
        except LibraryError as error:
            self.post_message(SaveFailed(str(error)))
        else:
            self.post_message(LibrarySaved(messages))

    @on(LibrarySaved)
    def _saved(self, saved: LibrarySaved) -> None:
        for message in saved.messages:
            self.tell(message, "error")
        if self._save_failing:
            self._save_failing = False
            self.tell(f"Saved again to {self.library.path}")
        self._redraw_library_state()
        self._update_header()

    @on(SaveFailed)
    def _save_failed(self, message: SaveFailed) -> None:
        if not self._save_failing:
            self._save_failing = True
            problem = message.problem
            self.tell(
                f"Changes cannot be saved ({problem}); they are kept for this session.", "warning"
            )
            self._update_header()

    @work(thread=True, exclusive=True, group="reload")
    def _look_for_outside_changes(self) -> None:
        changes = self.library.reload_if_changed()
        if changes.changed or changes.messages:
            self.post_message(LibraryReloaded(changes.messages))

    @on(LibraryReloaded)
    def _reloaded(self, reloaded: LibraryReloaded) -> None:
        for message in reloaded.messages:
            self.tell(message, "error")
        self._redraw_library_state()

    def tell(self, message: str, severity: SeverityLevel = "information") -> None:
        timeout = 20 if severity != "information" else 4
        self.app.notify(message, severity=severity, timeout=timeout, markup=False)

    def on_screen_resume(self) -> None:
        self.refresh_bindings()  # the footer was last drawn under a dialog
        self._moved_on()

    def on_screen_suspend(self) -> None:
        self.refresh_bindings()  # a dialog is over it: its keys are the ones in reach
        self._moved_on()

    def on_descendant_focus(self) -> None:
        self._moved_on()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_active:  # under a dialog, whose keys are the ones in reach
            return False
        if action in ("focus_filter", "leave_filter"):
            in_filter = isinstance(self.focused, FilterInput)
            if action == "leave_filter":
                return in_filter
            # In the filter "/" is typed ("#rl/theory"), except as its first character, where it
            # can only be a reader pressing "/" again to get to the filter: it does nothing.
            return not in_filter or not self.filter_input.value
        if action in self._PAPER_ACTIONS:  # cheap: Textual asks at every refresh of keys
            return bool(self.paper_list.marked) or self.paper_list.current is not None
        return True

    def action_bookmark(self) -> None:
        targets = self.targets()
        value = not all(self.library.is_bookmarked(i) for i in targets)
        self.library.set_bookmarked(targets, value)
        self._tell_marked_changed(targets, "bookmarked" if value else "not bookmarked")
        self.library_changed(used=targets)

    def action_toggle_read(self) -> None:
        targets = self.targets()
        value = not all(self.library.is_read(i) for i in targets)
        self.library.set_read(targets, value, undoable=len(targets) > 1)
        self._tell_marked_changed(targets, "read" if value else "unread")
        self.stop_reading()
        self.library_changed()

    def _tell_marked_changed(self, targets: list[str], now: str) -> None:
        """Say what a change to the marked papers did: their rows may be out of sight."""
        if len(targets) > 1:
            self.tell(f"{count(len(targets), 'marked paper')} {now} (u undoes)")

    def action_read_all(self) -> None:
        """Mark every paper shown read, as one step that u undoes."""
        papers = self.paper_list.papers
        if self.library.set_read([paper.id for paper in papers], True, undoable=True):
            self.tell(f"Marked {count(len(papers), 'paper')} read (u undoes)")
            self.library_changed()
        else:
            self.tell("Every paper shown is read already")

    def action_undo(self) -> None:
        undone = self.library.undo()
        if undone is None:
            self.tell("Nothing to undo")
            return
        papers = undone.paper_ids  # one is named: it may be far from the cursor by now
        named = f" · {self.headline(papers[0])}" if len(papers) == 1 else ""
        self.tell(f"Undone: {undone.description}{named}")
        self.library_changed()

    # Dialogs: each flow asks, then acts, top to bottom

    async def ask(self, dialog: Screen[T]) -> T:
        """Open a dialog over the screen and wait for its answer, in a `dialog_flow`. Notices
        are about what came before: they would show over the dialog, so they go."""
        self.app.clear_notifications()
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        def answered(result: T | None) -> None:
            if not answer.done():
                answer.set_result(result)  # type: ignore[arg-type]  # the dialog's T

        self._asked = dialog
        await self.app.push_screen(dialog, answered)
        self._moved_on()
        if (opened := _dialog_open.get(None)) is not None:
            opened.set()
        return await answer

    async def keys_caught_up(self) -> None:
        """Return once what the keys sent before started is done, so that the next acts
        where they left it; the screen goes on drawing meanwhile:

        - a dialog flow acting on an answer (its dialog closed, and it has neither asked the
          next nor ended): "T Enter j" moves in a tag's papers; at most FLOW_WAIT;
        - the search of the query typed, once the filter is left: "regret Enter j j" moves
          in its results; at most RESULTS_WAIT."""
        if not await self._until(self._flow_caught_up, FLOW_WAIT):
            self._asked = None  # a flow held up: the keys after this one wait no more
            return
        if not await self._until(lambda: not self._results_on_their_way(), RESULTS_WAIT):
            self._waited_for = self._query  # a search held up: waited for no more

    def _moved_on(self) -> None:
        """Tell keys_caught_up to look again: a flow asked or ended, results came, the query,
        the focus or the screens changed."""
        self._moved.set()

    async def _until(self, done: Callable[[], bool], most: float) -> bool:
        """Whether `done()` holds within `most` seconds, looked at each time `_moved_on` says."""
        deadline = time.monotonic() + most
        while not done():
            self._moved.clear()
            try:
                await asyncio.wait_for(self._moved.wait(), deadline - time.monotonic())
            except asyncio.TimeoutError:  # not TimeoutError before Python 3.11
                return done()
        return True

    def _flow_caught_up(self) -> bool:
        """Whether no dialog flow acts on an answer: its dialog closed, and it has neither
        asked the next nor ended."""
        return self._asked is None or self._asked in self.app.screen_stack

    def _results_on_their_way(self) -> bool:
        """Whether the list, out of the filter, waits for the results of the query typed."""
        return (
            self.app.screen_stack[-1:] == [self]  # none at all once the reader has closed
            and self.focused is not self.filter_input
            and bool(self._query.strip())
            and self.shown_query != self._query
            and self._waited_for != self._query
            and self._index is not None
        )

    # Links, copying and export

    def target_papers(self) -> list[Paper]:
        return [paper for i in self.targets() if (paper := self.store.get(i)) is not None]

    def links(self, paper: Paper) -> list[str]:
        return links_of(paper, self.search_template)

    def _key(self, binding: Binding) -> str:
        return key_display(self.app, self.config.keys, binding)

    def copy(self, text: str, what: str, warning: str = "") -> None:
        """Copy text holding `what` ("3 links"); say so, after the `warning` when there is one."""
        said = notice(self.copy_log.copy(text, what), self._key(SHOW_COPIED))
        if warning:
            self.tell(f"{warning} {said}", "warning")
        else:
            self.tell(said)

    def action_copy_link(self) -> None:
        papers = self.target_papers()
        self.copy("\n".join(self.links(paper)[0] for paper in papers), count(len(papers), "link"))
        self.read_copied(papers)

    def read_copied(self, papers: list[Paper]) -> None:
        """Read a paper copied from or opened (see _in_use), and save."""
        read = self._in_use([paper.id for paper in papers])
        if read and self.library.set_read(read, True):
            self.library_changed(refilter=False)

    def action_show_copied(self) -> None:
        self.app.push_screen(CopiedScreen(self.copy_log, self._key(SHOW_COPIED)))

    def action_open_link(self, number: int = 1) -> None:
        paper = self.paper_list.current
        if paper is not None and 1 <= number <= len(links := self.links(paper)):
            self.open_url(links[number - 1])
            self.read_copied([paper])

    def open_url(self, url: str) -> None:
        if reason := open_in_browser(url):
            self.copy(url, "1 link", warning=f"Not opening a browser: {reason}.")
        else:
            self.tell(f"Opened {url}")

    # Triage, feeds and other programs

    def _feeds_screen(self) -> FeedsScreen:
        return FeedsScreen(
            self.library,
            self.store,
            lambda: self._index,
            to_filter=self.action_focus_filter,
        )

    @dialog_flow
    async def action_feeds(self) -> None:
        self._feed_chosen(await self.ask(self._feeds_screen()))

    def _feed_chosen(self, query: str | None) -> None:
        if query is not None:
            self.jump((query, None))
            self.action_leave_filter()

    def action_resolve(self) -> None:
        """Look the marked papers (or the one under the cursor) up on OpenReview and arXiv by
        their text; one that is certainly the same paper gets its title, authors and links."""
        papers = [paper for paper in self.target_papers() if not paper.title]
        if not papers:
            self.tell("These papers have titles already: there is nothing to look up")
            return
        self.tell(f"Looking up {count(len(papers), 'paper')} on OpenReview and arXiv…")
        self._look_up(papers)

    @work(thread=True, exclusive=True, group="resolve")
    def _look_up(self, papers: list[Paper]) -> None:
        # Here, not at the top: the HTTP client costs the reader's start a sixth of a second.
        from tui_reader.core.sources.polite import FetchError

        stop, sources = self._leaving, self.config.sources
        try:
            outcome = resolve_online(papers, self.library, sources, again=True, stop=stop)
        except (FetchError, LibraryError) as error:
            self.post_message(PapersResolved([], 0, str(error)))
        else:
            self.post_message(PapersResolved(outcome.found, outcome.looked_up))

    def on_unmount(self) -> None:
        self._leaving.set()
        self._moved_on()
        stop_pools()  # loading and indexing: a quit waited seconds for the pieces they read
        if self._indexing is not None:
            self._indexing.join(STOPPING_WAIT)

    @on(PapersResolved)
    def _resolved(self, resolved: PapersResolved) -> None:
        found = [paper for i in resolved.found if (paper := self.store.get(i)) is not None]
        self.store.revise(with_resolutions(found, self.library))
        self.paper_list.refresh_rows()
        self._redraw_library_state()
        if resolved.problem:
            self.tell(f"Stopped looking up: {resolved.problem}", "warning")
        elif resolved.looked_up:
            unsure = resolved.looked_up - len(found)
            said = f"Found {count(len(found), 'paper')} for certain"
            self.tell(said + (f"; {count(unsure, 'paper')} had no certain match" if unsure else ""))

    def headline(self, paper_id: str) -> str:
        paper = self.store.get(paper_id)
        return f"“{headline_text(paper, cut=True)}”" if paper is not None else paper_id

    # Moving around and looking

    def _focus(self, pane: Widget) -> None:
        # Widget.focus() defers the change; setting the screen's focus takes effect at once.
        self.set_focus(pane)

    @dialog_flow
    async def action_quit(self) -> None:
        if self._save_failing and self.library.has_unsaved_changes:  # said, but long ago
            question = (
                f"Your changes could not be saved to {self.library.path}: "
                "quit and lose them? (Enter quits)"
            )
            if not await self.ask(ConfirmByEnter(question)):
                return
        self.app.exit()

    def action_focus_filter(self) -> None:
        self._filter_asked = True
        self.filter_input.refine()
        self._focus(self.filter_input)

    def action_leave_filter(self) -> None:
        # The keys sent after Enter ("j j") wait for the results of what was typed
        # (keys_caught_up): searched here, on the screen's thread, a phrase among a million
        # papers froze the screen for seconds.
        self._focus(self.paper_list)

    def _restore_place(self, session: Session) -> None:
        if session.sort in SORTS:
            self.set_reactive(Workspace.sort, session.sort)
        if 2 <= session.split <= 8:
            self.panes.list_share = session.split
        if self._filter_asked:  # a query typed before the start: it, not the last one
            return
        if session.paper_id:
            self.paper_list.choose_later(session.paper_id)
        if session.query:
            # Known at once, so that the start does not sort every paper for an empty filter.
            self._query = session.query
            self.filter_input.value = session.query
            self._typed = False  # the filter has the focus, but a paper it names is not a jump

    def place(self, theme: str) -> Session:
        """Where the reader is (or was, once it has quit), to be restored next time."""
        split = self.panes.list_share
        return Session(self._query, self._last_paper_id, self.sort, theme, split)

    def action_next_sort(self) -> None:
        """Relevance (file order when not filtering), file order, headline, recently changed."""
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]

    def action_reading_mode(self) -> None:
        """The detail pane alone, full width; the same key brings the list back."""
        reading = self.toggle_class("-reading").has_class("-reading")
        self._focus(self.detail_pane if reading else self.paper_list)

    def action_toggle_raw(self) -> None:
        """Show paper text as written (LaTeX, asterisks) or typeset; search and copy use it raw."""
        self.raw = not self.raw
        self.app.notify("Showing the raw text" if self.raw else "Showing math and emphasis")

    def action_split(self, step: int) -> None:
        """Move the split between the list and the detail pane; the session keeps it."""
        panes = self.panes
        panes.list_share = max(2, min(8, panes.list_share + step))

    def key_table(self) -> KeyTable:
        """Every key of the screen, by where it works, as the config binds them."""

        def keys(bindings: Sequence[BindingType]) -> list[tuple[str, str]]:
            return [(self._key(binding), binding.description) for binding in described(bindings)]

        # The panes' keys, then those that work anywhere, the footer's first: what is in sight
        # at 80x24 without scrolling.
        anywhere = sorted(described(self.BINDINGS), key=lambda binding: not binding.show)
        return [
            ("Paper list", keys(PaperList.BINDINGS)),
            ("Detail pane", [*keys(DetailPane.BINDINGS), ("↑ ↓ pgup pgdn", "Scroll")]),
            ("Anywhere", keys(anywhere)),
            ("Filter", keys([Binding("enter", "", "To the list"), *FilterInput.BINDINGS])),
            ("Mouse", [("click", "Choose a paper or pane"), ("double-click", "Read the paper")]),
        ]

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.key_table()))
