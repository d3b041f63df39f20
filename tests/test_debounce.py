"""The debounce the workspace's header and detail pane follow, on a fake clock and timers."""

from collections.abc import Callable

from tui_reader.ui.debounce import Debounce


class FakeTimer:
    def __init__(self, delay: float, callback: Callable[[], None]) -> None:
        self.delay, self.callback, self.stopped = delay, callback, False

    def stop(self) -> None:
        self.stopped = True


class FakeScreen:
    def __init__(self) -> None:
        self.timers: list[FakeTimer] = []

    def set_timer(self, delay: float, callback: Callable[[], None]) -> FakeTimer:
        self.timers.append(FakeTimer(delay, callback))
        return self.timers[-1]

    def live(self) -> list[FakeTimer]:
        return [timer for timer in self.timers if not timer.stopped]


def test_an_update_asked_again_waits_afresh_and_runs_once() -> None:
    now = [0.0]
    screen, ran = FakeScreen(), []
    debounce = Debounce(screen, clock=lambda: now[0])  # type: ignore[arg-type]

    def header() -> None:
        ran.append("header")

    debounce.ask(header, 0.1)
    first = screen.live()[0]
    now[0] = 0.05
    debounce.ask(header, 0.1)  # asked again: runs after 0.15, not at 0.1
    assert first.stopped and [round(timer.delay, 6) for timer in screen.live()] == [0.1]
    now[0] = 0.12
    screen.live()[0].callback()
    assert ran == [] and debounce.pending
    now[0] = 0.2
    screen.live()[0].callback()
    assert ran == ["header"] and not debounce.pending and screen.live() == []


def test_an_update_whose_time_has_not_come_waits_for_its_own_timer() -> None:
    now = [0.0]
    screen, ran = FakeScreen(), []
    debounce = Debounce(screen, clock=lambda: now[0])  # type: ignore[arg-type]
    debounce.ask(lambda: ran.append("header"), 0.1)
    debounce.ask(lambda: ran.append("pane"), 0.25)
    now[0] = 0.1
    screen.live()[0].callback()
    assert ran == ["header"] and debounce.pending
    assert [round(timer.delay, 6) for timer in screen.live()] == [0.15]


def test_the_soonest_update_sets_the_timer_and_a_dropped_one_never_runs() -> None:
    now = [0.0]
    screen, ran = FakeScreen(), []
    debounce = Debounce(screen, clock=lambda: now[0])  # type: ignore[arg-type]

    def pane() -> None:
        ran.append("pane")

    def header() -> None:
        ran.append("header")

    debounce.ask(pane, 0.25)
    debounce.ask(header, 0.1)
    assert screen.live()[0].delay == 0.1
    debounce.drop(pane)
    now[0] = 1.0
    screen.live()[0].callback()
    assert ran == ["header"] and not debounce.pending


def test_a_timer_is_never_of_no_time() -> None:
    screen = FakeScreen()
    debounce = Debounce(screen, clock=lambda: 0.0)  # type: ignore[arg-type]
    debounce.ask(lambda: None, 0.0)
    assert screen.live()[0].delay == 0.001
