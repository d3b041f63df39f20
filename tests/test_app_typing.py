"""While keys come, each draws the list alone; the detail pane and header follow once they
pause. The header and the filter draw in place, without laying out the screen."""

import threading
from collections.abc import Iterator

import pytest
from textual import events
from textual.widgets import Input

from tests.pilot_helpers import (
    detail,
    related_shown,
    rows,
    settled,
    store_from,
    wait_until,
    work_done,
)
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.paper_columns import PaperColumns, columns_of
from tui_reader.core.session import Session
from tui_reader.core.store import PaperStore
from tui_reader.ui import workspace as workspace_module
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.timings import Timings
from tui_reader.ui.title_bar import TitleBar


def title_shown(app: ReaderApp) -> str:
    bar = app.query_one(TitleBar)
    return str(bar.render()).strip()


def settling(header: float, pane: float) -> Timings:
    """The header and the detail pane wait these seconds for the keys to pause."""
    return Timings(settled_after=header, pane_settled_after=pane)


# The pane and the header wait 2 s for the keys to pause: long enough to look first.
SETTLING_SLOWLY = settling(2.0, 2.0)


async def test_the_pane_and_header_follow_the_list_once_the_keys_pause(seed_store) -> None:
    app = ReaderApp(Opening(seed_store), timings=SETTLING_SLOWLY)
    async with app.run_test(size=(120, 30)) as pilot:
        await settled(pilot)
        first = detail(app)
        assert title_shown(app).endswith("ICML 2026 Papers — 38 papers")
        await pilot.press("slash", *"satisficing")
        await work_done(app)
        await pilot.pause()
        assert rows(app)[0].startswith("uncertain-UCB: a new algorithm")
        assert app.workspace.sub_title == "1 of 38 papers"
        assert detail(app) == first, "the pane waits for the keys to pause"
        assert title_shown(app).endswith("38 papers")
        assert not app.workspace.settled
        await settled(pilot)
        assert detail(app).startswith("uncertain-UCB: a new algorithm")
        assert title_shown(app).endswith("ICML 2026 Papers — 1 of 38 papers")


async def test_the_header_follows_a_pause_too_short_for_the_pane(seed_store) -> None:
    """The pane waits for the typing to pause (it lays out the screen); the count does not."""
    app = ReaderApp(Opening(seed_store), timings=settling(0.05, 60.0))
    async with app.run_test(size=(120, 30)) as pilot:
        await settled(pilot)
        await pilot.press("slash", *"satisficing")
        await wait_until(
            pilot, lambda: title_shown(app).endswith("1 of 38 papers"), "the header's count"
        )
        assert detail(app).startswith(seed_store[0].headline[:40])
        assert not app.workspace.settled


async def test_the_pane_and_header_follow_when_no_pause_is_asked(seed_store) -> None:
    """Updates due at once (or overdue) are run: a timer of no time had stopped for good,
    and the header stayed on "loading…" or "searching…" with the results on screen."""
    app = ReaderApp(Opening(seed_store), timings=settling(0.0, 0.0))
    async with app.run_test(size=(120, 30)) as pilot:
        await settled(pilot)
        await pilot.press("slash", *"satisficing")
        await work_done(app)
        await settled(pilot)
        assert title_shown(app).endswith("1 of 38 papers")
        assert detail(app).startswith("uncertain-UCB: a new algorithm")
        await pilot.press("escape", "escape", "j")
        await settled(pilot)
        assert title_shown(app).endswith("38 papers")


async def test_moving_the_cursor_shows_the_paper_at_once(seed_store) -> None:
    app = ReaderApp(Opening(seed_store), timings=Timings(settled_after=60.0))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        assert detail(app).startswith(seed_store[0].headline[:40])
        await pilot.press("j")
        await pilot.pause()
        assert detail(app).startswith(seed_store[1].headline[:40])


async def test_a_title_is_shown_literally_and_cut_to_the_width(write_seed) -> None:
    store = store_from(write_seed("One paper.", header="[b]Bold[/b] " + "x" * 70))
    app = ReaderApp(Opening(store))
    async with app.run_test(size=(60, 20)) as pilot:
        await settled(pilot)
        shown = title_shown(app)
        assert shown.startswith("⭘") and "[b]Bold[/b] xxx" in shown
        assert shown.endswith("… — 1 paper"), "the name is cut, not what the list shows"
        assert len(shown) <= 60


