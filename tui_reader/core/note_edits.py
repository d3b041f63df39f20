"""Notes written in two places at once: a reader's editor open on a paper's note while another
reader (or program) saved another. Neither is lost: the note saved elsewhere is kept, and what
this one added to the note it started from follows it.

The clash is found where it can be: when the note saved elsewhere is already in memory as
the edit ends (`LibraryState.set_note`), else when it is read from the files, before this
library's note is saved (`LibraryState.take_in`), whichever change is stamped later.
"""

from collections.abc import Mapping
from typing import Any


def joined(theirs: str, started_from: str, ours: str) -> str:
    """The note saved elsewhere, then what ours added to the note it started from (all of
    ours when it did not begin with it); theirs alone when ours added nothing."""
    added = ours.removeprefix(started_from) if started_from else ours
    return f"{theirs}\n\n{added.strip()}" if added.strip() else theirs


class NoteEdits:
    """The notes this library changed and has not saved yet, each with the note its edit
    started from and the journal line that holds it."""

    def __init__(self) -> None:
        self._edits: dict[str, tuple[str, str]] = {}  # paper id -> (started from, its line)

    def edited(self, paper_id: str, started_from: str | None, line: str) -> None:
        """A note set, from `started_from` (None: set as it is, whatever was saved). Edits
        not saved yet in a row started from the first one's start."""
        if started_from is None:
            self._edits.pop(paper_id, None)
            return
        start = self._edits.get(paper_id, (started_from, ""))[0]
        self._edits[paper_id] = (start, line)

    def papers(self) -> list[str]:
        return list(self._edits)

    def clashes(
        self, entries: Mapping[str, Mapping[str, Any]], ours: Mapping[str, str]
    ) -> list[tuple[str, str, str]]:
        """The notes the files hold (`entries`: what they changed) that were saved elsewhere
        while ours were written, from another start: (paper id, theirs, the two joined)."""
        found = []
        for paper_id, (start, _) in self._edits.items():
            theirs, mine = entries.get(paper_id, {}).get("note"), ours.get(paper_id)
            if isinstance(theirs, str) and mine is not None and theirs not in (start, mine):
                found.append((paper_id, theirs, joined(theirs, start, mine)))
        return found

    def saved(self, lines: list[str]) -> None:
        """These journal lines are saved: the edits they hold clash with nothing more."""
        written = set(lines)
        self._edits = {key: edit for key, edit in self._edits.items() if edit[1] not in written}
