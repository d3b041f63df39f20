"""The library in memory: by paper id, the paper's tags, bookmark, read state and note, what
`resolve` found and its citation key; the saved searches; the steps to undo; and the changes
not saved yet, as the journal lines library_disk appends.

Every field of every paper carries the time it last changed (library_fields). A change the user
makes is stamped later than the state it changes, so it wins even over a time from a clock that
runs ahead.
"""

import contextlib
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tui_reader.core import library_file, wording
from tui_reader.core.library_fields import DEFAULTS, Entries, stored_tag
from tui_reader.core.library_file import Contents
from tui_reader.core.library_merge import MergeReport, merge_entry, merge_into, merge_searches
from tui_reader.core.note_edits import NoteEdits, joined
from tui_reader.core.text import strip_controls

_USER_FIELDS = ("bookmarked", "read", "note")  # what a paper's user made of it, moved with it
_TAG = re.compile(r"[^\W_][\w./+-]*")
TAG_MAX = 40
SEARCH_NAME_MAX = 60


def tag_problem(text: str) -> str | None:
    """Why the text is not a tag, as said after "not a tag: …", or None when it is one."""
    tag = stored_tag(text)
    if not _TAG.fullmatch(tag):
        return "tags are words; - _ . / + allowed"
    if len(tag) > TAG_MAX:
        return f"tags are at most {TAG_MAX} characters"
    return None


def normalise_tag(text: str) -> str | None:
    """The tag as stored (lower case, NFC), or None when it is not a tag (`tag_problem`)."""
    return None if tag_problem(text) else stored_tag(text)


def _as_stored(text: str) -> str:
    """A tag to remove as a file holds it, whether a tag or not (written by hand or by another
    program): folded as the file's tags are read (core.library_file)."""
    return stored_tag(text) or text


def valid_tags(tags: Iterable[str]) -> list[str]:
    """The tags as stored; ValueError names the first that is not a tag, and why."""
    result = []
    for text in tags:
        tag = normalise_tag(text)
        if tag is None:
            raise ValueError(f"not a tag: {text!r} ({tag_problem(text)})")
        result.append(tag)
    return result


@dataclass
class Change:
    """What one user action changed, enough to undo it: (paper, field, value before), the
    value each was set to, and the saved searches it deleted (name, query). An undo leaves a
    field changed elsewhere since as it is (`left`)."""

    description: str
    before: list[tuple[str, str, Any]] = field(default_factory=list)
    searches: list[tuple[str, str]] = field(default_factory=list)
    after: list[Any] = field(default_factory=list)  # aligned with `before`
    left: list[tuple[str, str]] = field(default_factory=list)  # (paper, field)

    @property
    def paper_ids(self) -> list[str]:
        """The papers it changed, each once, in the order changed."""
        return list(dict.fromkeys(paper_id for paper_id, _, _ in self.before))

    @property
    def undone(self) -> str:
        """What its undo did: "note (left as changed elsewhere since: the note)"."""
        if not self.left:
            return self.description
        names = {"note": "the note", "bookmarked": "the bookmark", "read": "the read mark"}
        left = dict.fromkeys(names.get(name, f"#{name[4:]}") for _, name in self.left)
        return f"{self.description} (left as changed elsewhere since: {', '.join(left)})"


def _papers(paper_ids: list[str]) -> str:
    return wording.count(len(paper_ids), "paper")


