"""Searches go first: work on the index done ahead of time (the reader's warming of its
tables, seconds at millions of papers) waits between its steps while a search runs, so that
the keys typed as the reader starts do not share the interpreter's lock with it."""

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Searches:
    """The searches running in this process."""

    def __init__(self) -> None:
        self._running = 0
        self._none = threading.Condition()

    @contextmanager
    def running(self) -> Iterator[None]:
        """A search runs until the block ends (raising too)."""
        with self._none:
            self._running += 1
        try:
            yield
        finally:
            with self._none:
                self._running -= 1
                if not self._running:
                    self._none.notify_all()

    def make_way(self) -> None:
        """Return once no search runs (at once when none does)."""
        with self._none:
            self._none.wait_for(lambda: not self._running)


def at_once() -> None:
    """Make way for nothing: work ahead of time that no search waits for."""


SEARCHES = Searches()
