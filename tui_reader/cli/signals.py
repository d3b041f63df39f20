"""The reader's data saved when the terminal closes or the process is told to end; a
command's work unwound, as Ctrl-C unwinds it."""

import contextlib
import os
import signal
import threading
from collections.abc import Callable

from tui_reader.core.library import Library, LibraryError

EXIT_GRACE = 3.0  # seconds the reader has to close after SIGTERM or SIGHUP, its data saved


class Ended(BaseException):
    """A command told to end (SIGTERM, SIGHUP): raised where it was, so that what it was
    writing is removed as it unwinds (a file half written beside the one it replaces)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def end_commands_on_signals() -> None:
    """Raise Ended in the main thread on SIGTERM or SIGHUP."""

    def end(signum: int, _frame: object) -> None:
        raise Ended(signum)

    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, end)


def save_on_signals(library: Library, exit_app: Callable[[], object]) -> Callable[[], bool]:
    """On SIGTERM or SIGHUP (the terminal closed) save what is pending, then close the app;
    should it not close within EXIT_GRACE (a terminal that is gone can block it), save again
    and end the process. Returns what to call once the app has closed (it waits for that
    save, and says whether a signal closed the app)."""
    enders: list[threading.Timer] = []
    savers: list[threading.Thread] = []

    def finish(signum: int, _frame: object) -> None:
        # The handler runs in the main thread wherever it was, perhaps holding the library's
        # state lock that a save in a thread waits for: it must not save itself (a deadlock
        # left the reader running after SIGHUP), only start the saving and closing.
        # Imported here: asyncio costs every command a tenth of a second at start.
        import asyncio

        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: nothing else to close
            loop = None

        def save_then_end(status: int) -> None:
            # What the closing kept since (a note being written when the terminal closed), in
            # a thread of its own: a save stuck on the lock must not keep the process alive.
            last = threading.Thread(target=save, daemon=True)
            last.start()
            last.join(EXIT_GRACE)
            os._exit(status)

        def save() -> None:
            with contextlib.suppress(LibraryError):
                library.save()

        def save_then_close() -> None:
            save()
            if loop is not None:
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    loop.call_soon_threadsafe(exit_app)
            ender = threading.Timer(EXIT_GRACE, save_then_end, (128 + signum,))
            ender.daemon = True
            enders.append(ender)
            ender.start()

        saving = threading.Thread(target=save_then_close, name="save-on-signal")
        savers.append(saving)
        saving.start()

    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, finish)

    def closed() -> bool:
        for saving in savers:
            saving.join()
        for ender in enders:
            ender.cancel()
        return bool(savers)

    return closed
