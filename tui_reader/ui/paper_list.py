"""The paper list: one row per paper, drawing only the rows on screen (Textual's Line API)."""

from math import ceil

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from tui_reader.core.highlight import Highlight
from tui_reader.core.library import Library
from tui_reader.core.paper import Paper
from tui_reader.core.store import PaperStore, PaperView
from tui_reader.core.text import for_terminal
from tui_reader.core.typeset import Span, typeset
from tui_reader.ui.notices import tell
from tui_reader.ui.packed_rows import PackedRows
from tui_reader.ui.textual_keys import SteadyScrollView

# A typeset span's style, by (bold, italic).
_SPAN_STYLES = {
    (bold, italic): Style(bold=bold or None, italic=italic or None) if bold or italic else None
    for bold in (False, True)
    for italic in (False, True)
}


def _over(style: Style | None, on_top: Style) -> Style:
    return on_top if style is None else style + on_top


def _drawn(bar: ScrollBar, rows: int) -> list[Segment]:
    """The scrollbar as drawn for a list of so many rows (as ScrollBar.render asks for it)."""
    window = bar.window_size if bar.window_size < rows else 0
    drawn = bar.renderer.render_bar(
        size=bar.size.height,
        virtual_size=rows,
        window_size=ceil(window),
        position=bar.position,
        thickness=bar.thickness,
    )
    return list(drawn.segments)


def _found(
    highlight: Highlight | None, runs: list[tuple[str, Style | None]]
) -> tuple[tuple[int, int], ...]:
    """Where the highlight finds its words in the runs' text."""
    if highlight is None:
        return ()
    return tuple(highlight.spans("".join(text for text, _ in runs)))


def _highlighted(
    runs: list[tuple[str, Style | None]], found: tuple[tuple[int, int], ...], look: Style
) -> list[Segment]:
    """The runs as segments, the spans found drawn in the look."""
    segments: list[Segment] = []
    start = 0
    for text, style in runs:
        end, cut = start + len(text), start
        for first, last in found:
            if last <= cut or first >= end:
                continue
            if first > cut:
                segments.append(Segment(text[cut - start : first - start], style))
            cut = min(last, end)
            segments.append(
                Segment(text[max(first, start) - start : cut - start], _over(style, look))
            )
        if cut < end:
            segments.append(Segment(text[cut - start :], style))
        start = end
    return segments


def _cut(segments: list[Segment], cells: int) -> tuple[list[Segment], int]:
    """The segments in at most `cells` cells, ending in an ellipsis when they had to be cut;
    and the cells they take."""
    length = Segment.get_line_length(segments)
    if length <= cells:
        return segments, length
    if cells <= 0:
        return [], 0
    fitting = next(iter(Segment.divide(segments, [cells - 1])))
    return [*fitting, Segment("…")], Segment.get_line_length(fitting) + 1


