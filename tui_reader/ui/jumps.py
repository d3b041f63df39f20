"""Jumps: to a query and a paper (a related paper, a tag's papers, a feed), remembering where
the reader was, so that [ goes back there and ] forward again."""

from collections.abc import Callable, Sequence
from typing import TypeAlias

from tui_reader.core.paper import Paper
from tui_reader.ui.filter_input import FilterInput
from tui_reader.ui.following import CursorFollower
from tui_reader.ui.history import History
from tui_reader.ui.paper_list import PaperList

Position: TypeAlias = tuple[str, str | None]  # a query, and the paper under the cursor


class Jumps:
    """Goes to positions, the filter and the list following; `query()` is the filter's."""

    def __init__(
        self,
        query: Callable[[], str],
        filter_input: FilterInput,
        paper_list: PaperList,
        following: CursorFollower,
    ) -> None:
        self._query, self._filter_input, self._paper_list = query, filter_input, paper_list
        self._following = following
        self._history = History[Position]()

    def here(self) -> Position:
        current = self._paper_list.current
        return self._query(), current.id if current is not None else None

    def jump(self, position: Position) -> None:
        """Go to a query and a paper (None: the one chosen before, where shown), remembering
        where the reader was."""
        self._history.jumped(self.here())
        self._go(position)

    def to_related(self, paper_id: str, related: Sequence[Paper], number: int) -> None:
        """Go to the paper listed as related number `number` to the paper `paper_id`, if that
        is the one under the cursor: among the papers shown, else among them all."""
        current = self._paper_list.current
        if current is None or current.id != paper_id or number > len(related):
            return
        target = related[number - 1]
        shown = self._paper_list.position_of(target.id) is not None
        self.jump((self._query() if shown else "", target.id))

    def back(self) -> bool:
        """Go back where the last jump started; whether there was such a place."""
        return self._step(self._history.back(self.here()))

    def forward(self) -> bool:
        """Go forward where going back started; whether there was such a place."""
        return self._step(self._history.forward(self.here()))

    def _go(self, position: Position) -> None:
        """Go to a query and a paper, without remembering where the reader was."""
        query, paper_id = position
        if paper_id is not None:
            self._paper_list.choose_later(paper_id)
        if query != self._query():
            self._filter_input.value = query  # the list follows, its cursor on the paper
        elif paper_id is not None:
            found = self._paper_list.position_of(paper_id)
            if found is not None:
                self._paper_list.choose(found)
        self._following.arriving = paper_id

    def _step(self, position: Position | None) -> bool:
        if position is not None:
            self._go(position)
        return position is not None
