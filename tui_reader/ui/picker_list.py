"""The list of a picker or dialog: Textual's OptionList, moved with j and k as the paper list is."""

from textual.binding import Binding
from textual.widgets import OptionList


class PickerList(OptionList):
    """An OptionList that also answers j, k, g and G."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "first", "First", show=False),
        Binding("G", "last", "Last", show=False),
    ]
