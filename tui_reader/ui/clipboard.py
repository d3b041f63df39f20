"""Copying text where the user can paste it: the system clipboard, else the terminal's."""

import pyperclip
from textual.app import App

SHOWN_MAX = 160


def shorten(text: str, limit: int = SHOWN_MAX) -> str:
    flat = " ⏎ ".join(line for line in text.splitlines() if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def copy_text(app: App[object], text: str) -> str:
    """Copy text and say which way it went, with the text, so it can be selected by hand."""
    try:
        pyperclip.copy(text)
    except Exception:  # pyperclip raises its own errors, and OSError from a broken helper
        # No system clipboard here (no display, or over SSH): OSC 52 asks the terminal.
        app.copy_to_clipboard(text)
        return f"Sent to the terminal's clipboard (OSC 52): {shorten(text)}"
    return f"Copied to the clipboard: {shorten(text)}"
