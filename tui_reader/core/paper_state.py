"""What the user made of each paper, as searching, sorting and exporting read it.

The library (core.library.Library) is one; anything with these methods will do, so the core
needs no library to search or export.
"""

from collections.abc import Sequence
from typing import Protocol


class PaperState(Protocol):
    def is_bookmarked(self, paper_id: str) -> bool: ...

    def is_read(self, paper_id: str) -> bool: ...

    def tags(self, paper_id: str) -> Sequence[str]: ...

    def note(self, paper_id: str) -> str: ...

    def changed_at(self, paper_id: str) -> str:
        """When the user last changed anything about the paper ("" for never)."""
        ...

    def paper_ids(self) -> Sequence[str]:
        """The papers the user made anything of: any other has no bookmark, tag or note, and
        is unread."""
        ...


class NoState:
    """Papers nobody has touched: no bookmark, tag or note, all unread."""

    def is_bookmarked(self, paper_id: str) -> bool:
        return False

    def is_read(self, paper_id: str) -> bool:
        return False

    def tags(self, paper_id: str) -> Sequence[str]:
        return ()

    def note(self, paper_id: str) -> str:
        return ""

    def changed_at(self, paper_id: str) -> str:
        return ""

    def paper_ids(self) -> Sequence[str]:
        return ()


NO_STATE = NoState()
