"""What every input format gives: records and the problems of records it could not read.

A malformed record (a bad JSON line, a row with no abstract) is a Problem naming its line;
the rest of the file still loads. A file that cannot be read past a point raises
FormatError: none of it is used.

A record's ids and links are read from whatever it holds, in every format that comes here
(JSON Lines, a JSON array, CSV, BibTeX): its arXiv id from `arxiv_id`, else an `eprint` that
is arXiv's (`archivePrefix` or `eprinttype` arXiv, or none given), else an arxiv.org address
(`url`, `pdf`), else an arXiv DOI (10.48550/arXiv.ID); its DOI also from a doi.org address;
its OpenReview forum from `openreview_forum` or an OpenReview `forum` column (an id or the
forum's address). Where it stands in its venue: `volume`, `issue` and `pages` (CSL-JSON's and
Crossref's `page` too; BibTeX's `number` is read as the issue by core.formats.bibtex). Its
links by kind (abstract page, PDF, DOI, forum) come from `links`, then from those ids and from
a `pdf` column (an address, or OpenReview's `/pdf/...`); a record with no `url` has the first
of its abstract page, forum, PDF and DOI as its url.
"""

import json
import re
from dataclasses import dataclass, field
from typing import Final

from tui_reader.core.links import is_web_url
from tui_reader.core.paper import Metadata
from tui_reader.core.sources.record import (
    DOI_SITE,
    LINK_KINDS,
    arxiv_id_in,
    arxiv_links,
    clean_all,
    primary_url,
    split_arxiv_id,
)
from tui_reader.core.text import clean, token

