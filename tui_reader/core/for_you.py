"""The "for you" order of the reader's list, over what core.recommend gives: the papers not
yet decided, those the model of the reader's decisions ranks best first, then the decided
ones (kept, or read and not kept), also best first.

A model is trained on every decision in seconds at 100,000 papers; between two trainings,
`nudged` moves the last one toward each decision made since, at once: one passive-aggressive
step of the weights along the decided paper's row, so that its score reaches the median of
its kind (kept, skipped, undecided) and the papers sharing its words move with it, as far as
they share them. The next training replaces it.
"""

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

from tui_reader.core.query import parse_query
from tui_reader.core.store import Bools, Numbers

if TYPE_CHECKING:  # core.recommend brings Arrow: imported once the order is asked for
    from tui_reader.core.recommend import Decisions, Recommender

Floats: TypeAlias = npt.NDArray[np.float32]
NONE: Numbers = np.zeros(0, dtype=np.int64)
NO_SCORES: Floats = np.zeros(0, dtype=np.float32)


@dataclass(frozen=True)
class ForYouOrder:
    """The scores and the decisions the order follows, by paper number; no scores without a
    model (cold start): the decided papers still go after the others."""

    decided: Bools
    scores: Floats = field(default_factory=lambda: NO_SCORES)
    # Papers that keep their places at the top, in this order: those the reader has passed.
    pinned: Numbers = field(default_factory=lambda: NONE)

    def positions(self, numbers: Numbers, full: int) -> Numbers:
        """Where each paper of `numbers` goes, as positions in `numbers`: the pinned first, in
        their order; then the undecided best first; then the decided best first. Ties, and
        papers without a score (added since), keep the order they came in; those matching
        every term (the first `full`) stay before the close ones."""
        count = len(numbers)
        came = np.arange(count)
        scores = np.zeros(count, dtype=np.float32)
        scored = numbers < len(self.scores)
        scores[scored] = self.scores[numbers[scored]]
        decided = np.zeros(count, dtype=bool)
        known = numbers < len(self.decided)
        decided[known] = self.decided[numbers[known]]
        pin = np.full(count, len(self.pinned), dtype=np.int64)
        if len(self.pinned):
            by_number = np.argsort(self.pinned, kind="stable")
            sorted_pins = self.pinned[by_number]
            at = np.minimum(np.searchsorted(sorted_pins, numbers), len(sorted_pins) - 1)
            found = sorted_pins[at] == numbers
            pin[found] = by_number[at[found]]
        close = came >= full
        ranks: Numbers = np.lexsort((came, -scores, decided, pin, close))
        return ranks


def decided_mask(made: "Decisions", count: int) -> Bools:
    """Which of `count` papers are decided."""
    decided = np.ones(count, dtype=bool)
    decided[made.undecided] = False
    return decided


def liked_tag(query: str, tags: Collection[str]) -> str | None:
    """The tag whose model orders the list ("like #tag"): that of the query's first `#tag` or
    `!#tag` filter naming one of `tags` (the library's; `!#tag`: the papers not tagged yet,
    the likeliest first)."""
    return next((s.tag for s in parse_query(query).states if s.tag in tags), None)


def _labels(made: "Decisions", count: int) -> npt.NDArray[np.int8]:
    labels = np.zeros(count, dtype=np.int8)
    labels[made.positives] = 1
    labels[made.negatives] = -1
    return labels


def nudged(base: "Recommender", made: "Decisions") -> "Recommender":
    """The model of `base` moved toward the decisions `made` since it was trained: each paper
    whose decision changed has its score brought to the median score of its new kind (no
    further when it is there already), by a step of the weights along its row."""
    count = len(base.rows)
    before, after = _labels(base.decided, count), _labels(made, count)
    changed = np.flatnonzero(before != after)
    if not len(changed):
        same = np.array_equal(base.decided.undecided, made.undecided)
        return base if same else replace(base, decided=made)
    scores = base.scores
    kinds = {1: base.decided.positives, -1: base.decided.negatives, 0: base.decided.undecided}
    goals = {kind: float(np.median(scores[n])) if len(n) else 0.0 for kind, n in kinds.items()}
    weights = np.array(base.model.weights, dtype=np.float32)
    bias = base.model.bias
    for number in changed.tolist():
        columns, values = base.rows.row(number)
        length = float(values @ values)
        if not length:
            continue
        kind = int(after[number])
        step = goals[kind] - (float(values @ weights[columns]) + bias)
        if kind == 1:
            step = max(step, 0.0)  # passive when it scores as high already
        elif kind == -1:
            step = min(step, 0.0)
        weights[columns] += np.float32(step / length) * values
    return replace(base, model=replace(base.model, weights=weights), decided=made)
