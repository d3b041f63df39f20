"""What the reader's background work reports, as messages.

A thread posts one to the widget (or the app) that shows what it found. A message to a widget
that is gone, or to an app that is quitting, is dropped: a result arriving as the reader quits
is never delivered to panes being taken down.
"""

from typing import TYPE_CHECKING, Any

from textual.message import Message

from tui_reader.core.for_you import ForYouOrder
from tui_reader.core.highlight import Highlight
from tui_reader.core.paper import Paper
from tui_reader.core.paper_columns import PaperColumns
from tui_reader.core.store import PaperView

if TYPE_CHECKING:  # core.recommend brings Arrow: imported once the for-you order is asked for
    from tui_reader.core.recommend import Recommender


class PapersLoaded(Message):
    """More papers read from the inputs."""

    def __init__(self, batches: list[PaperColumns]) -> None:
        super().__init__()
        self.batches = batches


class LoadFinished(Message):
    """Every input is read (the records that could not be are the loader's `problems`)."""


class IndexReady(Message):
    """The search index over the papers is built (or that of the first papers); `caching`,
    the papers and it are being saved in the cache for the next start (an EntryReopened
    follows)."""

    def __init__(self, index: Any, caching: bool = False) -> None:
        super().__init__()
        self.index, self.caching = index, caching


class IndexFailed(Message):
    """The search index could not be built: why."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class EntryReopened(Message):
    """The papers and index just saved in the cache, opened again by memory map (None: they
    could not be saved), and why the cache could not take them (or "")."""

    def __init__(self, indexed: Any, not_kept: str) -> None:
        super().__init__()
        self.indexed, self.not_kept = indexed, not_kept


class CacheDamaged(Message):
    """The papers kept in the cache the reader opened were found damaged: what to tell."""

    def __init__(self, told: str) -> None:
        super().__init__()
        self.told = told


class ResultsReady(Message):
    """The papers a query found, in the order to show them. `full` of them match every term;
    `query` is "" for every paper in the chosen order; `among`, how many papers the search
    looked among (the first ones, while the rest load; None: all); `showing`, the words read
    for typos no paper holds (core.search_service.Results.showing); `named`, the query named
    the one paper found by its id or link; `counting`, only the first papers found, the rest
    and the count to come (core.search_service.Results.counting)."""

    def __init__(
        self,
        papers: PaperView,
        query: str,
        full: int | None = None,
        highlight: Highlight | None = None,
        among: int | None = None,
        showing: str = "",
        named: bool = False,
        counting: bool = False,
    ) -> None:
        super().__init__()
        self.papers, self.query, self.full, self.highlight = papers, query, full, highlight
        self.among, self.showing, self.named, self.counting = among, showing, named, counting


class RelatedFound(Message):
    """The papers most like the paper `paper_id`."""

    def __init__(self, paper_id: str, related: list[Paper]) -> None:
        super().__init__()
        self.paper_id, self.related = paper_id, related


class PapersResolved(Message):
    """A look-up of papers by their text ended: `found`, the ids of those it found for
    certain, of `looked_up`; `problem`, why it stopped early (offline...), else empty."""

    def __init__(self, found: list[str], looked_up: int, problem: str = "") -> None:
        super().__init__()
        self.found, self.looked_up, self.problem = found, looked_up, problem


class ForYouNews(Message):
    """What the for-you order's threads post (ui/for_you)."""


class ForYouTrained(ForYouNews):
    """The recommender of the reader's decisions, for the papers `tag` asks for (None: every
    kept paper), with `cold`, its cold start's message (empty with a model); or None with
    why none could be made."""

    def __init__(self, tag: str | None, recommender: "Recommender | None", cold: str = "") -> None:
        super().__init__()
        self.tag, self.recommender, self.cold = tag, recommender, cold


class ForYouLearning(ForYouNews):
    """The decisions are enough for a model, which `recommender` (of `tag`'s papers) makes
    now: its papers' rows read, or built, first (seconds at 100,000 papers)."""

    def __init__(self, tag: str | None, recommender: "Recommender") -> None:
        super().__init__()
        self.tag, self.recommender = tag, recommender


class ForYouScored(ForYouNews):
    """The for-you order after the decisions as they are now (None: the order shown), that
    `recommender` gives once it followed them (None: not opened yet), its cold start's
    message, `cold` (empty with a model), and the paper under the cursor with the line
    saying why it is recommended (`why`, None without one)."""

    def __init__(
        self,
        tag: str | None,
        order: ForYouOrder | None,
        recommender: "Recommender | None",
        cold: str = "",
        why: tuple[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.tag, self.order, self.recommender, self.cold = tag, order, recommender, cold
        self.why = why


class WhyFound(Message):
    """Why the paper `paper_id` is recommended, in a line."""

    def __init__(self, paper_id: str, line: str) -> None:
        super().__init__()
        self.paper_id, self.line = paper_id, line
