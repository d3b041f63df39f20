"""Saved searches as feeds: a panel of them with their unread and total counts, and the prompt
that saves the filter under a name.

The panel counts in the background (core.feeds) when it opens and again every few seconds while
it is open, so its counts follow papers being loaded and what other programs change; Enter
gives the query to show, d deletes a search after asking, u is the reader's undo.
"""

from collections.abc import Callable, Sequence

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from tui_reader.core.engine import SearchEngine
from tui_reader.core.feeds import FeedCount, FeedCounter
from tui_reader.core.library import SEARCH_NAME_MAX, Library
from tui_reader.core.store import PaperStore
from tui_reader.core.text import clean
from tui_reader.ui.asking import ask, dialog_flow
from tui_reader.ui.dialogs import DIALOG_CSS, ConfirmByEnter, Dialog, PromptScreen
from tui_reader.ui.library_sync import LibrarySync
from tui_reader.ui.ordered_keys import KeyWait
from tui_reader.ui.picker_list import PickerList
from tui_reader.ui.timings import Timings


class FeedsCounted(Message):
    """The saved searches, counted."""

    def __init__(self, counts: list[FeedCount]) -> None:
        super().__init__()
        self.counts = counts


def save_search_prompt(library: Library, query: str) -> PromptScreen:
    """Ask for a name to save the filter under (asking before replacing a search of that
    name); dismissed with the name, which the caller saves with `library.save_search`."""
    saved = library.saved_searches()

    def check(text: str) -> str | None:
        name = " ".join(text.split())
        if not name or len(name) > SEARCH_NAME_MAX or not name.isprintable():
            return f"A name is a few words, at most {SEARCH_NAME_MAX} characters"
        return None

    def replace(text: str) -> str | None:
        name = " ".join(text.split())
        if name in saved and saved[name] != query.strip():
            return f"“{name}” finds “{saved[name]}”. Make it find “{query.strip()}”?"
        return None

    hint = "The feeds panel (F) lists it with its unread papers. Enter saves, Escape cancels"
    return PromptScreen(f"Save the filter “{query.strip()}” as", "", hint, check, confirm=replace)


