"""The help screen: every key the reader answers to, in as many columns as the screen holds."""

import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import groupby, takewhile

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.filter_input import FilterInput
from tui_reader.ui.key_labels import described
from tui_reader.ui.ordered_keys import OrderedInput
from tui_reader.ui.paper_list import PaperList

KeyTable = list[tuple[str, list[tuple[str, str]]]]

CLOSE_HINT = "Keys · Escape, q or ? closes"
COLUMN_MIN = 34  # cells: narrower columns would wrap most descriptions
KEY_MAX = 14  # cells for the keys; longer keys wrap under their description
GAP = 3  # cells between columns
FRAME = 4  # cells the dialog's border and padding take across (rows: its border, 2)


def key_table(key: Callable[[Binding], str], anywhere: Sequence[BindingType]) -> KeyTable:
    """Every key of the main screen, by where it works, as `key` names them (the config's
    rebinding); `anywhere`, the screen's own bindings."""

    def keys(bindings: Sequence[BindingType]) -> list[tuple[str, str]]:
        # The tooltip where the footer's word is short: the palette's.
        return [(key(b), b.tooltip or b.description) for b in described(bindings)]

    # The panes' keys, then those that work anywhere, the footer's first: what is in sight
    # at 80x24 without scrolling.
    footer_first = sorted(described(anywhere), key=lambda binding: not binding.show)
    # The filter's and those of the field it is (→ accepts a completion).
    filter_bindings = [*FilterInput.BINDINGS, *OrderedInput.BINDINGS]
    return [
        ("Paper list", keys(PaperList.BINDINGS)),
        ("Detail pane", [*keys(DetailPane.BINDINGS), ("↑ ↓ pgup pgdn", "Scroll")]),
        ("Anywhere", keys(footer_first)),
        ("Filter", keys([Binding("enter", "", "To the list"), *filter_bindings])),
        ("Mouse", [("click", "Choose a paper or pane"), ("double-click", "Read the paper")]),
    ]


@dataclass
class _Unit:
    """Lines that stay together in one column: a key with its description, or a heading."""

    group: str
    lines: list[Content]
    heading: bool = False


