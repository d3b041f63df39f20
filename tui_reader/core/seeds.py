"""The seed format: a collection name on the first line, then one abstract per paragraph."""

import re

from tui_reader.core.text import clean

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\f\v\u00a0]*\n")
_HEADER_MAX = 120


def is_header(line: str) -> bool:
    """A collection name is short and does not end like a sentence."""
    line = line.strip()
    return 0 < len(line) <= _HEADER_MAX and not line.endswith((".", "!", "?"))


def parse_seed_text(text: str) -> tuple[str | None, list[str]]:
    """Split seed text into its collection name (None when absent) and its abstracts.

    The text may use CRLF or CR line ends, tabs, trailing spaces and runs of blank lines;
    each abstract's lines are joined with single spaces.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    paragraphs = [p for p in _PARAGRAPH_BREAK.split(text) if p.strip()]
    collection = None
    # The header stands alone: a short first line wrapped into an abstract is not one.
    if paragraphs and "\n" not in paragraphs[0].strip() and is_header(paragraphs[0]):
        collection = clean(paragraphs.pop(0))
    abstracts = [clean(paragraph) for paragraph in paragraphs]
    return collection, [abstract for abstract in abstracts if abstract]
