"""What the main screen's actions and dialog flows (ui/actions, ui/flows) reach of it: its
rooms and the few methods they call, as a protocol, so that those modules need not import
the screen that imports them; and the panes it lays out."""

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from textual.binding import Binding
from textual.containers import Horizontal
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.widget import Widget
from typing_extensions import Self

from tui_reader.core.config import Config
from tui_reader.core.engine import SearchEngine
from tui_reader.core.library import Library
from tui_reader.core.paper import Paper
from tui_reader.core.sorting import Sort
from tui_reader.core.store import PaperStore
from tui_reader.ui.asking import Asker
from tui_reader.ui.clipboard import CopyLog
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.filtering import Filtering
from tui_reader.ui.following import CursorFollower
from tui_reader.ui.for_you import ForYou
from tui_reader.ui.jumps import Jumps
from tui_reader.ui.library_sync import LibrarySync
from tui_reader.ui.look_up import LookUp
from tui_reader.ui.paper_links import PaperLinks
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.timings import Timings

LIST_SHARE = 4  # of 10: the list's part of the width, the detail pane has the rest
STACKED_BELOW = 100  # columns: a narrower terminal shows the detail pane below the list


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


class WorkspaceParts(Asker, Protocol):
    """The main screen (ui/workspace's `Workspace`) as its actions and flows see it."""

    config: Config
    collection: str
    opened_files: Sequence[Path]
    copy_log: CopyLog
    detail_pane: DetailPane
    filtering: Filtering
    following: CursorFollower
    for_you: ForYou
    jumps: Jumps
    library: Library
    links: PaperLinks
    look_up: LookUp
    panes: Panes
    paper_list: PaperList
    raw: bool
    search_template: str
    sort: Sort
    store: PaperStore
    sync: LibrarySync
    timings: Timings

    @property
    def index(self) -> SearchEngine | None: ...

    @property
    def shown_query(self) -> str: ...

    def action_focus_filter(self) -> None: ...

    def action_leave_filter(self) -> None: ...

    def key_named(self, binding: Binding) -> str: ...

    def library_changed(self, refilter: bool = True, used: Sequence[str] = ()) -> None: ...

    def read_used(self, papers: Sequence[Paper]) -> None: ...

    def tell(self, message: str, severity: SeverityLevel = "information") -> None: ...

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True) -> None: ...

    def add_class(self, *class_names: str, update: bool = True) -> Self: ...

    def remove_class(self, *class_names: str, update: bool = True) -> Self: ...

    def has_class(self, *class_names: str) -> bool: ...
