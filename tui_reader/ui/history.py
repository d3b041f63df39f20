"""Where the reader jumped from: back there, and forward again, as a browser goes."""

from typing import Generic, TypeVar

P = TypeVar("P")  # a position: the workspace's are a query and a paper


def _remember(positions: list[P], position: P) -> None:
    """Add a position to go back (or forward) to, once: not again after itself."""
    if positions[-1:] != [position]:
        positions.append(position)


class History(Generic[P]):
    """The positions jumps started from, to go back to, and those going back left, to go
    forward to again; a new jump forgets the way forward."""

    def __init__(self) -> None:
        self._back: list[P] = []  # the latest last
        self._forward: list[P] = []

    def jumped(self, here: P) -> None:
        """Remember `here`, which a jump leaves."""
        _remember(self._back, here)
        self._forward.clear()

    def back(self, here: P) -> P | None:
        """Where going back from `here` arrives (None: nowhere)."""
        return self._step(self._back, self._forward, here)

    def forward(self, here: P) -> P | None:
        """Where going forward from `here` arrives (None: nowhere)."""
        return self._step(self._forward, self._back, here)

    @staticmethod
    def _step(leaving: list[P], arriving: list[P], here: P) -> P | None:
        """The last position of `leaving` that is not `here` (a jump that went nowhere, to
        the tag's papers shown already, left one)."""
        while leaving and leaving[-1] == here:
            leaving.pop()
        if not leaving:
            return None
        _remember(arriving, here)
        return leaving.pop()
