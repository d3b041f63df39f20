"""The for-you order in the reader: a model of the reader's decisions orders the list best first
(core.recommend, core.for_you), follows each decision, and says in the detail pane why a
paper is recommended.

The recommender is opened in a daemon thread (core.recommend.open_recommender: seconds at
100,000 papers; a quit never waits for it) once the order is first asked for; asked for (`s`,
a new `#tag`), the order opens on its best paper. Each change to the library has a thread
worker have it follow the decisions changed (Recommender.decide: the model trained again from
its last weights, every paper scored again) and post the order it gives (`ForYouScored`): the
list is sorted again below the cursor, the papers up to it keeping their places (a model's
first order sorts it whole, unless the reader moved in it meanwhile), and a triage in this
order sorts the papers after the one on screen; a triage left sorts the list whole. A model
that cannot be made, or fails to learn a decision, is told, and the decided papers go last.
With a `#tag` (or `!#tag`) in the filter, the tag's papers are the ones kept ("like #tag").
Under the decisions a model needs the recommender is cold: the pane says how many more it
needs (its `cold_start`), and the decided papers still go after the others. The recommender
is opened once the papers are loaded, all of them."""

import threading
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from textual.app import App
from textual.message import Message
from textual.message_pump import MessagePump
from textual.notifications import SeverityLevel
from textual.signal import Signal
from textual.timer import Timer
from textual.worker import Worker

from tui_reader import startup
from tui_reader.core.for_you import NO_SCORES, NONE, ForYouOrder, liked_tag
from tui_reader.core.library import Library
from tui_reader.core.locations import cache_folder
from tui_reader.core.paper import Paper
from tui_reader.core.sorting import Sort
from tui_reader.core.store import Numbers, PaperStore, PaperView
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.loader import in_background
from tui_reader.ui.messages import (
    ForYouLearning,
    ForYouNews,
    ForYouScored,
    ForYouTrained,
    WhyFound,
)
from tui_reader.ui.notices import tell
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.timings import Timings
from tui_reader.ui.triage_screen import TriageScreen

if TYPE_CHECKING:  # core.recommend brings Arrow: imported once the order is asked for
    from tui_reader.core.recommend import Recommender
    from tui_reader.core.recommend.decisions import Decisions

