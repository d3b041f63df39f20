"""The pools of processes that read and index papers, and stopping them at once.

A pool's processes are not forked from the program: papers load and are indexed in threads
of a program running others (the reader), whose locks a fork would copy held. They are forked
from a fork server, a process started once, which imported what they run (0.3 s of CPU a
process, four processes for a cold start: spawned, each imported it again); spawned where
there is none (Windows). A program starting one must guard its main module, which the server
imports. Python 3.11's pool stops only once the work its processes run is done (seconds of
reading or indexing), and a program ending waits for it: `stop_pools` ends the processes.
"""

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from weakref import WeakSet

_STARTED: "WeakSet[ProcessPoolExecutor]" = WeakSet()


# What the pools' processes run, imported by the fork server they are forked from.
_PRELOADED = ["tui_reader.core.loading", "tui_reader.core.flat.build"]


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" not in multiprocessing.get_all_start_methods():  # Windows
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOADED)
    return context


def process_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of `processes` processes, which `stop_pools` stops."""
    pool = ProcessPoolExecutor(processes, mp_context=_context())
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
