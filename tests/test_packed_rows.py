"""The list's rows kept packed: drawn from the cache as they were drawn when built, and drawn
anew after the library changes."""

from pathlib import Path

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tests.pilot_helpers import lines, work_shown
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui import packed_rows
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.packed_rows import PackedRows
from tui_reader.ui.paper_list import PaperList


def drawn(strip: Strip) -> list[tuple[str, Style | None]]:
    return [(segment.text, segment.style) for segment in strip]


def test_a_row_comes_back_as_it_was_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packed_rows, "STRIPS_KEPT", 1)  # "a" is unpacked once "b" is drawn
    bold, cursor = Style(bold=True), Style(bgcolor="blue", color="white")
    segments = [
        Segment(" ", None),
        Segment("★", cursor + Style(color="yellow")),
        Segment("漢字の論文 ", cursor),  # two cells a character
        Segment("Attention", cursor + bold),
        Segment("", cursor),
        Segment(" #later", cursor),
    ]
    strip = Strip(segments)
    rows = PackedRows(2)
    rows.keep("a", strip)
    assert rows.get("a") is strip  # drawn last: kept as it is
    rows.keep("b", Strip([Segment("other", bold)]))
    back = rows.get("a")
    assert back is not None and back is not strip
    assert drawn(back) == drawn(strip)
    assert back.cell_length == strip.cell_length == 1 + 1 + 11 + 9 + 7
    rows.keep("c", Strip([Segment("third")]))  # "a" was drawn last, "b" goes
    assert rows.get("b") is None and rows.get("a") is not None
    rows.clear()
    assert rows.get("a") is None and rows.get("c") is None


async def test_rows_from_the_cache_are_those_built_and_follow_the_library(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = ReaderApp(Opening(seed_store), Library.open(private_library)[0])
    async with app.run_test(size=(100, 20)) as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press("j", "j", "k", "k")  # the rows drawn again, from the cache
        height = paper_list.size.height
        cached = [drawn(paper_list.render_line(y)) for y in range(height)]
        paper_list.refresh_rows()  # nothing kept: built anew
        built = [drawn(paper_list.render_line(y)) for y in range(height)]
        assert cached == built
        assert len({style for row in built for _, style in row}) > 3  # cursor, star, unread...
        assert lines(app)[1][:2] == "  "
        await pilot.press("j", "b")  # the second paper bookmarked
        await work_shown(pilot)
        assert lines(app)[1][:2] == " ★"
        await pilot.press("space")  # marked, the cursor on the third
        assert lines(app)[1][:2] == "▌★"
        await pilot.press("k", "b")
        await work_shown(pilot)
        assert lines(app)[1][:2] == "▌ "
