"""The user's library: tags, bookmarks, notes and read state of papers, saved as they change.

Every field of every paper carries the time it last changed. A save appends the changes made
since the last one to the library's journal under a file lock (library_file says how the files
look), so it costs what changed, not the whole library; now and then the journal is folded into
the snapshot. Reading merges what every writer saved: per paper and field the later change
wins, each tag on its own, so two instances, or the app and the command line, never lose each
other's changes. A change the user makes is stamped later than the state it changes, so it
wins even over a time from a clock that runs ahead.
"""

import contextlib
import os
import re
import stat
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tui_reader.core import atomic_file, library_file, wording
from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.library_fields import DEFAULTS, Entries
from tui_reader.core.library_file import Contents, DamagedLibrary
from tui_reader.core.library_kind import not_ours
from tui_reader.core.library_merge import MergeReport, merge_entry, merge_into, merge_searches
from tui_reader.core.locations import LIBRARY_VARIABLE as ENVIRONMENT_VARIABLE
from tui_reader.core.locations import library_path as default_path
from tui_reader.core.text import strip_controls

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "Library",
    "LibraryError",
    "LibraryPathError",
    "default_path",
    "merge_entry",
    "normalise_tag",
]

LOCK_TIMEOUT = 10.0
RELOAD_LOCK_TIMEOUT = 1.0  # a look for others' changes waits less: it comes again soon
# The journal is folded into the snapshot once it is this big, or half the snapshot's size:
# folding costs the whole file, so it happens once in many saves.
FOLD_AT = 256 * 1024
_USER_FIELDS = ("bookmarked", "read", "note")  # what a paper's user made of it, moved with it
_TAG = re.compile(r"[^\W_][\w./+-]*")
TAG_MAX = 40
SEARCH_NAME_MAX = 60


READ_ATTEMPTS = 5  # reads without the lock that a fold may overtake, before taking it


class _NeedsLock(Exception):
    """Reading found what only a writer holding the lock may mend."""


class LockTimeout(Exception):
    """Another program held the library's file lock past the time we wait."""


class LibraryError(Exception):
    """The library cannot be saved; the message names the file and the problem."""


class LibraryPathError(Exception):
    """The path cannot hold a library at all (a device, a FIFO, a folder)."""


def normalise_tag(text: str) -> str | None:
    """The tag as stored (lower case), or None when it is not a tag: a word, `-`, `/` allowed."""
    tag = text.strip().lower()
    return tag if len(tag) <= TAG_MAX and _TAG.fullmatch(tag) else None


@dataclass
class Change:
    """What one user action changed, enough to undo it: (paper, field, value before), and
    the saved searches it deleted (name, query)."""

    description: str
    before: list[tuple[str, str, Any]] = field(default_factory=list)
    searches: list[tuple[str, str]] = field(default_factory=list)

    @property
    def paper_ids(self) -> list[str]:
        """The papers it changed, each once, in the order changed."""
        return list(dict.fromkeys(paper_id for paper_id, _, _ in self.before))


@dataclass
class DiskChanges:
    """What a look at the files found: whether others' changes were taken in, and what the
    user must be told (a file found damaged and recovered, say)."""

    changed: bool = False
    messages: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.changed


@dataclass
class _Seen:
    """The state of the files when this library last read them."""

    snapshot: tuple[int, int, int] | None = None  # inode, modification time, size
    journal: tuple[int, int] | None = None  # inode, bytes read
    journal_lines: int = 0


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_ino, status.st_mtime_ns, status.st_size


def _sidecars(file: Path) -> list[Path]:
    return [
        library_file.journal_path(file),
        library_file.backup_path(file),
        library_file.journal_path(library_file.backup_path(file)),
        Path(f"{file}.lock"),
    ]


def check_path(path: Path) -> None:
    """LibraryPathError when the path, or a file kept beside it, cannot be a library file."""
    if path.is_dir():
        raise LibraryPathError(f"{path}: is a folder, not a library file")
    real = Path(os.path.realpath(path))
    for candidate in [path, *_sidecars(real)]:
        if problem := special_file_problem(candidate):
            raise LibraryPathError(f"{candidate}: {problem}; the library must be a regular file")


