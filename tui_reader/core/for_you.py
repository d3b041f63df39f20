"""The "for you" order of the reader's list, over what core.recommend gives: the papers not
yet decided, those the model of the reader's decisions ranks best first, then the decided
ones (kept, or read and not kept), also best first. The model follows each decision
(core.recommend's `Recommender.decide`); this order is what the list makes of its scores.
"""

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from tui_reader.core.query import parse_query
from tui_reader.core.store import Bools, Numbers

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


def liked_tag(query: str, tags: Collection[str]) -> str | None:
    """The tag whose model orders the list ("like #tag"): that of the query's first `#tag` or
    `!#tag` filter naming one of `tags` (the library's; `!#tag`: the papers not tagged yet,
    the likeliest first)."""
    return next((s.tag for s in parse_query(query).states if s.tag in tags), None)
