"""The user's library: tags, bookmarks, notes and read state of papers, saved as they change.

Every field of every paper carries the time it last changed. Saving happens under a file lock:
the file is read again and merged with this library (per paper and field the later change
wins, each tag on its own), so two instances, or the app and the command line, never lose each
other's changes. Entries of papers that are not open now are kept as they are.
"""

import os
import re
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import filelock
import platformdirs

from tui_reader.core import library_file
from tui_reader.core.library_file import DamagedLibrary, Entries

ENVIRONMENT_VARIABLE = "TUI_READER_LIBRARY"
LOCK_TIMEOUT = 10.0
_FIELDS = ("bookmarked", "read", "note")
_DEFAULTS: dict[str, Any] = {"bookmarked": False, "read": False, "note": ""}
_TAG = re.compile(r"[^\W_][\w./+-]*")
TAG_MAX = 40


class LibraryError(Exception):
    """The library cannot be saved; the message names the file and the problem."""


def default_path() -> Path:
    """The library file: $TUI_READER_LIBRARY, else in the platform's user data directory."""
    if configured := os.environ.get(ENVIRONMENT_VARIABLE):
        return Path(configured).expanduser()
    return Path(platformdirs.user_data_dir("tui-reader", appauthor=False)) / "library.json"


def normalise_tag(text: str) -> str | None:
    """The tag as stored (lower case), or None when it is not a tag: a word, `-`, `/` allowed."""
    tag = text.strip().lower()
    return tag if len(tag) <= TAG_MAX and _TAG.fullmatch(tag) else None