class FeedsScreen(Dialog[str | None]):
    """The saved searches with their counts; dismissed with the query to show, or None."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="FeedsScreen")
        + """
    FeedsScreen > Vertical { width: 90; }
    FeedsScreen OptionList { height: auto; max-height: 20; border: none; }
    """
    )
    BINDINGS = [
        Binding("escape,q", "dismiss(None)", "Close"),
        Binding("d,delete", "delete", "Delete the search"),
        Binding("u", "undo", "Undo", id="undo"),
        Binding("slash", "filter", "Close and type a filter"),
    ]

    def __init__(
        self,
        sync: LibrarySync,
        papers: PaperStore,
        index: Callable[[], SearchEngine | None],
        counter: FeedCounter | None = None,
        to_filter: Callable[[], None] | None = None,
        undo: Callable[[], None] | None = None,
        recount_every: float = Timings.recount_every,
        key_wait: KeyWait | None = None,
        showing: str = "",
    ) -> None:
        """`sync`: the library's, which saves what is deleted; `papers`: every paper (the
        store, which may grow); `index()`: its search index once it is built; `counter`: one
        held between openings, so known matches are not sought again; `to_filter`: puts the
        focus in the filter, once the panel is closed; `undo`: the reader's undo, which takes
        back a search deleted here as any other step; `recount_every`: seconds between counts
        while the panel is open; `key_wait`: the main screen's, which the keys wait on while
        the panel acts on an answer; `showing`: the query the list shows, whose search (the
        one opened last) is highlighted at first."""
        super().__init__()
        self._to_filter, self._undo, self._showing = to_filter, undo, showing
        self._sync, self.library = sync, sync.library
        self._recount_every = recount_every
        self.key_wait = key_wait or KeyWait()
        self._papers = papers
        self._index = index
        self._counter = counter or FeedCounter()
        self.counts: list[FeedCount] = []
        self._counting: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.styled("Saved searches   unread / papers", "bold"))
            yield PickerList(picked=self._selected, classes="dialog-body")
            yield Static(classes="dialog-hint")

    def on_mount(self) -> None:
        self._show_searches()
        self._recount()
        self.set_interval(self._recount_every, self._recount)

    def _searches(self) -> dict[str, str]:
        return self.library.saved_searches()

    def _recount(self) -> None:
        """Count again, unless the last count is still running (at a million papers, a count
        of searches that filter on state can take longer than the time between counts)."""
        if self._counting is None or self._counting.is_finished:
            self._counting = self._count()

    @work(thread=True, group="feeds-count")
    def _count(self) -> None:
        counts = self._counter.count(self._searches(), self._index(), self.library, self._papers)
        self.post_message(FeedsCounted(counts))

    @on(FeedsCounted)
    def _counted(self, message: FeedsCounted) -> None:
        self._show_searches(message.counts)

    def _show_searches(self, counted: Sequence[FeedCount] = ()) -> None:
        """Show the searches the library holds now, with the counts known of them: a count
        started before a delete, or its undo, counted the searches saved then."""
        known = {(feed.name, feed.query): feed for feed in [*self.counts, *counted]}
        searches = self._searches().items()
        self._show([known.get(search, FeedCount(*search, None, None)) for search in searches])

    def _show(self, counts: list[FeedCount]) -> None:
        self.counts = counts
        option_list = self.query_one(OptionList)
        highlighted = option_list.highlighted
        width = max((len(clean(feed.name)) for feed in counts), default=0) + 2
        numbers = max((len(feed.counts) for feed in counts), default=0)
        option_list.clear_options()
        option_list.add_options(
            Option(
                Content.assemble(
                    (clean(feed.name).ljust(width), "bold"),
                    feed.counts.rjust(numbers),
                    ("   " + clean(feed.query), "dim"),
                ),
                feed.name,
            )
            for feed in counts
        )
        if counts:
            if highlighted is None:  # at first: the search the list shows, if it is one
                queries = [feed.query for feed in counts]
                highlighted = queries.index(self._showing) if self._showing in queries else 0
            option_list.highlighted = min(highlighted, len(counts) - 1)
            hint = (
                "Enter shows its papers   d deletes it   u undoes   / types a filter   "
                "Escape closes"
            )
        else:
            hint = "No saved searches yet: S saves the filter under a name. Escape closes."
        self.query_one(".dialog-hint", Static).update(Content(hint))

    def _highlighted(self) -> FeedCount | None:
        option_list = self.query_one(OptionList)
        if option_list.highlighted is None or not self.counts:
            return None
        return self.counts[option_list.highlighted]

    def _selected(self, option: Option, index: int) -> None:
        self.dismiss(self.counts[index].query)

    def action_filter(self) -> None:
        """Close, the rest of the keys typed going to the filter: the panel opens by itself
        at start, and a search typed then ("/dynamics") was read as its keys: d deleted."""
        self.dismiss(None)
        if self._to_filter is not None:
            self._to_filter()

    @dialog_flow
    async def action_delete(self) -> None:
        feed = self._highlighted()
        if feed is None:
            return
        question = f"Delete the saved search “{clean(feed.name)}” ({clean(feed.query)})?"
        # The panel opens by itself at start: "dynamic" typed then asked with its d and said
        # yes with its y.
        if await ask(self, ConfirmByEnter(question)) and self.library.delete_search(feed.name):
            self._sync.save()
            self._show_searches()
            deleted = f"Deleted the saved search “{clean(feed.name)}”: u undoes it"
            self.notify(deleted, markup=False)

    def action_undo(self) -> None:
        if self._undo is not None:
            self._undo()
            self._show_searches()
            self._recount()
