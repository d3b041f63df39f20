"""What the reader made of each paper, as the recommendations learn from it.

A paper kept (bookmarked, or carrying a tag other than `later`; with a tag asked for, carrying
that tag) is a positive, a paper read and not kept a negative, the rest undecided; a paper
bookmarked is never a negative, read or not (with a tag asked for that it does not carry, it
is set aside), so that bookmarking reads a paper in every order. A paper decided in any way
(kept, bookmarked or read) is never recommended. Under NEEDED of either
there is no model, and `cold_start` says how many more decisions it needs.
"""

from dataclasses import dataclass
from enum import Enum

import numpy as np

from tui_reader.core.paper_state import LATER_TAG, PaperState
from tui_reader.core.store import Bools, Numbers, PaperStore
from tui_reader.core.wording import count

NEEDED = 3  # positives and negatives a model needs, each


class Verdict(Enum):
    KEPT = 1  # a positive
    SKIPPED = -1  # read and not kept: a negative
    ASIDE = 0  # bookmarked without the tag asked for, read or not: neither, not recommended
    UNDECIDED = 2


def verdict(state: PaperState, paper_id: str, tag: str | None) -> Verdict:
    """What the reader made of this paper, for a model of `tag` (None: of what they keep)."""
    tags = state.tags(paper_id)
    bookmarked = state.is_bookmarked(paper_id)
    kept = tag in tags if tag else bookmarked or any(t != LATER_TAG for t in tags)
    if kept:
        return Verdict.KEPT
    if bookmarked:
        return Verdict.ASIDE
    return Verdict.SKIPPED if state.is_read(paper_id) else Verdict.UNDECIDED


@dataclass
class Decisions:
    """The papers' numbers by what the reader made of them (ids kept, for the digest)."""

    kept: dict[int, str]  # a paper's number: its id
    skipped: dict[int, str]
    undecided: Bools  # for each paper

    @property
    def positives(self) -> Numbers:
        return np.array(sorted(self.kept), dtype=np.int64)

    @property
    def negatives(self) -> Numbers:
        return np.array(sorted(self.skipped), dtype=np.int64)

    def change(self, number: int, paper_id: str, made: Verdict) -> bool:
        """Paper `number` now has this verdict; whether a model learns anything new."""
        was = number in self.kept, number in self.skipped
        self.kept.pop(number, None)
        self.skipped.pop(number, None)
        if made is Verdict.KEPT:
            self.kept[number] = paper_id
        elif made is Verdict.SKIPPED:
            self.skipped[number] = paper_id
        self.undecided[number] = made is Verdict.UNDECIDED
        return was != (number in self.kept, number in self.skipped)

    def enough(self) -> bool:
        return len(self.kept) >= NEEDED and len(self.skipped) >= NEEDED


def decisions(papers: PaperStore, state: PaperState, tag: str | None = None) -> Decisions:
    """What the reader made of the papers the library knows of (the others are undecided)."""
    ids = list(state.paper_ids())
    places = papers.positions_of(ids)
    made = Decisions({}, {}, np.ones(len(papers), dtype=bool))
    for paper_id, place in zip(ids, places.tolist(), strict=True):
        if place >= 0:
            made.change(place, paper_id, verdict(state, paper_id, tag))
    return made


def cold_start(made: Decisions, tag: str | None) -> str:
    """How many decisions there are, and how many more a model needs."""
    kept = f"tagged #{tag}" if tag else "kept"
    have = len(made.kept), len(made.skipped)
    needs = [
        f"{NEEDED - number:,} more {what}"
        for number, what in zip(have, (kept, "read and not kept"), strict=True)
        if number < NEEDED
    ]
    how = (
        f"t to tag #{tag}, or a quick tag in triage"
        if tag
        else "in triage (I): Enter keeps, x skips"
    )
    return (
        f"no model of your interests yet: {count(have[0], 'paper')} {kept} and "
        f"{have[1]:,} read and not kept; it needs {' and '.join(needs)} ({how})"
    )
