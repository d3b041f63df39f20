"""Editing a paper's note: free, multi-line text that is saved when the editor closes."""

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static, TextArea

from tui_reader.ui.dialogs import DIALOG_CSS, Dialog
from tui_reader.ui.external_editor import edit_in_editor
from tui_reader.ui.ordered_keys import OrderedTextArea


class NoteEditor(Dialog[str]):
    """Escape or Ctrl+S saves and closes: nothing typed here is thrown away (u undoes it
    once closed)."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="NoteEditor")
        + """
    NoteEditor > Vertical { width: 90; }
    NoteEditor TextArea { height: 12; }
    """
    )
    BINDINGS = [
        Binding("escape,ctrl+s", "save", "Save note"),
        # Before the text area's own Ctrl+E (end of line).
        Binding("ctrl+e", "external_editor", "Edit in $EDITOR", priority=True),
    ]

    def __init__(self, title: str, note: str, save_at_exit: Callable[[str], object]) -> None:
        """`save_at_exit` saves the text when the reader closes with the editor open
        (Ctrl+Q, a signal, a closed terminal), which no key of the editor did."""
        super().__init__()
        self._title, self._note, self._save_at_exit = title, note, save_at_exit
        self._text = note  # as typed so far: the text area is gone once the reader closes
        self._saved = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.styled(self._title, "bold"))
            yield OrderedTextArea(
                self._note, soft_wrap=True, show_line_numbers=False, classes="dialog-body"
            )
            hint = (
                "Escape or Ctrl+S saves and closes; Ctrl+E edits it in $EDITOR; "
                "u undoes it once closed."
            )
            yield Static(Content(hint), classes="dialog-hint")

    def on_mount(self) -> None:
        text_area = self.query_one(TextArea)
        text_area.move_cursor(text_area.document.end)  # a note is added to more than rewritten

    def action_external_editor(self) -> None:
        text_area = self.query_one(TextArea)
        edited, problem = edit_in_editor(self.app, text_area.text)
        if edited is None:
            self.notify(f"{problem}; the note is as it was", severity="warning", markup=False)
        else:  # as an edit, which Ctrl+Z takes back
            text_area.replace(edited, text_area.document.start, text_area.document.end)

    def action_save(self) -> None:
        self._saved = True
        self.dismiss(self.query_one(TextArea).text)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._text = event.text_area.text

    def on_unmount(self) -> None:
        if not self._saved and self._text != self._note:
            self._save_at_exit(self._text)
