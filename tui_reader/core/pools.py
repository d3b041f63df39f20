"""The pools of processes that read and index papers, and stopping them at once.

A pool is spawned, not forked: papers load and are indexed in threads of a program running
others (the reader), whose locks a fork would copy held; a program starting one must guard its
main module. Python 3.11's pool stops only once the work its processes run is done (seconds
of reading or indexing), and a program ending waits for it: `stop_pools` ends the processes.
"""

import ctypes
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from weakref import WeakSet

_STARTED: "WeakSet[ProcessPoolExecutor]" = WeakSet()
# glibc's mallopt parameters, and what a pool's process sets them to (`_steady_heap`).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_KEPT_FREE = 256 << 20  # bytes freed at the heap's top kept, not given back
_MAPPED_FROM = 32 << 20  # glibc's largest threshold: smaller blocks come from the heap


def process_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of `processes` spawned processes, which `stop_pools` stops."""
    pool = ProcessPoolExecutor(
        processes, mp_context=multiprocessing.get_context("spawn"), initializer=_steady_heap
    )
    _STARTED.add(pool)
    return pool


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
