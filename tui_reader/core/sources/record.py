"""A fetched paper in our own fields, and how it is written as one line of JSON Lines.

Every line has the same keys in the same order. `title`, `abstract`, `authors` (a list), `url`
and `venue` are the keys the reader loads today; the others carry what the sources know.
Dates are ISO (`YYYY-MM-DD`); what a source does not give is "" (or null, or an empty list).

A record is cleaned as it is made, whatever the source said: no control character in its
text, and an id or a link holding a space, a control or a format character is refused.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from urllib.parse import urlsplit

from tui_reader.core.links import is_web_url
from tui_reader.core.text import clean, token

LINK_KINDS = ("abstract", "pdf", "doi", "forum", "code")

ARXIV_SITE = "https://arxiv.org"
DOI_SITE = "https://doi.org"

# New-style ids (2501.01234, 0704.0001) and old-style ones (math/0601001, math.GT/0309136),
# each with an optional version.
_ARXIV_ID = re.compile(
    r"(?P<id>\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v(?P<version>\d+))?$"
)


_IDS = ("arxiv_id", "doi", "openreview_forum")
_ARXIV_HOSTS = ("arxiv.org", "www.arxiv.org", "export.arxiv.org")


def split_arxiv_id(text: str) -> tuple[str, int | None] | None:
    """The arXiv id at the end of `text` (an id, or an abs/pdf URL) without its version, and
    the version when it has one; None when `text` ends in no arXiv id."""
    match = _ARXIV_ID.search(text.strip())
    if match is None:
        return None
    version = match.group("version")
    return match.group("id"), int(version) if version else None


def arxiv_id_in(text: str) -> tuple[str, int | None] | None:
    """The arXiv id (without version, and the version) `text` is, whole: an id, `arXiv:` and
    an id, or an arxiv.org abstract or PDF page's address; None for anything else."""
    text = text.strip()
    parts = urlsplit(text)
    if parts.scheme in ("http", "https"):
        if parts.hostname not in _ARXIV_HOSTS or not parts.path.startswith(("/abs/", "/pdf/")):
            return None
        text = parts.path[5:].removesuffix(".pdf")
    text = text.removeprefix("arXiv:").removeprefix("arxiv:")
    found = split_arxiv_id(text)
    if found is None or text != found[0] + (f"v{found[1]}" if found[1] is not None else ""):
        return None
    return found


def primary_url(links: Mapping[str, str]) -> str:
    """The page a reader opens for a paper of these links (by kind): its abstract page, else
    forum, PDF or DOI."""
    for kind in ("abstract", "forum", "pdf", "doi"):
        if link := links.get(kind):
            return link
    return ""


def arxiv_links(arxiv_id: str, doi: str = "") -> dict[str, str]:
    """An arXiv paper's links: its abstract page and PDF (the latest version), and its DOI."""
    links = {"abstract": f"{ARXIV_SITE}/abs/{arxiv_id}", "pdf": f"{ARXIV_SITE}/pdf/{arxiv_id}"}
    if doi:
        links["doi"] = f"{DOI_SITE}/{doi}"
    return links


def clean_all(values: object) -> tuple[str, ...]:
    """The non-empty cleaned strings of a list (anything else gives none)."""
    if not isinstance(values, list | tuple):
        return ()
    return tuple(text for text in (clean(v) for v in values if isinstance(v, str)) if text)


@dataclass(frozen=True)
class SourceRecord:
    """One paper as a source gave it. `source_id` ("arxiv:2501.01234", "openreview:<forum>")
    names the paper across fetches: a collection holds one line per source_id."""

    source_id: str
    title: str
    abstract: str
    authors: tuple[str, ...] = ()
    venue: str = ""
    year: int | None = None
    published: str = ""
    updated: str = ""
    arxiv_id: str = ""
    arxiv_version: int | None = None
    doi: str = ""
    categories: tuple[str, ...] = ()  # arXiv categories, the primary one first
    openreview_forum: str = ""
    decision: str = ""
    keywords: tuple[str, ...] = ()
    comments: str = ""  # the authors' (arXiv's "12 pages, accepted at ICML")
    links: dict[str, str] = field(default_factory=dict)  # by kind, in LINK_KINDS order

    def __post_init__(self) -> None:
        if not token(self.source_id):
            raise ValueError(f"not a paper's id: {self.source_id!r}")
        for one in fields(self):
            value = getattr(self, one.name)
            if one.name in _IDS:
                value = token(value)
            elif isinstance(value, str):
                value = clean(value)
            elif isinstance(value, tuple):
                value = clean_all(value)
            elif one.name == "links":
                value = {k: url for k, url in value.items() if k in LINK_KINDS and is_web_url(url)}
            object.__setattr__(self, one.name, value)

    @property
    def url(self) -> str:
        """The page a reader opens for the paper: its abstract page, else forum, PDF or DOI."""
        return primary_url(self.links)

    def to_json(self) -> str:
        """The record as one line of JSON (no newline), its keys always the same and in order."""
        data = {
            "source_id": self.source_id,
            "title": self.title,
            "authors": list(self.authors),
            "abstract": self.abstract,
            "url": self.url,
            "venue": self.venue,
            "year": self.year,
            "published": self.published,
            "updated": self.updated,
            "arxiv_id": self.arxiv_id,
            "arxiv_version": self.arxiv_version,
            "doi": self.doi,
            "categories": list(self.categories),
            "openreview_forum": self.openreview_forum,
            "decision": self.decision,
            "keywords": list(self.keywords),
            "comments": self.comments,
            "links": {kind: self.links[kind] for kind in LINK_KINDS if self.links.get(kind)},
        }
        return json.dumps(data, ensure_ascii=False)
