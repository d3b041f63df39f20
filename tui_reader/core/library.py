"""The user's library: tags, bookmarks, notes and read state of papers, saved as they change.

`Library` is what the rest of the program uses. It is made of the library's state in memory
(library_state: the entries, each change stamped with its time, undo, what is not saved yet)
and its files (library_disk: the lock, the journal, folds, repairs, backups), which merge what
each writer saved by the rules of library_merge.
"""

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from tui_reader.core.library_disk import (
    DiskChanges,
    LibraryDisk,
    LibraryError,
    LibraryPathError,
    own_files,
)
from tui_reader.core.library_fields import Entries
from tui_reader.core.library_merge import MergeReport
from tui_reader.core.library_state import (
    SEARCH_NAME_MAX,
    Change,
    LibraryState,
    normalise_tag,
    tag_problem,
    valid_tags,
)
from tui_reader.core.locations import LIBRARY_VARIABLE as ENVIRONMENT_VARIABLE
from tui_reader.core.locations import library_path as default_path
from tui_reader.core.paper_state import LATER_TAG

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "SEARCH_NAME_MAX",
    "Library",
    "LibraryError",
    "LibraryPathError",
    "default_path",
    "normalise_tag",
    "tag_problem",
    "valid_tags",
]


class Library:
    """Tags, bookmarks, notes and read state by paper id, backed by files (or by nothing)."""

    def __init__(
        self, path: Path | None, entries: Entries | None = None, read_only: bool = False
    ) -> None:
        self._state = LibraryState(entries)
        self._disk = LibraryDisk(path, self._state, read_only)

    @classmethod
    def open(cls, path: Path | None, read_only: bool = False) -> tuple["Library", list[str]]:
        """The library at `path` and what the user must be told about it.

        LibraryPathError when the path cannot be a library, or holds a file that never was
        one (papers given as the library, say): it is left as it is. A damaged file is moved
        aside and the library is rebuilt from the backup and the journals, and written back
        at once; entries that cannot be read are set aside in `.rejected`. `read_only` reads
        around damage and changes no file, and tells none of what blocks saving but a file
        that cannot be read. Why no change can be saved is `blocked`, not told here: the
        reader keeps changes for its session, a command fails to save them.
        """
        library = cls(path, read_only=read_only)
        return library, library._disk.open()

    @property
    def path(self) -> Path | None:
        return self._disk.path

    def own_files(self) -> list[Path]:
        """The library's file and the files it keeps beside it: none to write over."""
        return own_files(self._disk.path) if self._disk.path is not None else []

    @property
    def blocked(self) -> str | None:
        """Why no change can be saved (read-only, locked by another program, written by a
        newer tui-reader...), or None: `save` raises LibraryError with it."""
        return self._disk.blocked

    @property
    def saving(self) -> bool:
        return self._disk.saving

    @property
    def taken_in(self) -> int:
        """How many times others' changes were taken in (by a save or a reload): the
        library shown changed only when this did."""
        return self._disk.taken_in

    @property
    def has_unsaved_changes(self) -> bool:
        return self.path is not None and self._state.has_unsaved_changes

    @property
    def can_undo(self) -> bool:
        return self._state.can_undo

    # Reading

    def is_bookmarked(self, paper_id: str) -> bool:
        return self._state.is_bookmarked(paper_id)

    def is_read(self, paper_id: str) -> bool:
        return self._state.is_read(paper_id)

    def note(self, paper_id: str) -> str:
        return self._state.note(paper_id)

    def changed_at(self, paper_id: str) -> str:
        return self._state.changed_at(paper_id)

    def citation_keys(self, paper_ids: Iterable[str]) -> dict[str, str]:
        return self._state.citation_keys(paper_ids)

    def resolved(self, paper_id: str) -> dict[str, Any]:
        return self._state.resolved(paper_id)

    def tags(self, paper_id: str) -> list[str]:
        return self._state.tags(paper_id)

    def tag_counts(self, among: Callable[[str], bool] | None = None) -> dict[str, int]:
        return self._state.tag_counts(among)

    def paper_ids(self) -> list[str]:
        return self._state.paper_ids()

    def saved_searches(self) -> dict[str, str]:
        return self._state.saved_searches()

    # Changing

    def set_bookmarked(self, paper_ids: Iterable[str], value: bool) -> bool:
        return self._state.set_bookmarked(paper_ids, value)

    def bookmark(self, paper_ids: Sequence[str]) -> bool:
        """Bookmark the papers: kept, so a paper put off (`#later`) is no longer, as a
        triage's keep makes it; one step, undone whole."""
        if any(LATER_TAG in self.tags(i) for i in paper_ids):
            description = "bookmarked, no longer #later"
            return self.change(paper_ids, description, bookmarked=True, remove_tags=[LATER_TAG])
        return self.set_bookmarked(paper_ids, True)

    def set_note(self, paper_id: str, note: str, started_from: str | None = None) -> bool:
        return self._state.set_note(paper_id, note, started_from)

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
        return self._state.change(
            paper_ids,
            description,
            bookmarked=bookmarked,
            read=read,
            add_tags=add_tags,
            remove_tags=remove_tags,
        )

    def change_tags(
        self, paper_ids: Iterable[str], add: Iterable[str] = (), remove: Iterable[str] = ()
    ) -> bool:
        return self._state.change_tags(paper_ids, add, remove)

    def rename_tag(self, old: str, new: str) -> bool:
        return self._state.rename_tag(old, new)

    def delete_tag(self, tag: str) -> bool:
        return self._state.delete_tag(tag)

    def save_search(self, name: str, query: str) -> bool:
        return self._state.save_search(name, query)

    def delete_search(self, name: str) -> bool:
        return self._state.delete_search(name)

    def set_read(
        self, paper_ids: Iterable[str], value: bool, undoable: bool = False, in_step: bool = False
    ) -> bool:
        return self._state.set_read(paper_ids, value, undoable, in_step)

    def set_resolved(self, paper_id: str, found: dict[str, Any]) -> bool:
        return self._state.set_resolved(paper_id, found)

    def move_papers(self, moves: dict[str, str]) -> int:
        return self._state.move_papers(moves)

    def undo(self) -> Change | None:
        return self._state.undo()

    # Both

    def give_citation_keys(self, bases: Sequence[tuple[str, str]]) -> tuple[int, list[str]]:
        """Give papers citation keys (LibraryState.give_citation_keys says how) under the file
        lock after reading what others saved, and save them at once, so that two programs
        never give one key to two papers; how many keys this gave (a paper another program
        gave one meanwhile is not counted) and what the user must be told, as `save`.
        LibraryError when they cannot be saved: they are kept for the session."""
        given: int | None = None

        def give() -> None:
            nonlocal given
            given = self._state.give_citation_keys(bases)

        try:
            messages = self._disk.save(prepare=give)
        finally:
            if given is None:  # nothing could be read or written: given in memory
                given = self._state.give_citation_keys(bases)
        return given, messages

    def merge_copy(self, path: Path) -> MergeReport:
        """Fold another copy of the library in (from another machine, a sync or a backup)
        with the rules of concurrent saves: per field and tag the later change wins, and a
        removal is a change too. The copy is only read; its journal beside it counts.
        LibraryError when it cannot be read as a library, naming it and the problem."""
        return self._state.merge_copy(self._disk.read_copy(path))

    # The files

    def save(self, fold: bool = False) -> list[str]:
        """Append the changes not saved yet to the journal, under the lock; what the user
        must be told. Folds the journal into the snapshot when it has grown (or `fold`).

        Raises LibraryError when nothing can be written; the changes stay in memory.
        """
        return self._disk.save(fold)

    def reload_if_changed(self) -> DiskChanges:
        """Take in what another program saved since this library last read or wrote."""
        return self._disk.reload_if_changed()