def merge_entry(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """One paper's entry from two writers: for each field, and each tag, the later change."""
    merged = {**theirs, **ours}
    for name in _FIELDS:
        stamp = f"{name}_at"
        candidates = [e for e in (ours, theirs) if name in e]
        if candidates:
            latest = max(candidates, key=lambda e: e.get(stamp, ""))
            merged[name], merged[stamp] = latest[name], latest.get(stamp, "")
    events: dict[str, tuple[str, bool]] = {}
    for entry in (ours, theirs):
        for present, key in ((True, "tags"), (False, "removed_tags")):
            for tag, when in entry.get(key, {}).items():
                events[tag] = max(events.get(tag, ("", False)), (when, present))
    for present, key in ((True, "tags"), (False, "removed_tags")):
        merged[key] = {tag: when for tag, (when, is_on) in events.items() if is_on == present}
        if not merged[key]:
            del merged[key]
    return merged


def merge(ours: Entries, theirs: Entries) -> Entries:
    return {
        paper_id: merge_entry(ours.get(paper_id, {}), theirs.get(paper_id, {}))
        for paper_id in ours.keys() | theirs.keys()
    }


@dataclass
class Change:
    """What one user action changed, enough to undo it: (paper, field, value before)."""

    description: str
    before: list[tuple[str, str, Any]] = field(default_factory=list)


class Library:
    """Tags, bookmarks, notes and read state by paper id, backed by a JSON file (or by nothing)."""

    def __init__(self, path: Path | None, entries: Entries | None = None) -> None:
        self.path = path
        self._entries: Entries = entries or {}
        self._undo: list[Change] = []
        self._last_stamp = ""
        self._state_lock = threading.RLock()
        self._save_lock = threading.Lock()
        self._disk_signature: tuple[int, int] | None = None
        self._changes = self._saved_changes = 0
        # A damaged file that could not be moved aside must never be overwritten.
        self._blocked: str | None = None

    @classmethod
    def open(cls, path: Path | None) -> tuple["Library", list[str]]:
        """The library at `path` and what the user must be told about it.

        A damaged file is moved aside and the library starts from the `.bak` when that is
        valid, else empty.
        """
        if path is None:
            return cls(None), []
        library = cls(path)
        try:
            library._entries = library_file.read(path) or {}
            library._disk_signature = library._signature()
            return library, []
        except DamagedLibrary as damage:
            return library, [library._recover(damage)]
        except OSError as error:
            library._blocked = f"{path} cannot be read: {error.strerror}"
            return library, [f"{library._blocked}; changes will be kept for this session only"]

    def _recover(self, damage: DamagedLibrary) -> str:
        assert self.path is not None
        try:
            moved = library_file.quarantine(self.path)
        except OSError as error:
            self._blocked = f"{self.path} is damaged ({damage}) and cannot be moved aside"
            return f"{self._blocked}: {error.strerror}; it will not be overwritten"
        message = f"{self.path} was damaged ({damage}) and was moved to {moved.name}"
        backup = library_file.backup_path(self.path)
        try:
            self._entries = library_file.read(backup) or {}
        except (DamagedLibrary, OSError):
            self._entries = {}
        if self._entries:
            return f"{message}; restored the previous version from {backup.name}"
        return f"{message}; starting with an empty library"

    # Reading

    def _get(self, paper_id: str, name: str) -> Any:
        return self._entries.get(paper_id, {}).get(name, _DEFAULTS[name])

    def is_bookmarked(self, paper_id: str) -> bool:
        return bool(self._get(paper_id, "bookmarked"))

    def is_read(self, paper_id: str) -> bool:
        return bool(self._get(paper_id, "read"))

    def note(self, paper_id: str) -> str:
        return str(self._get(paper_id, "note"))

    def changed_at(self, paper_id: str) -> str:
        """When the user last changed anything about the paper ("" for never)."""
        entry = self._entries.get(paper_id, {})
        stamps = [entry.get(f"{name}_at", "") for name in _FIELDS]
        stamps += [*entry.get("tags", {}).values(), *entry.get("removed_tags", {}).values()]
        return max(stamps, default="")

    def tags(self, paper_id: str) -> list[str]:
        return sorted(self._entries.get(paper_id, {}).get("tags", {}))

    def tag_counts(self) -> dict[str, int]:
        """Each tag in use with the number of papers that have it, by tag name."""
        with self._state_lock:
            counts = Counter(
                tag for entry in self._entries.values() for tag in entry.get("tags", {})
            )
        return dict(sorted(counts.items()))

    def paper_ids(self) -> list[str]:
        with self._state_lock:
            return sorted(self._entries)

    @property
    def has_unsaved_changes(self) -> bool:
        return self.path is not None and self._changes > self._saved_changes

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    # Changing

    def _stamp(self) -> str:
        """Now, as a sortable UTC time, always later than the last stamp of this library."""
        now = datetime.now(timezone.utc)
        if self._last_stamp:
            last = datetime.strptime(self._last_stamp, "%Y-%m-%dT%H:%M:%S.%fZ")
            now = max(now, last.replace(tzinfo=timezone.utc) + timedelta(microseconds=1))
        self._last_stamp = now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return self._last_stamp

    def _set(self, paper_id: str, name: str, value: Any, change: Change | None) -> None:
        """Set a field (`tag:NAME` for a tag's presence) unless it already has that value."""
        entry = self._entries.get(paper_id, {})
        if name.startswith("tag:"):
            tag = name[4:]
            before: Any = tag in entry.get("tags", {})
            if before == value:
                return
            stamp = self._stamp()
            self._entries[paper_id] = entry
            add, remove = ("tags", "removed_tags") if value else ("removed_tags", "tags")
            entry.setdefault(add, {})[tag] = stamp
            entry.setdefault(remove, {}).pop(tag, None)
        else:
            before = entry.get(name, _DEFAULTS[name])
            if before == value:
                return
            self._entries[paper_id] = entry
            entry[name], entry[f"{name}_at"] = value, self._stamp()
        self._changes += 1
        if change is not None:
            change.before.append((paper_id, name, before))

    def _apply(self, description: str, changes: Iterable[tuple[str, str, Any]]) -> bool:
        """Make the changes as one undoable step; False when none changed anything."""
        change = Change(description)
        with self._state_lock:
            for paper_id, name, value in changes:
                self._set(paper_id, name, value, change)
        if change.before:
            self._undo.append(change)
        return bool(change.before)

    def set_bookmarked(self, paper_ids: Iterable[str], value: bool) -> bool:
        ids = list(paper_ids)
        action = "bookmark" if value else "unbookmark"
        return self._apply(f"{action} {_count(ids)}", ((i, "bookmarked", value) for i in ids))

    def set_note(self, paper_id: str, note: str) -> bool:
        return self._apply("note", [(paper_id, "note", note)])

    def change_tags(
        self, paper_ids: Iterable[str], add: Iterable[str] = (), remove: Iterable[str] = ()
    ) -> bool:
        """Add and remove tags on papers; ValueError names a tag that is not valid."""
        ids, add, remove = list(paper_ids), _valid(add), _valid(remove)
        changes = [(i, f"tag:{tag}", True) for i in ids for tag in add]
        changes += [(i, f"tag:{tag}", False) for i in ids for tag in remove]
        return self._apply(f"tags of {_count(ids)}", changes)

    def rename_tag(self, old: str, new: str) -> bool:
        (new,) = _valid([new])
        with self._state_lock:
            ids = [i for i, entry in self._entries.items() if old in entry.get("tags", {})]
        changes = [(i, f"tag:{old}", False) for i in ids] + [(i, f"tag:{new}", True) for i in ids]
        return self._apply(f"rename #{old} to #{new}", changes)

    def delete_tag(self, tag: str) -> bool:
        with self._state_lock:
            ids = [i for i, entry in self._entries.items() if tag in entry.get("tags", {})]
        return self._apply(f"delete #{tag}", [(i, f"tag:{tag}", False) for i in ids])

    def set_read(self, paper_ids: Iterable[str], value: bool) -> bool:
        """Mark papers read or unread; not an undoable step, since it happens as one reads."""
        paper_ids = list(paper_ids)
        with self._state_lock:
            before = [self.is_read(i) for i in paper_ids]
            for paper_id in paper_ids:
                self._set(paper_id, "read", value, None)
        return before != [value] * len(before)

    def undo(self) -> str | None:
        """Undo the last step of tags, bookmarks and notes; what was undone, or None."""
        if not self._undo:
            return None
        change = self._undo.pop()
        with self._state_lock:
            for paper_id, name, value in reversed(change.before):
                self._set(paper_id, name, value, None)
        return change.description

    # Saving

    def _signature(self) -> tuple[int, int] | None:
        assert self.path is not None
        try:
            status = self.path.stat()
        except OSError:
            return None
        return status.st_mtime_ns, status.st_size

    def save(self) -> list[str]:
        """Merge with the file under its lock and write it; what the user must be told.

        Raises LibraryError when the file cannot be written; the changes stay in memory.
        """
        if self.path is None:
            return []
        if self._blocked:
            raise LibraryError(self._blocked)
        with self._save_lock:
            try:
                return self._merge_and_write(self.path)
            except filelock.Timeout:
                raise LibraryError(f"{self.path} is locked by another program") from None
            except OSError as error:
                problem = error.strerror or str(error)
                raise LibraryError(f"{error.filename or self.path}: {problem}") from None

    def _merge_and_write(self, path: Path) -> list[str]:
        messages = []
        if not path.parent.is_dir():
            raise LibraryError(f"{path.parent}: the folder does not exist")
        with filelock.FileLock(f"{path}.lock", timeout=LOCK_TIMEOUT, thread_local=False):
            library_file.remove_stale_temporaries(path.parent)
            previous = None
            try:
                previous = library_file.read_text(path)
                disk = {} if previous is None else library_file.parse(previous)
            except DamagedLibrary as damage:
                previous = None
                moved = library_file.quarantine(path)
                messages.append(f"{path} was damaged ({damage}) and was moved to {moved.name}")
                disk = {}
            with self._state_lock:
                merged = merge(self._entries, disk)
                changes = self._changes
            if previous is not None:
                library_file.write_atomically(library_file.backup_path(path), previous)
            library_file.write_atomically(path, library_file.dumps(merged))
            with self._state_lock:
                self._entries = merge(self._entries, merged)
            self._disk_signature = self._signature()
            self._saved_changes = max(self._saved_changes, changes)
        return messages

    def reload_if_changed(self) -> bool:
        """Take in what another program saved since we last read or wrote; True when it did."""
        if self.path is None or self._blocked or self._signature() == self._disk_signature:
            return False
        try:
            disk = library_file.read(self.path) or {}
        except (DamagedLibrary, OSError):
            return False  # the next save deals with it, under the lock
        with self._state_lock:
            self._entries = merge(self._entries, disk)
        self._disk_signature = self._signature()
        return True


def _count(ids: list[str]) -> str:
    return f"{len(ids)} papers" if len(ids) != 1 else "1 paper"


def _valid(tags: Iterable[str]) -> list[str]:
    result = []
    for text in tags:
        tag = normalise_tag(text)
        if tag is None:
            raise ValueError(f"not a tag: {text!r} (tags are words; - _ . / + allowed)")
        result.append(tag)
    return result
