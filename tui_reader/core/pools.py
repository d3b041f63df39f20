"""The pools of processes that read and index papers, and stopping them at once.

A pool is spawned, not forked: papers load and are indexed in threads of a program running
others (the reader), whose locks a fork would copy held; a program starting one must guard its
main module. Python 3.11's pool stops only once the work its processes run is done (seconds
of reading or indexing), and a program ending waits for it: `stop_pools` ends the processes.

Its processes leave Ctrl-C to the program that started them (which says once that it was
interrupted, and stops them): Ctrl-C reaches every process of the terminal's group, and each
of them printed its traceback. SIGINT is held while a process starts (a mask a process
inherits), then ignored by it, so that one starting at that moment does not print its own.
"""

import contextlib
import ctypes
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import ParamSpec, TypeVar
from weakref import WeakSet

P = ParamSpec("P")
T = TypeVar("T")


class _Pool(ProcessPoolExecutor):
    """A pool whose processes, started as work is submitted, ignore SIGINT."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        with _interrupts_held():
            return super().submit(fn, *args, **kwargs)


_STARTED: "WeakSet[ProcessPoolExecutor]" = WeakSet()
# glibc's mallopt parameters, and what a pool's process sets them to (`_steady_heap`).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_KEPT_FREE = 256 << 20  # bytes freed at the heap's top kept, not given back
_MAPPED_FROM = 32 << 20  # glibc's largest threshold: smaller blocks come from the heap


def process_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of `processes` spawned processes, which `stop_pools` stops."""
    with _interrupts_held():  # its queues start a process that keeps their semaphores
        pool = _Pool(
            processes, mp_context=multiprocessing.get_context("spawn"), initializer=_started
        )
    _STARTED.add(pool)
    return pool


def _started() -> None:
    """What a pool's process does first."""
    _not_interrupted()
    _steady_heap()


def _steady_heap() -> None:
    """In a pool's process: the memory a piece or a chunk freed kept for the next. Each one's
    arrays and texts are megabytes, which glibc mapped and gave back, and the system zeroed
    again for the next (page faults: a tenth of the index's processes' time).
    Elsewhere than glibc, nothing."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_TRIM_THRESHOLD, _KEPT_FREE)
    mallopt(_M_MMAP_THRESHOLD, _MAPPED_FROM)


def stop_pools() -> None:
    """End every pool's processes now, their work undone (the reader quits: nothing is left to
    use it). What waits on a pool's work then finds the pool broken."""
    for pool in list(_STARTED):
        # A private attribute: Python 3.11 has no public way (3.14 has terminate_workers).
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """SIGINT held back from this thread, and from the processes it starts meanwhile; one
    that came is delivered after. In the main thread, where Python raises KeyboardInterrupt
    whichever thread the signal reached, its handler waits too: a process started but not
    yet sent what it is to run printed a traceback once the pool was left."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    caught: list[int] = []
    handler = None
    if threading.current_thread() is threading.main_thread():
        handler = signal.signal(signal.SIGINT, lambda number, _: caught.append(number))
    try:
        yield
    finally:
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        if caught and callable(handler):
            handler(signal.SIGINT, None)


def _not_interrupted() -> None:
    """A pool's process, started with SIGINT held, ignores it from now on."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
