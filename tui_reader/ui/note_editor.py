"""Editing a paper's note: free, multi-line text that is saved when the editor closes."""

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from tui_reader.ui.dialogs import DIALOG_CSS


class NoteEditor(ModalScreen[str]):
    """Escape or Ctrl+S saves and closes: nothing typed here is thrown away (u undoes it)."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="NoteEditor")
        + """
    NoteEditor > Vertical { width: 90; }
    NoteEditor TextArea { height: 12; }
    """
    )
    BINDINGS = [Binding("escape,ctrl+s", "save", "Save note")]

    def __init__(self, title: str, note: str) -> None:
        super().__init__()
        self._title, self._note = title, note

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.styled(self._title, "bold"))
            yield TextArea(self._note, soft_wrap=True, show_line_numbers=False)
            hint = "Escape or Ctrl+S saves and closes; u in the list undoes the change."
            yield Static(Content(hint), classes="dialog-hint")

    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text)
