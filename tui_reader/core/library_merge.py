"""How two versions of the library become one: the rules every reader and writer merges by.

Per paper and field the later change wins, ours on a tie; each tag on its own, and a removal
is a change like an addition; a saved search by its name, an empty query being a deleted one.
Two instances, the app and the commands, a copy from another machine and the journal read into
the snapshot all merge by these rules, so none loses another's changes whatever order it saw
them in.
"""

from dataclasses import dataclass
from typing import Any

from tui_reader.core import wording
from tui_reader.core.library_fields import DEFAULTS, STAMP_OF, TAG_FIELDS, Entries


def merge_entry(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """One paper's entry from two writers: for each field, and each tag, the later change."""
    merged = {**theirs, **ours}
    for name, stamp in STAMP_OF.items():
        if name in theirs and (name not in ours or theirs.get(stamp, "") > ours.get(stamp, "")):
            merged[name], merged[stamp] = theirs[name], theirs.get(stamp, "")
        elif name in ours:  # ours on a tie
            merged[stamp] = ours.get(stamp, "")
    if not any(key in entry for entry in (ours, theirs) for key in TAG_FIELDS):
        return merged
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


def merge_in_place(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """Make `ours` what merge_entry(ours, theirs) returns, at the cost of `theirs` alone (a
    journal line), not of all the paper's tags. `ours` must be as merge_entry returns it:
    each field with its time, no tag both present and removed, no empty map of tags."""
    for key, value in theirs.items():
        if (stamp := STAMP_OF.get(key)) is not None:
            if key not in ours or theirs.get(stamp, "") > ours[stamp]:
                ours[key], ours[stamp] = value, theirs.get(stamp, "")
        elif key in TAG_FIELDS:
            present = key == "tags"
            other = "removed_tags" if present else "tags"
            add, drop = ours.setdefault(key, {}), ours.setdefault(other, {})
            tags, removed = (add, drop) if present else (drop, add)
            for tag, when in value.items():
                if tag in tags:
                    later = (when, present) > (tags[tag], True)
                else:  # a tag first seen is taken whatever its time, "" too
                    later = tag not in removed or (when, present) > (removed[tag], False)
                if later:
                    add[tag] = when
                    drop.pop(tag, None)
            for name in (key, other):
                if not ours[name]:
                    del ours[name]
        else:  # a time without its field, or a field of a later version
            ours.setdefault(key, value)


def merge_change(entries: Entries, paper_id: str, entry: dict[str, Any], merged: set[str]) -> None:
    """Merge one more change of a paper into `entries`, in the order they are read. `merged`
    holds the papers whose entry was made by merge_entry here: later changes of those merge
    in place, so that many changes of one paper are read in a time linear in their number."""
    if paper_id in merged:
        merge_in_place(entries[paper_id], entry)
    elif paper_id in entries:
        entries[paper_id] = merge_entry(entries[paper_id], entry)
        merged.add(paper_id)
    else:
        entries[paper_id] = entry


def merge_into(entries: Entries, more: Entries) -> int:
    """Merge `more` into `entries` in place; how many papers' entries changed."""
    changed = 0
    for paper_id, entry in more.items():
        current = entries.get(paper_id)
        if current is None:
            entries[paper_id] = entry
            changed += 1
        elif current != entry:
            merged = merge_entry(current or {}, entry)
            if merged != current:
                entries[paper_id] = merged
                changed += 1
    return changed


def merge_searches(ours: Entries, theirs: Entries) -> bool:
    """Take each saved search (name -> {"query", "query_at"}) that `ours` lacks or whose
    change is later in `theirs`; whether any was."""
    changed = False
    for name, entry in theirs.items():
        if name not in ours or entry.get("query_at", "") > ours[name].get("query_at", ""):
            ours[name] = entry
            changed = True
    return changed


@dataclass
class MergeReport:
    """What merging another copy changed here."""

    papers: int = 0
    tags_added: int = 0
    tags_removed: int = 0
    bookmarks: int = 0
    notes: int = 0
    read_marks: int = 0
    resolutions: int = 0  # what resolve found
    citation_keys: int = 0
    searches: int = 0  # saved searches added, changed or deleted
    skipped: int = 0  # entries of the copy that could not be read

    def count(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        self.papers += 1
        tags_before, tags_after = set(before.get("tags", {})), set(after.get("tags", {}))
        self.tags_added += len(tags_after - tags_before)
        self.tags_removed += len(tags_before - tags_after)
        for name, attribute in (
            ("bookmarked", "bookmarks"),
            ("note", "notes"),
            ("read", "read_marks"),
            ("resolved", "resolutions"),
            ("citekey", "citation_keys"),
        ):
            if before.get(name, DEFAULTS[name]) != after.get(name, DEFAULTS[name]):
                setattr(self, attribute, getattr(self, attribute) + 1)

    def __str__(self) -> str:
        searches = wording.count(self.searches, "saved search", "saved searches")
        if not self.papers and not self.searches:
            changed = "nothing changed: this library already had every change of the copy"
        elif not self.papers:
            changed = f"{searches} changed"
        else:
            parts = [
                f"{wording.count(number, noun)} {what}"
                for number, noun, what in (
                    (self.tags_added, "tag", "added"),
                    (self.tags_removed, "tag", "removed"),
                    (self.bookmarks, "bookmark", "changed"),
                    (self.notes, "note", "changed"),
                    (self.read_marks, "read mark", "changed"),
                    (self.resolutions, "resolution", "changed"),
                    (self.citation_keys, "citation key", "changed"),
                )
                if number
            ]
            changed = f"{wording.count(self.papers, 'paper')} changed: {', '.join(parts)}"
            if self.searches:
                changed += f"; {searches} changed"
        if self.skipped:
            changed += (
                f"; {wording.count(self.skipped, 'entry', 'entries')} of the copy could not be read"
            )
        return changed
