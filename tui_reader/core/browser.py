"""Opening links in a web browser, only where that cannot take over the terminal."""

import os
import sys
import webbrowser

from tui_reader.core.links import is_web_url


def why_no_browser() -> str | None:
    """Why no browser should be started here, or None when one may be.

    On Linux and other Unixes with no display (no DISPLAY or WAYLAND_DISPLAY, as over SSH) the
    only browsers are text ones, which would fight the reader for the terminal; the same goes
    for a text browser chosen where there is a display.
    """
    if sys.platform not in ("darwin", "win32") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "there is no display (DISPLAY and WAYLAND_DISPLAY are unset)"
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return "no web browser was found"
    if isinstance(browser, webbrowser.GenericBrowser) and not isinstance(
        browser, webbrowser.BackgroundBrowser
    ):
        return f"the browser found ({browser.name}) runs in the terminal"
    return None


def open_in_browser(url: str) -> str | None:
    """Open an http(s) link; None when it was opened, else why it was not."""
    if not is_web_url(url):
        return f"only http and https links are opened, not {url!r}"
    if reason := why_no_browser():
        return reason
    try:
        opened = webbrowser.open(url, new=2)
    except webbrowser.Error as error:
        return str(error)
    return None if opened else "the browser did not start"