async def test_a_query_longer_than_the_filter_scrolls_to_its_end(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("slash", *("regret " * 12))
        await work_done(app)
        await pilot.pause()
        filter_input = app.query_one("#filter", Input)
        assert filter_input.scroll_offset.x > 0
        text = "".join(segment.text for segment in filter_input.render_line(0))
        assert "regret regret" in text and text.rstrip().endswith("regret")


async def test_the_list_scrollbar_follows_the_count_once_the_list_scrolls(write_seed) -> None:
    abstracts = [f"Paper {n} studies {('alpha', 'beta')[n % 2]}quasars." for n in range(2000)]
    # No layout while typing.
    app = ReaderApp(Opening(store_from(write_seed(*abstracts))), timings=settling(60.0, 60.0))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        paper_list = app.workspace.paper_list
        bar = paper_list.vertical_scrollbar
        assert bar.window_virtual_size == 2000
        current = paper_list.current
        assert current is not None
        await related_shown(pilot, current.id)  # the pane laid out again, before the keys
        await pilot.press("slash")
        await pilot.pause()
        await pilot.press(*"alphaquasars")
        await work_done(app)
        await pilot.pause()
        assert len(paper_list.papers) == 1000
        # The thumb looks the same for 1,000 papers as for 2,000 at this height: not redrawn.
        assert bar.window_virtual_size == 2000
        await pilot.press("enter", *["j"] * 40)
        await pilot.pause()
        assert paper_list.scroll_offset.y > 0
        assert bar.window_virtual_size == 1000


async def test_moves_as_fast_as_a_held_key_show_the_paper_once_they_stop(seed_store) -> None:
    app = ReaderApp(Opening(seed_store), timings=SETTLING_SLOWLY)
    async with app.run_test(size=(120, 30)) as pilot:
        await settled(pilot)
        await pilot.press("j")  # one move: the pane follows at once
        await pilot.pause()
        assert detail(app).startswith(seed_store[1].headline[:40])
        await pilot.press("j", "j", "j")  # each within 2 s of the one before
        assert app.workspace.paper_list.cursor == 4
        assert detail(app).startswith(seed_store[1].headline[:40])
        assert not app.workspace.settled
        await settled(pilot)
        assert detail(app).startswith(seed_store[4].headline[:40])


async def test_up_brings_back_the_filter_escape_cleared(seed_store: PaperStore) -> None:
    """Escape cleared a long query with no way back."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await pilot.press("slash", *"bandit regret")
        await wait_until(pilot, lambda: app.workspace.shown_query == "bandit regret", "results")
        await pilot.press("escape")
        filter_input = app.workspace.filter_input
        assert filter_input.value == "" and filter_input.has_focus
        said = [notice.message for notice in app._notifications]
        assert said == ["Filter cleared: ↑ brings it back"]
        await pilot.press("up")
        await wait_until(pilot, lambda: app.workspace.shown_query == "bandit regret", "it back")
        assert filter_input.cursor_position == len("bandit regret")
        await pilot.press("escape", "up", "backspace", "escape")  # told once only
        assert len(app._notifications) == 1
        await pilot.press("up", *"bound")  # brought back to refine, as "/" does: a new word
        assert filter_input.value == "bandit regre bound"


async def test_slash_goes_back_to_the_query_to_refine_it(seed_store: PaperStore) -> None:
    """It selected the query, so the next key typed replaced it: " bound" lost "regret"."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("slash", *"regret", "enter", "j")
        filter_input = app.workspace.filter_input
        filter_input.cursor_position = 2  # left elsewhere: "/" goes to the end
        await pilot.press("slash", *" bound")
        assert filter_input.value == "regret bound"
        assert filter_input.has_focus
        await pilot.press("escape", *"bandit")  # a new query: Escape clears the old one
        assert filter_input.value == "bandit"


async def test_a_word_typed_after_slash_is_a_new_word(seed_store: PaperStore) -> None:
    """`is:new`, then "/" and `bandit`, searched `is:newbandit`; Backspace first goes on with
    the last word, and so does a key typed where the cursor was moved to."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        filter_input = app.workspace.filter_input
        await pilot.press("slash", *"is:unread", "enter", "slash", *"regret")
        assert filter_input.value == "is:unread regret"
        await pilot.press("enter", "slash", "backspace", "t")
        assert filter_input.value == "is:unread regret"
        await pilot.press("enter", "slash", "left", "right", "s")
        assert filter_input.value == "is:unread regrets"
        await pilot.press("enter", "slash", "space", "x")
        assert filter_input.value == "is:unread regrets x"


async def test_text_pasted_over_lines_is_one_query(seed_store: PaperStore) -> None:
    """A title copied from a PDF comes in lines: Textual's Input kept the first alone."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        filter_input = app.workspace.filter_input
        await pilot.press("slash", *"is:unread", "enter", "slash")
        filter_input.post_message(events.Paste("regret  bounds for\r\n\tdueling\nbandits\n"))
        await pilot.pause()
        assert filter_input.value == "is:unread regret bounds for dueling bandits"
        await pilot.press("ctrl+u")  # a word a line's end broke: joined, a compound kept
        filter_input.post_message(events.Paste("Dueling Ban-\ndits, Bayes-\nOptimal, end-\n\nnext"))
        await pilot.pause()
        assert filter_input.value == "Dueling Bandits, Bayes-Optimal, end- next"  # not a paragraph
        await pilot.press("ctrl+u")  # a number after the hyphen: a name with its hyphen
        filter_input.post_message(events.Paste("GPT-\n4 and ResNet-\n50"))
        await pilot.pause()
        assert filter_input.value == "GPT-4 and ResNet-50"


@pytest.mark.parametrize("restored", [None, Session(query="bandit regret", paper_id="x")])
async def test_keys_typed_before_the_screen_is_up_keep_the_filter(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch, restored: Session | None
) -> None:
    """Keys sent as the reader starts can be handled before the screen's start: "/satisf"
    landed in the filter, then the start put the focus on the list, and " band" marked and
    bookmarked papers (found in tmux)."""
    started = workspace_module.Workspace.on_mount

    def typed_first(screen: workspace_module.Workspace) -> None:
        screen.action_focus_filter()  # as "/" handled before the start
        screen.filter_input.value = "satisf"
        started(screen)

    monkeypatch.setattr(workspace_module.Workspace, "on_mount", typed_first)
    app = ReaderApp(Opening(seed_store, session=restored))  # the last query does not replace it
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*" band")
        assert app.workspace.filter_input.value == "satisf band"
        assert not app.workspace.paper_list.marked
        assert not any(app.library.is_bookmarked(p.id) for p in seed_store)


