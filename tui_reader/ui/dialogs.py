"""Small modal dialogs: a one-line prompt and a yes/no question."""

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Static

DIALOG_CSS = """
{name} {{
    align: center middle;
}}
{name} > Vertical {{
    width: 70;
    max-width: 100%;
    height: auto;
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


class PromptScreen(ModalScreen[str | None]):
    """Ask for one line of text; `check` returns an error message or None when it is fine."""

    DEFAULT_CSS = DIALOG_CSS.format(name="PromptScreen")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        value: str = "",
        hint: str = "Enter to accept, Escape to cancel",
        check: Callable[[str], str | None] = lambda _: None,
        suggester: Suggester | None = None,
    ) -> None:
        super().__init__()
        self._title, self._value, self._hint, self._check = title, value, hint, check
        self._suggester = suggester

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.styled(self._title, "bold"))
            yield Input(value=self._value, suggester=self._suggester, select_on_focus=False)
            yield Static(Content(self._hint), classes="dialog-hint")
            yield Static(classes="dialog-error")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if problem := self._check(event.value):
            self.query_one(".dialog-error", Static).update(Content(problem))
        else:
            self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or Enter says yes, n or Escape says no."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmScreen")
    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.styled(self._question, "bold"))
            yield Static(Content("y or Enter: yes    n or Escape: no"), classes="dialog-hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
