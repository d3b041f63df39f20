"""The pools of processes that read and index papers, and stopping them at once.

A pool is spawned, not forked: papers load and are indexed in threads of a program running
others (the reader), whose locks a fork would copy held; a program starting one must guard its
main module. Python 3.11's pool stops only once the work its processes run is done (seconds
of reading or indexing), and a program ending waits for it: `stop_pools` ends the processes.
"""

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from weakref import WeakSet

_STARTED: "WeakSet[ProcessPoolExecutor]" = WeakSet()


def process_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of `processes` spawned processes, which `stop_pools` stops."""
    pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"))
    _STARTED.add(pool)
    return pool


def stop_pools() -> None:
    """End every pool's processes now, their work undone (the reader quits: nothing is left to
    use it). What waits on a pool's work then finds the pool broken."""
    for pool in list(_STARTED):
        # A private attribute: Python 3.11 has no public way (3.14 has terminate_workers).
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
