"""Whether a kept entry's parts are still as they were written, and which are to be read again.

Opening an entry checks its manifests and arrays' shapes, not its bytes: a million papers'
entry is gigabytes, and bit rot, a write cut short or a disk's error inside a frame of text
(core.frames) or a posting list would be read as another text, or as U+FFFD. Each array's
digest is kept in its manifest, taken as it is written (core.digest); `check` reads the
files again after the entry is opened (the reader, in the background) and marks the parts
found altered in the entry (`MARK`), as a frame found damaged while it is read marks its part
(`mark_seen`); the entry's own arrays, which join its parts, are checked too (VIEW). What
was found sound is read again a day later at the soonest (CHECKED keeps when). An entry
so marked has those parts read again from their files when it is next opened (core.segments
.entry.plan), its arrays made again from its parts, the rest kept: the papers taken in last
(`is:new`) too.
"""

import json
import os
import secrets
import stat
import time
from collections.abc import Iterable
from pathlib import Path

from tui_reader.core.flat import disk
from tui_reader.core.segments import part
from tui_reader.core.segments.entry import PARTS
from tui_reader.core.segments.ranges import Rejected

MARK = "damaged.json"  # an entry's parts found altered: their names
MARK_LIMIT = 1_000_000  # bytes: a few names; a bigger file is not ours
CHECKED = "checked.json"  # when each part (and VIEW) was last found sound
RECHECK = 24 * 3600  # seconds after which a part found sound is read again
VIEW = "view"  # marked: the entry's own arrays, which join its parts (no part's name: hex)


def altered(folder: Path) -> bool:
    """Whether a part's files (its index's too) are not as their digests say, or its manifest
    cannot be read; a part kept by an earlier version, of no digests, is taken as sound."""
    try:
        manifest = part.read_manifest(folder, folder.name)
    except Rejected:
        return True
    if disk.altered(folder, manifest.get("digests")):
        return True
    for index in folder.glob(f"flat-v{disk.VERSION}-*"):
        try:
            kept = disk.read_manifest(index, (disk.FORMAT, disk.VERSION), None, disk.MANIFEST_LIMIT)
        except disk.Rejected:
            return True
        if disk.altered(index, kept.get("digests")):
            return True
    return False


def check(
    entry: Path, names: Iterable[str], digests: object, now: float | None = None
) -> list[str]:
    """The parts of an entry (of these names) whose files are not as written, and VIEW when
    its own arrays (of these digests) are not, marked in the entry to be read again (made
    again); what was marked. What was found sound less than RECHECK ago is not read again
    (a million papers' entry is 1.8 GB read at each start): the times each was found sound
    are kept in the entry (CHECKED). OSError when the mark cannot be written."""
    now = time.time() if now is None else now
    sound_at = _checked(entry)
    due = [name for name in [*names, VIEW] if not 0 <= now - sound_at.get(name, -1) < RECHECK]
    damaged = [
        name
        for name in due
        if (disk.altered(entry, digests) if name == VIEW else altered(entry / PARTS / name))
    ]
    if damaged:
        mark(entry, damaged)
    found_sound = {name: now for name in due if name not in damaged}
    if found_sound:
        kept = {name: at for name, at in sound_at.items() if name not in damaged}
        _write(entry / CHECKED, kept | found_sound)
    return damaged


def _checked(entry: Path) -> dict[str, float]:
    """When each part of an entry (and VIEW) was last found sound (none when the record
    cannot be read)."""
    found = _read(entry / CHECKED)
    if not isinstance(found, dict):
        return {}
    return {
        name: float(at)
        for name, at in found.items()
        if isinstance(name, str) and name.isalnum() and isinstance(at, int | float)
    }


def marked(entry: Path) -> set[str]:
    """The names of the parts of an entry marked to be read again (none when the mark cannot
    be read)."""
    names = _read(entry / MARK)
    if not isinstance(names, list):
        return set()
    return {name for name in names if isinstance(name, str) and name.isalnum()}


def mark(entry: Path, names: Iterable[str]) -> None:
    """Mark these parts of an entry to be read again (with those marked before). OSError
    when it cannot be written."""
    _write(entry / MARK, sorted(marked(entry) | set(names)))


def _read(path: Path) -> object:
    """The JSON of one of the entry's small files (None when it cannot be read: it is the
    cache's own file, never a link)."""
    try:
        if not stat.S_ISREG(path.lstat().st_mode):  # a FIFO would wait forever
            return None
        with path.open("rb") as stream:
            return json.loads(stream.read(MARK_LIMIT + 1)[:MARK_LIMIT])
    except (OSError, ValueError, RecursionError):
        return None


def _write(path: Path, value: object) -> None:
    """Write one of the entry's small files: a new file renamed into place."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    try:
        temporary.write_text(json.dumps(value), encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def mark_seen(files: Iterable[str]) -> list[Path]:
    """Mark the parts whose frames these files are (core.frames.damage_seen: a part's own
    column, or its index's text) to be read again; the entries marked."""
    entries: dict[Path, set[str]] = {}
    for file in files:
        for folder in Path(file).parents:
            if folder.parent.name == PARTS:
                entries.setdefault(folder.parent.parent, set()).add(folder.name)
                break
    for entry, names in entries.items():
        try:
            mark(entry, names)
        except OSError:
            continue  # found again when it is next read
    return list(entries)
