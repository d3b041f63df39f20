"""A #tag being typed (the query's last word, no space after it) matches the tags it starts."""

from pathlib import Path

import pytest

from tui_reader.core.library import Library
from tui_reader.core.query import parse_query

A, B, C = "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"


@pytest.fixture
def library(tmp_path: Path) -> Library:
    library, _ = Library.open(tmp_path / "library.json")
    library.change_tags([A], add=["to-read"])
    library.change_tags([B], add=["todo", "theory"])
    return library


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("#to", [A, B]),  # being typed: #to-read and #todo
        ("#to-r", [A]),
        ("#to ", []),  # a space after it: the whole tag, which no paper has
        ("#to-read #th", []),  # only the last word is being typed: #to-read is whole
        ("#th #to-read", []),
        ("#todo #th", [B]),
        ("!#to", [A, B, C]),  # not a prefix when negated, as with words: no paper has #to
    ],
)
def test_the_tag_being_typed_is_a_prefix(library: Library, query: str, kept: list[str]) -> None:
    assert [i for i in (A, B, C) if parse_query(query).keeps(library, i)] == kept


def test_a_tag_filter_names_its_tag(library: Library) -> None:
    states = parse_query("diffusion !#Done #to").states
    assert [(s.tag, s.negated, s.prefix) for s in states] == [
        ("done", True, False),
        ("to", False, True),
    ]
    assert [s.tag for s in parse_query("is:unread").states] == [""]


def test_a_state_that_is_not_one_is_searched_as_words_and_says_so() -> None:
    states = "is:bookmarked, is:read, is:unread, has:note"
    assert parse_query("is:unred !has:notes is:read !is:Bookmarked graphs ").misread == (
        f"is:unred is not a state ({states})",
        f"!has:notes is not a state ({states})",
    )
    assert parse_query("is:b").misread == (), "more keys can make it one"
    assert parse_query("is:bx").misread == (f"is:bx is not a state ({states})",)


def test_a_field_with_no_words_is_searched_as_a_word_and_says_so() -> None:
    assert parse_query("title: graphs ").misread == (
        "title: has no words to find in the title (title:bandit)",
    )
    assert parse_query("title:").misread == (), "the words are still to be typed"
    assert parse_query("title:graphs Author:x ").misread == ()
    assert parse_query("-venue: x ").misread == (
        "-venue: has no words to find in the venue (venue:bandit)",
    )
