"""The help screen: every key the reader answers to."""

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

KeyTable = list[tuple[str, list[tuple[str, str]]]]


class HelpScreen(ModalScreen[None]):
    """A modal list of keys, grouped by where they apply."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > VerticalScroll {
        width: 64;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        background: $panel;
        padding: 0 2;
        scrollbar-size-vertical: 1;
    }
    """
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close help")]

    def __init__(self, keys: KeyTable) -> None:
        super().__init__()
        self._keys = keys

    def compose(self) -> ComposeResult:
        width = max(len(key) for _, rows in self._keys for key, _ in rows) + 2
        parts: list[Content | str | tuple[str, str]] = []
        for heading, rows in self._keys:
            parts += [(heading, "bold underline"), "\n"]
            for key, description in rows:
                parts += [(key.ljust(width), "bold"), description, "\n"]
            parts.append("\n")
        parts.append(("Escape, q or ? closes this help.", "dim"))
        with VerticalScroll():
            yield Static(Content.assemble(*parts))
