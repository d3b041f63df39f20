"""Taking papers elsewhere: every format a file is written in (`tui-reader export`, the
reader's E) or a copy is made in (the reader's copy picker) is a row of EXPORTERS.

To add one, write its render function in a module of its own (papers, what the user made of
them, the search-link template -> text; core.references has the pieces) and add its row: a
`suffix` makes it a file format (`export --format NAME`, a FILE ending in the suffix, E), and
`copied` offers it in the copy picker, with the nouns a count of it takes. A `reference` (a
format a reference manager reads) cites papers by their keys, which are given before it is
rendered (`citation_keys.give_keys`), and shows the user's notes only when asked.
"""

import csv
import io
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from tui_reader.core.atomic_file import write_atomically
from tui_reader.core.links import DEFAULT_SEARCH_URL
from tui_reader.core.paper import Paper, author_text
from tui_reader.core.paper_state import PaperState, WithoutNotes
from tui_reader.core.reference_formats import bibtex, csl_json, ris
from tui_reader.core.references import citation, markdown_link, paper_record, primary_link
from tui_reader.core.wording import count

Render: TypeAlias = Callable[[Sequence[Paper], PaperState, str], str]
CSV_COLUMNS = (
    "id", "headline", "title", "authors", "venue", "url", "tags", "bookmarked", "read", "note",
    "abstract", "keywords", "comments", "volume", "issue", "pages",
)  # fmt: skip
# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Exporter:
    name: str  # `export --format NAME`; what the copy picker's choice is called
    label: str  # how the copy picker offers it
    render: Render  # (papers, their state, search-link template) -> the text
    suffix: str = ""  # a file format: a file whose name ends in it ("" for copies only)
    copied: tuple[str, str] | None = None  # offered to copy: what a copy holds, one and many
    reference: bool = False  # cites papers by their keys; notes only when asked


class ExportError(Exception):
    """The export cannot be written; the message names the file and the problem."""


class ExportFailed(ExportError):
    """The export's file could not be written (a full disk, a folder not writable): a
    failure, not a mistake in the command."""


def reading_list(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    """A Markdown reading list: each paper's link, tags and note."""
    lines = [f"# Reading list ({count(len(papers), 'paper')})", ""]
    for paper in papers:
        line = f"- {markdown_link(paper, primary_link(paper, template))}"
        if tags := state.tags(paper.id):
            line += " — " + " ".join(f"`#{tag}`" for tag in tags)
        lines.append(line)
        lines += [f"  > {note_line}".rstrip() for note_line in state.note(paper.id).splitlines()]
    return "\n".join(lines) + "\n"


def json_records(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    records = [paper_record(paper, state, template) for paper in papers]
    return json.dumps(records, indent=2, ensure_ascii=False) + "\n"


def csv_table(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for paper in papers:
        record = paper_record(paper, state, template)
        record["authors"] = "; ".join(map(author_text, paper.authors))
        record["tags"] = " ".join(state.tags(paper.id))
        record["keywords"] = "; ".join(paper.keywords)
        writer.writerow([_spreadsheet_cell(record[column]) for column in CSV_COLUMNS])
    return buffer.getvalue()


def _spreadsheet_cell(value: object) -> object:
    """A text a spreadsheet would run as a formula with a `'` before it, as OWASP advises:
    the spreadsheet shows it as text."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def markdown_links(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    return "\n".join(markdown_link(paper, primary_link(paper, template)) for paper in papers)


def citations(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    return "\n".join(citation(paper, primary_link(paper, template)) for paper in papers)


def abstracts(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    return "\n".join(paper.abstract for paper in papers)


# In the order the copy picker offers copies, and the file formats are listed.
EXPORTERS: list[Exporter] = [
    Exporter("md", "Markdown reading list", reading_list, suffix=".md"),
    Exporter(
        "markdown-link",
        "Markdown link (headline + url)",
        markdown_links,
        copied=("Markdown link", "Markdown links"),
    ),
    Exporter("citation", "Citation (plain text)", citations, copied=("citation", "citations")),
    Exporter("bib", "BibTeX entry", bibtex, ".bib", ("BibTeX entry", "BibTeX entries"), True),
    Exporter("json", "JSON", json_records, suffix=".json"),
    Exporter("csv", "CSV", csv_table, suffix=".csv"),
    Exporter("abstract", "The abstract", abstracts, copied=("abstract", "abstracts")),
    Exporter("ris", "RIS record", ris, ".ris", ("RIS record", "RIS records"), True),
    # `.csl.json`: `.json` is our own export (a name ending in both is CSL-JSON, the longer).
    Exporter(
        "csl-json",
        "CSL-JSON item",
        csl_json,
        ".csl.json",
        ("CSL-JSON item", "CSL-JSON items"),
        True,
    ),
]


def exporter(name: str) -> Exporter:
    """The exporter called `name`; ValueError when there is none."""
    for row in EXPORTERS:
        if row.name == name:
            return row
    names = ", ".join(row.name for row in EXPORTERS)
    raise ValueError(f"unknown export format {name!r}: choose one of {names}")


def file_formats() -> list[Exporter]:
    """The exporters that write files."""
    return [row for row in EXPORTERS if row.suffix]


def copy_forms() -> list[Exporter]:
    """The exporters the copy picker offers."""
    return [row for row in EXPORTERS if row.copied]


def format_of(path: Path) -> str | None:
    """The file format a file's name asks for (`list.md`, `refs.BIB`), or None: the one
    with the longest suffix the name ends in."""
    name = path.name.lower()
    endings = [
        row
        for row in file_formats()
        if name.endswith(row.suffix.lower()) and len(name) > len(row.suffix)
    ]
    return max(endings, key=lambda row: len(row.suffix)).name if endings else None


def render(
    name: str,
    papers: Sequence[Paper],
    state: PaperState,
    template: str = DEFAULT_SEARCH_URL,
    include_notes: bool = False,
) -> str:
    """The papers in the format called `name`; a reference with the user's notes only with
    `include_notes` (the `[export] include_notes` setting)."""
    row = exporter(name)
    return row.render(
        papers, state if include_notes or not row.reference else WithoutNotes(state), template
    )


def kept_file(path: Path, library_files: Sequence[Path], paper_files: Sequence[Path]) -> str | None:
    """Why an export may not be written to `path`, even replacing what is there: it is the
    library in use or a file beside it (`Library.own_files`), or a file the papers were read
    from (`PaperStore.source_files`); None when it may."""
    target = os.path.realpath(path)

    def same(other: Path) -> bool:
        if os.path.realpath(other) == target:
            return True
        try:
            return os.path.samefile(other, path)  # a hard link
        except OSError:
            return False

    if any(map(same, library_files)):
        return f"{path} is the library in use, or a file it keeps beside it: export to another file"
    if any(map(same, paper_files)):
        return f"{path} holds papers read: export to another file"
    return None


def write_export(path: Path, text: str, force: bool = False) -> None:
    """Write the export atomically; an existing file is replaced only with `force` (and never
    one `kept_file` names: its callers ask it first)."""
    if path.exists() and not force:
        raise ExportError(f"{path} already exists (use --force to replace it)")
    if not path.parent.is_dir():
        raise ExportError(f"{path.parent}: the folder does not exist")
    try:
        write_atomically(path, text)
    except OSError as error:
        raise ExportFailed(f"{path}: {error.strerror or error}") from None
