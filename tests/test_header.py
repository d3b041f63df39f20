"""The header's text, a pure function of what the workspace knows."""

from dataclasses import replace

from tui_reader.ui.header import HeaderState, header_text

READY = HeaderState(
    papers=38,
    query="",
    shown_query="",
    shown=38,
    close=0,
    among=None,
    indexed=38,
    status="ready",
    unindexed=False,
)


def test_every_paper_then_a_query_counted_with_its_close_ones() -> None:
    assert header_text(READY) == "38 papers"
    asked = replace(READY, query="difusion t", shown_query="difusion t", shown=1, close=4)
    assert header_text(asked) == "1 of 38 papers (+4 close)"
    shown = replace(asked, showing="showing diffusion for difusion")
    assert header_text(shown) == "1 of 38 papers (+4 close) · showing diffusion for difusion"


def test_a_search_still_running_says_so_and_keeps_no_stale_word() -> None:
    running = replace(READY, query="bandit", shown_query="", showing="showing x for y")
    assert header_text(running) == "searching 38 papers…"


def test_loading_and_indexing_say_what_is_searched() -> None:
    loading = replace(READY, status="loading", indexed=None, papers=5000)
    assert header_text(loading) == "loading… 5,000 papers"
    partly = replace(loading, query="x", shown_query="x", shown=3, among=2000, indexed=2000)
    assert (
        header_text(partly) == "3 of 5,000 papers · searching the first 2,000 while the rest loads"
    )
    indexing = replace(READY, status="indexing", indexed=None, query="x")
    assert header_text(indexing) == "indexing 38 papers…"


def test_a_filter_being_typed_the_order_marks_and_saving_follow_the_count() -> None:
    state = replace(
        READY,
        query="is:bookm",
        shown_query="is:bookm",
        shown=1,
        sort="headline",
        marked=2,
        saving=True,
        raw=True,
    )
    assert header_text(state) == (
        "1 of 38 papers · by headline · is:bookm → is:bookmarked · 2 marked · saving… · raw text"
    )
    assert header_text(replace(state, save_failing=True)).count("not saved") == 1
