"""A paper: one abstract with what the reader derives from it."""

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from tui_reader.core.links import extract_links
from tui_reader.core.text import normalise

ID_LENGTH = 12
# The last of a paper's authors when it stands for the others, not named (BibTeX's `and others`).
ET_AL = "et al."
# A year standing in a venue as a word of its own ("ICLR 2021", "(ICML 2020)", "2019."), not
# digits of a longer token ("arXiv:2012.01234", "ICLR2021", "12019").
_VENUE_YEAR = re.compile(r"(?<![^\s(\[{,;'\"])(?:19|20)[0-9]{2}(?=[)\]},;:.'\"]*(?:\s|$))")


def braced_whole(name: str) -> bool:
    """Whether an author's name is one brace group, `{Barack Obama}` (not `{A} and {B}`):
    BibTeX's way to keep it one name, never split."""
    depth = 0
    for at, char in enumerate(name):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return at == len(name) - 1 and at > 0
    return False


def author_text(author: str) -> str:
    """An author as text (JSON, CSV): a name braced whole without its braces, which the
    paper keeps so that a BibTeX reference keeps it one name."""
    return author[1:-1] if braced_whole(author) else author


def paper_year(year: int | None, venue: str) -> int | None:
    """A paper's year: its own, else the first year its venue names as a word ("ICLR 2021",
    "NeurIPS 2019 Workshop"), else None. Every paper is given it where it is made, so that
    `year:`, `after:`, `before:`, a load's `--since` and the exports agree."""
    if year is not None or not venue:
        return year
    found = _VENUE_YEAR.search(venue)
    return int(found.group()) if found else None


def paper_id(abstract: str) -> str:
    """A short, stable hash of the normalised abstract: the id of a paper without an arXiv id
    (one with it has the arXiv id without version, `2501.01234`, never 12 hex digits).

    Twelve hex digits (48 bits) keep the chance of any collision under 0.2% at a million papers.
    """
    digest = hashlib.sha256(normalise(abstract).encode("utf-8")).hexdigest()
    return digest[:ID_LENGTH]


def paper_id_of(abstract: str, metadata: "Metadata", given: str = "") -> str:
    """The id of the paper of an abstract with these fields: its arXiv id, else the id its file
    `given` it (tui-reader's BibTeX export writes it), else `paper_id`."""
    return metadata.get("arxiv_id") or given or paper_id(abstract)


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper. Seeds give only the abstract; richer sources add title, authors, url, venue."""

    id: str
    abstract: str
    collection: str
    source: Path
    headline: str
    links: tuple[str, ...] = field(default=())
    title: str = ""
    authors: tuple[str, ...] = field(default=())
    url: str = ""
    venue: str = ""
    year: int | None = None
    published: str = ""  # ISO dates
    updated: str = ""
    arxiv_id: str = ""  # without its version
    arxiv_version: int | None = None
    doi: str = ""
    categories: tuple[str, ...] = field(default=())  # the primary one first
    openreview_forum: str = ""
    decision: str = ""
    keywords: tuple[str, ...] = field(default=())
    comments: str = ""  # the authors' on the paper (arXiv's "12 pages, accepted at ICML")
    # Where in its venue, as the record writes them: BibTeX's volume, number and pages.
    volume: str = ""
    issue: str = ""
    pages: str = ""  # "45--67", "45-67", "e1234"
    # What the record says its venue is: "journal", "conference" or "unpublished" (BibTeX's
    # @article, @inproceedings, @unpublished; a `journal` or `booktitle` field); "": unsaid.
    venue_kind: str = ""
    kind_links: tuple[tuple[str, str], ...] = field(default=())  # (kind, url): abstract, pdf...
    # The abstract as a BibTeX file writes it, where it reads as other text: written back so
    # by BibTeX export, its id (of it) is the same when the file written is read.
    written_abstract: str = ""

    def __reduce__(self) -> tuple[type["Paper"], tuple[object, ...]]:
        # Pickled as its fields in order: read back twice as fast as the dataclass default,
        # which matters for the index cache at 100,000 papers.
        return Paper, tuple(getattr(self, name) for name in self.__slots__)

    @classmethod
    def from_abstract(
        cls,
        abstract: str,
        collection: str,
        source: Path,
        *,
        title: str = "",
        authors: tuple[str, ...] = (),
        url: str = "",
        venue: str = "",
        metadata: "Metadata | None" = None,
        written_abstract: str = "",
        given_id: str = "",
    ) -> "Paper":
        """The paper of an abstract, with the optional fields `metadata` gives (without a
        year, the one its venue names: `paper_year`). A paper with an arXiv id is identified
        by it, so what the user made of it follows it through new versions and revised
        abstracts; any other by the id its file gives it (`given_id`: exported by tui-reader
        and read back, whatever its text became), else by its abstract as written
        (`written_abstract`, when given)."""
        metadata = metadata or {}
        if venue and metadata.get("year") is None:  # a copy: the record's is left as read
            metadata = {**metadata, "year": paper_year(None, venue)}
        return cls(
            id=paper_id_of(written_abstract or abstract, metadata, given_id),
            abstract=abstract,
            collection=collection,
            source=source,
            headline=title or _headline(abstract),
            links=tuple(extract_links(abstract)),
            title=title,
            authors=authors,
            url=url,
            venue=venue,
            written_abstract=written_abstract,
            **metadata,
        )


def _headline(abstract: str) -> str:
    # Imported on first use: its patterns take 17 ms to compile, at every start.
    from tui_reader.core.headline import headline_for

    return headline_for(abstract)


class Metadata(TypedDict, total=False):
    """The optional fields of a Paper beyond title, authors, url and venue."""

    year: int | None
    published: str
    updated: str
    arxiv_id: str
    arxiv_version: int | None
    doi: str
    categories: tuple[str, ...]
    openreview_forum: str
    decision: str
    keywords: tuple[str, ...]
    comments: str
    volume: str
    issue: str
    pages: str
    venue_kind: str
    kind_links: tuple[tuple[str, str], ...]
