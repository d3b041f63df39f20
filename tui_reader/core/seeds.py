"""The seed format: a collection name on the first line, then one abstract per paragraph."""

import itertools
import re
from collections.abc import Iterator

from tui_reader.core.text import clean

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\f\v\u00a0]*\n")
_HEADER_MAX = 120


def is_header(line: str) -> bool:
    """A collection name is short and does not end like a sentence."""
    line = line.strip()
    return 0 < len(line) <= _HEADER_MAX and not line.endswith((".", "!", "?"))


def _paragraphs(text: str) -> Iterator[str]:
    """The text between paragraph breaks, one at a time (a list of millions of tiny
    paragraphs would take many times the text's memory)."""
    start = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        yield text[start : match.start()]
        start = match.end()
    yield text[start:]


def seed_header(start: str) -> str | None:
    """The collection name seed text begins with, None when it has none: told by the start
    of the text alone (its first paragraph, or the first kilobytes of it)."""
    first = next(_texts(start.removeprefix("\ufeff")), None)
    # The header stands alone: a short first line wrapped into an abstract is not one.
    if first is not None and "\n" not in first.strip() and is_header(first):
        return clean(first)
    return None


def seed_abstracts(text: str, after_header: bool = False) -> Iterator[str]:
    """The abstracts of seed text (or of whole paragraphs of it), its first paragraph passed
    over when it is the collection's name. The text may use CRLF or CR line ends, tabs,
    trailing spaces and runs of blank lines; each abstract's lines are joined with single
    spaces."""
    return (abstract for abstract in map(clean, _texts(text, after_header)) if abstract)


def _texts(text: str, after_header: bool = False) -> Iterator[str]:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    paragraphs = (paragraph for paragraph in _paragraphs(text) if paragraph.strip())
    return itertools.islice(paragraphs, 1 if after_header else 0, None)
