"""Polish: what the reader shows around the text never gets in the way of reading it."""

import pyperclip
import pytest
from textual.widget import Widget

from tests.pilot_helpers import wait_until
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.detail_pane import DetailPane

pytestmark = pytest.mark.usefixtures("unhurried_reading")


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_reading_mode_has_no_stray_border(
    seed_store: PaperStore, size: tuple[int, int]
) -> None:
    app = ReaderApp(seed_store)
    async with app.run_test(size=size) as pilot:
        await pilot.press("z")
        await pilot.pause()
        detail = app.query_one(DetailPane)
        assert detail.region.x == 0 and detail.region.width == size[0]
        assert detail.styles.border_left[0] in ("", "none")
        assert detail.styles.border_top[0] in ("", "none")


async def test_the_abstract_keeps_a_readable_measure_at_200_columns(seed_store: PaperStore) -> None:
    app = ReaderApp(seed_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        body = app.query_one("#detail-body", Widget)
        assert app.query_one(DetailPane).size.width > 110
        assert body.size.width <= 100
        lines = [line.text for line in body.render_lines(body.region.reset_offset)]
        assert max(len(line.rstrip()) for line in lines) <= 100
        assert any(line.lstrip().startswith("1 https://") for line in lines)  # not wrapped


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_a_short_notice_sits_on_the_footer_row(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.setattr(pyperclip, "copy", lambda text: None)
    app = ReaderApp(seed_store)
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen.query("Toast"), "the notice")
        toasts = list(app.screen.query("Toast"))
        assert len(toasts) == 1
        assert toasts[0].region.height == 1 and toasts[0].region.bottom == size[1]
        assert not toasts[0].region.overlaps(app.query_one(DetailPane).region)
