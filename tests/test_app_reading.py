"""Reading comfort through Pilot: typeset math, raw text, themes, layout."""

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.pilot_helpers import detail, keys_handled, rows, store_from, type_filter
from tui_reader.core.opening import Opening
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.paper_list import PaperList

MATH = r"We bound the regret by $\rho \sqrt{\ln T}$ in **M**easuring *hard* \emph{cases} [/b]."


async def test_math_and_emphasis_are_typeset_and_m_shows_the_raw_text(
    write_seed: Callable[..., Path],
) -> None:
    app = ReaderApp(Opening(store_from(write_seed(MATH, "It costs $5 and $10 to run."))))
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
    app = ReaderApp(Opening(store_from(write_seed(MATH, "Another paper entirely."))))
    async with app.run_test(size=(160, 30)) as pilot:
        await type_filter(pilot, "measuring")
        assert len(rows(app)) == 1
        content = app.query_one("#detail-body", Static).content
        highlighted = [content.plain[span.start : span.end] for span in content.spans]
        assert "Measuring" in highlighted


def contrast(foreground: tuple[int, int, int], background: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours."""

    def luminance(colour: tuple[int, int, int]) -> float:
        linear = [
            v / 255 / 12.92 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in colour
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "nord", "catppuccin-latte"])
async def test_text_is_readable_in_light_and_dark_themes(seed_store, theme: str) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        await type_filter(pilot, "diffusion")
        await pilot.press("enter")
        app.theme = theme
        await pilot.pause()
        worst = []
        # The screen as composed, colours resolved; the header and footer are Textual's own.
        for y, strip in enumerate(app.screen._compositor.render_strips()[1:-1], 1):
            for segment in strip:
                style = segment.style
                if style is None or not any(char.isalnum() for char in segment.text):
                    continue
                foreground = style.color.get_truecolor()
                background = style.bgcolor.get_truecolor()
                worst.append((contrast(tuple(foreground), tuple(background)), y, segment.text))
        assert min(worst)[0] >= 3.0, min(worst)


async def test_under_100_columns_the_detail_pane_stacks_below_the_list(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        paper_list, detail_pane = app.query_one(PaperList), app.query_one(DetailPane)
        assert paper_list.region.width == 80
        assert detail_pane.region.y >= paper_list.region.bottom
        assert detail_pane.region.width == 80
        before = paper_list.size.height
        await pilot.press("greater_than_sign", "greater_than_sign")
        await pilot.pause()
        assert paper_list.size.height > before
        await pilot.press("z")
        await pilot.pause()
        assert detail_pane.region.height >= 20  # reading mode: the detail pane alone
        await pilot.press("z")
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        await pilot.pause()
        assert detail_pane.region.x >= paper_list.region.right
        assert detail_pane.region.y == paper_list.region.y
        assert paper_list.region.width == 72  # 6 tenths: the split set while stacked holds
        assert paper_list.region.height == detail_pane.region.height == 27


@pytest.mark.parametrize("back", ["escape", "enter"])
async def test_escape_or_enter_in_reading_mode_goes_back_to_the_list(seed_store, back) -> None:
    """Reading mode hides the list: the pane's "back to the list" went past it to the filter,
    and the next keys (z, j, q) were typed there."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        workspace, paper_list = app.workspace, app.query_one(PaperList)
        detail_pane = app.query_one(DetailPane)

        def state() -> tuple[bool, object, str]:
            return workspace.has_class("-reading"), app.focused, workspace.filter_input.value

        await pilot.press("z")
        await keys_handled(pilot)
        assert state() == (True, detail_pane, "")
        await pilot.press(back)
        await keys_handled(pilot)
        assert state() == (False, paper_list, "")
        assert paper_list.region.width > 0  # shown again
        await pilot.press("j", "z")  # the next paper, read in reading mode
        await keys_handled(pilot)
        assert state() == (True, detail_pane, "")
        assert paper_list.cursor == 1
        await pilot.press("z")
        await keys_handled(pilot)
        assert state() == (False, paper_list, "")


async def test_a_filter_typed_in_reading_mode_is_read_on_in_it(seed_store) -> None:
    """Enter in the filter focused the list, which reading mode hides: j moved it unseen."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        workspace, detail_pane = app.workspace, app.query_one(DetailPane)
        await pilot.press("z", "slash", *"bandit", "enter")
        await keys_handled(pilot)
        assert workspace.has_class("-reading") and app.focused is detail_pane
        assert workspace.filter_input.value == "bandit"