def _merge_numbered(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Rows "1 Related paper 1" … "5 Related paper 5" as one: "1…5 Related paper 1…5"."""

    def family(item: tuple[int, tuple[str, str]]) -> object:
        index, (key, description) = item
        label, _, number = description.rpartition(" ")
        return label if key == number and number.isdigit() else index

    merged: list[tuple[str, str]] = []
    for label, run in groupby(enumerate(rows), family):
        items = [row for _, row in run]
        if len(items) > 2:
            first, last = items[0][0], items[-1][0]
            merged.append((f"{first}…{last}", f"{label} {first}…{last}"))
        else:
            merged += items
    return merged


def _key_width(rows: list[tuple[str, str]]) -> int:
    return min(KEY_MAX, max(len(key) for key, _ in rows))


def _units(keys: KeyTable, width: int) -> list[_Unit]:
    """The table's lines for columns `width` cells wide, descriptions wrapped under themselves."""
    units: list[_Unit] = []
    for heading, rows in keys:
        units.append(_Unit(heading, [Content.styled(heading, "bold underline")], heading=True))
        key_width = _key_width(rows)
        indent = " " * (key_width + 2)
        for key, description in rows:
            wrapped = textwrap.wrap(description, max(8, width - len(indent))) or [""]
            if len(key) > key_width:  # a long key gets a line of its own
                lines = [Content.styled(key, "bold")]
            else:
                lines = [Content.assemble((key.ljust(len(indent)), "bold"), wrapped.pop(0))]
            lines += [Content(indent + line) for line in wrapped]
            units.append(_Unit(heading, lines))
    return units


def _fill(units: list[_Unit], heights: list[int], whole_groups: bool) -> list[list[Content]]:
    """Units in columns, top to bottom, the column i at most heights[i] lines (the last
    column takes what is left); a group starts a new column when it does not fit whole, with
    `whole_groups`, or else when its first key does not. A group cut goes on under its heading."""
    columns: list[list[Content]] = [[]]
    group = ""
    for position, unit in enumerate(units):
        column = columns[-1]
        size = len(unit.lines)
        if unit.heading:  # with a blank line before it
            group_units = list(takewhile(lambda u: not u.heading, units[position + 1 :]))
            counted = group_units if whole_groups else group_units[:1]
            size += (1 if column else 0) + sum(len(u.lines) for u in counted)
        cap = heights[len(columns) - 1] if len(columns) <= len(heights) else math.inf
        if column and len(column) + size > cap:
            columns.append([])
            column = columns[-1]
            if not unit.heading:
                column.append(Content.styled(f"{group} (continued)", "bold underline"))
        if unit.heading:
            group = unit.group
            if column:
                column.append(Content(""))
        column.extend(unit.lines)
    return columns


def lay_out(keys: KeyTable, width: int, height: int) -> tuple[list[list[Content]], int]:
    """The key table in columns for a box `width` by `height` cells; and the columns' width.

    As few columns as fit it all in the height; where even the most that fit the width
    cannot, each column but the last is filled to the height and the last one scrolls, so
    that the first keys (the main ones) are all in sight."""
    keys = [(heading, _merge_numbered(rows)) for heading, rows in keys]
    most = max(1, (width + GAP) // (COLUMN_MIN + GAP))
    natural = max(_key_width(rows) + 2 + len(d) for _, rows in keys for _, d in rows)
    for count in range(1, most + 1):
        column_width = min(natural, (width - GAP * (count - 1)) // count)
        units = _units(keys, column_width)
        total = sum(len(unit.lines) for unit in units)
        # The shortest columns that hold everything in `count` columns, if any do, best
        # with no group cut.
        for whole_groups in (True, False):
            for rows in range(math.ceil(total / count), height + 1):
                columns = _fill(units, [rows] * count, whole_groups)
                if len(columns) <= count and max(map(len, columns)) <= rows:
                    return columns, column_width
    return _fill(units, [height] * (most - 1), False), column_width


class HelpScreen(ModalScreen[None]):
    """A modal table of keys, grouped by where they apply, laid out to the screen's size."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > Vertical {
        width: auto;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        border-title-color: $text;
        border-title-style: bold;
        background: $panel;
        padding: 0 1;
    }
    HelpScreen VerticalScroll {
        width: auto;
        height: auto;
        max-height: 100%;
        scrollbar-size-vertical: 1;
    }
    HelpScreen #help-keys {
        width: auto;
    }
    """
    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close help"),
        Binding("j", "scroll('down')", show=False),
        Binding("k", "scroll('up')", show=False),
    ]

    def __init__(self, keys: KeyTable) -> None:
        super().__init__()
        self.keys = keys
        self._hidden = 0

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = CLOSE_HINT
            with VerticalScroll():
                yield Static(id="help-keys")

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        columns, column_width = lay_out(self.keys, width - FRAME, height - 2)
        rows = max(map(len, columns))
        lines = []
        for row in range(rows):
            cells = [column[row] if row < len(column) else Content("") for column in columns]
            padded = [cell.pad_right(column_width - cell.cell_length) for cell in cells[:-1]]
            lines.append(Content(" " * GAP).join([*padded, cells[-1]]))
        self.query_one("#help-keys", Static).update(Content("\n").join(lines))
        self._hidden = rows - (height - 2)  # rows below the box when scrolled to its top
        self._say_more()

    def on_mount(self) -> None:
        self.watch(self.query_one(VerticalScroll), "scroll_y", self._say_more, init=False)

    def _say_more(self) -> None:
        """Say "more below" in the title while there is, not once scrolled to the end."""
        below = self._hidden - self.query_one(VerticalScroll).scroll_y
        self.query_one(Vertical).border_title = CLOSE_HINT + (
            " · ↓ more below" if below > 0 else ""
        )

    def action_scroll(self, direction: str) -> None:
        scroll = self.query_one(VerticalScroll)
        if direction == "down":
            scroll.scroll_down(animate=False)
        else:
            scroll.scroll_up(animate=False)
