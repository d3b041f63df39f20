"""The reader's main screen: the filter, the paper list and the detail pane over the papers.

The screen routes: its bindings, what it composes, `check_action` and thin handlers of the
messages its rooms post. The rooms: the loader (ui/loader) reads and indexes the papers, the
cursor follower (ui/following) shows the paper under the cursor and reads it, the library
sync (ui/library_sync, the app's) saves and reloads the library, the dialog flows (ui/flows)
ask and act, and the header's text is a function of what the screen holds (ui/header)."""

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Literal, TypeAlias

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from tui_reader import startup
from tui_reader.core.config import Config
from tui_reader.core.engine import SearchEngine
from tui_reader.core.highlight import Highlight
from tui_reader.core.paper import Paper
from tui_reader.core.query import parse_query
from tui_reader.core.session import Session
from tui_reader.core.sorting import SORTS, Sort
from tui_reader.core.store import PaperStore
from tui_reader.ui import actions, flows
from tui_reader.ui.asking import dialog_flow
from tui_reader.ui.clipboard import CopyLog
from tui_reader.ui.debounce import Debounce
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.filter_input import FilterInput
from tui_reader.ui.filtering import Filtering
from tui_reader.ui.following import CursorFollower
from tui_reader.ui.for_you import ForYou
from tui_reader.ui.header import HeaderState, header_end, header_text
from tui_reader.ui.jumps import Jumps
from tui_reader.ui.key_labels import key_display
from tui_reader.ui.library_sync import LibrarySync
from tui_reader.ui.loader import Loader
from tui_reader.ui.look_up import LookUp
from tui_reader.ui.messages import (
    EntryReopened,
    ForYouNews,
    IndexFailed,
    IndexReady,
    LoadFinished,
    PapersLoaded,
    PapersResolved,
    ResultsReady,
)
from tui_reader.ui.notices import tell
from tui_reader.ui.ordered_keys import KeyWait
from tui_reader.ui.paper_links import PaperLinks
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.problems_screen import ProblemsScreen
from tui_reader.ui.timings import Timings
from tui_reader.ui.title_bar import TitleBar
from tui_reader.ui.workspace_keys import PAPER_ACTIONS, SHOW_COPIED, WORKSPACE_BINDINGS
from tui_reader.ui.workspace_parts import STACKED_BELOW, Panes

Status: TypeAlias = Literal["loading", "indexing", "ready"]


