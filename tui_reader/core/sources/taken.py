"""The papers a fetch added to a collection, noted beside it (`NAME.jsonl.taken`): `is:new`
for an entry of the cache written on first sight (core.segments.kept.carried), whose files no
entry kept held before (the cache folder pruned, or nothing opened between two fetches).

The note is JSON: its format and, for each paper new to the file, the key the store gives its
id (core.paper_columns.id_key) with when it was added; those of the day the last were added
are kept (core.segments.added.of_last_day). A paper already in the file (a new version of it)
is not added. It is written atomically while the fetch holds the collection's lock; read only
from a regular file, and one that cannot be read or says something else is as if nothing
were noted.
"""

import contextlib
import json
import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path

from tui_reader.core.atomic_file import write_atomically
from tui_reader.core.formats.json_lines import read_json_line
from tui_reader.core.formats.records import Record
from tui_reader.core.paper import paper_id_of
from tui_reader.core.paper_columns import id_key
from tui_reader.core.segments.added import Added, added_of, taken_now
from tui_reader.core.segments.ranges import Rejected

TAKEN_SUFFIX = ".taken"
TAKEN_FORMAT = 1


def taken_path(path: Path) -> Path:
    return path.with_name(path.name + TAKEN_SUFFIX)


def key_of(line: bytes) -> int | None:
    """The key of the id the loader gives the paper of a collection's line; None when it
    reads no paper there."""
    record = read_json_line(line.decode("utf-8", errors="replace"), 0)
    if not isinstance(record, Record):
        return None
    return id_key(paper_id_of(record.abstract, record.metadata))


def taken_from(path: Path) -> Added:
    """The papers fetches noted as added to the collection at `path`; none when nothing is
    noted or the note cannot be read."""
    note = taken_path(path)
    try:
        if not stat.S_ISREG(note.lstat().st_mode):
            return []
        data = json.loads(note.read_bytes())
        if not isinstance(data, dict) or data.get("format") != TAKEN_FORMAT:
            return []
        return added_of(data.get("taken"))
    except (OSError, ValueError, RecursionError, Rejected):
        return []


def note_taken(path: Path, keys: Sequence[int]) -> None:
    """Note these papers as added now to the collection at `path`, beside those noted the
    same day; a note that cannot be written is left as it is (the fetch goes on)."""
    now = time.time()
    note = taken_path(path)
    if os.path.lexists(note) and not stat.S_ISREG(note.lstat().st_mode):
        return
    taken = taken_now(taken_from(path), keys, now)
    with contextlib.suppress(OSError):
        write_atomically(note, json.dumps({"format": TAKEN_FORMAT, "taken": taken}) + "\n")
