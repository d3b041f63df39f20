"""The pools that read and index papers stop at once when told (the reader quits)."""

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
    stop_pools()
    # Work left to run would end after 30 s, past these waits: ended, it was cut, not waited for.
    with pytest.raises(BrokenProcessPool):
        running.result(timeout=10)
    assert waiting.cancelled() or isinstance(waiting.exception(timeout=10), BrokenProcessPool)
