"""Small modal dialogs: a one-line prompt and a yes/no question; and `Dialog`, a dialog whose
list or text gives up rows on a short screen."""

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input, Static

from tui_reader.ui.ordered_keys import OrderedInput

Answer = TypeVar("Answer")

DIALOG_CSS = """
{name} {{
    align: center middle;
}}
{name} > Vertical {{
    width: 70;
    max-width: 100%;
    height: auto;
    max-height: 100%;
    border: round $primary;
    background: $panel;
    padding: 0 1;
}}
{name} .dialog-hint {{
    color: $text-muted;
}}
{name} .dialog-error {{
    color: $error;
}}
"""


class Dialog(ModalScreen[Answer]):
    """A dialog in a box (DIALOG_CSS) whose `.dialog-body`, a list or a text area, gives up
    rows when the screen is too short for the whole box, so that the title above it and the
    key hints below it stay on screen: CSS sizes no child by the room the others leave in a
    box as tall as its content."""

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_body)  # once the title and the hints are laid out

    def fit_body(self) -> None:
        """Give the body the rows the rest of its box leaves on screen (at least one), or
        its own most (its max-height) when fewer."""
        for body in self.query(".dialog-body"):
            box = body.parent
            assert isinstance(box, Widget)
            rest = box.styles.gutter.height + sum(
                child.outer_size.height for child in box.children if child is not body
            )
            most = body.styles.base.max_height
            room = max(self.size.height - rest, 1)
            body.styles.max_height = min(room, most.cells or room) if most else room


def typed_path(text: str) -> Path:
    """A file name as typed in a prompt, made absolute against the working folder: what the
    reader is told names the file wherever it is."""
    return Path(text.strip()).expanduser().absolute()


class PromptScreen(ModalScreen[str | None]):
    """Ask for one line of text; `check` returns an error message or None when it is fine.

    `confirm` returns a question to ask before the text is accepted ("x.md exists. Replace
    it?") or None; answered no, the prompt stays open with the text as typed.

    The `value` it opens with is selected, a default that typing replaces (→ or End keeps it
    to add to it), unless `selected` is False: text to edit, such as a paper's tags."""

    DEFAULT_CSS = DIALOG_CSS.format(name="PromptScreen")
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        # Before the field's own Enter, which only posts a message: the keys sent after Enter
        # would reach the field before the prompt closed, and be lost in it.
        Binding("enter", "accept", "Accept", show=False, priority=True),
    ]

    def __init__(
        self,
        title: str,
        value: str = "",
        hint: str = "Enter to accept, Escape to cancel",
        check: Callable[[str], str | None] = lambda _: None,
        suggester: Suggester | None = None,
        confirm: Callable[[str], str | None] = lambda _: None,
        selected: bool = True,
    ) -> None:
        super().__init__()
        self._title, self._value, self._hint, self._check = title, value, hint, check
        self._suggester, self._confirm, self._selected = suggester, confirm, selected

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.styled(self._title, "bold"))
            yield OrderedInput(value=self._value, suggester=self._suggester, select_on_focus=False)
            yield Static(Content(self._hint), classes="dialog-hint")
            yield Static(classes="dialog-error")

    def on_mount(self) -> None:
        # Once, not at each focus: back from "Replace it?" the name is as it was typed.
        if self._selected:
            self.query_one(Input).select_all()

    def action_accept(self) -> None:
        text = self.query_one(Input).value
        error = self.query_one(".dialog-error", Static)
        if problem := self._check(text):
            error.update(Content(problem))
        elif question := self._confirm(text):
            error.update("")

            def answered(yes: bool | None) -> None:
                if yes:
                    self.dismiss(text)

            self.app.push_screen(ConfirmScreen(question), answered)
        else:
            self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question that only y answers yes, n or Escape no: a question follows a key
    (an Enter after a file's name, d for a tag), and an Enter typed ahead must not answer it."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmScreen")
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    HINT = "y: yes    n or Escape: no"

    def __init__(self, question: str) -> None:
        super().__init__()
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.styled(self._question, "bold"))
            yield Static(Content(self.HINT), classes="dialog-hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ConfirmByEnter(ConfirmScreen, inherit_bindings=False):
    """A yes/no question that only Enter answers yes: for a question that may come up while
    someone types (y is a letter of words)."""

    BINDINGS = [
        Binding("enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    HINT = "Enter: yes    n or Escape: no"
