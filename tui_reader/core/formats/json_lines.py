"""JSON Lines: a paper object a line, read as it goes, so a big file's first papers come at
once and a file of any size can be read."""

import codecs
import io
import json
import re
from collections.abc import Callable, Iterator

import orjson

from tui_reader.core.formats.records import Problem, Record, json_problem, record_from

MB = 1_000_000
MAX_LINE_BYTES = 10 * MB
_CHUNK_BYTES = MB
# A line holding more than blanks: runs of blank lines are passed over by `re`, not a line
# at a time in Python (a gzip file of newlines would take hours).
_CONTENT_LINE = re.compile(rb"^[^\n]*\S[^\n]*", re.MULTILINE)


ToRecord = Callable[[dict[str, object], int], Record | Problem]


def read_json_line(
    line: str, number: int, to_record: ToRecord = record_from
) -> Record | Problem | None:
    """The record on one line of JSON Lines, the Problem with it, or None for a blank line;
    `to_record` reads the line's object (a format with keys of its own gives its own)."""
    if not line.strip():
        return None
    try:
        data = orjson.loads(line)
    except orjson.JSONDecodeError:  # or what only `json` reads (NaN, a 20-digit number)
        try:
            data = json.loads(line)  # which also says what is wrong in its own words
        except (ValueError, RecursionError) as error:
            return Problem(number, json_problem(error))
    if not isinstance(data, dict):
        return Problem(number, "not a JSON object")
    return to_record(data, number)


def _numbered(data: bytes, end: int, number: int) -> Iterator[tuple[int, bytes | None]]:
    """The lines holding more than blanks in data[:end], which begins on line `number`."""
    counted = 0
    for match in _CONTENT_LINE.finditer(data, 0, end):
        number += data.count(b"\n", counted, match.start())
        counted = match.start()
        yield number, match[0] if len(match[0]) <= MAX_LINE_BYTES else None


def line_chunks(
    file: io.BufferedIOBase, size: int = _CHUNK_BYTES
) -> Iterator[tuple[bytes, int] | Problem]:
    """A file's text in whole lines, read `size` bytes at a time: pieces, each with the
    number of its first line, and a Problem for a line longer than MAX_LINE_BYTES, which is
    dropped as it is read. The pieces can be read apart (`read_lines`), on other cores."""
    number, carry, dropping = 1, b"", False
    while chunk := file.read(size):
        if dropping:
            end = chunk.find(b"\n")
            if end < 0:
                continue
            chunk, number, dropping = chunk[end + 1 :], number + 1, False
        data = carry + chunk
        cut = data.rfind(b"\n") + 1
        if cut:
            yield data[:cut], number
        number += data.count(b"\n", 0, cut)
        carry = data[cut:]
        if len(carry) > MAX_LINE_BYTES:
            yield _too_long(number)
            carry, dropping = b"", True
    if carry:
        yield carry, number


def _too_long(number: int) -> Problem:
    return Problem(number, f"longer than the {MAX_LINE_BYTES / MB:g} MB a line may take")


def read_lines(
    data: bytes, first: int, to_record: ToRecord = record_from
) -> Iterator[Record | Problem]:
    """The records of whole lines of JSON Lines, the first of them line `first`; a line
    that is not UTF-8 is a Problem, as a line that is not JSON is (a byte damaged in a big
    file stopped it there, and the papers after it were not read)."""
    for number, line in _numbered(data, len(data), first):
        if line is None:
            yield _too_long(number)
            continue
        if number == 1:
            line = line.removeprefix(codecs.BOM_UTF8)
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            yield Problem(number, f"not UTF-8 text (byte 0x{line[error.start]:02x})")
            continue
        if item := read_json_line(text, number, to_record):
            yield item


def read_json_lines(
    file: io.BufferedIOBase, to_record: ToRecord = record_from
) -> Iterator[Record | Problem]:
    """A JSON Lines file's records; a line over MAX_LINE_BYTES is a Problem, never held
    whole, as is a line that is not UTF-8."""
    for piece in line_chunks(file):
        if isinstance(piece, Problem):
            yield piece
        else:
            yield from read_lines(*piece, to_record)
