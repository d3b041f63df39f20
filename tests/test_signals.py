"""SIGTERM and SIGHUP (a closed terminal) finish the pending save before the reader exits."""

import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_reader.cli import signals
from tui_reader.cli.signals import save_on_signals
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@pytest.fixture
def default_handlers() -> Iterator[None]:
    before = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGHUP)}
    yield
    for number, handler in before.items():
        signal.signal(number, handler)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_saves_what_is_pending_and_closes_the_app(
    number: int, tmp_path: Path, default_handlers: None
) -> None:
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    closed: list[bool] = []
    app_closed = save_on_signals(library, lambda: closed.append(True))
    library.change_tags(["aaaaaaaaaaaa"], add=["pending"])
    os.kill(os.getpid(), number)
    assert app_closed()  # by a signal: the reader ends without waiting for its cache
    assert not library.has_unsaved_changes
    assert Library.open(path)[0].tags("aaaaaaaaaaaa") == ["pending"]


def test_an_app_closed_by_its_user_is_not_said_to_be_closed_by_a_signal(
    tmp_path: Path, default_handlers: None
) -> None:
    library, _ = Library.open(tmp_path / "library.json")
    assert not save_on_signals(library, lambda: None)()


def read_some(terminal: int) -> bytes:
    """What the terminal has to read, waiting a tenth of a second at most (os.read alone would
    wait for ever, and the deadline around it would never be looked at again)."""
    ready, _, _ = select.select([terminal], [], [], 0.1)
    return os.read(terminal, 65536) if ready else b""


@pytest.mark.slow
def test_closing_the_terminal_right_after_a_change_keeps_it(private_library: Path) -> None:
    paper = load_paths([SEEDS]).papers[0]
    pid, terminal = pty.fork()
    if pid == 0:  # pragma: no cover - the reader, in the child
        os.environ.update(COLUMNS="100", LINES="30", TERM="xterm-256color")
        os.execv(sys.executable, [sys.executable, "-m", "tui_reader", "--fresh"])
    screen = b""
    deadline = time.monotonic() + 30
    while b"papers" not in screen:  # the header's count: the reader is up
        assert time.monotonic() < deadline, f"the reader did not start: {screen[-300:]!r}"
        screen += read_some(terminal)
    os.write(terminal, b"b")
    while "★".encode() not in screen:  # the bookmark is shown
        assert time.monotonic() < deadline, f"no bookmark shown: {screen[-300:]!r}"
        screen += read_some(terminal)
    os.kill(pid, signal.SIGHUP)
    os.close(terminal)
    deadline = time.monotonic() + 10
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0:
        assert time.monotonic() < deadline, "the reader did not exit after SIGHUP"
        time.sleep(0.05)
    assert os.waitstatus_to_exitcode(done[1]) in (0, 128 + signal.SIGHUP, -signal.SIGHUP)
    assert Library.open(private_library)[0].is_bookmarked(paper.id)


DEADLOCKED = """
import os, signal, sys, threading
from pathlib import Path
from tui_reader.cli import signals
from tui_reader.cli.signals import save_on_signals
from tui_reader.core.library import Library
library, _ = Library.open(Path(sys.argv[1]))
app_closed = save_on_signals(library, lambda: None)
library.change_tags(["aaaaaaaaaaaa"], add=["pending"])
with library._state.lock:  # the main thread drawing rows, when the signal comes
    saving = threading.Thread(target=library.save)  # the app's save in a worker
    saving.start()
    saving.join(0.3)  # it holds the save lock and waits for the state lock
    os.kill(os.getpid(), signal.SIGTERM)
app_closed()
"""


def test_a_signal_while_a_save_waits_for_the_screen_neither_hangs_nor_loses(
    tmp_path: Path,
) -> None:
    path = tmp_path / "library.json"
    done = subprocess.run(
        [sys.executable, "-c", DEADLOCKED, str(path)], timeout=30, capture_output=True
    )
    assert done.returncode == 0, done.stderr.decode()
    assert Library.open(path)[0].tags("aaaaaaaaaaaa") == ["pending"]


def test_a_reader_that_cannot_close_saves_what_its_closing_kept_before_it_ends(
    tmp_path: Path, default_handlers: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the terminal gone, closing can block: the process is ended after EXIT_GRACE. A
    note being written was kept as the editor closed, after the first save: it was lost."""
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    ended: list[int] = []
    monkeypatch.setattr(signals, "EXIT_GRACE", 0.3)
    monkeypatch.setattr(signals.os, "_exit", ended.append)
    save_on_signals(library, lambda: None)  # an app that never closes
    os.kill(os.getpid(), signal.SIGHUP)
    time.sleep(0.1)
    library.set_note("aaaaaaaaaaaa", "kept as the editor closed")
    deadline = time.monotonic() + 5
    while not ended and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ended == [128 + signal.SIGHUP]
    assert Library.open(path)[0].note("aaaaaaaaaaaa") == "kept as the editor closed"
