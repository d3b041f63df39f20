"""Reading papers from JSON Lines, JSON arrays, CSV and BibTeX files (gzipped or not).

Each reader yields records and problems. A malformed record (a bad JSON line, a row with no
abstract) is a problem naming its line; the rest of the file still loads.
"""

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import bibtexparser

from tui_reader.core.text import clean

FIELDS = ("title", "abstract", "authors", "url", "venue")
_AUTHOR_SPLIT = re.compile(r"\s+and\s+|;\s*")


@dataclass(frozen=True)
class Record:
    """One paper as a source file gives it, before it becomes a Paper."""

    abstract: str
    title: str = ""
    authors: tuple[str, ...] = field(default=())
    url: str = ""
    venue: str = ""


@dataclass(frozen=True)
class Problem:
    """A record that could not be read: where and why."""

    line: int
    message: str


def _authors(value: object) -> tuple[str, ...]:
    if isinstance(value, list):
        names = [str(name) for name in value]
    elif isinstance(value, str):
        names = _AUTHOR_SPLIT.split(value) if (" and " in value or ";" in value) else [value]
        if len(names) == 1 and value.count(",") >= 2:
            names = value.split(",")
    else:
        names = []
    return tuple(name for name in (clean(n) for n in names) if name)


def record_from(data: dict[str, object], line: int) -> Record | Problem:
    """A Record from a mapping with the FIELDS (any case), or the Problem with it."""
    values = {str(key).strip().lower(): value for key, value in data.items()}
    abstract = values.get("abstract")
    if not isinstance(abstract, str) or not clean(abstract):
        return Problem(line, "no abstract")
    return Record(
        abstract=clean(abstract),
        title=clean(str(values.get("title") or "")),
        authors=_authors(values.get("authors", values.get("author"))),
        url=clean(str(values.get("url") or "")),
        venue=clean(str(values.get("venue") or "")),
    )


def read_json_lines(lines: str | Iterable[str]) -> Iterator[Record | Problem]:
    """Records from JSON Lines: a whole text, or its lines as they are read."""
    # split("\n"), not splitlines(): JSON strings may hold U+2028 and other line separators.
    if isinstance(lines, str):
        lines = lines.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            yield Problem(number, f"not valid JSON ({error.msg})")
            continue
        if not isinstance(data, dict):
            yield Problem(number, "not a JSON object")
            continue
        yield record_from(data, number)


def read_json_array(text: str) -> Iterator[Record | Problem]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        yield Problem(error.lineno, f"not valid JSON ({error.msg})")
        return
    if not isinstance(data, list):
        yield Problem(1, "not a JSON array of papers")
        return
    # A parsed array no longer knows its lines: say which item instead.
    for number, item in enumerate(data, 1):
        if isinstance(item, dict):
            result = record_from(item, number)
            yield (
                Problem(number, f"item {number}: {result.message}")
                if isinstance(result, Problem)
                else result
            )
        else:
            yield Problem(number, f"item {number}: not a JSON object")


def read_csv(text: str) -> Iterator[Record | Problem]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "abstract" not in [f.strip().lower() for f in reader.fieldnames]:
        yield Problem(1, "the header row has no abstract column")
        return
    try:
        for row in reader:
            result = record_from({k: v for k, v in row.items() if k is not None}, reader.line_num)
            yield result
    except csv.Error as error:
        yield Problem(reader.line_num, f"not valid CSV ({error})")


def read_bibtex(text: str) -> Iterator[Record | Problem]:
    library = bibtexparser.parse_string(text)
    for block in library.failed_blocks:
        yield Problem(block.start_line + 1, "not a valid BibTeX entry")
    for entry in library.entries:
        fields = {key.lower(): f.value for key, f in entry.fields_dict.items()}
        venue = fields.get("journal") or fields.get("booktitle") or fields.get("howpublished")
        data = {**fields, "venue": venue, "authors": fields.get("author", "")}
        result = record_from(data, entry.start_line + 1)
        if isinstance(result, Problem):
            yield Problem(result.line, f"entry {entry.key}: {result.message}")
        else:
            yield result


def sniff(name: str, text: str) -> str:
    """The format of a file: by its extension, else by how its text begins."""
    suffixes = [s.lower() for s in name.split(".")[1:] if s.lower() != "gz"]
    extension = suffixes[-1] if suffixes else ""
    if extension in ("jsonl", "ndjson"):
        return "jsonl"
    if extension in ("json", "csv", "bib", "txt"):
        return (
            "json"
            if extension == "json" and text.lstrip().startswith("[")
            else ("jsonl" if extension == "json" else extension)
        )
    start = text.lstrip()[:1]
    if start == "[":
        return "json"
    if start == "{":
        return "jsonl"
    if start == "@":
        return "bib"
    first_line = text.lstrip().split("\n", 1)[0].lower()
    if "," in first_line and "abstract" in first_line:
        return "csv"
    return "txt"


READERS = {"jsonl": read_json_lines, "json": read_json_array, "csv": read_csv, "bib": read_bibtex}
