"""The reader driven as a user would, through Pilot."""

from collections.abc import Callable
from pathlib import Path

from textual import events
from textual.content import Content
from textual.widgets import Input, Static

from tests.pilot_helpers import (
    detail,
    ready,
    related_shown,
    rows,
    settled,
    store_from,
    type_filter,
    wait_until,
    work_done,
)
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.help_screen import HelpScreen
from tui_reader.ui.paper_list import PaperList

HOSTILE = [
    "Masked tokens [CLS] and [MASK] with closing [/b] tags must show as typed.",
    "A theme variable [$accent] and [bold red]markup[/] stay literal text.",
    "An escape \x1b]52;c;aGk=\x07 tries to set the clipboard, \x1b[2J clears the screen.",
]


async def test_starts_with_every_paper_and_the_first_in_the_detail_pane(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()  # the detail pane follows the list's first frame
        assert app.workspace.title == "ICML 2026 Papers"
        assert app.workspace.sub_title == "38 papers"
        assert rows(app)[0].startswith("LOAM: LLM-based design")
        text = detail(app)
        assert text.startswith("LOAM: LLM-based design of Observation and Action Models")
        assert "ICML 2026 Papers · 000_5072d7e6c177d376.txt" in text
        assert "id 28f1d9d7a354" in text
        assert seed_store[0].abstract in text
        assert app.focused is app.query_one(PaperList)


async def test_typing_filters_fuzzily_and_ranks(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await type_filter(pilot, "difusion tabular")
        # One paper has both words; the four with only "diffusion" follow, dimmed.
        # No paper holds "difusion": the header says what is shown for it.
        assert (
            app.workspace.sub_title == "1 of 38 papers (+4 close) · showing diffusion for difusion"
        )
        # Under 100 columns the list takes the full width, above the detail pane.
        assert rows(app)[0] == (
            "AugMask: a plug-and-play training framework that adapts missing-unaware ba…"
        )
        assert len(rows(app)) == 5
        assert app.query_one(PaperList).full == 1
        assert detail(app).startswith("AugMask: a plug-and-play")


async def test_empty_result_says_so_and_escape_clears(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await type_filter(pilot, "qqqzzzxx")
        assert app.workspace.sub_title == "0 of 38 papers"
        assert rows(app) == ["No papers match “qqqzzzxx”"]
        assert detail(app) == "No papers match “qqqzzzxx”"
        await pilot.press("escape")
        await pilot.pause()
        assert app.query_one(Input).value == ""
        assert app.workspace.sub_title == "38 papers"
        await pilot.press("escape")
        assert app.focused is app.query_one(PaperList)


async def test_cursor_keys_move_and_the_detail_pane_follows(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press("j", "j", "down")
        assert paper_list.cursor == 3
        await settled(pilot)  # moves as fast as a held key: the pane follows once they stop
        assert detail(app).startswith(seed_store[3].headline)
        await pilot.press("k", "up")
        assert paper_list.cursor == 1
        await settled(pilot)
        await pilot.press("G")
        assert paper_list.cursor == 37
        assert app.workspace.settled  # one move: the pane follows in the next frame, not later
        await wait_until(pilot, lambda: detail(app).startswith(seed_store[37].headline), "pane")
        assert paper_list.scroll_offset.y > 0
        assert rows(app)[-1].startswith("LaST₀")
        await pilot.press("g")
        assert paper_list.cursor == 0 and paper_list.scroll_offset.y == 0
        await pilot.press("pagedown")
        page = paper_list.cursor
        assert page == paper_list.size.height - 1 >= 6  # stacked: a shorter page
        await pilot.press("pageup")
        assert paper_list.cursor == 0


async def test_cursor_stays_on_its_paper_while_the_filter_changes(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        paper_list = app.query_one(PaperList)
        augmask = next(i for i, p in enumerate(seed_store) if p.headline.startswith("AugMask"))
        for _ in range(augmask):
            await pilot.press("j")
        # "d" alone does not match AugMask: the cursor leaves it, then comes back.
        await type_filter(pilot, "diffusion")
        assert paper_list.current is seed_store[augmask]
        assert len(paper_list.papers) > 1
        await type_filter(pilot, " zzzqqq")  # no paper has both words: close ones only
        assert paper_list.full == 0
        assert paper_list.current is seed_store[augmask]
        await pilot.press("escape")
        await pilot.pause()
        assert paper_list.current is seed_store[augmask]


async def test_a_new_query_opens_on_its_best_papers_not_far_down_on_the_paper_chosen(
    seed_store,
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        paper_list = app.query_one(PaperList)
        await type_filter(pilot, "learning")
        results = list(paper_list.papers[: paper_list.full])
        assert len(results) > paper_list.scrollable_content_region.height
        last = seed_store.index(results[-1])
        await pilot.press("escape")
        await settled(pilot)
        paper_list.choose(last)  # the reader on a paper the next query ranks out of sight
        await type_filter(pilot, "learning")
        assert paper_list.cursor == 0 and paper_list.current is results[0]
        assert paper_list.scroll_offset.y == 0
        await type_filter(pilot, " is:unread")
        app.set_focus(paper_list)
        for _ in range(len(results) - 1):  # the same query's results again keep the place
            await pilot.press("j")
        await settled(pilot)
        await pilot.press("b")  # bookmarked: the query's results come again
        await settled(pilot)
        assert paper_list.current is results[-1] and app.library.is_bookmarked(results[-1].id)
        await pilot.press("enter", "escape")  # opened: not a paper asked for by name
        app.workspace.filter_input.value = "learning"  # as a saved search's query comes
        await settled(pilot)
        assert paper_list.cursor == 0


async def test_a_result_opened_keeps_the_cursor_once_the_filter_is_cleared(
    seed_store,
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        await type_filter(pilot, "difusion")
        decode = paper_list.current
        assert decode is not None and decode.headline.startswith("DeCoDe")
        await pilot.press("enter", "enter", "slash", "escape")  # opened; the filter cleared
        await settled(pilot)
        assert len(paper_list.papers) == 38 and paper_list.current is decode


async def test_back_from_no_results_the_cursor_row_is_in_sight(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 24)) as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press("G")
        await type_filter(pilot, "zzqqxxw")
        assert not paper_list.papers
        await pilot.press("escape")
        await settled(pilot)
        assert paper_list.cursor == 37
        top, height = paper_list.scroll_offset.y, paper_list.scrollable_content_region.height
        assert top <= 37 < top + height, (top, height)
        assert rows(app)[-1].startswith("LaST₀")


async def test_a_search_opens_on_its_full_matches_not_on_a_close_one(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        await type_filter(pilot, "regret")
        await pilot.press("enter", "j", "j", "j")  # the fourth of five, chosen
        chosen = paper_list.current
        assert chosen is not None
        await type_filter(pilot, " bound")  # it lacks "bound": a match in part
        position = paper_list.position_of(chosen.id)
        assert position is not None and 0 < paper_list.full <= position
        assert paper_list.cursor == 0
        await pilot.press("enter", "slash", "ctrl+u")  # a new query
        await type_filter(pilot, "regret zzqq")  # nothing matches in full: back to it
        assert paper_list.full == 0 and paper_list.current == chosen


async def test_enter_and_tab_move_between_filter_list_and_detail(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        filter_input, paper_list = app.query_one(Input), app.query_one(PaperList)
        detail_pane = app.query_one(DetailPane)
        await pilot.press("slash")
        assert app.focused is filter_input
        await pilot.press("enter")
        assert app.focused is paper_list
        await pilot.press("enter")
        assert app.focused is detail_pane
        await pilot.press("j", "j", "j")
        assert detail_pane.scroll_offset.y == 3
        await pilot.press("escape")
        assert app.focused is paper_list
        await pilot.press("tab")
        assert app.focused is detail_pane
        await pilot.press("tab")
        assert app.focused is filter_input
        await pilot.press("shift+tab")
        assert app.focused is detail_pane


async def test_mouse_click_moves_the_cursor(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.click(PaperList, offset=(3, 4))
        assert paper_list.cursor == 4
        assert detail(app).startswith(seed_store[4].headline)
        await pilot.double_click(PaperList, offset=(3, 2))
        assert paper_list.cursor == 2
        assert app.focused is app.query_one(DetailPane)


async def test_help_lists_every_key_and_closes(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Static).content
        assert isinstance(text, Content)
        for key in ("/", "?", "q", "j", "k", "g", "G", "pgdn", "pgup", "⏎", "esc", "tab"):
            assert f"\n{key}" in text.plain or f" {key} " in text.plain, key
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_q_quits_but_types_in_the_filter(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await type_filter(pilot, "q")
        assert app.query_one(Input).value == "q"
        await pilot.press("enter", "q")
        await pilot.pause()
    assert app.return_code == 0


async def test_hostile_text_is_shown_literally(write_seed: Callable[..., Path]) -> None:
    store = store_from(write_seed(*HOSTILE, header="[b]Hostile[/b] [$accent]"))
    app = ReaderApp(Opening(store))
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.pause()
        assert app.workspace.title == "[b]Hostile[/b] [$accent]"
        shown = rows(app)
        assert shown[0].startswith("Masked tokens [CLS] and [MASK] with closing [/b]")
        assert shown[1].startswith("A theme variable [$accent] and [bold red]markup[/]")
        assert shown[2].startswith("An escape tries")
        assert HOSTILE[0] in detail(app)
        await pilot.press("j")
        assert HOSTILE[1] in detail(app)
        spans = app.query_one("#detail-body", Static).content.spans
        styles = {str(span.style) for span in spans}
        assert not any("accent" in style or "red" in style for style in styles), styles
        await pilot.press("j")
        await settled(pilot)
        text = detail(app)
        assert "\x1b" not in text and "\x07" not in text
        assert "An escape tries to set the clipboard, clears" in text
        await type_filter(pilot, "[/b] [$accent]")  # markup typed as a query is only words
        assert app.workspace.shown_query == "[/b] [$accent]"
        assert rows(app)  # results or "No papers match", drawn without error


async def test_wide_terminal_shows_full_headlines(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(200, 50)):
        assert rows(app)[0] == "LOAM: LLM-based design of Observation and Action Models"
        assert len(rows(app)) == 38


async def test_keys_typed_in_one_burst_all_reach_the_filter_and_the_list(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        for key, character in [("slash", "/"), *[(c, c) for c in "tabular"], ("enter", None)]:
            app.post_message(events.Key(key, character))
        app.post_message(events.Key("j", "j"))
        await work_done(app)
        await pilot.pause()
        # Had "/" or Enter waited for the focus to move, letters or "j" would be lost or typed.
        assert app.query_one(Input).value == "tabular"
        assert app.focused is app.query_one(PaperList)


async def test_typing_fast_over_ten_thousand_papers_shows_the_final_query(tmp_path) -> None:
    """Keys sent in a burst, faster than searches finish: the list ends on the last query."""
    import json
    import random

    from tui_reader.core.loading import check_paths, stream_papers

    rng = random.Random(7)
    vocabulary = [f"{a}{b}" for a in ("graph", "neural", "kernel", "bandit", "prior") for b in
                  ("", "s", "ing", "ed", "ic", "ity", "al")]  # fmt: skip
    path = tmp_path / "big.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for number in range(10_000):
            abstract = " ".join(rng.choice(vocabulary) for _ in range(40)) + f" n{number}."
            out.write(json.dumps({"title": f"Paper {number}", "abstract": abstract}) + "\n")
        target = {"title": "Vericoding at scale", "abstract": "We benchmark vericoding in Dafny."}
        out.write(json.dumps(target) + "\n")
    app = ReaderApp(Opening(PaperStore(), stream=stream_papers(check_paths([path]))))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        assert len(app.store) == 10_001
        app.post_message(events.Key("slash", "/"))
        for character in "vericodnig dafny":  # a typo, then more words, all in one burst
            key = "space" if character == " " else character
            app.post_message(events.Key(key, character))
        await wait_until(
            pilot, lambda: app.workspace.shown_query == "vericodnig dafny", "the results"
        )
        await pilot.pause()
        assert app.query_one(Input).value == "vericodnig dafny"
        assert rows(app)[0] == "Vericoding at scale"
        assert app.workspace.sub_title == "1 of 10,001 papers · showing vericoding for vericodnig"


async def test_slash_in_an_empty_filter_is_not_typed_but_is_within_a_query(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash", "slash", *"rl", "slash", *"x")
        assert app.query_one(Input).value == "rl/x"


async def test_command_palette_offers_every_action_with_its_key(seed_store) -> None:
    from textual.command import CommandPalette

    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        commands = {command.title: command.help for command in app.get_system_commands(app.screen)}
        for title in ("Bookmark", "Tags", "Note", "Undo", "Copy link", "Mark all shown", "Quit"):
            assert title in commands, title
        assert commands["Bookmark"] == "key: b"
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"bookmark", "enter")
        await pilot.pause()
        assert app.library.is_bookmarked(seed_store[0].id)


async def test_reading_mode_and_adjustable_split(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        paper_list, detail_pane = app.query_one(PaperList), app.query_one(DetailPane)
        before = paper_list.size.width
        await pilot.press("greater_than_sign", "greater_than_sign")
        await pilot.pause()
        assert paper_list.size.width > before
        await pilot.press(*["less_than_sign"] * 8)
        await pilot.pause()
        assert paper_list.size.width < before
        await pilot.press("z")
        await pilot.pause()
        assert not paper_list.display or paper_list.size.width == 0
        assert detail_pane.size.width >= 95
        assert app.focused is detail_pane
        await pilot.press("z")
        await pilot.pause()
        assert paper_list.size.width > 0 and app.focused is paper_list


async def test_s_cycles_the_sort_order_shown_in_the_header(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("G", "b")  # the last paper becomes the most recently changed
        await pilot.press("s")
        assert app.workspace.sub_title == "38 papers · by file order"
        assert app.query_one(PaperList).papers[0].headline.startswith("LOAM")
        await pilot.press("s")
        await pilot.pause()
        assert app.workspace.sub_title == "38 papers · by headline"
        shown = [p.headline for p in app.query_one(PaperList).papers]
        assert shown == sorted(shown, key=str.casefold)
        await pilot.press("s")
        await pilot.pause()
        assert app.workspace.sub_title == "38 papers · by recently changed"
        assert app.query_one(PaperList).papers[0].headline.startswith("LaST₀")
        await type_filter(pilot, "diffusion")
        assert app.workspace.sub_title.endswith("· by recently changed")
        await pilot.press("escape", "escape", "s")
        await pilot.pause()
        assert app.workspace.sub_title.startswith("38 papers · for you")
        await pilot.press("s")
        await pilot.pause()
        # The default order is not named in the header (as typeset text is not), but told
        # as it comes back, as typeset text is: it was told by nothing.
        assert app.workspace.sub_title == "38 papers"
        told = [notice.message for notice in app._notifications]
        assert told.count("Sorted by relevance (file order when not filtering)") == 1
        assert app.query_one(PaperList).papers[0].headline.startswith("LOAM")


async def test_clearing_the_filter_in_another_order_says_so_before_the_papers_are_sorted(
    seed_store,
) -> None:
    """Sorting every paper runs in a thread; the header told the last query's count and
    "searching the first …" until it came (seconds, while a big input loaded)."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("s", "s")  # by headline
        await type_filter(pilot, "difusion tabular")  # some match in full, some "close"
        assert " close) · by headline · showing diffusion for difusion" in app.workspace.sub_title
        app.workspace.filter_input.value = ""
        assert app.workspace.sub_title == "38 papers · by headline"


async def test_a_session_is_restored_and_recorded(seed_store) -> None:
    from tui_reader.core.session import Session

    augmask = next(p for p in seed_store if p.headline.startswith("AugMask"))
    session = Session("diffusion", augmask.id, "headline", "textual-light")
    app = ReaderApp(Opening(seed_store, session=session))
    async with app.run_test(size=(100, 30)) as pilot:
        await work_done(app)
        await pilot.pause()
        assert app.query_one(Input).value == "diffusion"
        assert app.query_one(PaperList).current == augmask
        assert app.workspace.sub_title.endswith("· by headline")
        assert app.theme == "textual-light"
        await pilot.press("j", "s")
        await work_done(app)
        await pilot.pause()
        current = app.query_one(PaperList).current
    assert app.session() == Session("diffusion", current.id, "changed", "textual-light")


async def test_a_session_left_on_a_close_paper_is_restored_on_it(seed_store) -> None:
    """The query came back, the cursor on its first paper: a close one was not chosen while
    papers matched in full."""
    from tui_reader.core.session import Session

    query = "difusion tabular"  # 1 of 38 papers (+4 close)
    app = ReaderApp(Opening(seed_store, session=Session(query)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.workspace.filtering.shown_query == query, "found")
        paper_list = app.query_one(PaperList)
        assert 0 < paper_list.full < len(paper_list.papers)
        close = paper_list.papers[-1]
    app = ReaderApp(Opening(seed_store, session=Session(query, close.id)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.workspace.filtering.shown_query == query, "found")
        assert app.query_one(PaperList).current == close


async def test_related_papers_are_listed_and_a_digit_jumps_to_one(seed_store) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 40)) as pilot:
        await related_shown(pilot, seed_store[0].id)
        paper_id, related = app.query_one(DetailPane).related
        assert paper_id == seed_store[0].id and len(related) == 5
        assert f"Related  (a digit jumps to it)\n 1 {related[0].headline[:40]}" in detail(app)
        await pilot.press("2")
        await work_done(app)
        await pilot.pause()
        assert app.query_one(PaperList).current is related[1]
        await type_filter(pilot, "vericoding")
        await pilot.press("enter")
        await related_shown(pilot, app.query_one(PaperList).current.id)
        target = app.query_one(DetailPane).related[1][0]
        await pilot.press("1")  # not among the papers shown: the filter clears
        await work_done(app)
        await pilot.pause()
        assert app.query_one(Input).value == ""
        assert app.query_one(PaperList).current is target
