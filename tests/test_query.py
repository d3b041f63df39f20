from pathlib import Path

import pytest

from tui_reader.core.library import Library
from tui_reader.core.query import parse_query

A, B, C = "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"


@pytest.fixture
def library(tmp_path: Path) -> Library:
    library, _ = Library.open(tmp_path / "library.json")
    library.change_tags([A, B], add=["to-read"])
    library.change_tags([B], add=["done"])
    library.set_bookmarked([C], True)
    library.set_read([B, C], True)
    library.set_note(A, "why")
    return library


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("#to-read", [A, B]),
        ("#To-Read", [A, B]),
        ("#to-read !#done", [A]),
        ("!#to-read", [C]),
        ("is:bookmarked", [C]),
        ("!is:bookmarked", [A, B]),
        ("is:unread", [A]),
        ("is:read", [B, C]),
        ("has:note", [A]),
        ("is:read !has:note", [B, C]),
        ("#nonexistent", []),
    ],
)
def test_state_filters(library: Library, query: str, kept: list[str]) -> None:
    parsed = parse_query(query)
    assert parsed.text == ""
    assert [i for i in (A, B, C) if parsed.keeps(library, i)] == kept


def test_state_filters_combine_with_free_text(library: Library) -> None:
    parsed = parse_query("diffusion #to-read models is:unread")
    assert parsed.text == "diffusion models"
    assert len(parsed.states) == 2


@pytest.mark.parametrize("query", ["is:nonsense", "#", "# tag", "C#", "has:"])
def test_what_is_not_a_state_filter_stays_text(query: str) -> None:
    parsed = parse_query(query)
    assert parsed.states == ()
    assert parsed.text == " ".join(query.split())
