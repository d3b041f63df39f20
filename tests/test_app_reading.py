"""Reading comfort through Pilot: typeset math, raw text, themes, layout."""

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Static

from tests.test_app import detail, rows, store_from, type_filter
from tui_reader.ui.app import ReaderApp

MATH = r"We bound the regret by $\rho \sqrt{\ln T}$ in **M**easuring *hard* \emph{cases} [/b]."


async def test_math_and_emphasis_are_typeset_and_m_shows_the_raw_text(
    write_seed: Callable[..., Path],
) -> None:
    app = ReaderApp(store_from(write_seed(MATH, "It costs $5 and $10 to run.")))
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.pause()
        typeset = "We bound the regret by ρ √(ln T) in Measuring hard cases [/b]."
        assert typeset in detail(app)
        assert rows(app)[0].startswith("We bound the regret by ρ √(ln T)")
        content = app.query_one("#detail-body", Static).content
        styled = {content.plain[span.start : span.end]: str(span.style) for span in content.spans}
        assert styled["M"] == "bold" and styled["hard"] == "italic" and styled["cases"] == "italic"
        await pilot.press("m")
        await pilot.pause()
        assert MATH in detail(app)
        assert rows(app)[0].startswith(r"We bound the regret by $\rho \sqrt{\ln T}$")
        await pilot.press("m", "j")
        await pilot.pause()
        assert "It costs $5 and $10 to run." in detail(app)


async def test_search_matches_the_raw_text_and_highlights_the_typeset(
    write_seed: Callable[..., Path],
) -> None:
    app = ReaderApp(store_from(write_seed(MATH, "Another paper entirely.")))
    async with app.run_test(size=(160, 30)) as pilot:
        await type_filter(pilot, "measuring")
        assert len(rows(app)) == 1
        content = app.query_one("#detail-body", Static).content
        highlighted = [content.plain[span.start : span.end] for span in content.spans]
        assert "Measuring" in highlighted
