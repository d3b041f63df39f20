"""The header's text (what the list shows, and how the reader is doing) as a pure function of
what the workspace knows: each case tested without an app."""

from dataclasses import dataclass

from tui_reader.core.query import parse_query
from tui_reader.core.sorting import LABELS
from tui_reader.core.wording import count


@dataclass(frozen=True)
class HeaderState:
    """What the header tells, as the workspace holds it."""

    papers: int  # in the store
    query: str  # as typed (a space after the last word: typed in full)
    shown_query: str  # the query whose results the list shows
    shown: int  # papers matching every term, of the list's results
    close: int  # papers matching all terms but one
    among: int | None  # the papers the list's search looked among (None: not known)
    indexed: int | None  # the papers the index holds (None: no index)
    status: str  # "loading", "indexing" or "ready"
    unindexed: bool  # the list shows what an index of the first papers finds, or all
    showing: str = ""  # the words read for typos no paper holds
    counting: bool = False  # the list's results are the first found: the rest to come
    sort: str = "relevance"
    marked: int = 0
    save_failing: bool = False
    saving: bool = False
    caching_index: bool = False  # the papers and their index being saved for the next start
    raw: bool = False
    for_you: str = ""  # in the for-you order, what it is ("like #tag") and how it is doing


def header_text(state: HeaderState) -> str:
    """The header's text for this state."""
    return _counted(state) + _order(state) + _asked(state) + header_end(state)


def _counted(state: HeaderState) -> str:
    """How many papers the list shows, and of how many; or what keeps it from knowing."""
    papers, query = count(state.papers, "paper"), state.query.strip()
    current = state.shown_query == state.query
    shown = f"{state.shown:,} of {papers}" if query else papers
    if state.counting and current and query:
        shown = f"{state.shown:,}+ of {papers}, counting…"
    if state.close:
        shown += f" (+{state.close:,} close)"
    # The papers searched among: the list's, or the index's while its search runs.
    among = state.among if current else None
    if among is None:
        among = state.indexed
    partly = (
        bool(query) and among is not None and (state.status == "loading" or among < state.papers)
    )
    if state.unindexed:
        if state.status == "loading":
            shown = f"loading… {papers}"
        elif query and among is None:
            shown = papers
        return shown + (f" · searching the first {among:,} only" if partly else " · not indexed")
    if partly and state.status != "ready":
        rest = "loads" if state.status == "loading" else "is indexed"
        return shown + f" · searching the first {among:,} while the rest {rest}"
    if state.status == "loading":
        return f"loading… {papers}" + (" · searching once they are indexed" if query else "")
    if state.status == "indexing":
        return f"indexing {papers}…" if query and state.indexed is None else shown + " · indexing…"
    if query and (not current or partly):
        return f"searching {papers}…"  # the count shown is the last list's
    return shown


def _asked(state: HeaderState) -> str:
    """What the query's words are read as: a typo's word, a filter being typed, a mistake."""
    if not state.query.strip():
        return ""
    told = f" · {state.showing}" if state.showing and state.shown_query == state.query else ""
    parsed = parse_query(state.query)  # not stripped: see HeaderState.query
    told += f" · {parsed.completing}" if parsed.completing else ""
    told += "".join(f" · {mistake}" for mistake in parsed.mistyped)
    return told + "".join(f" · {reason}: searched as words" for reason in parsed.misread)


def _order(state: HeaderState) -> str:
    """The order the list is in, unless relevance: for you, how that is doing."""
    if state.sort == "for you":
        return f" · {state.for_you or 'for you'}"
    return f" · by {label}" if (label := LABELS.get(state.sort)) else ""


def header_end(state: HeaderState) -> str:
    """The end of the header's text: the marks, the saving and the rest the reader is doing,
    which a narrow header keeps whole (TitleBar.show)."""
    told = f" · {state.marked:,} marked" if state.marked else ""
    if state.save_failing:
        told += " · not saved"
    elif state.saving:
        told += " · saving…"
    if state.caching_index:  # a quit now waits for it
        told += " · keeping the index for the next start…"
    return told + (" · raw text" if state.raw else "")
