"""The for-you order in the reader: a model of the reader's decisions orders the list best
first (core.recommend, core.for_you), follows each decision, and says in the detail pane why
a paper is recommended.

The model is trained in a daemon thread (seconds at 100,000 papers; a quit never waits for
it) once the order is first asked for, and again once decisions pause for `retrain_after`.
Each change to the library has a thread worker move the last model toward the decisions made
since (core.for_you.nudged) and post the order it gives (`ForYouScored`): the list is sorted
again below the cursor, the papers up to it keeping their places, and a triage in this order
sorts the papers after the one on screen. With a `#tag` (or `!#tag`) in the filter, the tag's
papers are the ones kept ("like #tag"). Under the decisions a model needs there is none: the
pane says how many more it needs (core.recommend.ColdStart), and the decided papers still go
after the others. The model is made once the papers are loaded, all of them."""

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from textual.app import App
from textual.message import Message
from textual.signal import Signal
from textual.timer import Timer
from textual.worker import Worker

from tui_reader.core.for_you import (
    NO_SCORES,
    NONE,
    ForYouOrder,
    decided_mask,
    liked_tag,
    nudged,
)
from tui_reader.core.library import Library
from tui_reader.core.locations import cache_folder
from tui_reader.core.paper import Paper
from tui_reader.core.sorting import Sort
from tui_reader.core.store import Numbers, PaperStore, PaperView
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.loader import in_background
from tui_reader.ui.messages import ForYouNews, ForYouScored, ForYouTrained, WhyFound
from tui_reader.ui.notices import tell
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.timings import Timings

if TYPE_CHECKING:  # core.recommend brings Arrow: imported once the order is asked for
    from tui_reader.core.recommend import Decisions, Recommender

NOT_DECIDED = ForYouOrder(np.zeros(0, dtype=bool))  # the order they came in


