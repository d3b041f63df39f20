"""Taking papers elsewhere: a Markdown reading list, BibTeX, JSON and CSV."""

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path

from tui_reader.core.atomic_file import write_atomically
from tui_reader.core.library import Library
from tui_reader.core.links import DEFAULT_SEARCH_URL
from tui_reader.core.paper import Paper
from tui_reader.core.references import (
    bibtex,
    links_of,
    markdown_link,
    reference_title,
    venue_of,
)
from tui_reader.core.wording import count

FORMATS = ("md", "bib", "json", "csv")
CSV_COLUMNS = (
    "id", "headline", "title", "authors", "venue", "url", "tags", "bookmarked", "read", "note",
    "abstract",
)  # fmt: skip


class ExportError(Exception):
    """The export cannot be written; the message names the file and the problem."""


def paper_record(
    paper: Paper, library: Library, search_template: str = DEFAULT_SEARCH_URL
) -> dict[str, object]:
    """Everything about a paper and what the user made of it, as plain data."""
    return {
        "id": paper.id,
        "headline": reference_title(paper),  # never cut to fit a screen
        "title": paper.title,
        "authors": list(paper.authors),
        "venue": venue_of(paper),
        "url": links_of(paper, search_template)[0],
        "links": links_of(paper, search_template),
        "abstract": paper.abstract,
        "collection": paper.collection,
        "source": str(paper.source),
        "tags": library.tags(paper.id),
        "bookmarked": library.is_bookmarked(paper.id),
        "read": library.is_read(paper.id),
        "note": library.note(paper.id),
    }


def _markdown(papers: Sequence[Paper], library: Library, template: str) -> str:
    lines = [f"# Reading list ({count(len(papers), 'paper')})", ""]
    for paper in papers:
        line = f"- {markdown_link(paper, links_of(paper, template)[0])}"
        if tags := library.tags(paper.id):
            line += " — " + " ".join(f"`#{tag}`" for tag in tags)
        lines.append(line)
        lines += [f"  > {note_line}".rstrip() for note_line in library.note(paper.id).splitlines()]
    return "\n".join(lines) + "\n"


def _csv(papers: Sequence[Paper], library: Library, template: str) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for paper in papers:
        record = paper_record(paper, library, template)
        record["authors"] = "; ".join(paper.authors)
        record["tags"] = " ".join(library.tags(paper.id))
        writer.writerow([record[column] for column in CSV_COLUMNS])
    return buffer.getvalue()


def format_of(path: Path) -> str | None:
    """The format a file's name asks for (`list.md`, `refs.BIB`), or None."""
    kind = path.suffix.lower().removeprefix(".")
    return kind if kind in FORMATS else None


def render(
    kind: str, papers: Sequence[Paper], library: Library, template: str = DEFAULT_SEARCH_URL
) -> str:
    """The papers in one of FORMATS."""
    if kind == "md":
        return _markdown(papers, library, template)
    if kind == "bib":
        urls = {paper.id: links_of(paper, template)[0] for paper in papers}
        return bibtex(papers, urls, {paper.id: library.note(paper.id) for paper in papers})
    if kind == "json":
        records = [paper_record(paper, library, template) for paper in papers]
        return json.dumps(records, indent=2, ensure_ascii=False) + "\n"
    if kind == "csv":
        return _csv(papers, library, template)
    raise ValueError(f"unknown export format {kind!r}: choose one of {', '.join(FORMATS)}")


def write_export(path: Path, text: str, force: bool = False) -> None:
    """Write the export atomically; an existing file is replaced only with `force`."""
    if path.exists() and not force:
        raise ExportError(f"{path} already exists (use --force to replace it)")
    if not path.parent.is_dir():
        raise ExportError(f"{path.parent}: the folder does not exist")
    try:
        write_atomically(path, text)
    except OSError as error:
        raise ExportError(f"{path}: {error.strerror or error}") from None
