"""Reading papers from JSON Lines, JSON arrays, CSV and BibTeX files (gzipped or not).

Each reader yields records and problems. A malformed record (a bad JSON line, a row with no
abstract) is a problem naming its line; the rest of the file still loads. A JSON array that
cannot be read to its end raises FormatError: its items cannot be told apart after the error.
"""

import csv
import io
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import bibtexparser

from tui_reader.core.text import clean

FIELDS = ("title", "abstract", "authors", "url", "venue")
_AUTHOR_SPLIT = re.compile(r"\s+and\s+|;\s*")
# bibtexparser logs each block it cannot parse; it is reported as a Problem with its line
# instead, so the log's lines on stderr would only say it again, over several lines.
logging.getLogger("bibtexparser").setLevel(logging.ERROR)


@dataclass(frozen=True, slots=True)
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


class FormatError(Exception):
    """A file that cannot be read past a point, so none of it is used: where and why."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"{message} on line {line}")
        self.line = line
        self.message = message


def _json_problem(error: ValueError | RecursionError) -> str:
    """What stops `json` reading a text: bad syntax, deep nesting, or a number over the
    digits Python converts (4,300)."""
    if isinstance(error, json.JSONDecodeError):
        return f"not valid JSON ({error.msg})"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return "a number with too many digits"


def _authors(value: object) -> tuple[str, ...]:
    if isinstance(value, list):
        names = [str(name) for name in value]
    elif isinstance(value, str):
        names = _AUTHOR_SPLIT.split(value) if (" and " in value or ";" in value) else [value]
        if len(names) == 1 and value.count(",") >= 2:
            names = value.split(",")
    else:
        names = []
    return tuple(name for name in (clean(n) for n in names if isinstance(n, str)) if name)


def _text(value: object) -> str:
    """A field's text: a string, or a number written out; a list or a table is left out."""
    return clean(str(value)) if isinstance(value, str | int | float) else ""


def record_from(data: dict[str, object], line: int) -> Record | Problem:
    """A Record from a mapping with the FIELDS (any case), or the Problem with it."""
    values = {str(key).strip().lower(): value for key, value in data.items()}
    abstract = values.get("abstract")
    if not isinstance(abstract, str) or not clean(abstract):
        return Problem(line, "no abstract")
    return Record(
        abstract=clean(abstract),
        title=_text(values.get("title")),
        authors=_authors(values.get("authors", values.get("author"))),
        url=_text(values.get("url")),
        venue=_text(values.get("venue")),
    )


def read_json_line(line: str, number: int) -> Record | Problem | None:
    """The record on one line of JSON Lines, the Problem with it, or None for a blank line."""
    if not line.strip():
        return None
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as error:
        return Problem(number, _json_problem(error))
    if not isinstance(data, dict):
        return Problem(number, "not a JSON object")
    return record_from(data, number)


def read_json_lines(text: str) -> Iterator[Record | Problem]:
    # split("\n"), not splitlines(): JSON strings may hold U+2028 and other line separators.
    for number, line in enumerate(text.split("\n"), 1):
        if item := read_json_line(line, number):
            yield item


_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def _skip_space(text: str, position: int) -> int:
    match = _JSON_SPACE.match(text, position)
    return match.end() if match else position


def read_json_array(text: str) -> Iterator[Record | Problem]:
    """The records of a JSON array, read an item at a time so that each is told with the line
    it starts on; FormatError when the array cannot be read to its end."""
    decoder = json.JSONDecoder()
    position = _skip_space(text, 0)
    line = 1 + text.count("\n", 0, position)

    def move_to(end: int) -> None:
        nonlocal position, line
        end = _skip_space(text, end)
        line += text.count("\n", position, end)
        position = end

    if not text.startswith("[", position):
        raise FormatError(line, "not a JSON array of papers")
    move_to(position + 1)
    number = 0
    while not text.startswith("]", position):
        if number:
            if not text.startswith(",", position):
                what = "the array is not closed" if position == len(text) else "no comma"
                raise FormatError(line, f"not valid JSON ({what})")
            move_to(position + 1)
        number += 1
        try:
            item, end = decoder.raw_decode(text, position)
        except (ValueError, RecursionError) as error:
            raise FormatError(getattr(error, "lineno", line), _json_problem(error)) from None
        if not isinstance(item, dict):
            yield Problem(line, f"item {number}: not a JSON object")
        elif isinstance(result := record_from(item, line), Problem):
            yield Problem(line, f"item {number}: {result.message}")
        else:
            yield result
        move_to(end)
    move_to(position + 1)
    if position < len(text):
        raise FormatError(line, "not valid JSON (more after the array's end)")


def read_csv(text: str) -> Iterator[Record | Problem]:
    """The records of a CSV file, each bad row told with the line it starts on."""
    # A field can be no longer than the text, and the text is bounded where it is read.
    csv.field_size_limit(max(csv.field_size_limit(), len(text)))
    rows = csv.reader(io.StringIO(text))
    header: list[str] | None = None
    while True:
        start = rows.line_num + 1
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as error:
            yield Problem(start, f"not valid CSV ({error})")
            continue
        if not row:
            continue
        if header is None:
            header = row
            if "abstract" not in [name.strip().lower() for name in header]:
                yield Problem(start, "the header row has no abstract column")
                return
            continue
        yield record_from(dict(zip(header, row, strict=False)), start)


def read_bibtex(text: str) -> Iterator[Record | Problem]:
    library = bibtexparser.parse_string(text)  # type: ignore[attr-defined]
    for block in library.failed_blocks:
        yield Problem((block.start_line or 0) + 1, "not a valid BibTeX entry")
    for entry in library.entries:
        fields = {key.lower(): f.value for key, f in entry.fields_dict.items()}
        venue = fields.get("journal") or fields.get("booktitle") or fields.get("howpublished")
        data = {**fields, "venue": venue, "authors": fields.get("author", "")}
        result = record_from(data, (entry.start_line or 0) + 1)
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
