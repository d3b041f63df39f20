"""Telling the reader something in passing, in a notice."""

from typing import Any

from textual.app import App
from textual.notifications import SeverityLevel


def tell(app: App[Any], message: str, severity: SeverityLevel = "information") -> None:
    """Tell `message`, as plain text (it may quote a paper or a file name); a warning or an
    error stays long enough to be read."""
    timeout = 20 if severity != "information" else 4
    app.notify(message, severity=severity, timeout=timeout, markup=False)