class Workspace(Screen[None]):
    """Filter, read and triage the papers; the user's library follows every change."""

    HORIZONTAL_BREAKPOINTS = [(0, "-stacked"), (STACKED_BELOW, "-side-by-side")]
    BINDINGS = WORKSPACE_BINDINGS

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
        loader: Loader,
        sync: LibrarySync,
        config: Config,
        copy_log: CopyLog,
        *,
        messages: Sequence[str] = (),
        session: Session | None = None,
        collection: str = "",
        opened_files: Sequence[Path] = (),
        timings: Timings | None = None,
    ) -> None:
        """`loader`: what brings the papers and their index; `messages`, problems met at
        start; `session`, where the reader left off; `collection`, what was opened (inputs_of),
        `opened_files` its files as named now."""
        super().__init__()
        self.loader, self.store, self.sync = loader, (store := loader.store), sync
        self.library, self.config = sync.library, config
        self.copy_log, self.search_template = copy_log, config.search_url
        self.timings = timings = timings or Timings()
        self._messages, self._restore, self.collection = list(messages), session, collection
        self.opened_files = opened_files
        self.set_reactive(Workspace.status, "loading" if loader.streaming else "indexing")
        self._index: SearchEngine | None = None
        self._unindexed = False  # the index could not be built
        self._caching_index = False  # the papers and their index are being saved in the cache
        self._debounce = Debounce(self)  # the header and the pane follow once keys pause
        self.key_wait = KeyWait()  # keys_caught_up looks again when told
        self._filter_asked = False  # the filter was focused by a key
        self._header_end = ""  # the end of the header's text, kept whole when it is cut
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
        self.for_you = for_you = ForYou(self)
        self.filtering = Filtering(self, self.paper_list, store, self.library, for_you.ordering)
        self.following = CursorFollower(
            self,
            self.paper_list,
            self.detail_pane,
            self._debounce,
            timings,
            store=store,
            library=self.library,
            read_after=config.read_after,
            index=lambda: self._index,
            read=lambda paper_id: self._read([paper_id]),
            reads=lambda: self.sort != "for you",
        )
        self.jumps = Jumps(
            lambda: self.filtering.query, self.filter_input, self.paper_list, self.following
        )
        self.links = PaperLinks(
            self,
            copy_log,
            self.search_template,
            lambda: self.key_named(SHOW_COPIED),
            self.read_used,
        )
        self.look_up = LookUp(self, store, self.library, config.sources)

    # The dialog flows (ui/flows): each asks, then acts on the answers.
    action_edit_tags = dialog_flow(flows.edit_tags)
    action_edit_note = dialog_flow(flows.edit_note)
    action_tags_view = dialog_flow(flows.tags_view)
    action_copy_picker = dialog_flow(flows.copy_picker)
    action_export = dialog_flow(flows.export)
    action_triage = dialog_flow(flows.triage)
    action_save_search = dialog_flow(flows.save_search)
    action_pipe = dialog_flow(flows.pipe)
    action_feeds = dialog_flow(flows.feeds)
    action_quit = dialog_flow(flows.quit_reader)

    # The actions that do not ask (ui/actions).
    action_bookmark = actions.bookmark
    action_toggle_read = actions.toggle_read
    action_read_all = actions.read_all
    action_undo = actions.undo
    action_resolve = actions.resolve
    action_copy_link = actions.copy_link
    action_open_link = actions.open_link
    action_show_copied = actions.show_copied
    action_related = actions.related
    action_jump_back = actions.jump_back
    action_jump_forward = actions.jump_forward
    action_next_sort = actions.next_sort
    action_reading_mode = actions.reading_mode
    action_back_to_list = actions.back_to_list
    action_toggle_raw = actions.toggle_raw
    action_split = actions.split
    action_help = actions.show_help

    @property
    def shown_query(self) -> str:
        """The query whose results the list shows."""
        return self.filtering.shown_query

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
            self._restore_session(self._restore)
        if self.loader.cached_index is not None:  # searched at once: no thread to wait for
            self._use_index(self.loader.cached_index)
        self.refilter()
        if not self._filter_asked:  # keys typed at once may have come first: "/satisf"
            self._focus(self.paper_list)
        # The feeds, under the problems to read first; opened unasked, at once, so that keys
        # typed as the reader starts go to them; not over a filter typed before the start (its
        # Enter would open the first feed in place of the query).
        if self.library.saved_searches() and not self._filter_asked:
            self.app.push_screen(flows.feeds_panel(self), partial(flows.feed_chosen, self))
        if self._messages:  # together, where all can be read: stacked notices scroll away
            self.app.push_screen(ProblemsScreen(self._messages))
        startup.searching_turns()
        self.loader.start(self)
        if not self.loader.streaming:
            self._tell(self.loader.told())
        self.sync.synced.subscribe(self, self._library_synced)
        self.set_interval(self.timings.reload_every, self.sync.reload)

    def on_unmount(self) -> None:
        self.key_wait.look_again()
        self.look_up.stop()
        self.loader.stop()

    # Loading and indexing: the loader's messages

    @on(PapersLoaded)
    def _add_papers(self, message: PapersLoaded) -> None:
        added = self.loader.add(message.batches)
        if added:
            self.title = self.store.title
            if not self.filtering.asked:
                self.refilter()
            self._update_header()
            if added == len(self.store):  # the first: "0 papers" is not left over their rows
                self._show_title()

    @on(LoadFinished)
    def _loaded(self, _: LoadFinished) -> None:
        self.status = "indexing"
        self.loader.loaded()
        self._tell(self.loader.told())
        self.for_you.loaded()

    @on(IndexReady)
    def _index_ready(self, message: IndexReady) -> None:
        index = message.index
        if self._index is not None and len(index) < len(self._index):
            return  # an index of fewer papers than the one in use (the entry reopened)
        self._caching_index = message.caching
        self._use_index(index)
        if self.filtering.asked:
            self.filtering.search(index, self.sort)

    def _use_index(self, index: SearchEngine) -> None:
        startup.keep_for_good()  # the index lives as long as the papers
        self._index = index
        # Its tables for typos and related papers are made once the screen is drawn: made
        # at once, they held the first frame back.
        self.call_after_refresh(self.loader.warm, index)
        if self.status == "indexing" and len(index) == len(self.store):
            self.status = "ready"
        self._update_header()
        self.following.show_detail()  # now related papers can be found

    @on(IndexFailed)
    def _index_failed(self, message: IndexFailed) -> None:
        self._unindexed = True
        self.tell(f"The papers could not be indexed: {message.reason}", "error")
        self._update_header()

    @on(EntryReopened)
    def _entry_reopened(self, message: EntryReopened) -> None:
        self._caching_index = False
        self._update_header()
        # None: not saved (no room, say): the next start loads the papers again.
        if message.indexed is not None and (index := self.loader.adopt(message.indexed)):
            self._index = index
        if message.not_kept:
            self.tell(message.not_kept[0].upper() + message.not_kept[1:], "warning")

    @on(ForYouNews)
    def _for_you_news(self, message: ForYouNews) -> None:
        self.for_you.news(message)
        self._update_header()  # "learning…" no more, under a dialog too

    # The filter and the list

    def _filter_changed(self, query: str) -> None:
        self.filtering.query = query
        self.key_wait.look_again()
        self.following.arriving = None  # unless a jump set this query
        self.filtering.typed = self.focused is self.filter_input
        self.refilter()

    def refilter(self) -> None:
        filtering = self.filtering
        if filtering.asked and self._index is not None:
            filtering.search(self._index, self.sort)
        elif filtering.asked:  # searched once the index is ready: no papers till then
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
            filtering.sort_all(self.sort)
            self._update_header()  # the query cleared: the list follows once sorted

    @on(ResultsReady)
    def _show(self, results: ResultsReady) -> None:
        """Show a search's results, unless the query has changed since it started."""
        if results.query != self.filtering.query:
            return
        self.highlight = results.highlight  # the list and the detail pane follow (data_bind)
        if results.named and self.filtering.typed:  # a paper's id or link typed: a jump
            self.following.arriving = results.papers[0].id
        had_papers = bool(self.paper_list.papers)
        self.filtering.show(results, ranked=self.sort == "relevance")
        self.for_you.library_drawn()
        if bool(results.papers) != had_papers:  # the paper keys come (or go): the footer
            self.refresh_bindings()
        self._update_header()
        self.key_wait.look_again()

    def watch_status(self) -> None:
        self._update_header()

    def watch_sort(self) -> None:
        self.refilter()
        self._update_header()

    def watch_raw(self) -> None:
        self._update_header()

    def watch_title(self) -> None:
        self._show_title()

    def watch_sub_title(self) -> None:
        self._debounce.ask(self._show_title, self.timings.settled_after)

    def _show_title(self) -> None:
        self.title_bar.show(self.title or "", self.sub_title or "", self._header_end)

    @property
    def settled(self) -> bool:
        """Whether the detail pane and the header show what the list does."""
        return not self._debounce.pending

    def _update_header(self) -> None:
        state = _header_state(self, self._unindexed, self._caching_index)
        self._header_end = header_end(state)
        self.sub_title = header_text(state)

    # The cursor, and jumps

    @on(PaperList.CursorMoved)
    def _cursor_moved(self, event: PaperList.CursorMoved) -> None:
        self.following.moved(event)
        self.for_you.moved(event)

    @on(PaperList.Opened)
    def _opened(self) -> None:
        self.following.opened()

    @on(PaperList.MarksChanged)
    def _marks_changed(self) -> None:
        self._update_header()

    # The user's library

    def library_changed(self, refilter: bool = True, used: Sequence[str] = ()) -> None:
        """Redraw what the library shows, filter again on state, and save. The paper `used`
        (CursorFollower.used) is read, and stays listed as the papers read since the search
        do (Filtering.read)."""
        self.filtering.read(self.following.used(used), in_step=True)
        if refilter and parse_query(self.filtering.query).asks_state:
            self.refilter()
        self.for_you.library_changed()  # drawn now, or with the for-you order that follows
        self.sync.save()
        # A save is quick; one that is not (another program holds the lock, a slow disk) is
        # shown in the header until it is done.
        self.set_timer(self.timings.saving_shown_after, self._update_header)

    def read_used(self, papers: Sequence[Paper]) -> None:
        """Read a paper copied from or opened (see CursorFollower.used), and save."""
        self._read(self.following.used([paper.id for paper in papers]))

    def _read(self, paper_ids: Sequence[str]) -> None:
        """Read papers rested on or used; they stay listed (Filtering.read)."""
        if self.filtering.read(paper_ids):
            self.library_changed(refilter=False)

    def _library_synced(self, changed: bool) -> None:
        """A save ended, or others' changes were read in (`changed`: not drawn yet)."""
        if changed:
            self.for_you.library_changed()
        self._update_header()

    @on(PapersResolved)
    def _resolved(self, resolved: PapersResolved) -> None:
        self._tell(self.look_up.found(resolved))
        self.paper_list.refresh_rows()
        self.for_you.library_changed()

    # Keys, and what the screen tells

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
        if action in PAPER_ACTIONS:  # cheap: Textual asks at every refresh of keys
            return bool(self.paper_list.marked) or self.paper_list.current is not None
        return True

    async def keys_caught_up(self) -> None:
        """Return once what the keys sent before started is done (see KeyWait.caught_up)."""
        timings = self.timings
        due, flow_wait, most = self._results_on_their_way, timings.flow_wait, timings.results_wait
        if not await self.key_wait.caught_up(self.app, due, flow_wait, most):
            self.filtering.waited_for = self.filtering.query  # waited for no more

    def _results_on_their_way(self) -> bool:
        """Whether the list, out of the filter, waits for the results of the query typed."""
        return (
            self.app.screen_stack[-1:] == [self]  # none at all once the reader has closed
            and self.focused is not self.filter_input
            and self._index is not None
            and self.filtering.results_due()
        )

    def on_screen_resume(self) -> None:
        self.refresh_bindings()  # the footer was last drawn under a dialog
        self.for_you.resumed()  # an order that came under it
        self.key_wait.look_again()

    def on_screen_suspend(self) -> None:
        self.refresh_bindings()  # a dialog is over it: its keys are the ones in reach
        self.key_wait.look_again()

    def on_descendant_focus(self) -> None:
        self.key_wait.look_again()

    def tell(self, message: str, severity: SeverityLevel = "information") -> None:
        tell(self.app, message, severity)

    def _tell(self, notices: Sequence[tuple[str, SeverityLevel]]) -> None:
        for message, severity in notices:
            self.tell(message, severity)

    def key_named(self, binding: Binding) -> str:
        """The keys of a binding, as the config binds them and the footer names them."""
        return key_display(self.app, self.config.keys, binding)

    # Moving around and looking

    def _focus(self, pane: Widget) -> None:
        # Widget.focus() defers the change; setting the screen's focus takes effect at once.
        self.set_focus(pane)

    def action_focus_filter(self) -> None:
        self._filter_asked = True
        self.filter_input.refine()
        self._focus(self.filter_input)

    def action_leave_filter(self) -> None:
        # The keys sent after Enter ("j j") wait for the results of what was typed
        # (keys_caught_up): searched here, on the screen's thread, a phrase among a million
        # papers froze the screen. In reading mode the list is hidden: the paper is read on.
        self._focus(self.detail_pane if self.has_class("-reading") else self.paper_list)

    def _restore_session(self, session: Session) -> None:
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
            self.filtering.query = self.filter_input.value = session.query
            self.filtering.typed = False  # a paper the restored query names is no jump
            if session.paper_id and session.paper_read_there:
                self.filtering.left_on(session.paper_id)

    def session(self, chosen_theme: str) -> Session:
        """Where the reader is (or was, once it has quit), to be restored next time."""
        paper_id, paper_list = self.following.last_paper_id, self.paper_list
        there = self.filtering.read_there(paper_id) and paper_list.position_of(paper_id) is not None
        query, split = self.filtering.query, self.panes.list_share
        return Session(query, paper_id, self.sort, chosen_theme, split, paper_read_there=there)


def _header_state(workspace: Workspace, unindexed: bool, caching_index: bool) -> HeaderState:
    """What the header tells, as the workspace holds it."""
    filtering, index = workspace.filtering, workspace.index
    return HeaderState(
        papers=len(workspace.store),
        query=filtering.query,
        shown_query=filtering.shown_query,
        shown=filtering.shown,
        close=filtering.close,
        among=filtering.among,
        indexed=None if index is None else len(index),
        status=workspace.status,
        unindexed=unindexed,
        showing=filtering.showing,
        counting=filtering.counting,
        sort=workspace.sort,
        marked=len(workspace.paper_list.marked),
        save_failing=workspace.sync.failing,
        saving=workspace.sync.saving,
        caching_index=caching_index,
        raw=workspace.raw,
        for_you=workspace.for_you.label,
    )
