"""Copying text where the user can paste it, and keeping what was copied to show it again.

The system clipboard (pyperclip) when there is one, else the terminal's (OSC 52, which some
terminals ignore): either way the whole text stays in the session's log of copies, where it
can be read and selected by hand.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pyperclip
from textual.app import App

from tui_reader.core.text import for_terminal

SYSTEM = "the clipboard"
TERMINAL = "the terminal's clipboard (OSC 52)"


@dataclass(frozen=True)
class Copied:
    """One copy: the text, what it holds ("3 links"), where it went, and when."""

    text: str
    what: str
    via: str
    at: datetime = field(default_factory=datetime.now)


class CopyLog:
    """Copies for an app, and remembers every copy of the session, newest last."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self.copies: list[Copied] = []

    def copy(self, text: str, what: str) -> Copied:
        """Copy `text`, which holds `what` ("1 link", "2 BibTeX entries"); no control
        character but tab and newline goes with it, to be run when pasted in a shell."""
        text = for_terminal(text)
        try:
            pyperclip.copy(text)
        except Exception:  # pyperclip raises its own errors, and OSError from a broken helper
            # No system clipboard here (no display, or over SSH): OSC 52 asks the terminal.
            self._app.copy_to_clipboard(text)
            via = TERMINAL
        else:
            via = SYSTEM
        copied = Copied(text, what, via)
        self.copies.append(copied)
        return copied


def notice(copied: Copied, show_key: str) -> str:
    """One short line on a copy, and the key that shows what was copied."""
    if copied.via == SYSTEM:
        said = f"Copied {copied.what} to the clipboard"
    else:
        said = f"Sent {copied.what} to the terminal (OSC 52)"
    count = copied.what.split(" ", 1)[0]  # "3 links", "1 link", "the output of wc"
    them = "them" if count.isdigit() and count != "1" else "it"
    return f"{said} · {show_key} shows {them}"
