"""Typeset paper text (math as Unicode, emphasis as styles) for the detail pane."""

from textual.content import Content

from tui_reader.core.text import for_terminal
from tui_reader.core.typeset import Span, typeset


def _style(span: Span) -> str:
    return " ".join(name for name, on in (("bold", span.bold), ("italic", span.italic)) if on)


def typeset_content(text: str, raw: bool = False) -> Content:
    """Paper text for a Content-based widget; `raw` shows it exactly as written (but for
    control characters, which never reach the terminal)."""
    text = for_terminal(text)
    if raw:
        return Content(text)
    return Content.assemble(*((span.text, _style(span)) for span in typeset(text)))