class PaperList(SteadyScrollView, can_focus=True):
    """A scrolling list of papers with a cursor."""

    DEFAULT_CSS = """
    PaperList {
        background: $surface;
        overflow-x: hidden;
    }
    PaperList > .paper-list--cursor {
        background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground;
        text-style: $block-cursor-blurred-text-style;
    }
    PaperList:focus > .paper-list--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }
    PaperList > .paper-list--empty {
        color: $text-muted;
        text-style: italic;
    }
    PaperList > .paper-list--mark {
        color: $accent;
        text-style: bold;
    }
    PaperList > .paper-list--star {
        color: $warning;
    }
    PaperList > .paper-list--unread {
        color: $primary;
        text-style: bold;
    }
    PaperList > .paper-list--tags {
        color: $text-muted;
    }
    PaperList > .paper-list--close {
        text-style: dim italic;
    }
    PaperList > .paper-list--match {
        text-style: bold underline;
        color: $foreground;
        background: $accent-muted;
    }
    """
    COMPONENT_CLASSES = {
        "paper-list--cursor",
        "paper-list--empty",
        "paper-list--mark",
        "paper-list--star",
        "paper-list--unread",
        "paper-list--tags",
        "paper-list--match",
        "paper-list--close",
    }
    BINDINGS = [
        Binding("down,j", "cursor_down", "Next paper", show=False, id="next-paper"),
        Binding("up,k", "cursor_up", "Previous paper", show=False, id="previous-paper"),
        Binding("home,g", "first", "First paper", show=False, id="first-paper"),
        Binding("end,G", "last", "Last paper", show=False, id="last-paper"),
        Binding("pagedown", "page_down", "Page down", show=False, id="page-down"),
        Binding("pageup", "page_up", "Page up", show=False, id="page-up"),
        Binding("enter", "open", "Read", show=False, id="read-paper"),
        Binding("space", "toggle_mark", "Mark / unmark", show=False, id="mark"),
        Binding("A", "mark_all", "Mark all shown", show=False, id="mark-all"),
        Binding("escape", "clear_marks", "Clear marks", show=False, id="clear-marks"),
    ]

    cursor: reactive[int] = reactive(0, always_update=True, init=False)
    raw: reactive[bool] = reactive(False)  # headlines as written, not typeset (redraws)
    # Finds the words a search matched, to highlight them (redraws).
    highlight: reactive[Highlight | None] = reactive[Highlight | None](None)

    class CursorMoved(Message):
        """The cursor is on another paper (None when the list is empty); `chosen` when the
        reader moved it there, not a new list or the start."""

        def __init__(self, paper: Paper | None, chosen: bool) -> None:
            super().__init__()
            self.paper, self.chosen = paper, chosen

    class Opened(Message):
        """The reader opened the paper under the cursor to read it."""

    class MarksChanged(Message):
        """Papers were marked or unmarked."""

    def __init__(self, library: Library, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.library = library
        self.marked: set[str] = set()
        self._base_style = Style()
        self.full = 0
        # Rendered rows, by paper, width and look: scrolling and typing redraw from here.
        self._rows = PackedRows(2000)
        # Typeset headlines, by paper and rawness: the same papers come back key after key.
        self._headlines: LRUCache[tuple[str, bool], list[tuple[str, Style | None]]] = LRUCache(2000)
        self._looks: dict[str, Style] = {}  # by component class; {}: to work out again
        self._width = 0  # of the rows, as this frame draws them
        self._papers = PaperStore().view()
        self.empty_message = "No papers"
        # The paper the reader last chose: the cursor returns to it whenever it is shown again,
        # even after a keystroke of the filter had left it out (a new query's results: only
        # when it is in sight among the first of them, see `show`).
        self._chosen_id: str | None = None
        # Asked for by name (a session restored, a position gone back to): kept wherever it is
        # in the next papers shown, also in a new query's results.
        self._asked_for = False
        self._choosing = False  # the cursor is moving at the reader's request

    @property
    def papers(self) -> PaperView:
        return self._papers

    @property
    def none_in_full(self) -> str:
        """What to tell when no paper shown matches every term (only close ones, or none), so
        that nothing acts on the close papers; "" when some do."""
        if self.full:
            return ""
        if not self._papers:
            return "No paper is shown"
        return "No paper matches every term: the close ones after them are left as they are"

    @property
    def shown(self) -> PaperView:
        """The papers matching in full, those the header counts: not the close ones after
        them."""
        return self._papers.first(self.full)

    @property
    def current(self) -> Paper | None:
        """The paper under the cursor."""
        return self._papers[self.cursor] if self._papers else None

    def show(
        self,
        papers: PaperView,
        empty_message: str = "No papers",
        full: int | None = None,
        new_query: bool = False,
        again: bool = False,
    ) -> None:
        """Show these papers, keeping the cursor on the chosen paper when it is among them;
        in the results of a `new_query` ranked by relevance, only when it is in sight with
        the first of them (a new query opened on the paper of an old one, two thousand
        better ones above it), unless it was asked for by name. In the results of the same
        query searched `again`, a paper that left them (marked read under `is:unread`)
        leaves the cursor on its row, on the paper after it, and its mark.

        Papers after the first `full` match the query only in part and are drawn dimmed.
        """
        self._papers = papers
        self.full = len(papers) if full is None else full
        self.empty_message = empty_message
        self._set_rows(len(papers))
        position, row = 0, self.cursor
        if self._chosen_id is not None:
            found = self.position_of(self._chosen_id)
            # Not to a paper matching only in part while others match in full: the list
            # would open on the close ones, the full matches above it out of sight; but to
            # one asked for by name (a session's, left on it).
            if found is not None and (found < self.full or not self.full or self._asked_for):
                position = found
                if new_query and not self._asked_for:  # the first results, in sight
                    height = self.scrollable_content_region.height  # 0: not laid out
                    position = found if found < height or not height else 0
                    self.scroll_to(y=0, animate=False)
            elif found is None and again:
                position = min(row, self.full - 1) if self.full else 0  # not among the close
            self._asked_for = self._asked_for and found is None
        if again and self.marked and (kept := papers.among(self.marked)) != self.marked:
            # Marked papers that left the list (marked read under is:unread): what acts on
            # the marked papers would act on papers out of sight.
            self.marked = kept
            self.post_message(self.MarksChanged())
        if position == 0:
            self.scroll_to(y=0, animate=False)
        self.cursor = position
        self.refresh()

    def _set_rows(self, count: int) -> None:
        size = Size(self.size.width, count)
        if (count > self.scrollable_content_region.height) != self.show_vertical_scrollbar:
            self.virtual_size = size  # the scrollbar comes or goes: the screen is laid out
            # Without a scrollbar the list cannot scroll: to the cursor once it has one
            # (back from an empty list, the cursor's row was left out of sight).
            self.call_after_refresh(self._scroll_to_cursor)
            return
        # Only the scrollbar's thumb changes: no layout of the whole screen at each key, and
        # the bar is drawn again only when it looks different. Its count catches up
        # at the next layout or scroll (SteadyScrollView).
        self.set_reactive(PaperList.virtual_size, size)
        bar = self.vertical_scrollbar
        if not self.show_vertical_scrollbar:
            return
        if _drawn(bar, count) != _drawn(bar, bar.window_virtual_size):
            bar.window_virtual_size = count

    def position_of(self, paper_id: str) -> int | None:
        """Where the paper is among those shown, if it is."""
        return self._papers.position_of(paper_id)

    def validate_cursor(self, cursor: int) -> int:
        return max(0, min(cursor, len(self._papers) - 1))

    def watch_cursor(self, cursor: int) -> None:
        self._scroll_to_cursor()
        self.refresh()
        self.post_message(self.CursorMoved(self.current, self._choosing))

    def _scroll_to_cursor(self) -> None:
        height = self.scrollable_content_region.height
        if self.cursor < self.scroll_offset.y:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif height and self.cursor >= self.scroll_offset.y + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self._papers))
        self._scroll_to_cursor()

    def render_lines(self, crop: Region) -> list[Strip]:
        # The same for every row, and not cheap to work out: the looks once until the styles
        # change (a theme, the focus), the width once a frame.
        if not self._looks:
            self._base_style = self.rich_style
            looks = {name: self.get_component_rich_style(name) for name in self.COMPONENT_CLASSES}
            self._looks = looks
        self._width = self.scrollable_content_region.width
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self._width
        index = self.scroll_offset.y + y
        base, looks = self._base_style, self._looks
        if not self._papers:
            if y != 0:
                return Strip.blank(width, base)
            style = base + looks["paper-list--empty"]
            return (
                Strip([Segment(f" {self.empty_message}")])
                .apply_style(style)
                .crop_extend(0, width, style)
            )
        if index >= len(self._papers):
            return Strip.blank(width, base)
        paper_id = self._papers.id_of(index)
        state = (index >= self.full, index == self.cursor, paper_id in self.marked)
        # By what is highlighted in it, not by the query: a row stays cached while the keys
        # of a query leave the same words highlighted in it.
        runs = self._typeset(paper_id, index)
        found = _found(self.highlight, runs)
        key = (paper_id, width, state, found, self.raw)
        strip = self._rows.get(key)
        if strip is None:
            style = base
            if index >= self.full:
                style = base + looks["paper-list--close"]
            if index == self.cursor:
                style = base + looks["paper-list--cursor"]
            row, cells = self._row(
                paper_id, width, _highlighted(runs, found, looks["paper-list--match"])
            )
            if cells < width:
                row.append(Segment(" " * (width - cells)))
            strip = Strip(Segment.apply_style(row, style), max(width, cells))
            if cells > width:
                strip = strip.crop(0, width)
            self._rows.keep(key, strip)
        return strip

    def _row(self, paper_id: str, width: int, headline: list[Segment]) -> tuple[list[Segment], int]:
        """Mark, bookmark star, unread dot, headline, and the tags at the right; and the
        cells they take.

        Segments, not a Rich Text: each key of the filter draws every row anew."""
        library, looks = self.library, self._looks
        row = [
            Segment("▌" if paper_id in self.marked else " ", looks["paper-list--mark"]),
            Segment("★" if library.is_bookmarked(paper_id) else " ", looks["paper-list--star"]),
            Segment("•" if not library.is_read(paper_id) else " ", looks["paper-list--unread"]),
            Segment(" "),
        ]
        tag_text = for_terminal(" ".join(f"#{tag}" for tag in library.tags(paper_id)))
        tags, tag_cells = _cut([Segment(tag_text, looks["paper-list--tags"])], width // 3)
        start = len(row)  # cells: one each
        room = max(1, width - start - tag_cells - 1)
        headline, headline_cells = _cut(headline, room)
        row += headline
        cells = start + headline_cells
        if tag_cells:
            gap = max(1, width - cells - tag_cells)
            row += [Segment(" " * gap), *tags]
            cells += gap + tag_cells
        return row, cells

    def _typeset(self, paper_id: str, index: int) -> list[tuple[str, Style | None]]:
        """The headline of the paper at `index` typeset (unless raw), as runs of text in a
        style."""
        key = (paper_id, self.raw)
        runs = self._headlines.get(key)
        if runs is None:
            headline = for_terminal(self._papers.headline_of(index))
            spans = [Span(headline)] if self.raw else typeset(headline)
            runs = self._headlines[key] = [
                (span.text, _SPAN_STYLES[span.bold, span.italic]) for span in spans
            ]
        return runs

    def refresh_rows(self) -> None:
        """Redraw after the library or the marks changed."""
        self._rows.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        self._rows.clear()  # a new theme or style: the cached rows have the old colours
        self._looks = {}
        super().notify_style_update()

    def choose_later(self, paper_id: str | None, asked_for: bool = True) -> None:
        """Put the cursor on this paper once it is shown (restoring a session), and keep it
        there when the papers shown change, as on a paper moved to; `asked_for` by name, also
        in a new query's results wherever it ranks. None: on the first paper (a new order)."""
        self._chosen_id, self._asked_for = paper_id, asked_for

    def choose(self, position: int) -> None:
        """Move the cursor at the reader's request."""
        self._choosing = True
        try:
            self.cursor = position
        finally:
            self._choosing = False
        if self.current is not None:
            self._chosen_id, self._asked_for = self.current.id, False

    def put_cursor(self, position: int) -> None:
        """Move the cursor where the reader was elsewhere (triage): it stays on that paper as
        the list changes, as on one chosen, but the reader did not move to it here."""
        self.cursor = position
        if self.current is not None:
            self._chosen_id = self.current.id

    def action_cursor_down(self) -> None:
        self.choose(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.choose(self.cursor - 1)

    def action_first(self) -> None:
        self.choose(0)

    def action_last(self) -> None:
        self.choose(len(self._papers) - 1)

    def action_page_down(self) -> None:
        self.choose(self.cursor + max(1, self.scrollable_content_region.height - 1))

    def action_page_up(self) -> None:
        self.choose(self.cursor - max(1, self.scrollable_content_region.height - 1))

    def action_toggle_mark(self) -> None:
        if (paper := self.current) is not None:
            self.marked ^= {paper.id}
            self.post_message(self.MarksChanged())
            self.action_cursor_down()
            self.refresh()

    def action_mark_all(self) -> None:
        if said := self.none_in_full:
            tell(self.app, said)
            return
        papers = self.shown  # their ids only: building a million papers took a minute
        self.marked |= {papers.id_of(index) for index in range(len(papers))}
        self.post_message(self.MarksChanged())
        self.refresh()

    def action_clear_marks(self) -> None:
        if self.marked:
            self.marked = set()
            self.post_message(self.MarksChanged())
            self.refresh()

    def action_open(self) -> None:
        """Read the paper in the detail pane, the next pane: focused at once, so that keys
        sent with Enter ("j" to scroll) already go to it."""
        if self.current is not None:
            self.screen.focus_next()
            self.post_message(self.Opened())

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and self._papers:
            row = self.scroll_offset.y + offset.y
            if row < len(self._papers):
                self.choose(row)
                if event.chain == 2:
                    self.action_open()
