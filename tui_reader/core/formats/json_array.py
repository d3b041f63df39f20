"""A JSON array of paper objects, read an item at a time."""

import json
import re
from collections.abc import Iterator

from tui_reader.core.formats.records import FormatError, Problem, Record, json_problem, record_from

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
            if position == len(text):
                raise FormatError(line, f"the file ends after item {number}: cut short")
            if not text.startswith(",", position):
                raise FormatError(line, "not valid JSON (no comma)")
            move_to(position + 1)
        number += 1
        try:
            item, end = decoder.raw_decode(text, position)
        except (ValueError, RecursionError) as error:
            if _ends_early(error, text):
                raise FormatError(line, f"the file ends within item {number}: cut short") from None
            raise FormatError(getattr(error, "lineno", line), json_problem(error)) from None
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


def _ends_early(error: Exception, text: str) -> bool:
    """Whether JSON's error is the text's end: within a string, or where a value must come."""
    if not isinstance(error, json.JSONDecodeError):
        return False
    return error.msg.startswith("Unterminated string") or error.pos >= len(text.rstrip())
