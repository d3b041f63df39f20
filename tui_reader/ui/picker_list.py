"""The list of a picker or dialog: Textual's OptionList, moved with j and k as the paper list
is, acting on a choice at once."""

from collections.abc import Callable

from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

Picked = Callable[[Option, int], None]


class PickerList(OptionList):
    """An OptionList that also answers j, k, g and G, and calls `picked` with the option
    chosen (Enter or a click) before the next key is looked up. Textual's OptionList posts
    the choice as a message, so keys sent right after Enter ("T Enter j") reached the picker
    it was closing."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "first", "First", show=False),
        Binding("G", "last", "Last", show=False),
    ]

    def __init__(
        self, *content: Option, picked: Picked | None = None, classes: str | None = None
    ) -> None:
        super().__init__(*content, classes=classes)
        self._picked = picked

    def action_select(self) -> None:
        index = self.highlighted
        if self._picked is None or index is None:
            super().action_select()
            return
        option = self.get_option_at_index(index)
        if not option.disabled:
            self._picked(option, index)
