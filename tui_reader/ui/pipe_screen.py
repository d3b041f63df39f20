"""Piping papers to a command of the config's [commands]: choose the command and the format,
then read its output in a pane where it can be selected and copied.

The command runs in a thread while the pane says for how long and shows what it has written,
taken from the run every SHOW_EVERY seconds; Escape cancels it (core.pipe ends it and what it
started). A command that fails shows its exit status and what it wrote to stderr; nothing it
writes can reach the terminal.
"""

import time
from collections.abc import Mapping

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Static, TextArea
from textual.widgets.option_list import Option

from tui_reader.core.locations import config_path
from tui_reader.core.pipe import FORMATS, Outcome, PipeRun
from tui_reader.core.text import clean
from tui_reader.core.wording import count
from tui_reader.ui.clipboard import CopyLog, notice
from tui_reader.ui.dialogs import DIALOG_CSS, Dialog
from tui_reader.ui.picker_list import PickerList

SHOW_EVERY = 0.15  # seconds between showing what a running command has written
SHOW_COPIED_KEY = "c"  # in the list: what was copied, named in a copy's notice
NO_COMMANDS = (
    'No commands yet: name some in the config file, such as [commands] then count = "wc -l"'
)


class PipePicker(Dialog[tuple[str, str] | None]):
    """Choose a command and the format the papers go to it in; dismissed with (the command's
    name, the format), or None."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="PipePicker")
        + """
    PipePicker > Vertical { width: 90; }
    PipePicker OptionList { height: auto; max-height: 15; border: none; }
    """
    )
    BINDINGS = [
        Binding("escape,q", "dismiss(None)", "Cancel"),
        Binding("tab,f", "next_format", "Next format"),
    ]

    def __init__(self, commands: Mapping[str, str], papers: int, kind: str = "jsonl") -> None:
        super().__init__()
        self._commands = dict(commands)
        self._papers = papers
        self.kind = kind

    def compose(self) -> ComposeResult:
        with Vertical():
            title = f"Pipe {count(self._papers, 'paper')} to a command"
            yield Static(Content.styled(title, "bold"))
            if self._commands:
                width = max(len(name) for name in self._commands) + 3
                yield PickerList(
                    *(
                        Option(
                            Content.assemble((name.ljust(width), "bold"), (clean(line), "dim")),
                            name,
                        )
                        for name, line in self._commands.items()
                    ),
                    picked=self._chosen,
                    classes="dialog-body",
                )
                yield Static(id="pipe-format")
                hint = "Enter runs it   Tab changes the format   Escape cancels"
            else:
                hint = f"{NO_COMMANDS} ({config_path()}). Escape closes."
            yield Static(Content(hint), classes="dialog-hint")

    def on_mount(self) -> None:
        self._show_format()

    def _show_format(self) -> None:
        if not self._commands:
            return
        parts: list[str | tuple[str, str]] = ["As: "]
        for kind, label in FORMATS.items():
            parts += [(f" {label} ", "reverse" if kind == self.kind else "dim"), " "]
        self.query_one("#pipe-format", Static).update(Content.assemble(*parts))

    def action_next_format(self) -> None:
        kinds = list(FORMATS)
        self.kind = kinds[(kinds.index(self.kind) + 1) % len(kinds)]
        self._show_format()

    def _chosen(self, option: Option, index: int) -> None:
        if option.id is not None:
            self.dismiss((option.id, self.kind))


class PipeFinished(Message):
    def __init__(self, outcome: Outcome) -> None:
        super().__init__()
        self.outcome = outcome


class PipeOutputScreen(ModalScreen[None]):
    """A command's run on the papers: its output as it comes, read-only and selectable."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="PipeOutputScreen")
        + """
    PipeOutputScreen > Vertical { width: 100%; max-width: 120; height: 100%; max-height: 40; }
    PipeOutputScreen TextArea, PipeOutputScreen TextArea:focus {
        height: 1fr; border: none; padding: 0;
    }
    """
    )
    BINDINGS = [
        Binding("escape", "cancel_or_close", "Cancel or close"),
        Binding("y", "copy_output", "Copy the output"),
    ]

    def __init__(
        self, name: str, command: str, data: str, what: str, copy_log: CopyLog | None = None
    ) -> None:
        """`what` says what the command is given ("3 papers as JSON Lines")."""
        super().__init__()
        self._name, self._what = name, what
        self._run = PipeRun(command, data)
        self._copy_log = copy_log
        self._started = time.monotonic()
        self._ticker: Timer | None = None
        self._shown = ""  # the output and errors the pane shows
        self._said_seconds = 0
        self.outcome: Outcome | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            title = f"{self._name}: {self._run.command} ← {self._what}"
            yield Static(Content.styled(clean(title), "bold"))
            yield TextArea(read_only=True, soft_wrap=True, show_line_numbers=False)
            yield Static(id="pipe-status", classes="dialog-hint")

    def on_mount(self) -> None:
        self._say("Running… Escape cancels")
        self._ticker = self.set_interval(SHOW_EVERY, self._tick)
        self.query_one(TextArea).focus()
        self._start()

    def _say(self, text: str) -> None:
        self.query_one("#pipe-status", Static).update(Content(text))

    def _tick(self) -> None:
        self._show(*self._run.progress())
        seconds = int(time.monotonic() - self._started)
        if seconds > self._said_seconds and not self._run.cancelled:
            self._said_seconds = seconds
            self._say(f"Running for {seconds} s… Escape cancels")

    def _show(self, output: str, errors: str) -> None:
        """Show the output with the errors after it: added to what is shown when it follows
        on from it (a text area takes longer to load with every line it holds)."""
        text = output
        if errors:
            text += ("\n" if text and not text.endswith("\n") else "") + errors
        area = self.query_one(TextArea)
        if text.startswith(self._shown):
            if len(text) > len(self._shown):
                area.insert(text[len(self._shown) :], area.document.end)
        else:
            area.load_text(text)
        area.history.clear()  # what the command wrote is not for Ctrl+Z to take back
        self._shown = text

    @property
    def running(self) -> bool:
        return self.outcome is None

    @work(thread=True, group="pipe")
    def _start(self) -> None:
        self.post_message(PipeFinished(self._run.run()))

    @on(PipeFinished)
    def _finished(self, message: PipeFinished) -> None:
        self.outcome = outcome = message.outcome
        if self._ticker is not None:
            self._ticker.stop()
        self._show(outcome.output, outcome.errors)
        took = f"{outcome.seconds:.1f} s"
        if outcome.problem:
            status = f"The command {outcome.problem}"
        elif outcome.cut:
            status = f"Cut: {outcome.cut}, so it was ended after {took}"
        elif outcome.status is None:
            status = f"Cancelled after {took}"
        elif outcome.status:
            status = f"Failed: exit status {outcome.status} after {took}"
            if outcome.errors:
                status += " (its errors are at the end of the text)"
        else:
            status = f"Done in {took}"
        how = "select and Ctrl+C copies, y copies it all, " if self._shown else ""
        self._say(f"{status} · {how}Escape closes")

    def action_cancel_or_close(self) -> None:
        if self.running and not self._run.cancelled:
            self._run.cancel()
            self._say("Cancelling…")
        elif not self.running:
            self.dismiss(None)

    def on_unmount(self) -> None:
        if self.running:
            self._run.cancel()  # the reader quit while it ran

    def action_copy_output(self) -> None:
        text = self.query_one(TextArea).text
        if self.running or not text:
            return
        if self._copy_log is None:
            self._copy_log = CopyLog(self.app)
        copied = self._copy_log.copy(text, f"the output of {self._name}")
        self.notify(notice(copied, SHOW_COPIED_KEY), markup=False)
