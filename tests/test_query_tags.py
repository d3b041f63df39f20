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
    assert [i for i in (A, B, C) if parse_query(query).allows(library, i)] == kept


def test_a_tag_filter_names_its_tag(library: Library) -> None:
    states = parse_query("diffusion !#Done #to").states
    assert [(s.tag, s.negated, s.prefix) for s in states] == [
        ("done", True, False),
        ("to", False, True),
    ]
    assert [s.tag for s in parse_query("is:unread").states] == [""]


def test_a_state_that_is_not_one_is_searched_as_words_and_says_so() -> None:
    states = "is:bookmarked, is:read, is:unread, is:new, has:note"
    parsed = parse_query("is:unred !has:notes is:read !is:Bookmarked is:bogus !is:later graphs ")
    assert parsed.misread == (f"is:bogus is not a state ({states})",)
    assert parsed.mistyped == (
        "is:unred is not a filter: did you mean is:unread?",
        "!has:notes is not a filter: did you mean !has:note?",
        "!is:later is not a filter: did you mean !#later?",  # the tag of papers put off
    )
    assert len(parsed.states) == 2
    assert [t.alternatives[0].text for t in parsed.terms] == [
        "is:unred",
        "has:notes",
        "is:bogus",
        "is:later",
        "graphs",
    ]
    assert parse_query("is:b").misread == (), "more keys can make it one"
    assert parse_query("is:bx").misread == (f"is:bx is not a state ({states})",)


@pytest.mark.parametrize(
    ("query", "meant"),
    [
        ("is:bookm", "is:bookmarked"),
        ("has:", "has:note"),
        ("is: graphs", "is:bookmarked, is:read, is:unread or is:new"),
        ("!is:bookmarks", "!is:bookmarked"),
        ("has:read", "is:read"),
    ],
)
def test_a_filter_typed_in_full_close_to_a_state_says_which_it_may_be(
    query: str, meant: str
) -> None:
    token = query.split()[0]
    parsed = parse_query(query + " ")
    assert parsed.mistyped == (f"{token} is not a filter: did you mean {meant}?",)
    assert parsed.misread == () and parsed.states == ()


@pytest.mark.parametrize(
    ("query", "negated", "hint"),
    [
        ("is:bookm", False, "is:bookm → is:bookmarked"),
        ("graphs has:n", False, "has:n → has:note"),
        ("!is:u", True, "!is:u → !is:unread"),
        ("graphs | Is:R", False, "Is:R → is:read"),
    ],
)
def test_a_state_filter_being_typed_is_the_one_it_can_become_not_words(
    query: str, negated: bool, hint: str
) -> None:
    parsed = parse_query(query)
    states = parsed.states or parsed.either[0].states
    assert [state.negated for state in states] == [negated]
    assert parsed.completing == hint
    assert all(term.alternatives[0].text == "graphs" for term in parsed.terms)
    assert parsed.misread == parsed.mistyped == ()


@pytest.mark.parametrize(
    ("query", "hint"),
    [
        ("graphs is:", "is: → is:bookmarked, is:read, is:unread, is:new"),
        ("graphs !is:", "!is: → !is:bookmarked, !is:read, !is:unread, !is:new"),
        ("graphs | is:", "is: → is:bookmarked, is:read, is:unread, is:new"),
    ],
)
def test_a_state_filter_being_typed_that_could_be_several_adds_nothing(
    query: str, hint: str
) -> None:
    """Neither a filter nor words: the papers are those of the rest of the query, and the
    word "is" is not searched."""
    parsed = parse_query(query)
    assert [term.alternatives[0].text for term in parsed.terms] == ["graphs"]
    assert parsed.states == parsed.metadata == parsed.either == ()
    assert parsed.misread == parsed.mistyped == ()
    assert parsed.completing == hint


def test_a_field_with_no_words_is_searched_as_a_word_and_says_so() -> None:
    assert parse_query("title: graphs ").misread == (
        "title: has no words to find in the title (title:bandit)",
    )
    assert parse_query("title:").misread == (), "the words are still to be typed"
    assert parse_query("title:graphs Author:x ").misread == ()
    assert parse_query("-venue: x ").misread == (
        "-venue: has no words to find in the venue (venue:bandit)",
    )
