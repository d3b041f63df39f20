"""The reader: a filter, the paper list and the detail pane over a store of papers."""

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from textual import events, on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen, ScreenResultCallbackType
from textual.suggester import Suggester
from textual.timer import Timer
from textual.widget import AwaitMount, Widget
from textual.widgets import Footer, Header
from textual.worker import get_current_worker

from tui_reader import startup
from tui_reader.core.browser import open_in_browser
from tui_reader.core.config import Config
from tui_reader.core.engine import SearchEngine
from tui_reader.core.export import ExportError, exporter, file_formats, format_of, write_export
from tui_reader.core.export import render as render_export
from tui_reader.core.library import Library, LibraryError, normalise_tag
from tui_reader.core.links import DEFAULT_SEARCH_URL
from tui_reader.core.paper import Paper
from tui_reader.core.query import parse_query
from tui_reader.core.references import links_of
from tui_reader.core.search_service import build_index, search_papers
from tui_reader.core.session import Session
from tui_reader.core.sorting import LABELS, SORTS, Sort
from tui_reader.core.store import PaperStore
from tui_reader.core.wording import count
from tui_reader.resources import bundled
from tui_reader.ui.clipboard import CopyLog, notice
from tui_reader.ui.copied_screen import CopiedScreen
from tui_reader.ui.copy_picker import CopyPicker, Pick
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.dialogs import ConfirmScreen, PromptScreen, typed_path
from tui_reader.ui.feeds_screen import FeedsScreen, save_search_prompt
from tui_reader.ui.help_screen import HelpScreen, KeyTable
from tui_reader.ui.messages import (
    IndexReady,
    LibraryReloaded,
    LibrarySaved,
    LoadFinished,
    PapersLoaded,
    RelatedFound,
    ResultsReady,
    SaveFailed,
)
from tui_reader.ui.note_editor import NoteEditor
from tui_reader.ui.ordered_keys import OrderedInput, route_key
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.pipe_screen import pipe_papers
from tui_reader.ui.problems_screen import ProblemsScreen
from tui_reader.ui.tag_editor import TagSuggester, tag_edit, tag_prompt
from tui_reader.ui.tags_screen import TagAction, TagsScreen
from tui_reader.ui.triage_screen import TriageScreen

READ_AFTER = Config().read_after  # seconds to read a paper, for a reader given no config
RELATED_AFTER = 0.6  # seconds the cursor rests on a paper before its related papers are found
RELOAD_EVERY = 2.0  # seconds between looks for changes another program saved
SAVING_SHOWN_AFTER = 0.3  # seconds a save may take before the header says it is in flight
LIST_SHARE = 4  # of 10: the list's part of the width, the detail pane has the rest
STACKED_BELOW = 100  # columns: a narrower terminal shows the detail pane below the list
POST_EVERY = 0.25  # seconds between showing the papers loaded so far

T = TypeVar("T")
Place = tuple[str, str | None]  # a query, and the paper under the cursor


class FilterInput(OrderedInput):
    """The filter query: Escape clears it, or leaves it when it is already empty."""

    BINDINGS = [
        Binding("escape", "clear", "Clear filter", show=False),
        Binding("down", "leave", "To the list", show=False),
    ]

    def __init__(
        self, changed: Callable[[str], None], suggester: Suggester, placeholder: str, id: str
    ) -> None:
        super().__init__(placeholder=placeholder, id=id, suggester=suggester)
        self._changed = changed

    def watch_value(self, value: str) -> None:
        # Told at once, not by a message: the list follows before the next key of a burst
        # acts (Escape clears the filter, then "j" moves down the whole list).
        self._changed(value)

    def action_clear(self) -> None:
        if self.value:
            self.value = ""
        else:
            self.action_leave()

    def action_leave(self) -> None:
        self.screen.focus_next()


def _described(bindings: Sequence[BindingType]) -> list[Binding]:
    return [b for b in bindings if isinstance(b, Binding) and b.description]


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


SHOW_COPIED = Binding("c", "show_copied", "What was copied", show=False, id="copied")


