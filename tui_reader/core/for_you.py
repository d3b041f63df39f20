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


# Not described by its arrays: Textual describes each worker by its function's repr, and a
# worker sorting in this order would print a hundred thousand scores at every key.
@dataclass(frozen=True, repr=False)
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
        scores = np.zeros(count, dtype=np.float32)
        scored = numbers < len(self.scores)
        scores[scored] = self.scores[numbers[scored]]
        decided = np.zeros(count, dtype=bool)
        known = numbers < len(self.decided)
        decided[known] = self.decided[numbers[known]]
        pin = np.full(count, -1, dtype=np.int64)  # a pinned paper's place among the pinned
        if len(self.pinned):
            by_number = np.argsort(self.pinned, kind="stable")
            sorted_pins = self.pinned[by_number]
            at = np.minimum(np.searchsorted(sorted_pins, numbers), len(sorted_pins) - 1)
            found = sorted_pins[at] == numbers
            pin[found] = by_number[at[found]]
        close = np.arange(count) >= full
        # Best first, then into groups (a stable sort of small numbers): the pinned, the
        # undecided, the decided; those matching every term before the close ones.
        groups = (3 * close + np.where(pin >= 0, 0, 1 + decided)).astype(np.int8)
        ranks = _best_first(scores)
        ranks = ranks[np.argsort(groups[ranks], kind="stable")]
        if len(self.pinned):  # the pinned in their own order, in the places they took
            places = np.flatnonzero(pin[ranks] >= 0)
            mine = ranks[places]
            ranks[places] = mine[np.lexsort((pin[mine], close[mine]))]
        return ranks


def _best_first(scores: Floats) -> Numbers:
    """The positions of `scores`, highest first, ties in the order they came: one sort of
    64-bit keys (a score's bits as an integer that orders as the score does, then its
    position), some ten times faster than a stable sort of the scores."""
    bits = (-scores + np.float32(0.0)).view(np.uint32)  # -0.0 is 0.0
    # A negative float's bits all flipped, a positive's sign bit set: ordered as unsigned.
    ordered = np.where(bits >> 31, ~bits, bits | np.uint32(1 << 31)).astype(np.uint64)
    keys = (ordered << np.uint64(32)) | np.arange(len(scores), dtype=np.uint64)
    best: Numbers = (np.sort(keys) & np.uint64(0xFFFFFFFF)).astype(np.int64)
    return best


def liked_tag(query: str, tags: Collection[str]) -> str | None:
    """The tag whose model orders the list ("like #tag"): that of the query's first `#tag` or
    `!#tag` filter naming one of `tags` (the library's; `!#tag`: the papers not tagged yet,
    the likeliest first)."""
    return next((s.tag for s in parse_query(query).states if s.tag in tags), None)
