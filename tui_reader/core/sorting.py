"""Orders for the paper list besides relevance: file order, headline, recently changed."""

from collections.abc import Callable, Sequence

from tui_reader.core.library import Library
from tui_reader.core.paper import Paper
from tui_reader.core.store import PaperStore

SORTS = ("relevance", "file", "headline", "changed")
LABELS = {"file": "file order", "headline": "headline", "changed": "recently changed"}


def _key(order: str, store: PaperStore, library: Library) -> Callable[[Paper], object]:
    if order == "headline":
        return lambda paper: paper.headline.casefold()
    if order == "changed":  # most recent first; papers never changed last, in file order
        return lambda paper: (
            _later_first(library.changed_at(paper.id)),
            store.position_of(paper.id),
        )
    return lambda paper: store.position_of(paper.id)


def sort_papers(
    papers: Sequence[Paper], full: int, order: str, store: PaperStore, library: Library
) -> Sequence[Paper]:
    """The papers in the order asked for; those matching every term stay before the close
    ones. Relevance keeps the order they came in."""
    if order == "relevance":
        return papers
    key = _key(order, store, library)
    shown = list(papers)
    return sorted(shown[:full], key=key) + sorted(shown[full:], key=key)


def _later_first(stamp: str) -> tuple[int, ...]:
    """A key that sorts later times first, and an empty stamp (never changed) last."""
    return tuple(-ord(c) for c in stamp) if stamp else (1,)
