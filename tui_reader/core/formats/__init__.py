"""Input formats: each row of INPUT_FORMATS is one, with the suffixes of its files, how the
start of its text is told apart, and its reader, which yields Records and Problems.

Adding a format is a reader in a module of its own and one row here. A reader is given the
file's whole text (`read_text`, at most core.loading.MAX_TEXT_BYTES of it) or its bytes,
decompressed, to read as it goes (`read_stream`: files of any size, papers on screen at once;
with `pieces`, a big one is read on every core).

A file's format: the formats one of whose suffixes its name ends in (before `.gz`); when
several claim it, the first whose `sniff` accepts the start of its text, else the last of
them. A file named otherwise is in the first format whose `sniff` accepts its start, else
seed text.
"""

import io
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from tui_reader.core.formats.arxiv_snapshot import (
    is_snapshot,
    read_arxiv_snapshot,
    read_snapshot_lines,
)
from tui_reader.core.formats.bibtex import read_bibtex
from tui_reader.core.formats.csv_table import read_csv
from tui_reader.core.formats.json_array import read_json_array
from tui_reader.core.formats.json_lines import line_chunks, read_json_lines, read_lines
from tui_reader.core.formats.records import FormatError, Problem, Record
from tui_reader.core.formats.seed_text import (
    count_paragraphs,
    paragraph_chunks,
    read_seed_text,
    seed_reader,
)
from tui_reader.core.library_kind import begins_as_library

__all__ = [
    "FALLBACK",
    "INPUT_FORMATS",
    "FormatError",
    "InputFormat",
    "Pieces",
    "Problem",
    "ReadPiece",
    "Record",
    "input_format",
    "not_papers",
    "paper_suffixes",
    "read_as_now",
    "readings",
]

Items = Iterable[Record | Problem]
ReadPiece = Callable[[bytes, int], Items]


@dataclass(frozen=True)
class Pieces:
    """How a file of a record a line (or a paragraph) is cut into pieces of whole records,
    which can be read apart, on other cores."""

    # The file's pieces, of about so many bytes each, with the number of each one's first
    # line, and a Problem for a record too long to be read.
    cut: Callable[[io.BufferedIOBase, int], Iterator[tuple[bytes, int] | Problem]]
    # Given the start of the file's text, what reads a piece's records, given the number of
    # its first line (sent to other processes: a function of a module, or a partial of one).
    reader: Callable[[str], ReadPiece]
    records: Callable[[bytes], int]  # about how many records a sample of the text holds
    # Whether records read from any line on are those the file holds from there: a file that
    # grew is read from where it ended (a paragraph's first may be the collection's name).
    from_any_line: bool = False


def _count_lines(data: bytes) -> int:
    return data.count(b"\n")


@dataclass(frozen=True)
class InputFormat:
    name: str
    suffixes: tuple[str, ...]  # ".jsonl": a file name ends in one (a .gz after it is read through)
    read_text: Callable[[str], Items] | None = None  # given the whole text
    read_stream: Callable[[io.BufferedIOBase], Items] | None = None  # given the bytes
    # Whether the start of a file's text (a few kilobytes, without a BOM or leading blanks)
    # is in this format; None: never told by its text.
    sniff: Callable[[str], bool] | None = None
    # A quick bound on the records of a text, for a reader that parses it all before it
    # yields one: a file of too many is refused before it is parsed.
    records_at_most: Callable[[str], int] | None = None
    # For a format of a record a line or a paragraph: a big file is cut into pieces read on
    # every core.
    pieces: Pieces | None = None
    # How its reader reads records, raised when it reads the same records otherwise: the
    # cache's papers of its files read another way are read again (`read_as_now`).
    reading: int = 1

    def __post_init__(self) -> None:
        if (self.read_text is None) == (self.read_stream is None):
            raise ValueError(f"input format {self.name}: give read_text or read_stream")

    @property
    def streaming(self) -> bool:
        return self.read_stream is not None


def _starts(character: str) -> Callable[[str], bool]:
    return lambda start: start.startswith(character)


def _csv_header(start: str) -> bool:
    first_line = start.split("\n", 1)[0].lower()
    return "," in first_line and "abstract" in first_line