class ReaderApp(App[None]):
    """Filter, read and triage research-paper abstracts."""

    CSS_PATH = bundled("styles") / "app.tcss"
    TITLE = "tui-reader"
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
        "open_link", "export", "related", "read_all", "triage", "pipe",
    )  # fmt: skip

    raw: reactive[bool] = reactive(False, init=False)  # paper text as written, not typeset

    def __init__(
        self,
        store: PaperStore,
        library: Library | None = None,
        messages: Sequence[str] = (),
        search_template: str = DEFAULT_SEARCH_URL,
        stream: Iterator[list[Paper] | str] | None = None,
        session: Session | None = None,
        config: Config | None = None,
        index: SearchEngine | None = None,
        duplicates: int = 0,
    ) -> None:
        """`stream`, when given, yields more papers (and problems) to load in the background;
        `session`, where the reader left off last time; `config`, the user's settings (its
        keys already checked); `index`, the store's index when it was kept from before;
        `duplicates`, how many abstracts the load met again and shows once."""
        super().__init__()
        self.config = config or Config(read_after=READ_AFTER)
        self.set_keymap(dict(self.config.keys))
        self._restore = session
        self._last_paper_id = ""  # the last paper under the cursor
        self.store = store
        self._stream = stream
        self.status = "loading" if stream is not None else "indexing"
        self.shown_query = ""  # the query whose results the list shows
        self.library = library or Library(None)
        self.search_template = search_template
        self._messages = list(messages)
        self._index: SearchEngine | None = None
        self._kept_index = index
        self.load_problems: list[str] = []  # records the background load skipped
        self.duplicates = duplicates  # the background load adds those it meets
        self._query = ""
        self._read_timer: Timer | None = None
        self._reading: str | None = None  # the paper the read timer is for
        self._back: list[Place] = []  # where jumps started, the latest last
        self._forward: list[Place] = []  # where going back started
        self._related_timer: Timer | None = None
        self._save_failing = False
        self._shown_count = len(store)
        self._close_count = 0
        self.copy_log = CopyLog(self)  # copies, and what was copied this session
        self.sort: Sort = "relevance"
        # The reader's panes, kept at hand: a dialog over them makes `query_one` look in it.
        self.filter_input = FilterInput(
            self._filter_changed,
            TagSuggester(self.library.tag_counts, marks=("!#", "#")),  # → accepts
            placeholder="Filter: words, #tag, !#tag, is:bookmarked, is:unread, has:note",
            id="filter",
        )
        self.paper_list = PaperList(self.library, id="papers")
        self.detail_pane = DetailPane(self.library, self.search_template, id="detail")
        self.panes = Panes(id="panes")

    @property
    def index(self) -> SearchEngine | None:
        """The search index over the store, once it is built."""
        return self._index

    def compose(self) -> ComposeResult:
        yield Header()
        yield self.filter_input
        with self.panes:
            yield self.paper_list.data_bind(ReaderApp.raw)
            yield self.detail_pane.data_bind(ReaderApp.raw)
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.store.title
        # The config's theme, unless one was chosen in the app since (the session has it).
        # (A theme that does not exist was named, with its line, when the config was read.)
        if (theme := self.config.theme) and theme in self.available_themes:
            self.theme = theme
        if self._restore is not None:
            self._restore_session(self._restore)
        self._refilter()
        self._focus(self.paper_list)
        if self.library.saved_searches():  # the feeds, under the problems to read first
            self.push_screen(self._feeds_screen(), self._feed_chosen)
        if self._messages:  # together, where all can be read: stacked notices scroll away
            self.push_screen(ProblemsScreen(self._messages))
        startup.searching_turns()
        if self._stream is not None:
            self._load()
        else:
            self._say_duplicates()
            self._build_index()
        self.set_interval(RELOAD_EVERY, self._look_for_outside_changes)

    # Filtering

    # The background work (threads) reports in messages (ui/messages), handled in turn with
    # the keys; once the reader quits they are dropped.

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        assert self._stream is not None
        problems = self.load_problems
        with startup.loading_turns():
            pending: list[Paper] = []
            posted: float | None = None  # when papers were last posted: the first at once
            for item in self._stream:
                if isinstance(item, str):
                    problems.append(item)
                    continue
                pending += item
                if posted is None or time.monotonic() - posted > POST_EVERY:
                    self.post_message(PapersLoaded(pending))
                    pending, posted = [], time.monotonic()
            self.post_message(PapersLoaded(pending))
        self.post_message(LoadFinished(problems))

    @on(PapersLoaded)
    def _add_papers(self, message: PapersLoaded) -> None:
        papers = message.papers
        startup.keep_for_good()  # papers live as long as the app
        added = self.store.extend(papers)
        self.duplicates += len(papers) - added
        if added:
            self.title = self.store.title
            if not self._query.strip():
                self._refilter()

    @on(LoadFinished)
    def _loaded(self, message: LoadFinished) -> None:
        problems = message.problems
        self.status = "indexing"
        self._update_header()
        self._build_index()  # over every paper: their messages came first
        self._say_duplicates()
        if problems:
            listed = "\n".join(problems[:5]) + ("\n…" if len(problems) > 5 else "")
            skipped = count(len(problems), "record")
            self._tell(f"Skipped {skipped} that could not be read:\n{listed}", "warning")

    def _say_duplicates(self) -> None:
        if self.duplicates:
            self._tell(f"{count(self.duplicates, 'duplicate abstract')} shown once")

    @work(thread=True, exclusive=True, group="index")
    def _build_index(self) -> None:
        index = self._kept_index if self._kept_index is not None else build_index(self.store)
        self.post_message(IndexReady(index))
        index.warm()

    @on(IndexReady)
    def _index_ready(self, message: IndexReady) -> None:
        index = message.index
        startup.keep_for_good()  # the index lives as long as the papers
        self._index = index
        self.status = "ready"
        self._show_detail()  # now related papers can be found
        self._update_header()
        if self._query.strip():
            self._search(self._query)

    def _filter_changed(self, query: str) -> None:
        self._query = query
        self._refilter()

    def _refilter(self) -> None:
        if self._query.strip():
            if self._index is not None:
                self._search(self._query)
            else:
                self._update_header()  # the search runs once the index is ready
        elif self.sort in ("relevance", "file"):
            self.workers.cancel_group(self, "search")
            self._show(ResultsReady(self.store, ""))
        else:
            self._sort_all()

    @work(thread=True, exclusive=True, group="search")
    def _sort_all(self) -> None:
        """Every paper in the chosen order, sorted off the screen's thread (a second at 1M)."""
        found = search_papers(None, "", self.library, self.sort, self.store)
        self._post_results(ResultsReady(self.store.view(found.numbers), ""))

    @work(thread=True, exclusive=True, group="search")
    def _search(self, query: str) -> None:
        assert self._index is not None
        found = search_papers(self._index, query, self.library, self.sort, self.store)
        papers = self.store.view(found.numbers)
        self._post_results(ResultsReady(papers, query, found.full, found.highlight))

    def _post_results(self, results: ResultsReady) -> None:
        if not get_current_worker().is_cancelled:  # a later key's search replaced this one
            self.post_message(results)

    @on(ResultsReady)
    def _show(self, results: ResultsReady) -> None:
        """Show a search's results, unless the query has changed since it started."""
        papers, query, full, highlight = (
            results.papers,
            results.query,
            results.full,
            results.highlight,
        )
        if query != self._query:
            return
        self.shown_query = query
        message = "No papers" if not query.strip() else "" if papers else self._nothing(query)
        paper_list = self.paper_list
        paper_list.highlight = self.detail_pane.highlight = highlight
        paper_list.show(papers, message, len(papers) if full is None else full)
        self._shown_count = len(papers) if full is None else full
        self._close_count = len(papers) - self._shown_count
        self._update_header()

    def _nothing(self, query: str) -> str:
        """Why a query finds no paper: a tag that no paper has, else the query."""
        tags = self.library.tag_counts()
        for state in parse_query(query).states:
            if not state.tag or state.negated:
                continue
            if state.prefix and not any(tag.startswith(state.tag) for tag in tags):
                return f"No paper has a tag starting with #{state.tag}"
            if not state.prefix and state.tag not in tags:
                return f"No paper has the tag #{state.tag}"
        return f"No papers match “{query.strip()}”"

    def _update_header(self) -> None:
        marked = len(self.paper_list.marked)
        papers = count(len(self.store), "paper")
        shown = f"{self._shown_count:,} of {papers}"
        if self._close_count:
            shown += f" (+{self._close_count:,} close)"
        if self.status == "loading":
            shown = f"loading… {papers}"
        elif self.status == "indexing" and self._query.strip():
            shown = f"indexing {papers}…"
        if label := LABELS.get(self.sort):
            shown += f" · by {label}"
        if marked:
            shown += f" · {marked:,} marked"
        if self._save_failing:
            shown += " · not saved"
        elif self.library.has_unsaved_changes or self.library.saving:
            shown += " · saving…"
        self.sub_title = shown + (" · raw text" if self.raw else "")

    # Following the cursor

    @on(PaperList.CursorMoved)
    def _cursor_moved(self, event: PaperList.CursorMoved) -> None:
        # The list repaints first; the detail pane (which may re-wrap a long abstract) follows
        # in the next frame, so typing and moving feel immediate.
        self.call_after_refresh(self._show_detail)
        if event.paper is not None:
            self._last_paper_id = event.paper.id
        if event.chosen:
            self._start_reading()
        elif event.paper is None or event.paper.id != self._reading:
            self._stop_reading()

    @on(PaperList.Opened)
    def _opened(self) -> None:
        current = self.paper_list.current
        if current is not None and current.id != self._reading:
            self._start_reading()

    def _start_reading(self) -> None:
        """Read the paper under the cursor once the reader has rested on it for read_after
        seconds. Only a paper the reader moved to or opened: never one that is under the
        cursor because the reader started there or a new list put it there."""
        self._stop_reading()
        paper, delay = self.paper_list.current, self.config.read_after
        if delay and paper is not None and not self.library.is_read(paper.id):
            self._reading = paper.id
            self._read_timer = self.set_timer(delay, self._mark_current_read)

    def _stop_reading(self) -> None:
        if self._read_timer is not None:
            self._read_timer.stop()
        self._read_timer = self._reading = None

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
        assert self._index is not None
        number = self.store.position_of(paper_id)
        related = [] if number is None else list(self.store.view(self._index.related(number)))
        self.detail_pane.post_message(RelatedFound(paper_id, related))

    def action_related(self, number: int) -> None:
        """Go to the paper the detail pane lists as related number `number`."""
        paper_id, related = self.detail_pane.related
        paper_list = self.paper_list
        if paper_list.current is None or paper_list.current.id != paper_id:
            return
        if number > len(related):
            return
        target = related[number - 1]
        # Not among the papers shown: show them all, then go to it.
        shown = paper_list.position_of(target.id) is not None
        self._jump((self._query if shown else "", target.id))

    # Going back and forward over jumps

    def _place(self) -> Place:
        current = self.paper_list.current
        return self._query, current.id if current is not None else None

    def _jump(self, place: Place) -> None:
        """Go to a query and a paper (None: the one chosen before, where shown), remembering
        where the reader was: [ goes back there, ] forward again."""
        self._back.append(self._place())
        self._forward.clear()
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

    def action_jump_back(self) -> None:
        self._step(self._back, self._forward, "back")

    def action_jump_forward(self) -> None:
        self._step(self._forward, self._back, "forward")

    def _step(self, leaving: list[Place], arriving: list[Place], way: str) -> None:
        if not leaving:
            self._tell(f"Nothing to go {way} to")
            return
        arriving.append(self._place())
        self._go(leaving.pop())

    def _mark_current_read(self) -> None:
        self._read_timer = self._reading = None
        paper = self.paper_list.current
        if paper is not None and self.library.set_read([paper.id], True):
            self._library_changed(refilter=False)

    @on(PaperList.MarksChanged)
    def _marks_changed(self) -> None:
        self._update_header()

    # The user's library

    def _targets(self) -> list[str]:
        """The marked papers (in store order) or else the one under the cursor."""
        paper_list = self.paper_list
        if paper_list.marked:
            return [p.id for p in self.store if p.id in paper_list.marked]
        return [paper_list.current.id] if paper_list.current is not None else []

    def _library_changed(self, refilter: bool = True) -> None:
        """Redraw what the library shows, filter again on state, and save."""
        self._redraw_library_state()
        if refilter and parse_query(self._query).states:
            self._refilter()
        self._save()
        # A save takes a millisecond; one that takes longer (another program holds the lock, a
        # slow disk) is shown in the header until it is done.
        self.set_timer(SAVING_SHOWN_AFTER, self._update_header)

    def _redraw_library_state(self) -> None:
        paper_list = self.paper_list
        paper_list.refresh_rows()
        self.detail_pane.show(paper_list.current, paper_list.empty_message)

    @work(thread=True, group="save")
    def _save(self) -> None:
        try:
            messages = self.library.save()
        except LibraryError as error:
            self.post_message(SaveFailed(str(error)))
        else:
            self.post_message(LibrarySaved(messages))

    @on(LibrarySaved)
    def _saved(self, saved: LibrarySaved) -> None:
        for message in saved.messages:
            self._tell(message, "error")
        if self._save_failing:
            self._save_failing = False
            self._tell(f"Saved again to {self.library.path}")
        self._redraw_library_state()
        self._update_header()

    @on(SaveFailed)
    def _save_failed(self, message: SaveFailed) -> None:
        if not self._save_failing:
            self._save_failing = True
            problem = message.problem
            self._tell(
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
            self._tell(message, "error")
        self._redraw_library_state()

    def _tell(self, message: str, severity: SeverityLevel = "information") -> None:
        timeout = 20 if severity != "information" else 4
        self.notify(message, severity=severity, timeout=timeout, markup=False)

    async def on_event(self, event: events.Event) -> None:
        # Every key acts after the keys sent before it, where they left the focus (see
        # ordered_keys): "t" and a tag, "old" Ctrl+U "agent", Enter and "j" in one burst.
        if (
            isinstance(event, events.Key)
            and not event.is_forwarded
            and await route_key(self, event)
        ):
            return
        await super().on_event(event)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("focus_filter", "leave_filter"):
            if len(self.screen_stack) > 1:
                return False
            in_filter = isinstance(self.focused, FilterInput)
            if action == "leave_filter":
                return in_filter
            # In the filter "/" is typed ("#rl/theory"), except as its first character, where it
            # can only be a reader pressing "/" again to get to the filter: it does nothing.
            return not in_filter or not self.filter_input.value
        dialogs = (
            "undo", "tags_view", "show_copied", "jump_back", "jump_forward", "feeds", "save_search",
        )  # fmt: skip
        if action in self._PAPER_ACTIONS or action in dialogs:
            if len(self.screen_stack) > 1:
                return False
            if action in self._PAPER_ACTIONS:  # cheap: Textual asks at every refresh of keys
                paper_list = self.paper_list
                return bool(paper_list.marked) or paper_list.current is not None
        return True

    def action_bookmark(self) -> None:
        targets = self._targets()
        value = not all(self.library.is_bookmarked(i) for i in targets)
        self.library.set_bookmarked(targets, value)
        self._library_changed()

    def action_toggle_read(self) -> None:
        targets = self._targets()
        self.library.set_read(targets, not all(self.library.is_read(i) for i in targets))
        self._stop_reading()
        self._library_changed()

    def action_read_all(self) -> None:
        """Mark every paper shown read, as one step that u undoes."""
        papers = self.paper_list.papers
        if self.library.set_read([paper.id for paper in papers], True, undoable=True):
            self._tell(f"Marked {count(len(papers), 'paper')} read (u undoes)")
            self._library_changed()
        else:
            self._tell("Every paper shown is read already")

    async def action_edit_tags(self) -> None:
        targets = self._targets()
        current = self.library.tags(targets[0]) if len(targets) == 1 else None
        if current is None:
            title = f"Tags for the {count(len(targets), 'marked paper')}"
        else:
            title = f"Tags of {self._headline(targets[0])}"

        def apply(text: str | None) -> None:
            if text is not None:
                edit = tag_edit(text, current)
                if self.library.change_tags(targets, edit.add, edit.remove):
                    self._library_changed()

        prompt = tag_prompt(title, current, list(self.library.tag_counts()))
        await self._open_dialog(prompt, apply)

    async def action_edit_note(self) -> None:
        paper = self.paper_list.current
        if paper is None:
            return

        def apply(text: str | None) -> None:
            if text is not None and self.library.set_note(paper.id, text.rstrip()):
                self._library_changed()

        title = f"Note on {self._headline(paper.id)}"
        await self._open_dialog(NoteEditor(title, self.library.note(paper.id)), apply)

    def action_undo(self) -> None:
        undone = self.library.undo()
        if undone is None:
            self._tell("Nothing to undo")
            return
        self._tell(f"Undone: {undone}")
        self._library_changed()

    async def action_tags_view(self) -> None:
        await self._open_dialog(TagsScreen(self.library.tag_counts()), self._tag_action)

    def _tag_action(self, action: TagAction | None) -> None:
        if action is None:
            return
        if action.kind == "filter":
            self._jump((f"#{action.tag}", None))
            self._focus(self.paper_list)
        else:
            self._change_tag(action)

    @work(group="dialog")
    async def _change_tag(self, action: TagAction) -> None:
        """Rename or delete a tag everywhere, after asking."""
        tag = action.tag
        if action.kind == "rename":

            def check(text: str) -> str | None:
                new = normalise_tag(text)
                return None if new and new != tag else "Type a new tag: a word; - _ . / + allowed"

            text = await self._ask(PromptScreen(f"Rename #{tag} to", tag, check=check))
            if text is not None and self.library.rename_tag(tag, text):
                self._tell(f"Renamed #{tag} to #{normalise_tag(text)} (u undoes)")
                self._library_changed()
        elif action.kind == "delete":
            tagged = count(self.library.tag_counts().get(tag, 0), "paper")
            yes = await self._ask(ConfirmScreen(f"Delete #{tag} from {tagged}?"))
            if yes and self.library.delete_tag(tag):
                self._tell(f"Deleted #{tag} from {tagged} (u undoes)")
                self._library_changed()

    # Links, copying and export

    def _target_papers(self) -> list[Paper]:
        return [paper for i in self._targets() if (paper := self.store.get(i)) is not None]

    def _links(self, paper: Paper) -> list[str]:
        return links_of(paper, self.search_template)

    def _copy(self, text: str, what: str, warning: str = "") -> None:
        """Copy text holding `what` ("3 links"); say so, after the `warning` when there is one."""
        said = notice(self.copy_log.copy(text, what), self.key_display(SHOW_COPIED))
        if warning:
            self._tell(f"{warning} {said}", "warning")
        else:
            self._tell(said)

    def action_copy_link(self) -> None:
        papers = self._target_papers()
        self._copy("\n".join(self._links(paper)[0] for paper in papers), count(len(papers), "link"))

    def action_show_copied(self) -> None:
        self.push_screen(CopiedScreen(self.copy_log, self.key_display(SHOW_COPIED)))

    async def action_copy_picker(self) -> None:
        papers = self._target_papers()
        if len(papers) == 1:
            title, links = f"Copy from {self._headline(papers[0].id)}", self._links(papers[0])
        else:
            title = f"Copy for the {count(len(papers), 'marked paper')}"
            links = ["Each one's primary link"]
        await self._open_dialog(CopyPicker(title, links), lambda pick: self._picked(papers, pick))

    def _picked(self, papers: list[Paper], pick: Pick | None) -> None:
        if pick is None:
            return
        if pick.kind == "link":
            urls = [self._links(paper)[pick.number - 1] for paper in papers]
            if pick.open:
                self._open_url(urls[0])
                return
            text, nouns = "\n".join(urls), ("link", "links")
        else:
            form = exporter(pick.kind)
            text = form.render(papers, self.library, self.search_template)
            nouns = form.copied or (form.label, form.label)
        self._copy(text, count(len(papers), *nouns))

    def action_open_link(self, number: int = 1) -> None:
        paper = self.paper_list.current
        if paper is not None and 1 <= number <= len(links := self._links(paper)):
            self._open_url(links[number - 1])

    def _open_url(self, url: str) -> None:
        if reason := open_in_browser(url):
            self._copy(url, "1 link", warning=f"Not opening a browser: {reason}.")
        else:
            self._tell(f"Opened {url}")

    async def action_export(self) -> None:
        papers = self._target_papers() if self.paper_list.marked else None
        papers = papers or list(self.paper_list.papers)
        kinds = ", ".join(row.suffix for row in file_formats())

        def check(text: str) -> str | None:
            path = typed_path(text)
            if format_of(path) is None:
                return f"The file must end in one of {kinds}"
            if not path.parent.is_dir():
                return f"There is no folder {path.parent}"
            return None

        def replace(text: str) -> str | None:
            path = typed_path(text)
            return f"{path} exists. Replace it?" if path.exists() else None

        def write(text: str | None) -> None:
            if text is None:
                return
            path = typed_path(text)
            try:
                kind = format_of(path)
                assert kind is not None  # checked as it was typed
                rendered = render_export(kind, papers, self.library, self.search_template)
                write_export(path, rendered, force=True)
            except ExportError as error:
                self._tell(str(error), "error")
            else:
                self._tell(f"Wrote {count(len(papers), 'paper')} to {path}")

        title = f"Export {count(len(papers), 'paper')} to a file ({kinds})"
        hint = f"In {Path.cwd()} unless the name has a folder. Enter writes, Escape cancels"
        prompt = PromptScreen(title, "reading-list.md", hint, check=check, confirm=replace)
        await self._open_dialog(prompt, write)

    # Triage, feeds and other programs

    async def action_triage(self) -> None:
        """The papers shown (those matching in full), one at a time, one key per decision."""
        self._stop_reading()
        paper_list = self.paper_list
        triage = TriageScreen(
            paper_list.papers[: paper_list.full],
            self.library,
            query=self.shown_query,  # the filter whose papers the list shows
            sort=self.sort,
            quick_tags=self.config.quick_tags,
            search_template=self.search_template,
            copy_log=self.copy_log,
        )
        await self._open_dialog(triage, self._triaged)

    def _triaged(self, paper_id: str | None) -> None:
        self._library_changed()
        if paper_id is not None:
            self._go((self._query, paper_id))

    async def action_save_search(self) -> None:
        query = self._query.strip()
        if not query:
            self._tell("Type a filter first: S saves it under a name, as a feed")
            return

        def save(name: str | None) -> None:
            if name is not None and self.library.save_search(name, query):
                self._tell(f"Saved the filter as “{' '.join(name.split())}”: F lists the feeds")
                self._save()

        await self._open_dialog(save_search_prompt(self.library, query), save)

    def _feeds_screen(self) -> FeedsScreen:
        return FeedsScreen(self.library, self.store, lambda: self._index)

    async def action_feeds(self) -> None:
        await self._open_dialog(self._feeds_screen(), self._feed_chosen)

    def _feed_chosen(self, query: str | None) -> None:
        if query is not None:
            self._jump((query, None))
            self._focus(self.paper_list)

    async def action_pipe(self) -> None:
        self.clear_notifications()
        papers, commands = self._target_papers(), self.config.commands
        await pipe_papers(self, papers, self.library, commands, self.search_template, self.copy_log)

    def _open_dialog(
        self, dialog: Screen[T], then: ScreenResultCallbackType[T] | None = None
    ) -> AwaitMount:
        """Open a dialog over the reader. A key's action awaits this: the keys sent with the
        one that opened it ("t" and a tag) wait until it is there and focused, and go to it.
        Notices are about what came before: they would show over the dialog, so they go."""
        self.clear_notifications()
        return self.push_screen(dialog, then)

    async def _ask(self, dialog: Screen[T]) -> T:
        """A dialog's answer, in a flow that runs as a worker (`@work`), as `_open_dialog`."""
        self.clear_notifications()
        return await self.push_screen_wait(dialog)

    def _headline(self, paper_id: str) -> str:
        paper = self.store.get(paper_id)
        return f"“{paper.headline}”" if paper is not None else paper_id

    # Moving around

    def _focus(self, pane: Widget) -> None:
        # Widget.focus() defers the change; setting the screen's focus takes effect at once.
        self.screen.set_focus(pane)

    def action_focus_filter(self) -> None:
        self._focus(self.filter_input)

    def action_leave_filter(self) -> None:
        self._focus(self.paper_list)

    def _restore_session(self, session: Session) -> None:
        if session.theme in self.available_themes:
            self.theme = session.theme
        if session.sort in SORTS:
            self.sort = session.sort
        if 2 <= session.split <= 8:
            self.panes.list_share = session.split
        if session.paper_id:
            self.paper_list.choose_later(session.paper_id)
        if session.query:
            # Known at once, so that the start does not sort every paper for an empty filter.
            self._query = session.query
            self.filter_input.value = session.query

    def session(self) -> Session:
        """Where the reader is (or was, once it has quit), to be restored next time."""
        split = self.panes.list_share
        return Session(self._query, self._last_paper_id, self.sort, self.theme, split)

    def action_next_sort(self) -> None:
        """Relevance (file order when not filtering), file order, headline, recently changed."""
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self._refilter()

    def action_reading_mode(self) -> None:
        """The detail pane alone, full width; the same key brings the list back."""
        reading = self.screen.toggle_class("-reading").has_class("-reading")
        self._focus(self.detail_pane if reading else self.paper_list)

    def action_toggle_raw(self) -> None:
        """Show paper text as written (LaTeX, asterisks) or typeset; search and copy use it raw."""
        self.raw = not self.raw  # the list and the detail pane follow (data_bind)
        self._update_header()
        self.notify("Showing the raw text" if self.raw else "Showing math and emphasis")

    def action_split(self, step: int) -> None:
        """Move the split between the list and the detail pane; the session keeps it."""
        panes = self.panes
        panes.list_share = max(2, min(8, panes.list_share + step))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette (Ctrl+P) offers every action of the reader, with its key, and
        those of Textual's commands the reader has no action of the same name for."""
        ours: list[SystemCommand] = []
        owners = ((self, self.BINDINGS), (self.paper_list, PaperList.BINDINGS))
        for owner, bindings in owners if screen is self.screen_stack[0] else ():
            for binding in bindings:
                if not isinstance(binding, Binding) or not binding.description:
                    continue
                keys = self.key_display(binding)
                action = binding.action.removeprefix("app.")
                run = partial(owner.run_action, action)
                ours.append(SystemCommand(binding.description, f"key: {keys}", run))
        named = {command.title for command in ours}
        yield from (c for c in super().get_system_commands(screen) if c.title not in named)
        yield from ours

    def key_display(self, binding: Binding) -> str:
        """The keys of a binding as the footer shows them, after the config's rebinding."""
        keys = self.config.keys.get(binding.id or "", binding.key)
        return " ".join(self.get_key_display(Binding(key.strip(), "")) for key in keys.split(","))

    def _keys(self, bindings: Sequence[BindingType]) -> list[tuple[str, str]]:
        return [
            (self.key_display(binding), binding.description) for binding in _described(bindings)
        ]

    def action_help(self) -> None:
        # The panes' keys, then those that work anywhere, the footer's first: what is in sight
        # at 80x24 without scrolling.
        anywhere = sorted(_described(self.BINDINGS), key=lambda binding: not binding.show)
        keys: KeyTable = [
            ("Paper list", self._keys(PaperList.BINDINGS)),
            ("Detail pane", [*self._keys(DetailPane.BINDINGS), ("↑ ↓ pgup pgdn", "Scroll")]),
            ("Anywhere", self._keys(anywhere)),
            ("Filter", self._keys([Binding("enter", "", "To the list"), *FilterInput.BINDINGS])),
            ("Mouse", [("click", "Choose a paper or pane"), ("double-click", "Read the paper")]),
        ]
        self.push_screen(HelpScreen(keys))
