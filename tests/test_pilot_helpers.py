"""The shared waits end: a condition that never holds fails the test with what was awaited."""

import pytest

from tests.pilot_helpers import wait_until
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp


async def test_a_wait_that_is_never_met_fails_in_time_and_says_for_what() -> None:
    app = ReaderApp(Opening(PaperStore()))
    async with app.run_test() as pilot:
        with pytest.raises(pytest.fail.Exception, match=r"waited 0\.2 s for the moon"):
            await wait_until(pilot, lambda: False, "the moon", timeout=0.2)
        await wait_until(pilot, lambda: True, "nothing", timeout=0)
