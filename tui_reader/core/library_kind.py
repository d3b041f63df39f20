"""Whether a file is a library (whole, or damaged) or never was one: a file that is not ours
is never repaired, moved or replaced (papers given to `--library` by a slip, a binary file,
another program's JSON, a library's journal)."""

import re
from pathlib import Path

from tui_reader.core.library_file import _SNAPSHOT, VERSION, DuplicateValues, _loads

# How a library's snapshot begins, whitespace left out: the keys of one as written, or by hand
# (the first, with the start of its value), or a merge's conflict marker.
_LIBRARY_HEAD = re.compile(rb'\{(?:"(?:papers|searches)":\{|"version":\d|\})|<<<<<<<')
_LIBRARY_STARTS = (b'{"papers":{', b'{"searches":{', b'{"version":1', b"{}")  # cut shorter
_LIBRARY_KEYS = frozenset(("version", "papers", "searches"))
_HEAD = 4096  # bytes of a file read to tell whether it is a library
# How a library's snapshot that holds something begins (as `begins_as_library` looks).
_HOLDING_HEAD = re.compile(rb'\{(?:"(?:papers|searches)":\{|"version":\d)')


def begins_as_library(head: bytes) -> bool:
    """Whether a file's first bytes are a library's (given as papers by a slip, say)."""
    body = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    return bool(_HOLDING_HEAD.match(re.sub(rb"\s+", b"", body[:64])))


def not_ours(path: Path) -> str | None:
    """Why the file at `path` never was a library, or None: there is none, it is empty (or
    holds only what a crash leaves: NUL bytes), it is a library, or it begins as one that
    was damaged. A file that is not ours is never repaired, moved or replaced."""
    try:
        with path.open("rb") as file:
            head = file.read(_HEAD)
    except FileNotFoundError:
        return None
    body = head.removeprefix(b"\xef\xbb\xbf").strip(b" \t\r\n\x00")
    compact = re.sub(rb"\s+", b"", body[:64])
    if not body or any(start.startswith(compact) for start in _LIBRARY_STARTS):
        return None
    if b"\x00" in head or not _is_text(head):
        return "it holds binary data"
    if compact.startswith(b'{"entry":'):
        return "it is a library's journal, not the library"
    try:
        data = _loads(path.read_bytes(), _SNAPSHOT) if compact.startswith(b"{") else None
    except (ValueError, RecursionError, OSError):  # not JSON: damaged, or never JSON
        data = None
    if data is not None:  # whole JSON: a library holds our keys only, each of its kind
        return None if _is_library(data) else "it is JSON, but not a library's"
    if _LIBRARY_HEAD.match(compact):
        return None
    if compact.startswith((b"{", b"[")):
        return "it is JSON, but not a library's"
    return "it is text, but not a library's JSON"


def _is_library(data: object) -> bool:
    """Whether JSON read whole is a library's: an object of our keys (a newer version's may
    have more, but holds its papers: every version writes them, and other files of ours,
    `triage.json`, have a version too), its version a number and its papers and searches
    objects (each may be there twice); one missing its version is damaged, not another
    program's."""
    if not isinstance(data, dict):
        return False
    newer = type(data.get("version")) is int and data["version"] > VERSION
    if not _LIBRARY_KEYS.issuperset(data) and not (newer and "papers" in data):
        return False
    kinds = {"version": int, "papers": dict, "searches": dict}
    for key, value in data.items():
        parts = value if isinstance(value, DuplicateValues) else [value]
        if key in kinds and not all(isinstance(part, kinds[key]) for part in parts):
            return False
    return True


def _is_text(head: bytes) -> bool:
    """Whether the first bytes of a file are UTF-8 text (the last character may be cut)."""
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start >= len(head) - 3 and len(head) == _HEAD
    return True
