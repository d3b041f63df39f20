"""Process-wide tuning of the reader, in one place: the frame rate, the threads' turns, the
garbage collector and the memory it keeps. The UI asks for these; it does not set them itself."""

import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

# Textual draws at most TEXTUAL_FPS frames a second (60 unless set), and a change waits for the
# next frame's turn. A frame is drawn only when something changed, so the cap only sets how
# long a change may wait: at 1000 the list follows each key about 6 ms (median) and 40 ms
# (p95) sooner than at 120 (benchmarks/RESULTS.md).
FRAME_RATE = "1000"
# How long a thread runs before another may (Python's default is 5 ms). Short, so the thread
# reading papers, or searching, lets the keys and the screen have their turn.
LOADING_SWITCH_INTERVAL = 0.0005
SEARCH_SWITCH_INTERVAL = 0.001


def set_frame_rate() -> None:
    """Call before Textual is imported (it reads the rate once); a rate the user set is kept."""
    os.environ.setdefault("TEXTUAL_FPS", FRAME_RATE)


def searching_turns() -> None:
    """The threads' turns while the reader runs."""
    sys.setswitchinterval(SEARCH_SWITCH_INTERVAL)


@contextmanager
def loading_turns() -> Iterator[None]:
    """Shorter turns while papers are read in the background, then the reader's again."""
    sys.setswitchinterval(LOADING_SWITCH_INTERVAL)
    try:
        yield
    finally:
        searching_turns()


_held = False  # the collector was held off by hold_collector


def hold_collector() -> None:
    """Hold Python's garbage collector off while the reader starts. Each pass goes over every
    object made so far, and importing the reader's modules (Textual, numpy, ours) made it pass
    187 times, 60-80 ms of a start of 0.8 s; what a start makes is kept anyway."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release_collector() -> None:
    """The collector back once started (the first frame drawn, a command's modules in), with
    what the start made kept out of its sight, as `keep_for_good` does."""
    global _held
    if _held:
        _held = False
        keep_for_good()
        gc.enable()


def keep_for_good() -> None:
    """Take everything alive now out of the garbage collector's sight: papers and their index
    live as long as the reader, and full passes over a big corpus stall the screen for a tenth
    of a second or more."""
    gc.freeze()


def give_back_memory() -> None:
    """Give the memory freed since back to the system, where the C library keeps it for the
    process (glibc: `malloc_trim`; elsewhere nothing). Once a big input is read from the cache
    in place of memory, 120 MB of the 280 MB freed at 100,000 papers stayed."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # here: 4 ms that every start, `tui-reader search` too, would pay

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl)
        return
    trim(0)


def ready_for_processes() -> None:
    """Start multiprocessing's resource tracker now, while stderr is the terminal's. Loading
    and indexing a big input use a pool of processes from a thread of the reader; the first
    pool would start the tracker then, handing it Textual's stand-in for stderr, which has no
    file descriptor ("bad value(s) in fds_to_keep")."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
