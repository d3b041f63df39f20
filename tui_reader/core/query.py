"""A filter query: free text for the search, plus filters on what the user's library says.

State filters, combinable with text and with each other (all must hold):
`#tag` has the tag, `!#tag` lacks it, `is:bookmarked`, `is:read`, `is:unread`, `has:note`,
and any of these negated with a leading `!`.
"""

from collections.abc import Callable
from dataclasses import dataclass

from tui_reader.core.library import Library, normalise_tag

_STATES: dict[str, Callable[[Library, str], bool]] = {
    "is:bookmarked": Library.is_bookmarked,
    "is:read": Library.is_read,
    "is:unread": lambda library, paper_id: not library.is_read(paper_id),
    "has:note": lambda library, paper_id: bool(library.note(paper_id)),
}


@dataclass(frozen=True)
class StateFilter:
    test: Callable[[Library, str], bool]
    negated: bool = False

    def __call__(self, library: Library, paper_id: str) -> bool:
        return self.test(library, paper_id) != self.negated


def _has_tag(tag: str) -> Callable[[Library, str], bool]:
    return lambda library, paper_id: tag in library.tags(paper_id)


def _state_filter(word: str) -> StateFilter | None:
    negated = word.startswith("!")
    body = word[1:] if negated else word
    if test := _STATES.get(body.lower()):
        return StateFilter(test, negated)
    if body.startswith("#") and (tag := normalise_tag(body[1:])):
        return StateFilter(_has_tag(tag), negated)
    return None


@dataclass(frozen=True)
class Query:
    text: str
    states: tuple[StateFilter, ...] = ()

    def keeps(self, library: Library, paper_id: str) -> bool:
        """Whether the paper passes every state filter."""
        return all(state(library, paper_id) for state in self.states)


def parse_query(query: str) -> Query:
    """Split a query into its free text and its state filters."""
    words, states = [], []
    for word in query.split():
        if state := _state_filter(word):
            states.append(state)
        else:
            words.append(word)
    return Query(" ".join(words), tuple(states))
