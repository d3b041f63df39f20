"""The pools that read and index papers stop at once when told (the reader quits)."""

import os
import sys
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from tui_reader.core.pools import process_pool, stop_pools


def test_a_pool_stopped_leaves_its_work_undone_at_once() -> None:
    pool = process_pool(1)
    running = pool.submit(time.sleep, 30)  # a piece of a big file being read, say
    waiting = pool.submit(time.sleep, 30)
    while not running.running():
        time.sleep(0.01)
    started = time.monotonic()
    stop_pools()
    with pytest.raises(BrokenProcessPool):
        running.result(timeout=10)
    assert waiting.cancelled() or isinstance(waiting.exception(timeout=10), BrokenProcessPool)
    assert time.monotonic() - started < 10


def _how_started() -> tuple[int, bool]:
    return os.getppid(), "tui_reader.core.flat.build" in sys.modules


@pytest.mark.skipif(sys.platform == "win32", reason="no fork server")
def test_a_pools_processes_come_from_a_server_that_imported_what_they_run() -> None:
    """Spawned, each process imported numpy and the index again: 0.3 s of CPU each."""
    pool = process_pool(1)
    try:
        parent, imported = pool.submit(_how_started).result(timeout=60)
    finally:
        pool.shutdown()
    assert parent != os.getpid() and imported