class LibraryState:
    """The user's library in memory, changed by the user's actions and by what library_disk
    reads. `lock` is held by every change, and by each reading of many papers."""

    def __init__(self, entries: Entries | None = None) -> None:
        self.lock = threading.RLock()
        self._entries: Entries = entries or {}
        self._searches: Entries = {}  # saved searches: name -> {"query", "query_at"}
        self._unsaved: list[str] = []  # journal lines of the changes not saved yet
        self._undo: list[Change] = []
        self._notes = NoteEdits()  # notes changed, not saved yet: what each started from
        self._last_stamp = ""
        self._last_micros = -1  # of the last stamp, since the epoch

    # Reading

    def _get(self, paper_id: str, name: str) -> Any:
        return self._entries.get(paper_id, {}).get(name, DEFAULTS[name])

    def _value(self, paper_id: str, name: str) -> Any:
        """A field's value, `tag:NAME` a tag's presence, as `_set` sets it."""
        if name.startswith("tag:"):
            return name[4:] in self._entries.get(paper_id, {}).get("tags", {})
        return self._get(paper_id, name)

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
        with self.lock:
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
        with self.lock:  # not held while `among` looks each paper up
            tagged = [
                (paper_id, [*e["tags"]]) for paper_id, e in self._entries.items() if e.get("tags")
            ]
        counts = Counter(
            tag for paper_id, tags in tagged if among is None or among(paper_id) for tag in tags
        )
        return dict(sorted(counts.items()))

    def paper_ids(self) -> list[str]:
        with self.lock:
            return sorted(self._entries)

    @property
    def has_unsaved_changes(self) -> bool:
        return bool(self._unsaved)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    # Changing

    def _stamp(self, seen: str = "") -> str:
        """Now, as a sortable UTC time, later than the last stamp of this library and than
        `seen`, the time of the state being changed. A `seen` from a clock ahead moves this
        change's stamp past it, not the stamps of the changes after it."""
        now = max(time.time_ns() // 1000, self._last_micros + 1)
        self._last_micros, self._last_stamp = now, library_file.stamp_at(now)
        if seen > self._last_stamp:
            with contextlib.suppress(ValueError):  # not a time: nothing to be later than
                return library_file.stamp_at(max(now, library_file.micros_of(seen) + 1))
        return self._last_stamp

    def _set(self, paper_id: str, name: str, value: Any, change: Change | None) -> bool:
        """Set a field (`tag:NAME` for a tag's presence) unless it already has that value;
        whether it changed."""
        entry = self._entries.get(paper_id, {})
        if name.startswith("tag:"):
            tag = name[4:]
            before: Any = tag in entry.get("tags", {})
            if before == value:
                return False
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
                return False
            stamp = self._stamp(entry.get(f"{name}_at", ""))
            entry[name], entry[f"{name}_at"] = value, stamp
            event = {name: value, f"{name}_at": stamp}
        self._entries[paper_id] = entry
        self._unsaved.append(library_file.journal_line(paper_id, event))
        if change is not None:
            change.before.append((paper_id, name, before))
            change.after.append(value)
        return True

    def _apply(self, description: str, changes: Iterable[tuple[str, str, Any]]) -> bool:
        """Make the changes as one undoable step; False when none changed anything."""
        change = Change(description)
        with self.lock:
            for paper_id, name, value in changes:
                self._set(paper_id, name, value, change)
        if change.before:
            self._undo.append(change)
        return bool(change.before)

    def set_bookmarked(self, paper_ids: Iterable[str], value: bool) -> bool:
        ids = list(paper_ids)
        action = "bookmark" if value else "unbookmark"
        return self._apply(f"{action} {_papers(ids)}", ((i, "bookmarked", value) for i in ids))

    def set_note(self, paper_id: str, note: str, started_from: str | None = None) -> bool:
        """Set the note. Written from `started_from` while another reader (or program) saved
        another note on the paper: that one is kept, and what this one added after it (a
        later save replaced it, unsaid)."""
        note = strip_controls(note)
        with self.lock:
            saved = self.note(paper_id)
            if started_from is not None and saved not in (started_from, "") and saved != note:
                note, started_from = joined(saved, started_from, note), saved
            if not self._apply("note", [(paper_id, "note", note)]):
                return False
            self._notes.edited(paper_id, started_from, self._unsaved[-1])
            return True

    def change(
        self,
        paper_ids: Iterable[str],
        description: str,
        *,
        bookmarked: bool | None = None,
        read: bool | None = None,
        add_tags: Iterable[str] = (),
        remove_tags: Iterable[str] = (),
    ) -> bool:
        """Set the bookmark and the read state and add and remove tags as one undoable step
        (a decision in triage); ValueError names a tag to add that is not valid."""
        ids, tags = list(paper_ids), valid_tags(add_tags)
        changes = [(i, f"tag:{tag}", True) for i in ids for tag in tags]
        changes += [(i, f"tag:{_as_stored(tag)}", False) for i in ids for tag in remove_tags]
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
        removed = [_as_stored(text) for text in remove]
        changes = [(i, f"tag:{tag}", True) for i in ids for tag in add]
        changes += [(i, f"tag:{tag}", False) for i in ids for tag in removed]
        return self._apply(f"tags of {_papers(ids)}", changes)

    def rename_tag(self, old: str, new: str) -> bool:
        old, (new,) = _as_stored(old), valid_tags([new])
        with self.lock:
            ids = [i for i, entry in self._entries.items() if old in entry.get("tags", {})]
        changes = [(i, f"tag:{old}", False) for i in ids] + [(i, f"tag:{new}", True) for i in ids]
        return self._apply(f"rename #{old} to #{new}", changes)

    def delete_tag(self, tag: str) -> bool:
        tag = _as_stored(tag)
        with self.lock:
            ids = [i for i, entry in self._entries.items() if tag in entry.get("tags", {})]
        return self._apply(f"delete #{tag}", [(i, f"tag:{tag}", False) for i in ids])

    def saved_searches(self) -> dict[str, str]:
        """The saved searches, name -> query, by name."""
        with self.lock:
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
        with self.lock:
            before = self._searches.get(name, {})
            if before.get("query", "") == query:
                return False
            entry = {"query": query, "query_at": self._stamp(before.get("query_at", ""))}
            self._searches[name] = entry
            self._unsaved.append(library_file.search_line(name, entry))
        return True

    def set_read(
        self, paper_ids: Iterable[str], value: bool, undoable: bool = False, in_step: bool = False
    ) -> bool:
        """Mark papers read or unread; True when any changed. Marking as one reads is not an
        undoable step; marking many at once (`undoable`) is. Papers read by the last step,
        which changed them (`in_step`: a bookmark, a tag), are read in it: its undo makes
        them unread again."""
        ids = list(paper_ids)
        if undoable:
            action = "mark read" if value else "mark unread"
            return self._apply(f"{action} {_papers(ids)}", ((i, "read", value) for i in ids))
        with self.lock:
            change = self._undo[-1] if in_step and self._undo else None
            if change is None or not set(ids) <= set(change.paper_ids):
                change = Change("")
            changed = len(change.before)
            for paper_id in ids:
                self._set(paper_id, "read", value, change)
        return len(change.before) > changed

    def set_resolved(self, paper_id: str, found: dict[str, Any]) -> bool:
        """Store what `resolve` found for the paper (not an undoable step); True when it changed."""
        with self.lock:
            change = Change("")
            self._set(paper_id, "resolved", found, change)
        return bool(change.before)

    def give_citation_keys(self, bases: Sequence[tuple[str, str]]) -> int:
        """Give papers citation keys, from (paper id, the key it would have) in the order they
        are given (core.citation_keys says how): a paper holding a key keeps it; any other
        gets its base, or the base with the first suffix no paper holds. Not an undoable step;
        how many papers were given one."""
        from tui_reader.core.citation_keys import free_key  # its modules: only when exporting

        given = 0
        with self.lock:
            holders = self._key_holders()
            for paper_id, base in bases:
                if holders.get(self._get(paper_id, "citekey")) == paper_id:
                    continue
                holders[key := free_key(base, holders)] = paper_id
                self._set(paper_id, "citekey", key, None)
                given += 1
        return given

    def move_papers(self, moves: dict[str, str]) -> int:
        """Move what the user made of papers to their new ids (old id -> new id: a paper first
        known by its text, now by its arXiv id): tags, bookmark, read state and note, stamped
        now and journaled, so that the old id is left with nothing and nothing moves twice. A
        note the new id has already is kept, the old one after it. Not an undoable step; how
        many papers moved."""
        moved = 0
        with self.lock:
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
                    if name == "note" and (new_note := self.note(new)) and new_note != value:
                        value = f"{new_note}\n\n{value}"
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
        with self.lock:
            for (paper_id, name, value), set_to in zip(
                reversed(change.before), reversed(change.after), strict=True
            ):
                if self._value(paper_id, name) == set_to:
                    self._set(paper_id, name, value, None)
                else:  # changed elsewhere since: theirs is later
                    change.left.append((paper_id, name))
        for name, query in change.searches:
            self._set_search(name, query)
        return change

    def merge_copy(self, other: Contents) -> MergeReport:
        """Merge in what another copy of the library holds, as changes of this one, saved
        with the next save: per field and tag the later change wins, and a removal is a
        change too."""
        report = MergeReport(skipped=len(other.rejected))
        with self.lock:
            for paper_id, theirs in other.entries.items():
                ours = self._entries.get(paper_id, {})
                merged = merge_entry(ours, theirs)
                if merged == ours:
                    continue
                report.count(ours, merged)
                self._entries[paper_id] = merged
                self._unsaved.append(library_file.journal_line(paper_id, theirs))
            for name, theirs in other.searches.items():
                if merge_searches(self._searches, {name: theirs}):
                    self._unsaved.append(library_file.search_line(name, theirs))
                    report.searches += 1
        return report

    # What library_disk reads and saves

    def take_in(self, entries: Entries, searches: Entries) -> tuple[bool, int]:
        """Merge in what the files hold: whether anything changed, and how many notes saved
        elsewhere while this library's were written (not saved yet) were joined to them
        (note_edits). Nothing else is queued to be saved: the files hold it already."""
        with self.lock:
            ours = {key: self.note(key) for key in self._notes.papers() if key in entries}
            changed = merge_into(self._entries, entries) > 0
            changed |= merge_searches(self._searches, searches)
            clashes = self._notes.clashes(entries, ours)
            for paper_id, theirs, note in clashes:
                if self._set(paper_id, "note", note, None):
                    self._notes.edited(paper_id, theirs, self._unsaved[-1])
                self._undone_to(paper_id, ours[paper_id], theirs, note)
        return changed or bool(clashes), len(clashes)

    def _undone_to(self, paper_id: str, ours: str, theirs: str, note: str) -> None:
        """The undo of the edit that set the paper's note to `ours`, now `note` (theirs
        joined to it): back to theirs."""
        for change in reversed(self._undo):
            for at, (key, name, _) in enumerate(change.before):
                if (key, name) == (paper_id, "note") and change.after[at] == ours:
                    change.before[at], change.after[at] = (key, name, theirs), note
                    return

    @contextmanager
    def merged_onto(self, entries: Entries, searches: Entries) -> Iterator[None]:
        """Merge what memory holds onto what the files hold, to write it as a snapshot:
        `entries` then shares this state's entries, so the lock is held until it is written."""
        with self.lock:
            merge_into(entries, self._entries)
            merge_searches(searches, self._searches)
            yield

    def unsaved_lines(self) -> list[str]:
        with self.lock:
            return list(self._unsaved)

    def saved(self, count: int) -> None:
        """The first `count` of the unsaved lines are in the journal now."""
        with self.lock:
            self._notes.saved(self._unsaved[:count])
            del self._unsaved[:count]