class Library:
    """Tags, bookmarks, notes and read state by paper id, backed by files (or by nothing)."""

    def __init__(
        self, path: Path | None, entries: Entries | None = None, read_only: bool = False
    ) -> None:
        self.path = path
        # Opened to be read only: nothing is repaired, moved, locked or written.
        self.read_only = read_only
        # A symbolic link is followed: its target is the library, and the link stays.
        self._file = Path(os.path.realpath(path)) if path is not None else Path()
        self._entries: Entries = entries or {}
        self._searches: Entries = {}  # saved searches: name -> {"query", "query_at"}
        self._pending: list[str] = []  # journal lines of changes not saved yet
        self._undo: list[Change] = []
        self._last_stamp = ""
        self._last_micros = -1  # of the last stamp, since the epoch
        self._state_lock = threading.RLock()
        self._save_lock = threading.Lock()
        self._seen = _Seen()
        self._blocked: str | None = None  # why nothing may be written, when so
        self.saving = False

    @classmethod
    def open(cls, path: Path | None, read_only: bool = False) -> tuple["Library", list[str]]:
        """The library at `path` and what the user must be told about it.

        LibraryPathError when the path cannot be a library, or holds a file that never was
        one (papers given as the library, say): it is left as it is. A damaged file is moved
        aside and the library is rebuilt from the backup and the journals, and written back
        at once; entries that cannot be read are kept aside in `.rejected`. `read_only` reads
        around damage and changes no file.
        """
        if path is None:
            return cls(None, read_only=read_only), []
        check_path(path)
        library = cls(path, read_only=read_only)
        if why := library._not_ours():
            raise LibraryPathError(f"{path}: not a tui-reader library ({why}); left as it is")
        return library, library._load()

    def _not_ours(self) -> str | None:
        """Why the snapshot never was a library, or None; one whose backup or journal is
        beside it was one, and is only damaged."""
        if any(side.exists() for side in _sidecars(self._file)[:3]):
            return None
        return not_ours(self._file)

    def _load(self) -> list[str]:
        try:
            status = self._file.stat()
        except OSError:
            status = None
        if status is not None and not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            self._blocked = f"{self.path} is read-only"
        try:
            changes, fold = self._refresh_repairing(timeout=LOCK_TIMEOUT)
        except LockTimeout:
            self._blocked = f"{self.path} is locked by another program"
        except OSError as error:
            self._blocked = f"{self.path} cannot be read: {error.strerror or error}"
        else:
            if fold and self._writable:
                try:
                    changes.messages += self.save(fold=True)
                except LibraryError as error:
                    changes.messages.append(f"It could not be written back: {error}")
            if self._blocked is None:
                return changes.messages
            return [*changes.messages, f"{self._blocked}: changes are kept for this session only"]
        return [f"{self._blocked}: changes are kept for this session only"]

    @property
    def _writable(self) -> bool:
        return self._blocked is None and not self.read_only

    # Reading

    def _get(self, paper_id: str, name: str) -> Any:
        return self._entries.get(paper_id, {}).get(name, DEFAULTS[name])

    def is_bookmarked(self, paper_id: str) -> bool:
        return bool(self._get(paper_id, "bookmarked"))

    def is_read(self, paper_id: str) -> bool:
        return bool(self._get(paper_id, "read"))

    def note(self, paper_id: str) -> str:
        return str(self._get(paper_id, "note"))

    def changed_at(self, paper_id: str) -> str:
        """When the user last changed anything about the paper ("" for never)."""
        entry = self._entries.get(paper_id, {})
        stamps = [entry.get(f"{name}_at", "") for name in _USER_FIELDS]
        stamps += [*entry.get("tags", {}).values(), *entry.get("removed_tags", {}).values()]
        return max(stamps, default="")

    def citation_keys(self, paper_ids: Iterable[str]) -> dict[str, str]:
        """The citation keys given to these papers, by paper id (those given one). A key two
        papers hold (copies of the library that gave it apart, merged) is only the key of the
        paper given it first."""
        with self._state_lock:
            owners = self._key_holders()
            return {
                paper_id: key
                for paper_id in paper_ids
                if (key := self._get(paper_id, "citekey")) and owners[key] == paper_id
            }

    def _key_holders(self) -> dict[str, str]:
        """Each citation key given, with the paper given it first."""
        first: dict[str, tuple[str, str]] = {}
        for paper_id, entry in self._entries.items():
            if key := entry.get("citekey"):
                given = (entry.get("citekey_at", ""), paper_id)
                first[key] = min(first.get(key, given), given)
        return {key: paper_id for key, (_, paper_id) in first.items()}

    def resolved(self, paper_id: str) -> dict[str, Any]:
        """What `resolve` found for the paper, as core.resolve stored it ({} for nothing)."""
        return dict(self._get(paper_id, "resolved"))

    def tags(self, paper_id: str) -> list[str]:
        return sorted(self._entries.get(paper_id, {}).get("tags", {}))

    def tag_counts(self, among: Callable[[str], bool] | None = None) -> dict[str, int]:
        """Each tag in use with the number of papers that have it, by tag name; of the
        papers `among` tells apart (those loaded), when given."""
        with self._state_lock:  # not held while `among` looks each paper up
            tagged = [
                (paper_id, [*e["tags"]]) for paper_id, e in self._entries.items() if e.get("tags")
            ]
        counts = Counter(
            tag for paper_id, tags in tagged if among is None or among(paper_id) for tag in tags
        )
        return dict(sorted(counts.items()))

    def paper_ids(self) -> list[str]:
        with self._state_lock:
            return sorted(self._entries)

    @property
    def has_unsaved_changes(self) -> bool:
        return self.path is not None and bool(self._pending)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    # Changing

    def _stamp(self, seen: str = "") -> str:
        """Now, as a sortable UTC time, later than the last stamp of this library and than
        `seen`, the time of the state being changed."""
        floor = self._last_micros
        if seen > self._last_stamp:
            with contextlib.suppress(ValueError):  # not a time: nothing to be later than
                floor = max(floor, library_file.micros_of(seen))
        now = max(time.time_ns() // 1000, floor + 1)
        self._last_micros, self._last_stamp = now, library_file.stamp_at(now)
        return self._last_stamp

    def _set(self, paper_id: str, name: str, value: Any, change: Change | None) -> None:
        """Set a field (`tag:NAME` for a tag's presence) unless it already has that value."""
        entry = self._entries.get(paper_id, {})
        if name.startswith("tag:"):
            tag = name[4:]
            before: Any = tag in entry.get("tags", {})
            if before == value:
                return
            add, remove = ("tags", "removed_tags") if value else ("removed_tags", "tags")
            stamp = self._stamp(entry.get(remove, {}).get(tag, ""))
            entry.setdefault(add, {})[tag] = stamp
            entry.setdefault(remove, {}).pop(tag, None)
            if not entry[remove]:
                del entry[remove]
            event: dict[str, Any] = {add: {tag: stamp}}
        else:
            before = entry.get(name, DEFAULTS[name])
            if before == value:
                return
            stamp = self._stamp(entry.get(f"{name}_at", ""))
            entry[name], entry[f"{name}_at"] = value, stamp
            event = {name: value, f"{name}_at": stamp}
        self._entries[paper_id] = entry
        self._pending.append(library_file.journal_line(paper_id, event))
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

    def set_note(self, paper_id: str, note: str, started_from: str | None = None) -> bool:
        """Set the note. Written from `started_from` while another reader (or program) saved
        another note on the paper: that one is kept, and what this one added after it (a
        later save replaced it, unsaid)."""
        note = strip_controls(note)
        with self._state_lock:
            saved = self.note(paper_id)
            if started_from is not None and saved not in (started_from, "") and saved != note:
                added = note.removeprefix(started_from) if started_from else note
                note = f"{saved}\n\n{added.strip()}" if added.strip() else saved
            return self._apply("note", [(paper_id, "note", note)])

    def change(
        self,
        paper_ids: Iterable[str],
        description: str,
        *,
        bookmarked: bool | None = None,
        read: bool | None = None,
        add_tags: Iterable[str] = (),
    ) -> bool:
        """Set the bookmark and the read state and add tags as one undoable step (a decision
        in triage); ValueError names a tag that is not valid."""
        ids, tags = list(paper_ids), valid_tags(add_tags)
        changes = [(i, f"tag:{tag}", True) for i in ids for tag in tags]
        changes += [(i, "bookmarked", bookmarked) for i in ids if bookmarked is not None]
        changes += [(i, "read", read) for i in ids if read is not None]
        return self._apply(description, changes)

    def change_tags(
        self, paper_ids: Iterable[str], add: Iterable[str] = (), remove: Iterable[str] = ()
    ) -> bool:
        """Add and remove tags on papers; ValueError names a tag to add that is not valid.

        A tag to remove is matched as stored, so one that a file holds but that is not valid
        (written by hand or by another program) can still be removed."""
        ids, add = list(paper_ids), valid_tags(add)
        removed = [normalise_tag(text) or text.strip() for text in remove]
        changes = [(i, f"tag:{tag}", True) for i in ids for tag in add]
        changes += [(i, f"tag:{tag}", False) for i in ids for tag in removed]
        return self._apply(f"tags of {_count(ids)}", changes)

    def rename_tag(self, old: str, new: str) -> bool:
        (new,) = valid_tags([new])
        with self._state_lock:
            ids = [i for i, entry in self._entries.items() if old in entry.get("tags", {})]
        changes = [(i, f"tag:{old}", False) for i in ids] + [(i, f"tag:{new}", True) for i in ids]
        return self._apply(f"rename #{old} to #{new}", changes)

    def delete_tag(self, tag: str) -> bool:
        with self._state_lock:
            ids = [i for i, entry in self._entries.items() if tag in entry.get("tags", {})]
        return self._apply(f"delete #{tag}", [(i, f"tag:{tag}", False) for i in ids])

    def saved_searches(self) -> dict[str, str]:
        """The saved searches, name -> query, by name."""
        with self._state_lock:
            return {
                name: entry["query"]
                for name, entry in sorted(self._searches.items())
                if entry.get("query")
            }

    def save_search(self, name: str, query: str) -> bool:
        """Save (or change) a search under a name; ValueError says what is wrong with either."""
        name, query = " ".join(name.split()), query.strip()
        if not name or len(name) > SEARCH_NAME_MAX or not name.isprintable():
            raise ValueError(
                f"a search's name is a few words, at most {SEARCH_NAME_MAX} characters"
            )
        if not query:
            raise ValueError("an empty filter cannot be saved: type a query first")
        return self._set_search(name, query)

    def delete_search(self, name: str) -> bool:
        """Delete a saved search, as an undoable step."""
        query = self.saved_searches().get(name, "")
        if not self._set_search(name, ""):
            return False
        self._undo.append(Change(f"delete the saved search “{name}”", searches=[(name, query)]))
        return True

    def _set_search(self, name: str, query: str) -> bool:
        with self._state_lock:
            before = self._searches.get(name, {})
            if before.get("query", "") == query:
                return False
            entry = {"query": query, "query_at": self._stamp(before.get("query_at", ""))}
            self._searches[name] = entry
            self._pending.append(library_file.search_line(name, entry))
        return True

    def set_read(self, paper_ids: Iterable[str], value: bool, undoable: bool = False) -> bool:
        """Mark papers read or unread; True when any changed. Marking as one reads is not an
        undoable step; marking many at once (`undoable`) is."""
        ids = list(paper_ids)
        if undoable:
            action = "mark read" if value else "mark unread"
            return self._apply(f"{action} {_count(ids)}", ((i, "read", value) for i in ids))
        change = Change("")
        with self._state_lock:
            for paper_id in ids:
                self._set(paper_id, "read", value, change)
        return bool(change.before)

    def set_resolved(self, paper_id: str, found: dict[str, Any]) -> bool:
        """Keep what `resolve` found for the paper (not an undoable step); True when it changed."""
        with self._state_lock:
            change = Change("")
            self._set(paper_id, "resolved", found, change)
        return bool(change.before)

    def give_citation_keys(self, bases: Sequence[tuple[str, str]]) -> list[str]:
        """Give papers citation keys, from (paper id, the key it would have) in the order they
        are given (core.citation_keys says how): a paper keeps the key it holds; any other gets
        its base, or the base with the first suffix no paper holds. Given under the file lock
        after reading what others saved, and saved at once, so that two programs never give
        one key to two papers. Not an undoable step; what the user must be told, as `save`.
        LibraryError when they cannot be saved: they are kept for the session."""
        from tui_reader.core.citation_keys import free_key  # its modules: only when exporting

        given = False

        def give() -> None:
            nonlocal given
            holders = self._key_holders()
            for paper_id, base in bases:
                if holders.get(self._get(paper_id, "citekey")) == paper_id:
                    continue
                holders[key := free_key(base, holders)] = paper_id
                self._set(paper_id, "citekey", key, None)
            given = True

        try:
            return self._save(prepare=give)
        finally:
            if not given:  # nothing could be read or written: given in memory
                with self._state_lock:
                    give()

    def move_papers(self, moves: dict[str, str]) -> int:
        """Move what the user made of papers to their new ids (old id -> new id: a paper first
        known by its text, now by its arXiv id): tags, bookmark, read state and note, stamped
        now and journaled, so that the old id is left with nothing and nothing moves twice. A
        note the new id has already is kept, the old one after it. Not an undoable step; how
        many papers moved."""
        moved = 0
        with self._state_lock:
            for old, new in moves.items():
                entry = self._entries.get(old, {})
                if old == new or not entry:
                    continue
                tags = list(entry.get("tags", {}))
                changes = [(new, f"tag:{tag}", True) for tag in tags]
                changes += [(old, f"tag:{tag}", False) for tag in tags]
                for name in (*_USER_FIELDS, "citekey"):
                    if (value := entry.get(name, DEFAULTS[name])) == DEFAULTS[name]:
                        continue
                    if name == "note" and (kept := self.note(new)) and kept != value:
                        value = f"{kept}\n\n{value}"
                    if name == "citekey" and self._get(new, name):  # the new id's stays
                        value = self._get(new, name)
                    changes += [(new, name, value), (old, name, DEFAULTS[name])]
                for paper_id, name, value in changes:
                    self._set(paper_id, name, value, None)
                moved += bool(changes)
        return moved

    def undo(self) -> Change | None:
        """Undo the last undoable step; what was undone, or None."""
        if not self._undo:
            return None
        change = self._undo.pop()
        with self._state_lock:
            for paper_id, name, value in reversed(change.before):
                self._set(paper_id, name, value, None)
        for name, query in change.searches:
            self._set_search(name, query)
        return change

    def merge_copy(self, path: Path) -> MergeReport:
        """Fold another copy of the library in (from another machine, a sync or a backup)
        with the rules of concurrent saves: per field and tag the later change wins, and a
        removal is a change too. The copy is only read; its journal beside it counts.
        LibraryError when it cannot be read as a library, naming it and the problem."""
        if (problem := special_file_problem(path)) or path.is_dir():
            raise LibraryError(f"{path}: {problem or 'is a folder, not a library file'}")
        if self.path is not None and Path(os.path.realpath(path)) == self._file:
            raise LibraryError(f"{path} is this library itself")
        try:
            text = library_file.read_text(path)
            if text is None:
                raise LibraryError(f"{path}: no such file")
            other = library_file.parse(text, path.name)
            self._read_journal(library_file.journal_path(path), other, 0, 0)
        except DamagedLibrary as damage:
            raise LibraryError(f"{path} cannot be merged: {damage}") from None
        except OSError as error:
            raise LibraryError(f"{path}: {error.strerror or error}") from None
        if other.newer is not None:
            raise LibraryError(f"{path} was written by a newer tui-reader ({other.newer})")
        report = MergeReport(skipped=len(other.rejected))
        with self._state_lock:
            for paper_id, theirs in other.entries.items():
                ours = self._entries.get(paper_id, {})
                merged = merge_entry(ours, theirs)
                if merged == ours:
                    continue
                report.count(ours, merged)
                self._entries[paper_id] = merged
                self._pending.append(library_file.journal_line(paper_id, theirs))
            for name, theirs in other.searches.items():
                if theirs.get("query_at", "") > self._searches.get(name, {}).get("query_at", ""):
                    self._searches[name] = theirs
                    self._pending.append(library_file.search_line(name, theirs))
                    report.searches += 1
        return report

    # The files

    @contextmanager
    def _locked(self, required: bool = True, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
        """Hold the library's file lock. A reader in a folder it cannot write to, or one
        that does not exist, reads without it (`required=False`): nothing writes there."""
        if not self._file.parent.is_dir():  # filelock would make the folder
            if required:
                raise LibraryError(f"{self._file.parent}: the folder does not exist")
            yield
            return
        import filelock  # on the first lock: 20-40 ms off every start

        lock = filelock.FileLock(f"{self._file}.lock", timeout=timeout, thread_local=False)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise LockTimeout from None
        except OSError:
            if required:
                raise
            yield
            return
        try:
            yield
        finally:
            lock.release()

    def _read_snapshot(
        self, messages: list[str], repair: bool
    ) -> tuple[Contents, str | None, bool]:
        """The snapshot's contents, its text when it was valid, and whether it was damaged.

        A damaged snapshot is moved aside (`repair`, under the lock; without it, _NeedsLock)
        and rebuilt from the backup and the backup's journal, which add up to the snapshot
        last written. One that may not be written is only read around."""
        file = self._file
        try:
            text = library_file.read_text(file)
            contents = Contents() if text is None else library_file.parse(text, file.name)
            return contents, text, False
        except DamagedLibrary as damage:
            message = f"{self.path} is damaged ({damage})"
            unresolved = isinstance(damage, library_file.UnresolvedMerge)
            if unresolved:  # a merge to finish (git's): read around, never moved or written
                message = f"{self.path} is left as it is: {damage}"
                self._blocked = self._blocked or f"{self.path} holds merge-conflict markers"
            if self._writable and not repair:
                raise _NeedsLock from None
            if self._writable and (why := self._not_ours()):  # replaced since it was read
                self._blocked = f"{self.path} is no longer a library ({why}); it is left as it is"
                return Contents(), None, False
            if self._writable:
                try:
                    moved = library_file.quarantine(file)
                except OSError as error:
                    self._blocked = (
                        f"{message} and cannot be moved aside ({error.strerror or error}); "
                        "it will not be overwritten"
                    )
                    return Contents(), None, False
                message = f"{self.path} was damaged ({damage}) and was moved to {moved.name}"
        backup = library_file.backup_path(file)
        try:
            backup_text = library_file.read_text(backup)
            contents = Contents() if backup_text is None else library_file.parse(backup_text)
        except (DamagedLibrary, OSError):
            contents, backup_text = Contents(), None
        self._read_journal(library_file.journal_path(backup), contents, 0, 0)
        if backup_text is not None:
            message += f"; restored the previous version from {backup.name}"
        elif contents.entries:
            message += f"; restored what {backup.name}.journal holds"
        elif (journal := library_file.journal_path(file)).exists():  # read after this
            message += f"; rebuilt from what {journal.name} holds"
        else:
            message += "; starting with an empty library"
        if self.read_only and not unresolved:
            message += " (left as it is: the next change saved repairs it)"
        messages.append(message)
        return contents, None, self._writable

    @staticmethod
    def _read_journal(
        path: Path, contents: Contents, offset: int, line: int
    ) -> tuple[int | None, int, int] | None:
        """Merge the journal's changes after `offset` (line `line`) into `contents`: its inode
        (None when there is no journal) and the offset and line read to. None when the file
        is shorter than `offset`: not the one read before."""
        try:
            with path.open("rb") as journal:
                inode, size = os.fstat(journal.fileno())[1], os.fstat(journal.fileno()).st_size
                if size < offset:
                    return None
                journal.seek(offset)
                data = journal.read()
        except FileNotFoundError:
            return None, 0, 0
        read, lines = library_file.parse_journal(data, path.name, line + 1, contents)
        return inode, offset + read, line + lines

    def _refresh(self, repair: bool) -> tuple[DiskChanges, bool]:
        """Take in what the files hold that this library has not seen. Also says whether
        they must be folded: to write back a recovered library, or to keep aside what could
        not be read. With `repair` (under the lock) a damaged snapshot is moved aside and
        rebuilt; without, reading takes no lock and starts again when a fold ran meanwhile,
        and _NeedsLock says that a repair is due."""
        for _ in range(READ_ATTEMPTS):
            outcome = self._try_refresh(repair)
            if outcome is not None:
                return outcome
        raise _NeedsLock

    def _try_refresh(self, repair: bool) -> tuple[DiskChanges, bool] | None:
        changes = DiskChanges()
        journal = library_file.journal_path(self._file)
        snapshot, seen = _signature(self._file), self._seen
        if snapshot == seen.snapshot and _signature(journal) is None and seen.journal is None:
            return changes, False
        contents = Contents()
        damaged = False
        offset = line = 0
        if snapshot != seen.snapshot or seen.journal is None:
            if snapshot != seen.snapshot:
                contents, _, damaged = self._read_snapshot(changes.messages, repair)
            read = self._read_journal(journal, contents, 0, 0)
        else:
            offset, line = seen.journal[1], seen.journal_lines
            read = self._read_journal(journal, contents, offset, line)
            if read is None or read[0] != seen.journal[0]:  # replaced since: read it all
                self._seen = _Seen()
                return None
        assert read is not None
        if not repair and _signature(self._file) != snapshot:  # a fold ran meanwhile
            return None
        inode, end, line = read
        with self._state_lock:
            changes.changed = merge_into(self._entries, contents.entries) > 0
            changes.changed |= merge_searches(self._searches, contents.searches)
        self._seen = _Seen(_signature(self._file), (inode, end) if inode else None, line)
        if contents.newer is not None:
            self._blocked = (
                f"{self.path} was written by a newer tui-reader (version {contents.newer}): "
                "it is read but never written"
            )
        changes.messages += contents.notes
        if contents.times_reset:
            changes.messages.append(
                f"{self.path}: {_count(contents.times_reset, 'time')} not valid or in the future "
                "(a clock ahead?) now count as the oldest"
            )
        if contents.rejected and self._blocked:
            changes.messages.append(
                f"{self.path}: {_count(len(contents.rejected), 'entry')} could not be read "
                f"({_reasons(contents)}); left as they are"
            )
        return changes, damaged or bool(contents.rejected)

    def _refresh_repairing(self, timeout: float) -> tuple[DiskChanges, bool]:
        """Read without the lock; take it when a damaged snapshot must be repaired."""
        try:
            return self._refresh(repair=False)
        except _NeedsLock:
            if self.read_only:  # folds kept overtaking the reads: once more, as it stands
                return self._refresh(repair=True)
            with self._locked(required=False, timeout=timeout):
                return self._refresh(repair=True)

    def save(self, fold: bool = False) -> list[str]:
        """Append the changes not saved yet to the journal, under the lock; what the user
        must be told. Folds the journal into the snapshot when it has grown (or `fold`).

        Raises LibraryError when nothing can be written; the changes stay in memory.
        """
        return self._save(fold)

    def _save(self, fold: bool = False, prepare: Callable[[], None] | None = None) -> list[str]:
        """`save`, making the changes `prepare` makes first, under the lock once what others
        saved has been read (with the state's lock held); `prepare` is not called when
        nothing can be saved."""
        if self.path is None:
            return []
        if self._blocked:
            raise LibraryError(self._blocked)
        if self.read_only:
            raise LibraryError(f"{self.path} was opened only to be read")
        with self._save_lock:
            self.saving = True
            try:
                with self._locked():
                    return self._write(fold, prepare)
            except LockTimeout:
                raise LibraryError(
                    f"{self.path} is locked: another program has held {self._file.name}.lock "
                    f"for more than {LOCK_TIMEOUT:.0f} s"
                ) from None
            except OSError as error:
                problem = error.strerror or str(error)
                raise LibraryError(f"{error.filename or self.path}: {problem}") from None
            finally:
                self.saving = False

    def _write(self, fold: bool, prepare: Callable[[], None] | None = None) -> list[str]:
        file = self._file
        # Others' changes since the last look: cheap, unless another program wrote the
        # snapshot since (or it was damaged).
        changes, must_fold = self._refresh(repair=True)
        messages = changes.messages
        fold = fold or must_fold
        if self._blocked:
            raise LibraryError(self._blocked)
        with self._state_lock:
            if prepare is not None:
                prepare()
            pending = list(self._pending)
        journal = library_file.journal_path(file)
        size = journal_now[2] if (journal_now := _signature(journal)) else 0
        if pending:
            size = library_file.append(journal, pending, like=self._mode_source())
            with self._state_lock:
                del self._pending[: len(pending)]
        snapshot = _signature(file)
        if fold or snapshot is None or size > max(FOLD_AT, snapshot[2] // 2):
            messages += self._fold()
        return messages

    def _fold(self) -> list[str]:
        """Write the snapshot anew with the journal's changes; the journal starts empty.

        What could not be read is kept aside first. The backup and its journal always add up
        to the snapshot written, so a snapshot damaged later is rebuilt whole from them."""
        file = self._file
        messages: list[str] = []
        for target in (file, library_file.backup_path(file)):
            atomic_file.remove_stale_temporaries(target)
        contents, old_text, _ = self._read_snapshot(messages, repair=True)
        readable = set(contents.entries)  # the papers old_text holds, before the journal
        journal = library_file.journal_path(file)
        self._read_journal(journal, contents, 0, 0)
        if contents.newer is not None or self._blocked:
            raise LibraryError(self._blocked or f"{self.path} was written by a newer tui-reader")
        if contents.rejected:
            kept = library_file.keep_rejected(file, contents.rejected)
            count = len(contents.rejected)
            messages.append(
                f"{self.path}: {_count(count, 'entry')} could not be read and "
                f"{'was' if count == 1 else 'were'} kept aside in {kept.name} "
                f"({_reasons(contents)})"
            )
        with self._state_lock:
            merge_into(contents.entries, self._entries)
            merge_searches(contents.searches, self._searches)
            text = library_file.dumps(contents.entries, contents.searches)
        backup = library_file.backup_path(file)
        backup_journal = library_file.journal_path(backup)
        if old_text is not None:
            messages += self._replace_backup(old_text, readable)
            library_file.write_atomically(file, text, like=self._mode_source())
            if journal.exists():
                os.replace(journal, backup_journal)
            else:
                backup_journal.unlink(missing_ok=True)
        else:
            library_file.write_atomically(file, text, like=self._mode_source())
            messages += self._replace_backup(text, set(contents.entries))
            backup_journal.unlink(missing_ok=True)
            journal.unlink(missing_ok=True)
        atomic_file.fsync_folder(file.parent)
        self._seen = _Seen(_signature(file), None, 0)
        return messages

    def _mode_source(self) -> Path:
        """The file whose mode the library's new files take: the library, else (moved aside as
        damaged, or not yet written) its backup or journal, else none (the umask decides)."""
        for candidate in (self._file, *_sidecars(self._file)[:2]):
            if candidate.is_file():
                return candidate
        return self._file

    def _replace_backup(self, text: str, holds: set[str]) -> list[str]:
        """Make `text`, which holds these papers, the backup; a backup with papers it lacks
        is kept aside."""
        backup = library_file.backup_path(self._file)
        try:
            old = library_file.read_text(backup)
            lost = set(library_file.parse(old).entries) if old is not None else set()
        except (DamagedLibrary, OSError):
            lost = set()
        lost -= holds
        messages = []
        if lost:
            stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
            kept = backup.with_name(f"{backup.name}-{stamp}")
            os.replace(backup, kept)
            messages.append(
                f"{backup.name} held {_count(len(lost), 'paper')} that the library no longer "
                f"has; it was kept as {kept.name}"
            )
        try:
            library_file.write_atomically(backup, text, like=self._mode_source())
        except OSError as error:
            messages.append(f"{backup}: {error.strerror or error}; the backup was not updated")
        return messages

    def reload_if_changed(self) -> DiskChanges:
        """Take in what another program saved since this library last read or wrote."""
        if self.path is None or self._blocked:
            return DiskChanges()
        journal = _signature(library_file.journal_path(self._file))
        seen = self._seen
        unchanged = _signature(self._file) == seen.snapshot and (
            (journal is None and seen.journal is None)
            or (journal is not None and seen.journal is not None
                and journal[0] == seen.journal[0] and journal[2] == seen.journal[1])
        )  # fmt: skip
        if unchanged:
            return DiskChanges()
        try:
            with self._save_lock:
                changes, fold = self._refresh_repairing(timeout=RELOAD_LOCK_TIMEOUT)
        except (LockTimeout, OSError):
            return DiskChanges()  # looked at again soon
        if fold and not self._blocked:
            try:
                changes.messages += self.save(fold=True)
            except LibraryError as error:
                changes.messages.append(f"It could not be written back: {error}")
        return changes


def _reasons(contents: Contents) -> str:
    reasons = [f"{r.where}: {r.reason}" for r in contents.rejected[:3]]
    return "; ".join(reasons) + ("; …" if len(contents.rejected) > 3 else "")


def _count(number: int | list[str], noun: str = "paper") -> str:
    plural = {"entry": "entries", "saved search": "saved searches"}.get(noun, "")
    return wording.count(number if isinstance(number, int) else len(number), noun, plural)


def valid_tags(tags: Iterable[str]) -> list[str]:
    """The tags as stored; ValueError names the first that is not a tag."""
    result = []
    for text in tags:
        tag = normalise_tag(text)
        if tag is None:
            raise ValueError(f"not a tag: {text!r} (tags are words; - _ . / + allowed)")
        result.append(tag)
    return result
