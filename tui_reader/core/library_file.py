"""The library file on disk: validated reading, atomic writing, and moving a damaged file aside.

The file is JSON: `{"version": 1, "papers": {PAPER_ID: ENTRY}}`, indented with sorted keys so that
it diffs well. An ENTRY holds `bookmarked`, `read` and `note`, each with the time it changed
(`bookmarked_at`...), `tags` (tag -> when added) and `removed_tags` (tag -> when removed).
"""

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tui_reader.core import atomic_file

VERSION = 1
Entries = dict[str, dict[str, Any]]

_VALUE_TYPES = {"bookmarked": bool, "read": bool, "note": str}
_TIME_FIELDS = {f"{field}_at" for field in _VALUE_TYPES}
_TAG_FIELDS = ("tags", "removed_tags")
TEMP_PREFIX = ".library-"


class DamagedLibrary(Exception):
    """The file exists but cannot be used; the message says why."""


def _check_entry(paper_id: str, entry: object) -> None:
    if not isinstance(entry, dict):
        raise DamagedLibrary(f"the entry of paper {paper_id} is not an object")
    for field, kind in _VALUE_TYPES.items():
        if field in entry and not isinstance(entry[field], kind):
            raise DamagedLibrary(f"{field} of paper {paper_id} is not a {kind.__name__}")
    for field in _TIME_FIELDS:
        if field in entry and not isinstance(entry[field], str):
            raise DamagedLibrary(f"{field} of paper {paper_id} is not a time")
    for field in _TAG_FIELDS:
        tags = entry.get(field, {})
        if not isinstance(tags, dict) or not all(isinstance(t, str) for t in tags.values()):
            raise DamagedLibrary(f"{field} of paper {paper_id} is not a map of tag to time")


def parse(text: str) -> Entries:
    """The entries of a library file's text; DamagedLibrary when it is not a valid library."""
    if not text.strip():
        raise DamagedLibrary("it is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DamagedLibrary(f"it is not valid JSON ({error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("version"), int):
        raise DamagedLibrary("it has no library version")
    if data["version"] > VERSION:
        raise DamagedLibrary(f"it was written by a newer tui-reader (version {data['version']})")
    papers = data.get("papers", {})
    if not isinstance(papers, dict):
        raise DamagedLibrary("its papers are not an object")
    for paper_id, entry in papers.items():
        _check_entry(paper_id, entry)
    return papers


def read_text(path: Path) -> str | None:
    """The file's text, None when there is no file; DamagedLibrary when it is not text."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise DamagedLibrary("it is not UTF-8 text") from None


def read(path: Path) -> Entries | None:
    """The entries in the file, None when there is no file; DamagedLibrary when it is unusable."""
    text = read_text(path)
    return None if text is None else parse(text)


def dumps(entries: Entries) -> str:
    return json.dumps({"version": VERSION, "papers": entries}, indent=2, sort_keys=True) + "\n"


def write_atomically(path: Path, text: str) -> None:
    atomic_file.write_atomically(path, text, prefix=TEMP_PREFIX)


def remove_stale_temporaries(directory: Path) -> None:
    """Delete temporary files left by a writer that was killed (call only under the lock)."""
    for stale in directory.glob(f"{TEMP_PREFIX}*.tmp"):
        stale.unlink(missing_ok=True)


def quarantine(path: Path) -> Path:
    """Move a damaged file aside as `NAME.corrupt-<UTC time>` and return where it went."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    os.replace(path, target)
    return target


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")
