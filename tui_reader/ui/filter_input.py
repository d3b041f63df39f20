"""The filter: the query the paper list shows the papers of."""

from collections.abc import Callable

from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import Reactive
from textual.suggester import Suggester

from tui_reader.ui.ordered_keys import OrderedInput


class FilterInput(OrderedInput):
    """The filter query: Escape clears it, or leaves it when it is already empty."""

    # An Input's virtual size is its text's width, new at each key, and Textual lays the whole
    # screen out again when it changes. The filter's size is fixed (styles/app.tcss), and its
    # text scrolls within it without a layout.
    virtual_size = Reactive(Size(0, 0))

    BINDINGS = [
        Binding("escape", "clear", "Clear filter", show=False),
        Binding("up", "recall", "Bring back the filter cleared", show=False),
        Binding("down", "leave", "To the list", show=False),
    ]

    def __init__(
        self, changed: Callable[[str], None], suggester: Suggester, placeholder: str, id: str
    ) -> None:
        super().__init__(placeholder=placeholder, id=id, suggester=suggester)
        self._changed = changed
        self._cleared = ""  # the query Escape cleared last: Up brings it back
        self._told_how_back = False

    def watch_value(self, value: str) -> None:
        # Told at once, not by a message: the list follows before the next key of a burst
        # acts (Escape clears the filter, then "j" moves down the whole list).
        self._changed(value)

    def action_clear(self) -> None:
        if self.value:
            self._cleared, self.value = self.value, ""
            if not self._told_how_back:  # once: a slip of the key lost a long query
                self._told_how_back = True
                self.notify("Filter cleared: ↑ brings it back")
        else:
            self.action_leave()

    def action_recall(self) -> None:
        if self._cleared and not self.value:
            self.value = self._cleared
            self.cursor_position = len(self.value)

    def action_leave(self) -> None:
        self.screen.focus_next()
