"""Quitting while a big input loads stops the reading (and its processes) at once, instead of
holding the quit until every paper is read."""

import threading
import time
from collections.abc import Iterator

from tests.pilot_helpers import wait_until
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.paper_columns import PaperColumns, columns_of
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp

STOPPED_WITHIN = 10.0  # seconds


async def test_quitting_while_loading_closes_the_stream(seed_store: PaperStore) -> None:
    papers = list(seed_store)
    closed = threading.Event()

    def endless() -> Iterator[PaperColumns | str]:
        ends = time.monotonic() + 3 * STOPPED_WITHIN  # not endless: a failing test ends
        try:
            while time.monotonic() < ends:  # as a million papers read piece by piece
                yield columns_of(papers[:1])
                time.sleep(0.01)
        finally:
            closed.set()  # where the loader shuts its pool of processes down

    app = ReaderApp(Opening(PaperStore(), stream=endless()), Library(None))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: len(app.store) > 0, "the first papers")
        assert app.workspace.status == "loading"
        await pilot.press("q")
    assert closed.wait(STOPPED_WITHIN), f"the stream still read {STOPPED_WITHIN:g} s after quit"
