"""Updates run once the keys pause: each asked for again waits afresh."""

import time
from collections.abc import Callable
from typing import Protocol

from textual.timer import Timer

Update = Callable[[], None]


class SetsTimers(Protocol):
    """What a debounce runs on: a screen, whose timers stop with it."""

    def set_timer(self, delay: float, callback: Update) -> Timer: ...


class Debounce:
    """Runs each update asked for once it has not been asked for again for a while."""

    def __init__(self, owner: SetsTimers, clock: Callable[[], float] = time.monotonic) -> None:
        self._owner, self._clock = owner, clock
        self._timer: Timer | None = None
        self._due: dict[Update, float] = {}  # each update waiting, and when it runs

    def ask(self, update: Update, after: float) -> None:
        """Run `update` once it has not been asked for again for `after` seconds."""
        self._due[update] = self._clock() + after
        self._next()

    def drop(self, update: Update) -> None:
        """Forget `update` if it waits: it is run some other way."""
        self._due.pop(update, None)

    @property
    def pending(self) -> bool:
        """Whether any update waits to run."""
        return bool(self._due)

    def _next(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._due:
            wait = min(self._due.values()) - self._clock()
            # A millisecond at least: a timer of none divides by it and stops for good
            # (Textual's Timer), and the header and pane with it.
            self._timer = self._owner.set_timer(max(wait, 0.001), self._run_due)

    def _run_due(self) -> None:
        now = self._clock()
        due = [update for update, when in self._due.items() if when <= now]
        for update in due:
            del self._due[update]
        for update in due:
            update()
        self._next()