NOT_DECIDED = ForYouOrder(np.zeros(0, dtype=bool))  # the order they came in
LEARNING = "learning from your decisions…"


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
        self._learning = False  # the decisions are enough: the model is being made
        self.rescored: Signal[None] = Signal(screen.paper_list, "for-you")  # a new order
        # The decision that makes a first model possible is made: its rows are being built.
        self.learning: Signal[None] = Signal(screen.paper_list, "for-you-learning")
        self._recommender: Recommender | None = None  # following the decisions
        self._shown = False  # the list shows an order of this recommender's
        self._opening: set[str | None] = set()  # the tags whose recommender is being opened
        self._updating = self._again = False  # an update runs; a change came meanwhile
        self._resort_due = False  # the order changed under a triage: the list follows
        self._whole_due = False  # and is sorted whole (a model's first order)
        self._reader_moved = False  # in the list, since the order was asked for
        self._pinned = NONE  # the papers that keep their places in the next sort
        # A triage left in this order: its query and the paper reached, which the cursor is
        # on (if not decided) once the list is sorted whole, the next time it is sorted.
        self._left: tuple[str, int] | None = None
        self._explaining: Timer | None = None
        self._fresh: str | None = None  # the paper whose why line the pane has for the order now
        self._library_due = False  # a change to the library waits to be drawn with the order
        self._drawing: Timer | None = None  # draws it, should the order be late
        # The recommender changes in a thread worker as it follows a decision; the why line,
        # read in another, waits for it.
        self._lock = threading.Lock()

    @property
    def _active(self) -> bool:
        return self._screen.sort == "for you"

    @property
    def _loaded(self) -> bool:
        return self._screen.status != "loading"

    @property
    def _under_triage(self) -> bool:
        """A triage is open over the list: it walks its own papers, and the list is sorted
        again once back from it. Under any other dialog (the feeds panel opened at start) the
        list is in the order the header names."""
        return any(isinstance(screen, TriageScreen) for screen in self._screen.app.screen_stack)

    @property
    def label(self) -> str:
        """What the header says of the order: "for you" or "like #tag", and how it is doing."""
        name = f"like #{self.tag}" if self.tag else "for you"
        if self._learning:
            return f"{name} · learning…"
        if self.cold:
            return f"{name} · no model yet"
        if self._recommender is None:
            return f"{name} · learning…" if self._loaded else f"{name} · once loaded"
        return name

    def ordering(self, query: str, asked: bool) -> ForYouOrder:
        """The order for the results of `query` (asked as their search starts); `asked`: the
        reader turned to it from another (s). Asked for, or for a new tag, it opens on its
        best paper; not at the start, where the session's paper is the one shown."""
        tag = liked_tag(query, self._library.tag_counts() if "#" in query else ())
        if self._left is not None and (asked or query.split() != self._left[0].split()):
            self._left = None
        if asked or (self.order is not None and tag != self.tag):
            self._reader_moved = self._shown = False  # its next order sorts the list whole
            self._screen.paper_list.choose_later(None, asked_for=False)
        if self.order is None or tag != self.tag:
            self._start(tag)
        elif asked and self._loaded:  # the decisions made in other orders, a failure retried
            if self._recommender is None:
                self._open()
            self.changed()
        return replace(self.order or NOT_DECIDED, pinned=self._pinned)

    def _start(self, tag: str | None) -> None:
        """Order for `tag`'s papers: its recommender opened, and the decided papers put last."""
        if tag != self.tag:
            self.tag, self._recommender, self._shown, self.cold = tag, None, False, ""
            self._fresh = None
        self.order = NOT_DECIDED
        if self._loaded:
            self._open()
            self.changed()

    def loaded(self) -> None:
        """Every paper is loaded: the model can be made, if the order was asked for."""
        if self._active and self.order is not None:
            self._start(self.tag)

    def library_changed(self) -> None:
        """Draw the library's change: in the for-you order, with the order that follows it,
        when that is shown (`library_drawn`), in one frame (or after `order_wait`, should it
        be late). Drawing the list, the pane and the order each as it came took four frames a
        decision, which held the order back."""
        if not self.changed():
            self._draw_library()
        elif not self._library_due:
            self._library_due = True
            wait = self._screen.timings.order_wait
            self._drawing = self._screen.set_timer(wait, self.library_drawn)

    def library_drawn(self) -> None:
        """Draw the library's change that waits for the order, if one does."""
        if self._library_due:
            self._draw_library()

    def _draw_library(self) -> None:
        self._library_due = False
        if self._drawing is not None:  # not to draw a later change before its order
            self._drawing.stop()
            self._drawing = None
        paper_list = self._screen.paper_list
        paper_list.refresh_rows()
        self._screen.detail_pane.show(paper_list.current, paper_list.empty_message)

    def changed(self) -> bool:
        """The library changed: the order follows the decisions as they are now (one update
        at a time: a change made while one runs is taken up once it ends). Whether an order
        will come (`ForYouScored`)."""
        if not self._active or self.order is None or not self._loaded:
            return False
        if self._updating:
            self._again = True
            return True
        self._updating, self._again = True, False
        shown = self.order if self._shown else None
        current = self._screen.paper_list.current  # a triage over the list shows its own
        explained = current.id if current is not None and self._screen.is_active else None
        update = partial(self._update, self.tag, self._recommender, shown, explained)
        self._screen.run_worker(update, name="for-you", group="for-you", thread=True)
        return True

    def _update(
        self,
        tag: str | None,
        recommender: "Recommender | None",
        shown: ForYouOrder | None,
        explained: str | None,
    ) -> None:
        """The recommender made to follow the decisions changed since, and its order posted
        with why it recommends the paper `explained` (the one under the cursor), to be drawn
        with it; no order when it is the one `shown` (in a thread)."""
        from tui_reader.core.recommend.decisions import decisions

        made = decisions(self._store, self._library, tag)
        if recommender is not None and recommender.model is None and made.enough():
            self._screen.post_message(ForYouLearning(tag, recommender))
        if recommender is None:  # not opened yet: the decided papers go last
            order, cold = ForYouOrder(~made.undecided), ""
        else:
            try:
                order, cold = self._followed(recommender, made)
            except Exception as error:  # told, and the recommender dropped
                self._screen.post_message(ForYouTrained(tag, None, _failure(error)))
                self._screen.post_message(ForYouScored(tag, None, recommender))
                return
        heading = _heading(tag)
        why = None if recommender is None or cold else self._why(explained, recommender, heading)
        if shown is not None and _same(shown, order):
            self._screen.post_message(ForYouScored(tag, None, recommender, cold, why))
        else:
            self._screen.post_message(ForYouScored(tag, order, recommender, cold, why))

    def _followed(self, recommender: "Recommender", made: "Decisions") -> tuple[ForYouOrder, str]:
        """The order the recommender gives once it follows the decisions `made`, and its cold
        start's message (in a thread)."""
        with self._lock:
            recommender.decide(_changes(recommender.decided, made), self._library)
            scores = NO_SCORES if recommender.model is None else recommender.scores
            return ForYouOrder(~recommender.decided.undecided, scores), recommender.cold_start or ""

    def _open(self) -> None:
        """Open the recommender of the tag's decisions in the background, unless it is."""
        if self.tag not in self._opening:
            self._opening.add(self.tag)
            in_background("for-you", partial(self._opened, self.tag))

    def _opened(self, tag: str | None) -> None:
        """The recommender of the decisions now, posted (in a daemon thread)."""
        from tui_reader.core.recommend import open_recommender

        try:
            found = open_recommender(self._store, self._library, tag, cache_folder())
        except Exception as error:  # told, not a reader left "learning" for good
            self._screen.post_message(ForYouTrained(tag, None, _failure(error)))
        else:
            self._screen.post_message(ForYouTrained(tag, found, found.cold_start or ""))

    # What the threads post, which the screen hands here

    def news(self, message: ForYouNews) -> None:
        if isinstance(message, ForYouTrained):
            self._trained_arrived(message)
        elif isinstance(message, ForYouScored):
            self._scored(message)
        elif isinstance(message, ForYouLearning) and self._follows(message):
            self._learning = True  # until its order comes
            self._why_line(self._screen.paper_list.current)
            self.learning.publish(None)  # a triage's line says so too

    def _follows(self, message: ForYouLearning | ForYouScored) -> bool:
        """Whether the message is of the recommender of the order now."""
        return message.tag == self.tag and message.recommender is self._recommender

    def _trained_arrived(self, message: ForYouTrained) -> None:
        self._opening.discard(message.tag)
        if message.recommender is not None:
            # Its modules, imported once the order was first asked for, live as long as the
            # reader: out of the garbage collector's sight, as the papers and their index.
            startup.keep_for_good()
        if message.tag != self.tag:
            return
        self._recommender, self._shown, self._fresh = message.recommender, False, None
        self._learning = False
        self._told(message.cold, "information" if message.recommender else "warning")
        self.changed()

    def _told(self, cold: str, severity: SeverityLevel = "information") -> None:
        """Why there is no model now (`cold`, empty with one), told when it changes."""
        was_cold, self.cold = self.cold, cold
        if self._active and self.cold and self.cold != was_cold:
            tell(self._screen.app, f"{self._heading} {self.cold}", severity)
        elif self._active and was_cold and not self.cold:
            tell(self._screen.app, f"{self._heading} the list is in your model's order now")

    def _scored(self, message: ForYouScored) -> None:
        self._updating = False
        current = self._follows(message)
        resorted, self._learning = False, self._learning and not current
        if current and message.recommender is not None:
            self._told(message.cold)
        if current and message.why is not None:
            self._explained(message.why)
        if current and message.order is not None:
            resorted = self._follow(message.order, shown=message.recommender is not None)
        elif self._resort_due:  # back from a triage: the list follows its decisions
            resorted = self._resort()
        elif current:
            self._why_line(self._screen.paper_list.current)  # the cold start's count anew
        if self._again:
            self.changed()
        elif not resorted:  # no new list to draw the change with: drawn now
            self.library_drawn()

    def _follow(self, order: ForYouOrder, shown: bool) -> bool:
        """Take the new order: the list sorted again, a triage too, the why line anew;
        whether the list is sorted again."""
        # The list shows an order of this recommender already, or the reader has moved in it
        # since the order was asked for: the papers passed keep their places. Else it is
        # sorted whole (the first order of a model, on a session's paper say).
        follows, self._shown = self._shown or self._reader_moved, shown
        self.order = order
        resorted = self._resort(follows)
        self.rescored.publish(None)
        self._why_line(self._screen.paper_list.current)
        return resorted

    def _resort(self, follows: bool = True) -> bool:
        """Sort the list again in the order now; under a triage, once back from it. When the
        list `follows` a change to the order it shows, the papers up to the cursor keep
        their places, and the cursor stays on its paper (unless a sort put off under a
        dialog was to sort it whole). Whether it is sorted now."""
        paper_list = self._screen.paper_list
        self._whole_due = self._active and (self._whole_due or not follows)
        self._resort_due = self._active and self._under_triage
        if not self._active or self._resort_due:
            return False
        follows, self._whole_due = follows and not self._whole_due, False
        if self._left is not None:  # sorted whole: the papers it decided go with the decided
            (_, reached), order, self._left = self._left, self.order, None
            decided = (
                order is not None and reached < len(order.decided) and bool(order.decided[reached])
            )
            paper_list.choose_later(None if decided else self._store.id_of(reached), False)
        elif follows and (current := paper_list.current) is not None:
            paper_list.choose_later(current.id, asked_for=False)
            self._pinned = _passed(paper_list.papers, paper_list.cursor)
        try:
            self._screen.refilter()
        finally:
            self._pinned = NONE
        return True

    def resumed(self) -> None:
        """The screen is shown again (a dialog closed): the list takes the order that came
        while it was under a triage."""
        if self._resort_due and not self._under_triage:
            self._resort()

    # Triage in this order

    def triage_left(self, query: str, reached: int) -> bool:
        """A triage of `query`'s papers in this order is left on the paper `reached`: the list
        is sorted whole in the order following its decisions, the papers it decided among the
        decided, the cursor on the paper reached if not decided, else on the best; whether it
        will (the list is in this order)."""
        if not self._active:
            return False
        self._left, self._resort_due = (query, reached), True
        if not self._updating:  # else once the order following the triage's decisions comes
            self._resort()
        return True

    def ahead(self, numbers: Numbers) -> Numbers | None:
        """The papers of a triage still to come, in the order now: their places among
        `numbers`, best first; None when there is no order yet."""
        if self.order is None or self.order is NOT_DECIDED:
            return None
        return self.order.positions(numbers, len(numbers))

    # Why a paper is recommended

    def moved(self, event: PaperList.CursorMoved) -> None:
        """The cursor is on another paper (`chosen`: the reader moved it there)."""
        self._reader_moved = self._reader_moved or event.chosen
        if event.chosen:
            self._left = None
        if self._resort_due and not self._under_triage:  # back from a triage
            self._resort()
        self._why_line(event.paper)

    def _explained(self, why: tuple[str, str]) -> None:
        """Why the paper under the cursor is recommended, found with the order: the pane
        says it when it is drawn with the order, or now."""
        pane = self._screen.detail_pane
        self._fresh = why[0]
        if self._library_due:  # drawn with the list, in one frame
            pane.set_reactive(DetailPane.why, why)
        else:
            pane.why = why

    def _why_line(self, paper: Paper | None) -> None:
        """The pane says why `paper` is recommended, once the cursor rests on it; or how the
        order is doing."""
        pane = self._screen.detail_pane
        if self._explaining is not None:
            self._explaining.stop()
        if paper is not None and paper.id == self._fresh and pane.why[0] == paper.id:
            return  # said already, for the order now
        self._fresh = None
        if paper is None or not self._active or self.order is None:
            if pane.why[1]:
                pane.why = ("", "")
            return
        if (recommender := self._recommender) is None or self.cold or self._learning:
            said = self.cold if self.cold and not self._learning else LEARNING
            pane.why = (paper.id, f"{self._heading} {said}")
            return
        if pane.why[0] != paper.id:
            pane.why = (paper.id, f"{self._heading} …")
        explain = partial(self._explain, paper.id, recommender)
        self._explaining = self._screen.set_timer(self._screen.timings.settled_after, explain)

    def _explain(
        self, paper_id: str, recommender: "Recommender", to: MessagePump | None = None
    ) -> None:
        self._screen.run_worker(
            partial(self._post_why, paper_id, recommender, self._heading, to),
            name="why",
            group="why" if to is None else "triage-why",
            thread=True,
            exclusive=True,
        )

    def _post_why(
        self, paper_id: str, recommender: "Recommender", heading: str, to: MessagePump | None
    ) -> None:
        """Why the recommender ranks the paper where it does, posted to `to` (None: the
        pane) (in a thread)."""
        if (why := self._why(paper_id, recommender, heading)) is not None:
            (to or self._screen.detail_pane).post_message(WhyFound(*why))

    def explain(self, paper_id: str, to: MessagePump) -> None:
        """Post to `to` (a triage) why the paper is recommended, or how the order is doing
        (WhyFound)."""
        if (recommender := self._recommender) is None or self.cold or self._learning:
            said = self.cold if self.cold and not self._learning else LEARNING
            to.post_message(WhyFound(paper_id, f"{self._heading} {said}"))
        else:
            self._explain(paper_id, recommender, to)

    def _why(
        self, paper_id: str | None, recommender: "Recommender", heading: str
    ) -> tuple[str, str] | None:
        """The paper's id, and the pane's line saying why the recommender ranks it where it
        does (in a thread); None for no paper, or one it does not score."""
        number = None if paper_id is None else self._store.position_of(paper_id)
        if paper_id is None or number is None:
            return None
        with self._lock:  # without a model, its rows may not be read yet
            if recommender.model is not None and number >= len(recommender.rows):
                return None
            line = recommender.why_line(number)
        return paper_id, f"{heading} {line}"

    @property
    def _heading(self) -> str:
        return _heading(self.tag)


def _heading(tag: str | None) -> str:
    return f"Like #{tag}:" if tag else "For you:"


def _failure(error: Exception) -> str:
    return f"no model could be made: {str(error) or type(error).__name__}"


def _changes(known: "Decisions", now: "Decisions") -> list[int]:
    """The papers whose decision is not the one `known` holds."""
    changed = set(known.kept.items()) ^ set(now.kept.items())
    changed |= set(known.skipped.items()) ^ set(now.skipped.items())
    numbers = {number for number, _ in changed}
    numbers.update(np.flatnonzero(known.undecided != now.undecided).tolist())
    return sorted(numbers)


def _same(one: ForYouOrder, other: ForYouOrder) -> bool:
    """Whether two orders are one: the same decisions and the same scores."""
    return one.scores is other.scores and np.array_equal(one.decided, other.decided)


def _passed(papers: PaperView, cursor: int) -> Numbers:
    """The papers of the list up to the cursor, which keep their places as it is sorted."""
    passed = min(cursor + 1, len(papers))
    return np.fromiter((papers.number_at(i) for i in range(passed)), np.int64, passed)
