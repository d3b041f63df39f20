"""Problems found at start (the config file, the library), all in one dialog, by file and line."""

import re
from itertools import groupby
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from tui_reader.core.text import for_terminal
from tui_reader.core.wording import count
from tui_reader.ui.dialogs import DIALOG_CSS
from tui_reader.ui.ordered_keys import GivesWayToTyping

# "FILE, line 3: what", "FILE:3: what" (a record skipped) or "FILE: what"; anything else is
# shown whole.
_PROBLEM = re.compile(
    r"(?P<file>.+?)(?:, line (?P<line>\d+)|:(?P<record>\d+))?: (?P<what>.+)", re.S
)


def _parts(problem: str) -> tuple[str, str, str]:
    """A problem's file, line ("" when none) and what; no file when it starts with none."""
    match = _PROBLEM.fullmatch(problem)
    if match is None or not Path(match["file"]).exists():
        return "", "", problem
    return match["file"], match["line"] or match["record"] or "", match["what"]


class ProblemsScreen(GivesWayToTyping):
    """Every problem, grouped by its file, each with its line; scrolls when they are many.
    Typing goes on to the reader."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ProblemsScreen")
        + """
    ProblemsScreen > Vertical {
        width: 100; max-height: 100%; border: round $error; border-subtitle-color: $text-muted;
    }
    ProblemsScreen VerticalScroll { height: auto; max-height: 100%; }
    ProblemsScreen Grid {
        grid-size: 2; grid-columns: auto 1fr; grid-rows: auto; height: auto; grid-gutter: 0 1;
    }
    ProblemsScreen .problem-file { text-style: bold; }
    ProblemsScreen .problem-line { color: $text-muted; text-align: right; }
    """
    )
    BINDINGS = [
        Binding("escape,enter,q", "dismiss", "Close"),
        Binding("j", "scroll('down')", show=False),
        Binding("k", "scroll('up')", show=False),
    ]

    def __init__(self, problems: list[str]) -> None:
        super().__init__()
        self._problems = problems

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"{count(len(self._problems), 'problem')} at start"
            box.border_subtitle = "Escape, Enter or q closes; typing goes on to the reader"
            with VerticalScroll():
                for file, problems in groupby(map(_parts, self._problems), lambda p: p[0]):
                    if file:
                        yield Static(Content(for_terminal(file)), classes="problem-file")
                    with Grid():
                        # By line, a file's summary ("12 more records…") last.
                        in_order = sorted(problems, key=lambda p: (not p[1], int(p[1] or 0)))
                        for _, line, what in in_order:
                            label = Content(f"line {line}" if line else "")
                            yield Static(label, classes="problem-line")
                            yield Static(Content(for_terminal(what)))

    def action_scroll(self, direction: str) -> None:
        scroll = self.query_one(VerticalScroll)
        if direction == "down":
            scroll.scroll_down(animate=False)
        else:
            scroll.scroll_up(animate=False)