async def test_a_filter_typed_before_the_screen_is_up_is_not_covered_by_the_feeds(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With searches saved, the feeds panel opened over "/difusion" typed at start, and the
    Enter that ended the query opened the first saved search in its place."""
    started = workspace_module.Workspace.on_mount

    def typed_first(screen: workspace_module.Workspace) -> None:
        screen.action_focus_filter()
        screen.filter_input.value = "difusion"
        started(screen)

    monkeypatch.setattr(workspace_module.Workspace, "on_mount", typed_first)
    library = Library(None)
    library.save_search("bandits", "bandit regret")
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await work_done(app)
        assert app.screen is app.workspace
        assert app.workspace.filtering.shown_query == "difusion"


async def test_a_narrow_header_keeps_what_the_reader_is_doing_and_cuts_the_words_notes(
    seed_store: PaperStore,
) -> None:
    """At 80 columns the end was cut: "2 marked", the order and "raw text" out of sight,
    behind what the query's words are read as; at 60, also with the order kept."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash", *"reinforcment lerning tabulr", "enter", "space", "space", "m")
        await work_done(app)
        await wait_until(pilot, lambda: "raw text" in app.workspace.sub_title, "the header")
        await pilot.pause(0.3)  # the header follows once the keys pause
        shown = title_shown(app)
        assert shown.endswith("· 2 marked · raw text"), shown
        assert shown.startswith("⭘ ") and " of 38 papers" in shown and "…" in shown
        assert len(shown) <= 78
        await pilot.resize_terminal(60, 20)
        await pilot.press("s", "s", "s")  # by recently changed
        await wait_until(pilot, lambda: "changed" in app.workspace.sub_title, "the order")
        await pilot.pause(0.3)
        shown = title_shown(app)
        assert shown.endswith("· 2 marked · raw text") and " of 38 papers" in shown, shown
        assert len(shown) <= 58


async def test_the_header_says_when_a_filter_is_searched_as_words(seed_store) -> None:
    """In full on a screen of 120 columns: the collection's name gives way to it."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        await settled(pilot)
        await pilot.press("slash", *"bandit after:2025-13")
        await work_done(app)
        await wait_until(pilot, lambda: "searched" in app.workspace.sub_title, "the header")
        assert app.workspace.sub_title == (
            "0 of 38 papers (+1 close) · after:2025-13 is not a date (2025, 2025-06, 2025-06-15): "
            "searched as words"
        )
        note = app.workspace.sub_title
        await wait_until(pilot, lambda: title_shown(app).endswith(note), "the note in full")
        assert "ICML" not in title_shown(app)
        await pilot.press("backspace", "backspace", "backspace")
        await wait_until(pilot, lambda: "searched" not in app.workspace.sub_title, "no note")
        await pilot.press(*"-1")  # after:2025-1 is on its way to a date, until a space ends it
        await pilot.pause(0.3)
        assert "searched" not in app.workspace.sub_title
        await pilot.press("space")
        await wait_until(pilot, lambda: "after:2025-1 is not" in app.workspace.sub_title, "note")


async def test_the_header_counts_the_first_papers_loaded_as_they_are_drawn(
    seed_store: PaperStore,
) -> None:
    """It said "loading… 0 papers" over the first rows until the header settled (it
    showed for 0.1-0.4 s)."""
    go_on = threading.Event()

    def stream() -> Iterator[PaperColumns]:
        yield columns_of(list(seed_store)[:5])
        go_on.wait(30)

    app = ReaderApp(Opening(PaperStore(), stream=stream()), timings=settling(header=30, pane=30))
    async with app.run_test(size=(120, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        await wait_until(pilot, lambda: len(paper_list.papers) == 5, "the first papers")
        assert "loading… 5 papers" in title_shown(app)
        go_on.set()