# The order matters where formats share a suffix (.json: an array, else JSON Lines) and for a
# file told by its text alone.
INPUT_FORMATS: list[InputFormat] = [
    InputFormat(
        "json",
        (".json",),
        read_text=read_json_array,
        sniff=_starts("["),
        reading=2,  # 2: volume, issue and pages
    ),
    # Before JSON Lines, which it is: told by its keys (`arxiv-metadata-oai-snapshot.json`).
    InputFormat(
        "arxiv-snapshot",
        (".json", ".jsonl", ".ndjson"),
        read_stream=read_arxiv_snapshot,
        sniff=is_snapshot,
        pieces=Pieces(line_chunks, lambda _start: read_snapshot_lines, _count_lines, True),
    ),
    InputFormat(
        "jsonl",
        (".jsonl", ".ndjson", ".json"),
        read_stream=read_json_lines,
        sniff=_starts("{"),
        pieces=Pieces(line_chunks, lambda _start: read_lines, _count_lines, True),
        reading=2,  # 2: volume, issue and pages
    ),
    InputFormat(
        "bib",
        (".bib",),
        read_text=read_bibtex,
        sniff=_starts("@"),
        records_at_most=lambda text: text.count("@"),  # parsed whole: counted first
        # 2: fields read as text, authors named given name first; 3: volume, number and
        # pages, `others` anywhere as et al.; 4: the abstract as written kept, for BibTeX
        reading=4,
    ),
    InputFormat(
        "csv",
        (".csv",),
        read_stream=read_csv,
        sniff=_csv_header,
        reading=2,  # 2: volume, issue and pages
    ),
    InputFormat(
        "txt",
        (".txt",),
        read_stream=read_seed_text,
        pieces=Pieces(paragraph_chunks, seed_reader, count_paragraphs),
    ),
]
FALLBACK = "txt"  # a file nothing else claims is seed text
_OTHERS = "BibTeX, JSON, JSON Lines, CSV and text"
# RIS's first line: its type tag and a type's code (JOUR, CPAPER), one space before the dash
# or two as RIS writes it; an abstract that begins "TY  - is how…" is not one.
_RIS_START = re.compile(rb"TY {1,2}- ?[A-Z0-9]{2,8} *\r?\n")
# CSL-JSON (Zotero's, Pandoc's, our own export's): an array of objects whose type is one of
# CSL's, with fields only CSL names so (a name's parts, a date's, the venue's). Read as papers,
# its authors were Python's text of each name's object, its venue was lost, and a paper whose
# abstract held LaTeX (written as Unicode) had a new id. An `id` and a `type` alone are not
# enough: papers of other programs have them (OpenAlex's: "article").
_CSL_JSON_START = re.compile(rb"\[\s*\{")
_CSL_TYPE = re.compile(
    rb'"type"\s*:\s*"(?:article|article-journal|article-magazine|article-newspaper|bill|book'
    rb"|broadcast|chapter|classic|collection|dataset|document|entry|entry-dictionary"
    rb"|entry-encyclopedia|event|figure|graphic|hearing|interview|legal_case|legislation"
    rb"|manuscript|map|motion_picture|musical_score|pamphlet|paper-conference|patent"
    rb"|performance|periodical|personal_communication|post|post-weblog|regulation|report"
    rb'|review|review-book|software|song|speech|standard|thesis|treaty|webpage)"'
)
_CSL_FIELD = re.compile(rb'"(?:family|literal|date-parts|container-title|citation-key)"\s*:')
# The first line of tui-reader's own reading list (Markdown) or digest (Markdown or text),
# whole: a collection named "Reading list (1 paper)" is not one.
_OWN_LIST_START = re.compile(
    rb"(?:# Reading list \([\d,]+ papers?\)"
    rb"|(?:# )?tui-reader digest: [\d,]+ unread papers? in [\d,]+ saved search(?:es)?) *\r?\n"
)


def not_papers(head: bytes) -> str | None:
    """What a file's first bytes say it is when it holds no papers of these formats, or None:
    a tui-reader library (given as papers by a slip), references in RIS or CSL-JSON (Zotero's,
    or our own export's), or a reading list or digest of ours, whose lines seed text would read as
    abstracts."""
    if begins_as_library(head):
        return "is a tui-reader library, not papers (give it with --library)"
    start = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if _RIS_START.match(start):
        return f"is RIS (references), not papers: tui-reader reads papers in {_OTHERS}"
    if _CSL_JSON_START.match(start) and _CSL_TYPE.search(start) and _CSL_FIELD.search(start):
        return f"is CSL-JSON (references), not papers: tui-reader reads papers in {_OTHERS}"
    if _OWN_LIST_START.match(start):
        return (
            "is a reading list or digest tui-reader wrote, not papers: tui-reader reads "
            f"papers in {_OTHERS}"
        )
    return None


def input_format(name: str, start: str) -> InputFormat:
    """The format of a file called `name` whose text begins with `start`."""
    base = name.lower().removesuffix(".gz")
    claiming = [f for f in INPUT_FORMATS if base.endswith(tuple(s.lower() for s in f.suffixes))]
    if len(claiming) == 1:
        return claiming[0]
    start = start.removeprefix("\ufeff").lstrip()
    for candidate in claiming or INPUT_FORMATS:
        if candidate.sniff is not None and candidate.sniff(start):
            return candidate
    if claiming:
        return claiming[-1]
    return next(f for f in INPUT_FORMATS if f.name == FALLBACK)


def paper_suffixes() -> tuple[str, ...]:
    """Every suffix a paper file's name may end in (before `.gz`), lower case."""
    return tuple(suffix.lower() for f in INPUT_FORMATS for suffix in f.suffixes)


def readings() -> dict[str, int]:
    """How the formats read records that read them otherwise than at first, by name."""
    return {f.name: f.reading for f in INPUT_FORMATS if f.reading > 1}


def read_as_now(name: str, kept: object) -> bool:
    """Whether the records of a file called `name`, read with the `readings` kept (None: by a
    version that kept none), are read as its format reads them now (a file sniffed into a
    format no suffix of its name claims is not told)."""
    base = name.lower().removesuffix(".gz")
    claiming = [f for f in INPUT_FORMATS if f.reading > 1 and base.endswith(f.suffixes)]
    return all(isinstance(kept, dict) and kept.get(f.name) == f.reading for f in claiming)
