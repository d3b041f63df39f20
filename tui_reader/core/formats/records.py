"""What every input format gives: records and the problems of records it could not read.

A malformed record (a bad JSON line, a row with no abstract) is a Problem naming its line;
the rest of the file still loads. A file that cannot be read past a point raises
FormatError: none of it is used.
"""

import json
import re
from dataclasses import dataclass, field
from typing import Final

from tui_reader.core.links import is_web_url
from tui_reader.core.paper import Metadata
from tui_reader.core.sources.record import LINK_KINDS, clean_all, split_arxiv_id
from tui_reader.core.text import clean, token

FIELDS = ("title", "abstract", "authors", "url", "venue")
_TEXTS: Final = ("published", "updated", "doi", "openreview_forum", "decision")  # as they are
# Ids: the first word (a record may give two DOIs), refused when it holds a control or format
# character, never mended into another id.
_IDS: Final = ("doi", "openreview_forum")
# The keys `metadata_from` reads, and all the keys read, as records name them.
_OPTIONAL = frozenset(
    (*_TEXTS, "year", "arxiv_id", "arxiv_version", "categories", "keywords", "links")
)
_KNOWN = _OPTIONAL | {*FIELDS, "author"}
_AUTHOR_SPLIT = re.compile(r"\s+and\s+|;\s*")


@dataclass(frozen=True, slots=True)
class Record:
    """One paper as a source file gives it, before it becomes a Paper."""

    abstract: str
    title: str = ""
    authors: tuple[str, ...] = field(default=())
    url: str = ""
    venue: str = ""
    collection: str = ""  # the collection the file names (seed text's header); "": its name
    # Compared but not hashed (a dict is not hashable): equal records still hash alike.
    metadata: Metadata = field(default_factory=lambda: Metadata(), hash=False)


@dataclass(frozen=True)
class Problem:
    """A record that could not be read: where and why."""

    line: int
    message: str


class FormatError(Exception):
    """A file that cannot be read past a point, so none of it is used: why, and where when
    `line` is given."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message if line is None else f"{message} on line {line}")
        self.line = line
        self.message = message


def json_problem(error: ValueError | RecursionError) -> str:
    """What stops `json` reading a text: bad syntax, deep nesting, or a number over the
    digits Python converts (4,300)."""
    if isinstance(error, json.JSONDecodeError):
        return f"not valid JSON ({error.msg})"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return "a number with too many digits"


def author_names(value: object) -> tuple[str, ...]:
    """Authors as a record gives them: a list of names, or one string of names joined by
    "and", semicolons or commas."""
    if isinstance(value, list):
        names = [str(name) for name in value]
    elif isinstance(value, str):
        names = _AUTHOR_SPLIT.split(value) if (" and " in value or ";" in value) else [value]
        if len(names) == 1 and value.count(",") >= 2:
            names = value.split(",")
    else:
        names = []
    return tuple(name for name in (clean(n) for n in names if isinstance(n, str)) if name)


def field_text(value: object) -> str:
    """A field's text: a string, or a number written out; a list or a table is left out."""
    return clean(str(value)) if isinstance(value, str | int | float) else ""


def link_text(value: object) -> str:
    """A link's text: refused ("") when it holds a control or format character, never
    mended into another address (what is left of an escape)."""
    text = value.strip() if isinstance(value, str) else ""
    return text if text.isprintable() else ""


def record_from(data: dict[str, object], line: int) -> Record | Problem:
    """A Record from a mapping with the FIELDS (any case), or the Problem with it."""
    if _KNOWN.issuperset(data):  # most: keys as we name them (a tenth of the time saved)
        values = data
    else:
        values = {str(key).strip().lower(): value for key, value in data.items()}
    abstract = values.get("abstract")
    abstract = clean(abstract) if isinstance(abstract, str) else ""
    if not abstract:
        return Problem(line, "no abstract")
    return Record(
        abstract=abstract,
        title=field_text(values.get("title")),
        authors=author_names(values.get("authors", values.get("author"))),
        url=link_text(values.get("url")),
        venue=field_text(values.get("venue")),
        metadata=metadata_from(values),
    )


def _year(value: object) -> int | None:
    text = str(value).strip() if isinstance(value, str | int) else ""
    return int(text) if len(text) == 4 and text.isdigit() else None


def _version(value: object) -> int | None:
    text = str(value).strip().removeprefix("v") if isinstance(value, str | int) else ""
    return int(text) if text.isdigit() and len(text) < 6 else None


def word_list(value: object) -> tuple[str, ...]:
    """A list of strings, or a string of words ("cs.LG stat.ML", as the arXiv snapshot has)."""
    return clean_all(value.split() if isinstance(value, str) else value)


def metadata_from(values: dict[str, object]) -> Metadata:
    """The optional fields of a record (keys in lower case), those it has in a form we read;
    an arXiv id with a version ("2501.01234v2") gives both."""
    metadata = Metadata()
    if _OPTIONAL.isdisjoint(values):  # most records of many files: a third of the time saved
        return metadata
    if (year := _year(values.get("year"))) is not None:
        metadata["year"] = year
    for name in _TEXTS:
        if name in _IDS:
            value = values.get(name)
            words = value.split() if isinstance(value, str) else []
            if words and (word := token(words[0])):
                metadata[name] = word
        elif text := field_text(values.get(name)):
            metadata[name] = text
    if arxiv := split_arxiv_id(field_text(values.get("arxiv_id"))):
        metadata["arxiv_id"] = arxiv[0]
        version = _version(values.get("arxiv_version"))
        if (version := version if version is not None else arxiv[1]) is not None:
            metadata["arxiv_version"] = version
    if categories := word_list(values.get("categories")):
        metadata["categories"] = categories
    if keywords := clean_all(values.get("keywords")):
        metadata["keywords"] = keywords
    links = values.get("links")
    if isinstance(links, dict):
        kinds = [
            (kind, link.strip()) for kind in LINK_KINDS if isinstance(link := links.get(kind), str)
        ]
        if kind_links := tuple((kind, url) for kind, url in kinds if is_web_url(url)):
            metadata["kind_links"] = kind_links
    return metadata