FIELDS = ("title", "abstract", "authors", "url", "venue")
_TEXTS: Final = (
    "published", "updated", "doi", "openreview_forum", "decision", "comments", "volume",
    "issue", "pages",
)  # fmt: skip
# Ids: the first word (a record may give two DOIs), refused when it holds a control or format
# character, never mended into another id.
_IDS: Final = ("doi", "openreview_forum")
# What a record's `journal` or `booktitle` says its venue is (BibTeX's and spreadsheets' names).
_VENUE_KINDS: Final = {"journal": "journal", "booktitle": "conference"}
# The keys `metadata_from` reads, and all the keys read, as records name them.
_OPTIONAL = frozenset(
    (*_TEXTS, "year", "arxiv_id", "arxiv_version", "categories", "keywords", "links", "eprint",
     "forum", "pdf", "primaryclass", "venue_kind", "page", *_VENUE_KINDS)
)  # fmt: skip
_KNOWN = _OPTIONAL | {*FIELDS, "author"}
_AUTHOR_SPLIT = re.compile(r"\s+and\s+|;\s*")
_KEYWORD_SPLIT = re.compile(r"\s*[,;]\s*")
_DOI_PREFIX = re.compile(r"(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)
_ARXIV_DOI = "10.48550/arxiv."
_OPENREVIEW = "https://openreview.net"
_FORUM = re.compile(r"https://openreview\.net/forum\?id=([^&#]+)")


@dataclass(frozen=True, slots=True)
class Record:
    """One paper as a source file gives it, before it becomes a Paper."""

    abstract: str
    title: str = ""
    authors: tuple[str, ...] = field(default=())
    url: str = ""
    venue: str = ""
    collection: str = ""  # the collection the file names (seed text's header); "": its name
    # The abstract as its file writes it, when it was read into other text (BibTeX's
    # `Schr{\\"o}dinger`: Schrödinger): the paper's id is of it, so that reading changes no id.
    written_abstract: str = ""
    # The paper's id as tui-reader's own BibTeX export wrote it (`tui-reader-id`): the id of
    # a paper whose text came back otherwise (`96.0%` written `96.0\\%`, PDF debris left out).
    given_id: str = ""
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
    if isinstance(error, json.JSONDecodeError):  # "Invalid control character at": where
        at = f" column {error.colno}" if error.msg.endswith(" at") else ""
        return f"not valid JSON ({error.msg}{at})"
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
    metadata = metadata_from(values)
    venue = values.get("venue") or values.get("journal") or values.get("booktitle")
    return Record(
        abstract=abstract,
        title=field_text(values.get("title")),
        authors=author_names(values.get("authors", values.get("author"))),
        url=link_text(values.get("url")) or primary_url(dict(metadata.get("kind_links", ()))),
        venue=field_text(venue),
        metadata=metadata,
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
    an arXiv id with a version ("2501.01234v2") gives both. Ids and links as the module says."""
    metadata = Metadata()
    url = values.get("url")
    # Of a record's url alone, only an arxiv.org address gives a field (its arXiv id).
    arxiv_url = isinstance(url, str) and ".org/" in url and "arxiv" in url.lower()
    if _OPTIONAL.isdisjoint(values) and not arxiv_url:
        return metadata  # most records of many files: a third of the time saved
    if (year := _year(values.get("year"))) is not None:
        metadata["year"] = year
    for name in _TEXTS:
        if name in _IDS:
            value = values.get(name)
            words = value.split() if isinstance(value, str) else []
            if words and (word := token(words[0])):
                metadata[name] = _DOI_PREFIX.sub("", word, count=1) if name == "doi" else word
        elif text := field_text(values.get(name)):
            metadata[name] = text
    if "pages" not in metadata and (pages := field_text(values.get("page"))):  # CSL's name
        metadata["pages"] = pages
    if arxiv := _arxiv_id(values, metadata.get("doi", "")):
        metadata["arxiv_id"] = arxiv[0]
        version = _version(values.get("arxiv_version"))
        if (version := version if version is not None else arxiv[1]) is not None:
            metadata["arxiv_version"] = version
    if categories := word_list(values.get("categories")) or word_list(values.get("primaryclass")):
        metadata["categories"] = categories
    keywords = values.get("keywords")
    if keywords := clean_all(
        _KEYWORD_SPLIT.split(keywords) if isinstance(keywords, str) else keywords
    ):
        metadata["keywords"] = keywords
    if kind := _venue_kind(values):
        metadata["venue_kind"] = kind
    if kind_links := _kind_links(values, metadata):
        metadata["kind_links"] = kind_links
    return metadata


def _arxiv_id(values: dict[str, object], doi: str) -> tuple[str, int | None] | None:
    if found := split_arxiv_id(field_text(values.get("arxiv_id"))):
        return found
    eprint = field_text(values.get("eprint"))
    prefix = field_text(values.get("archiveprefix") or values.get("eprinttype"))
    if eprint and prefix.lower() in ("", "arxiv") and (found := arxiv_id_in(eprint)):
        return found
    for address in (values.get("url"), values.get("pdf")):
        if isinstance(address, str) and (found := arxiv_id_in(address)):
            return found
    if doi.lower().startswith(_ARXIV_DOI):
        return arxiv_id_in(doi[len(_ARXIV_DOI) :])
    return None


def _venue_kind(values: dict[str, object]) -> str:
    given = field_text(values.get("venue_kind"))
    if given in ("journal", "conference", "unpublished"):
        return given
    named = [kind for name, kind in _VENUE_KINDS.items() if field_text(values.get(name))]
    return named[0] if named else ""


def _kind_links(values: dict[str, object], metadata: Metadata) -> tuple[tuple[str, str], ...]:
    """The record's links by kind, in LINK_KINDS order: its own `links`, then those its ids
    and its `forum` and `pdf` columns give (an OpenReview forum's id goes to `metadata`)."""
    given = values.get("links")
    links = (
        {kind: link.strip() for kind, link in given.items() if isinstance(link, str)}
        if isinstance(given, dict)
        else {}
    )
    found: dict[str, str] = {}
    if arxiv := metadata.get("arxiv_id"):
        found |= arxiv_links(arxiv)
    if doi := metadata.get("doi"):
        found["doi"] = f"{DOI_SITE}/{doi}"
    forum = field_text(values.get("forum"))
    if match := _FORUM.match(forum):
        forum = match.group(1)
    if forum and "/" not in forum and token(forum):
        metadata.setdefault("openreview_forum", forum)
    if forum := metadata.get("openreview_forum", ""):
        found["forum"] = f"{_OPENREVIEW}/forum?id={forum}"
    pdf = field_text(values.get("pdf"))
    if pdf.startswith("/pdf"):  # as OpenReview gives it
        pdf = _OPENREVIEW + pdf
    if pdf:
        found.setdefault("pdf", pdf)
    for kind, link in found.items():
        links.setdefault(kind, link)
    return tuple((kind, links[kind]) for kind in LINK_KINDS if is_web_url(links.get(kind, "")))