class Showing(Protocol):
    """The main screen (ui/workspace's Workspace) as the for-you room sees it."""

    store: PaperStore
    library: Library
    paper_list: PaperList
    detail_pane: DetailPane
    timings: Timings

    @property
    def sort(self) -> Sort: ...

    @property
    def status(self) -> str: ...

    @property
    def is_active(self) -> bool: ...

    @property
    def app(self) -> App[Any]: ...

    def refilter(self) -> None: ...

    def post_message(self, message: Message) -> bool: ...

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...

    def run_worker(
        self,
        work: Callable[[], None],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[None]: ...


class ForYou:
    """The for-you order's model, the order it gives, and what the reader is told of it."""

    def __init__(self, screen: Showing) -> None:
        self._screen, self._store, self._library = screen, screen.store, screen.library
        self.tag: str | None = None  # the tag whose papers are the kept ones
        self.order: ForYouOrder | None = None  # None: not asked for yet
        self.cold = ""  # why there is no model: the decisions it still needs
        self.rescored: Signal[None] = Signal(screen.paper_list, "for-you")  # a new order
        self._trained: Recommender | None = None  # the model as last trained
        self._model: Recommender | None = None  # that model moved to the decisions now
        self._decided: tuple[Recommender | None, Decisions] | None = None  # the order's
        self._training: set[str | None] = set()  # the tags whose model is being trained
        self._updating = self._again = False  # an update runs; a change came meanwhile
        self._resort_due = False  # the order changed under a triage: the list follows
        self._pinned = NONE  # the papers that keep their places in the next sort
        self._retrain: Timer | None = None
        self._explaining: Timer | None = None

    @property
    def _active(self) -> bool:
        return self._screen.sort == "for you"

    @property
    def _loaded(self) -> bool:
        return self._screen.status != "loading"

    @property
    def label(self) -> str:
        """What the header says of the order: "for you" or "like #tag", and how it is doing."""
        name = f"like #{self.tag}" if self.tag else "for you"
        if self.cold:
            return f"{name} · no model yet"
        if self._model is None:
            return f"{name} · learning…" if self._loaded else f"{name} · once loaded"
        return name

    def ordering(self, query: str) -> ForYouOrder:
        """The order for the results of `query` (asked as their search starts)."""
        tag = liked_tag(query, self._library.tag_counts() if "#" in query else ())
        if self.order is None or tag != self.tag:
            self._start(tag)
        return replace(self.order or NOT_DECIDED, pinned=self._pinned)

    def _start(self, tag: str | None) -> None:
        """Order for `tag`'s papers: its model trained, and the decided papers put last."""
        if tag != self.tag:
            self.tag, self._trained, self._model, self.cold = tag, None, None, ""
            self._decided = None
        self.order = NOT_DECIDED
        if self._loaded:
            self._train()
            self.changed()

    def loaded(self) -> None:
        """Every paper is loaded: the model can be made, if the order was asked for."""
        if self._active and self.order is not None:
            self._start(self.tag)

    def changed(self) -> None:
        """The library changed: the order follows the decisions as they are now (one update
        at a time: a change made while one runs is taken up once it ends)."""
        if not self._active or self.order is None or not self._loaded:
            return
        if self._updating:
            self._again = True
            return
        self._updating, self._again = True, False
        trained, decided = self._trained, self._decided
        before = decided[1] if decided is not None and decided[0] is trained else None
        update = partial(self._update, self.tag, trained, before)
        self._screen.run_worker(update, name="for-you", group="for-you", thread=True)

    def _update(
        self, tag: str | None, trained: "Recommender | None", before: "Decisions | None"
    ) -> None:
        """The decisions now, the model moved to them and its order, posted; no order when
        they are those of the order shown (in a thread)."""
        from tui_reader.core.recommend import decisions

        made = decisions(self._store, self._library, tag)
        if before is not None and _same(before, made):
            self._screen.post_message(ForYouScored(tag, None, None, made, stale=False))
            return
        model = None if trained is None else nudged(trained, made)
        scores = NO_SCORES if model is None else model.scores
        order = ForYouOrder(decided_mask(made, len(self._store)), scores)
        stale = model is None or model is not trained
        self._screen.post_message(ForYouScored(tag, order, model, made, stale))

    def _train(self) -> None:
        """Train the model of the tag's decisions in the background, unless it is already."""
        if self.tag not in self._training:
            self._training.add(self.tag)
            in_background("for-you", partial(self._trained_now, self.tag))

    def _trained_now(self, tag: str | None) -> None:
        """The model of the decisions now, posted (in a daemon thread)."""
        from tui_reader.core.recommend import ColdStart, recommender

        try:
            model = recommender(self._store, self._library, tag, cache_folder())
            model.scores  # noqa: B018  worked out here, not on the screen's thread
        except ColdStart as cold:
            self._screen.post_message(ForYouTrained(tag, None, str(cold)))
        except (OSError, MemoryError, ValueError) as error:
            self._screen.post_message(ForYouTrained(tag, None, f"no model: {error}"))
        else:
            self._screen.post_message(ForYouTrained(tag, model))

    # What the threads post, which the screen hands here

    def news(self, message: ForYouNews) -> None:
        if isinstance(message, ForYouTrained):
            self._trained_arrived(message)
        elif isinstance(message, ForYouScored):
            self._scored(message)

    def _trained_arrived(self, message: ForYouTrained) -> None:
        self._training.discard(message.tag)
        if message.tag != self.tag:
            return
        was_cold, self._trained, self.cold = self.cold, message.recommender, message.cold
        if self._active and self.cold and self.cold != was_cold:
            tell(self._screen.app, f"{self._heading} {self.cold}")
        elif self._active and was_cold and not self.cold:
            tell(self._screen.app, f"{self._heading} the list is in your model's order now")
        self.changed()

    def _scored(self, message: ForYouScored) -> None:
        self._updating = False
        if message.tag == self.tag and message.order is not None:
            self._follow(message.order, message.recommender, message.decisions, message.stale)
        elif self._resort_due:  # back from a triage: the list follows its decisions
            self._resort()
        if self._again:
            self.changed()

    def _follow(
        self,
        order: ForYouOrder,
        model: "Recommender | None",
        made: "Decisions",
        stale: bool,
    ) -> None:
        """Take the new order: the list sorted again, a triage too, the why line anew."""
        # The list shows this order already, of a model or of other decisions: the papers
        # the reader has passed keep their places. The first order shown is sorted whole.
        follows = self._decided is not None and (
            self._model is not None or not _same(self._decided[1], made)
        )
        self.order, self._model, self._decided = order, model, (self._trained, made)
        if stale:
            self._train_later()
        self._resort(follows)
        self.rescored.publish(None)
        self.moved(self._screen.paper_list.current)

    def _resort(self, follows: bool = True) -> None:
        """Sort the list again in the order now; under a triage, once back from it. When the
        list `follows` a change to the order it shows, the papers up to the cursor keep
        their places, and the cursor stays on its paper."""
        paper_list = self._screen.paper_list
        self._resort_due = self._active and not self._screen.is_active
        if not self._active or self._resort_due:
            return
        if follows and (current := paper_list.current) is not None:
            paper_list.choose_later(current.id, asked_for=False)
            self._pinned = _passed(paper_list.papers, paper_list.cursor)
        try:
            self._screen.refilter()
        finally:
            self._pinned = NONE

    def _train_later(self) -> None:
        """Train again once decisions pause; at once while there is no model."""
        if self._retrain is not None:
            self._retrain.stop()
        if self._trained is None:
            self._train()
        else:
            self._retrain = self._screen.set_timer(self._screen.timings.retrain_after, self._train)

    # Triage in this order

    def numbers(self, papers: Sequence[Paper]) -> Numbers:
        """The numbers of a triage's papers in the store."""
        return self._store.positions_of([paper.id for paper in papers])

    def ahead(self, numbers: Numbers) -> Numbers | None:
        """The papers of a triage still to come, in the order now: their places among
        `numbers`, best first; None when there is no order yet."""
        if self.order is None or self.order is NOT_DECIDED:
            return None
        return self.order.positions(numbers, len(numbers))

    # Why a paper is recommended

    def moved(self, paper: Paper | None) -> None:
        """The cursor is on `paper`: the pane says why it is recommended, once it rests."""
        pane = self._screen.detail_pane
        if self._resort_due and self._screen.is_active:  # back from a dialog
            self._resort()
        if self._explaining is not None:
            self._explaining.stop()
        if paper is None or not self._active or self.order is None:
            if pane.why[1]:
                pane.why = ("", "")
            return
        if (model := self._model) is None:
            said = self.cold or "learning from your decisions…"
            pane.why = (paper.id, f"{self._heading} {said}")
            return
        if pane.why[0] != paper.id:
            pane.why = (paper.id, f"{self._heading} …")
        explain = partial(self._explain, paper.id, model)
        self._explaining = self._screen.set_timer(self._screen.timings.settled_after, explain)

    def _explain(self, paper_id: str, model: "Recommender") -> None:
        self._screen.run_worker(
            partial(_why, paper_id, model, self._store, self._heading, self._screen.detail_pane),
            name="why",
            group="why",
            thread=True,
            exclusive=True,
        )

    @property
    def _heading(self) -> str:
        return f"Like #{self.tag}:" if self.tag else "For you:"


def _same(one: "Decisions", other: "Decisions") -> bool:
    return all(
        np.array_equal(a, b)
        for a, b in (
            (one.positives, other.positives),
            (one.negatives, other.negatives),
            (one.undecided, other.undecided),
        )
    )


def _passed(papers: Sequence[Paper], cursor: int) -> Numbers:
    """The papers of the list up to the cursor, which keep their places as it is sorted."""
    if isinstance(papers, PaperView):
        return papers.numbers[: cursor + 1]
    if isinstance(papers, PaperStore):
        return np.arange(min(cursor + 1, len(papers)), dtype=np.int64)
    return NONE


def _why(
    paper_id: str, model: "Recommender", store: PaperStore, heading: str, pane: DetailPane
) -> None:
    """What weighs most for the paper in the model, posted to the pane (in a thread)."""
    number = store.position_of(paper_id)
    if number is None or number >= len(model.rows):
        return
    words = model.why(number)
    said = " · ".join(words) if words else "nothing in it weighs in its favour"
    pane.post_message(WhyFound(paper_id, f"{heading} {said}"))
