"""What the user made of each paper, as searching, sorting and exporting read it.

The library (core.library.Library) is one; anything with these methods will do, so the core
needs no library to search or export.
"""

from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Protocol

# The tag of a paper put off (triage's l, or tagged so): unread, and no decision made on it.
LATER_TAG = "later"


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

    def citation_keys(self, paper_ids: Iterable[str]) -> Mapping[str, str]:
        """The citation keys these papers were given (core.citation_keys), by paper id: only
        those given one, each key held by one paper."""
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

    def citation_keys(self, paper_ids: Iterable[str]) -> Mapping[str, str]:
        return {}


NO_STATE = NoState()


@dataclass(frozen=True)
class StateView:
    """A state as it is, each question passed on to it: a view that changes one thing of it
    overrides that one."""

    state: PaperState

    def is_bookmarked(self, paper_id: str) -> bool:
        return self.state.is_bookmarked(paper_id)

    def is_read(self, paper_id: str) -> bool:
        return self.state.is_read(paper_id)

    def tags(self, paper_id: str) -> Sequence[str]:
        return self.state.tags(paper_id)

    def note(self, paper_id: str) -> str:
        return self.state.note(paper_id)

    def changed_at(self, paper_id: str) -> str:
        return self.state.changed_at(paper_id)

    def paper_ids(self) -> Sequence[str]:
        return self.state.paper_ids()

    def citation_keys(self, paper_ids: Iterable[str]) -> Mapping[str, str]:
        return self.state.citation_keys(paper_ids)


@dataclass(frozen=True)
class WithoutNotes(StateView):
    """A state as it is, but with no notes: what a reference shows when the user's notes,
    which are private, are not asked for."""

    def note(self, paper_id: str) -> str:
        return ""


@dataclass(frozen=True)
class WithNew(StateView):
    """A state as it is, and the papers new to the collection kept (`is:new`): the ids of
    those its last update took in (core.segments.added)."""

    new: frozenset[str]

    def is_new(self, paper_id: str) -> bool:
        return paper_id in self.new

    def paper_ids(self) -> Sequence[str]:
        """The papers the user made anything of, and the new ones: any other is not new."""
        known = self.state.paper_ids()
        return [*known, *self.new.difference(known)]


@dataclass(frozen=True)
class UnreadStill(StateView):
    """A state as it is, but with the papers of `read_since` unread: those a list's reader
    read (by resting on or using them) since it was searched, which its searches again (after
    a bookmark, say) keep, also under `is:unread`, until the next query. The set is read as
    it is when asked (a search's thread, while the reader reads on): a paper is added to it
    before it is read."""

    read_since: Set[str]

    def is_read(self, paper_id: str) -> bool:
        # The state first: a paper it holds read since is in the set by then.
        return self.state.is_read(paper_id) and paper_id not in self.read_since
