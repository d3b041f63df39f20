"""The arXiv metadata snapshot (Kaggle's `arxiv-metadata-oai-snapshot.json`): JSON Lines, a
paper a line with arXiv's own keys (`id`, `submitter`, `authors`, `title`, `journal-ref`,
`doi`, `categories`, `abstract`, `versions`, `update_date`, `authors_parsed`...), read as it
goes like any JSON Lines file (the snapshot is over 4 GB)."""

import io
from collections.abc import Iterator
from datetime import date
from email.utils import parsedate_to_datetime

from tui_reader.core.formats.json_lines import read_json_lines, read_lines
from tui_reader.core.formats.records import Problem, Record, author_names, field_text, word_list
from tui_reader.core.links import is_web_url
from tui_reader.core.paper import Metadata
from tui_reader.core.sources.record import arxiv_links, split_arxiv_id
from tui_reader.core.text import clean, token


def is_snapshot(start: str) -> bool:
    """Whether a file's text starts like the snapshot: an object whose keys begin `id`,
    `submitter` (the authors and abstract after them may be long, so they are not looked for)."""
    first = start.split("\n", 1)[0]
    return first.startswith("{") and '"id"' in first and '"submitter"' in first


def _names(parsed: object) -> list[str]:
    """`authors_parsed` ([family, given, suffix] each) as names, given names first."""
    if not isinstance(parsed, list):
        return []
    names = []
    for parts in parsed:
        if not (isinstance(parts, list) and parts):
            continue
        family, given, *rest = [*parts, ""] if len(parts) == 1 else parts
        try:
            names.append(" ".join([p for p in (given, family, *rest) if p.strip()]))
        except (AttributeError, TypeError):  # a part that is not text
            continue
    return names


def _first_date(versions: object) -> str:
    """The day the first version was submitted ("Mon, 2 Apr 2007 19:18:42 GMT" -> 2007-04-02)."""
    if isinstance(versions, list) and versions and isinstance(versions[0], dict):
        created = versions[0].get("created")
        if isinstance(created, str):
            return _day(created)
    return ""


_MONTHS = {  # as arXiv writes them, in any locale
    name: number
    for number, name in enumerate(
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1
    )
}


def _day(created: str) -> str:
    """The date of a time as arXiv writes it, read by its parts (2.7 µs; email.utils takes
    10 µs, of the 150 a record cost), or by email.utils when written otherwise."""
    parts = created.split()
    try:
        if len(parts) == 6 and parts[5] == "GMT" and parts[2] in _MONTHS:
            return date(int(parts[3]), _MONTHS[parts[2]], int(parts[1])).isoformat()
        return parsedate_to_datetime(created).date().isoformat()
    except (TypeError, ValueError, OverflowError):  # a year of twenty digits, say
        return ""


def snapshot_record(data: dict[str, object], line: int) -> Record | Problem:
    """A Record in our own fields from a line of the snapshot: what `record_from` makes of
    them, made directly (46 -> 32 µs a record: a million records are read cold)."""
    ident = data.get("id")
    arxiv = split_arxiv_id(ident) if isinstance(ident, str) else None
    if arxiv is None:
        if ident in (None, ""):
            return Problem(line, "no arXiv id")
        shown = str(ident)[:60]  # a line may be megabytes
        return Problem(line, f"{shown!r} is not an arXiv id")
    abstract = data.get("abstract")
    abstract = clean(abstract) if isinstance(abstract, str) else ""
    if not abstract:
        return Problem(line, "no abstract")
    versions = data.get("versions")
    doi = data.get("doi")
    dois = doi.split() if isinstance(doi, str) else []  # some records give two
    doi = token(dois[0]) if dois else ""
    links = arxiv_links(arxiv[0], doi)
    metadata = Metadata(arxiv_id=arxiv[0])
    if published := _first_date(versions):
        metadata["year"] = int(published[:4])
        metadata["published"] = published
    if updated := field_text(data.get("update_date")):
        metadata["updated"] = updated
    if isinstance(versions, list) and versions:
        metadata["arxiv_version"] = len(versions)
    if doi:
        metadata["doi"] = doi
    if categories := word_list(data.get("categories")):
        metadata["categories"] = categories
    if comments := field_text(data.get("comments")):
        metadata["comments"] = comments
    metadata["kind_links"] = tuple((kind, url) for kind, url in links.items() if is_web_url(url))
    return Record(
        abstract=abstract,
        title=field_text(data.get("title")),
        authors=author_names(_names(data.get("authors_parsed")) or data.get("authors")),
        url=links["abstract"],
        venue=field_text(data.get("journal-ref") or "arXiv"),
        metadata=metadata,
    )


def read_arxiv_snapshot(file: io.BufferedIOBase) -> Iterator[Record | Problem]:
    """The snapshot's records, a line at a time."""
    return read_json_lines(file, snapshot_record)


def read_snapshot_lines(data: bytes, number: int) -> Iterator[Record | Problem]:
    """The records of whole lines of the snapshot, the first of them line `number`."""
    return read_lines(data, number, snapshot_record)
