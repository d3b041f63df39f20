"""The reader: a filter, the paper list and the detail pane over a store of papers."""

from collections.abc import Sequence

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Footer, Header, Input

from tui_reader.core.paper import Paper
from tui_reader.core.search import SearchIndex
from tui_reader.core.store import PaperStore
from tui_reader.resources import bundled
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.help_screen import HelpScreen, KeyTable
from tui_reader.ui.paper_list import PaperList


class FilterInput(Input):
    """The filter query: Escape clears it, or leaves it when it is already empty."""

    BINDINGS = [
        Binding("escape", "clear", "Clear filter", show=False),
        Binding("down", "leave", "To the list", show=False),
    ]

    def action_clear(self) -> None:
        if self.value:
            self.value = ""
        else:
            self.action_leave()

    def action_leave(self) -> None:
        self.screen.focus_next()


def _keys(bindings: Sequence[BindingType], app: App[None]) -> list[tuple[str, str]]:
    rows = []
    for binding in bindings:
        if isinstance(binding, Binding) and binding.description:
            keys = " ".join(app.get_key_display(Binding(key, "")) for key in binding.key.split(","))
            rows.append((keys, binding.description))
    return rows


class ReaderApp(App[None]):
    """Filter, read and triage research-paper abstracts."""

    CSS_PATH = bundled("styles") / "app.tcss"
    TITLE = "tui-reader"
    BINDINGS = [
        # Priority bindings act as soon as the key arrives, so that keys typed in the same
        # burst ("/dif", "diffusion<Enter>j") land in the pane they were meant for.
        Binding("slash", "focus_filter", "Filter", priority=True),
        Binding("enter", "leave_filter", show=False, priority=True),
        Binding("question_mark", "help", "Keys"),
        Binding("q", "quit", "Quit"),
        Binding("tab", "app.focus_next", "Next pane", show=False),
        Binding("shift+tab", "app.focus_previous", "Previous pane", show=False),
    ]

    def __init__(self, store: PaperStore) -> None:
        super().__init__()
        self.store = store
        self._index: SearchIndex | None = None
        self._query = ""

    def compose(self) -> ComposeResult:
        yield Header()
        yield FilterInput(
            placeholder="Filter papers: type words, / to come back, Escape to clear", id="filter"
        )
        with Horizontal(id="panes"):
            yield PaperList(id="papers")
            yield DetailPane(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.store.title
        self._show(self.store, "")
        self._focus(PaperList)
        self._build_index()

    @work(thread=True, exclusive=True, group="index")
    def _build_index(self) -> None:
        index = SearchIndex(self.store)
        self.call_from_thread(self._index_ready, index)

    def _index_ready(self, index: SearchIndex) -> None:
        self._index = index
        if self._query:
            self._search(self._query)

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._query = event.value
        if not event.value.strip():
            self.workers.cancel_group(self, "search")
            self._show(self.store, "")
        elif self._index is not None:
            self._search(event.value)

    @work(thread=True, exclusive=True, group="search")
    def _search(self, query: str) -> None:
        assert self._index is not None
        papers = self._index.search(query)
        self.call_from_thread(self._show, papers, query)

    def _show(self, papers: Sequence[Paper], query: str) -> None:
        """Show a search's results, unless the query has changed since it started."""
        if query != self._query:
            return
        message = f"No papers match “{query.strip()}”" if query.strip() else "No papers"
        self.query_one(PaperList).show(papers, message)
        self.sub_title = f"{len(papers):,} of {len(self.store):,} papers"

    @on(PaperList.CursorMoved)
    def _cursor_moved(self, event: PaperList.CursorMoved) -> None:
        empty = self.query_one(PaperList).empty_message
        self.query_one(DetailPane).show(event.paper, empty)

    @on(PaperList.Opened)
    def _open(self) -> None:
        self._focus(DetailPane)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("focus_filter", "leave_filter"):
            if len(self.screen_stack) > 1:
                return False
            in_filter = isinstance(self.focused, FilterInput)
            return in_filter if action == "leave_filter" else not in_filter
        return True

    def _focus(self, pane: type[Widget]) -> None:
        # Widget.focus() defers the change; setting the screen's focus takes effect at once.
        self.screen.set_focus(self.query_one(pane))

    def action_focus_filter(self) -> None:
        self._focus(FilterInput)

    def action_leave_filter(self) -> None:
        self._focus(PaperList)

    def action_help(self) -> None:
        keys: KeyTable = [
            ("Anywhere", _keys(self.BINDINGS, self)),
            ("Paper list", _keys(PaperList.BINDINGS, self)),
            ("Detail pane", [*_keys(DetailPane.BINDINGS, self), ("↑ ↓ pgup pgdn", "Scroll")]),
            ("Filter", _keys([Binding("enter", "", "To the list"), *FilterInput.BINDINGS], self)),
            ("Mouse", [("click", "Choose a paper or pane"), ("double-click", "Read the paper")]),
        ]
        self.push_screen(HelpScreen(keys))
