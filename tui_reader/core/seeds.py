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


def iter_seed_text(text: str) -> tuple[str | None, Iterator[str]]:
    """Seed text's collection name (None when absent) and its abstracts, as they are found.

    The text may use CRLF or CR line ends, tabs, trailing spaces and runs of blank lines;
    each abstract's lines are joined with single spaces.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    paragraphs = (paragraph for paragraph in _paragraphs(text) if paragraph.strip())
    first = next(paragraphs, None)
    collection = None
    # The header stands alone: a short first line wrapped into an abstract is not one.
    if first is not None and "\n" not in first.strip() and is_header(first):
        collection, first = clean(first), None
    rest = itertools.chain([] if first is None else [first], paragraphs)
    return collection, (abstract for abstract in map(clean, rest) if abstract)


def parse_seed_text(text: str) -> tuple[str | None, list[str]]:
    """Seed text's collection name (None when absent) and all its abstracts."""
    collection, abstracts = iter_seed_text(text)
    return collection, list(abstracts)
