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
    assert parsed.terms == ()
    assert [i for i in (A, B, C) if parsed.allows(library, i)] == kept


def test_state_filters_combine_with_free_text(library: Library) -> None:
    parsed = parse_query("diffusion #to-read models is:unread")
    assert [t.alternatives[0].text for t in parsed.terms] == ["diffusion", "models"]
    assert len(parsed.states) == 2


@pytest.mark.parametrize("query", ["is:nonsense", "# tag", "C#", "has: "])
def test_what_is_not_a_state_filter_stays_text(query: str) -> None:
    parsed = parse_query(query)
    assert parsed.states == ()
    assert parsed.terms


def describe(query: str) -> list[tuple]:
    """Each term as (negated, [(text, words, exact, prefix, case, field) per alternative])."""
    return [
        (
            term.negated,
            [
                (a.text, a.words, a.exact, a.prefix, a.case_sensitive, a.field)
                for a in term.alternatives
            ],
        )
        for term in parse_query(query).terms
    ]


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("difusion", [(False, [("difusion", ("difusion",), False, True, False, None)])]),
        ("difusion ", [(False, [("difusion", ("difusion",), False, False, False, None)])]),
        (
            '"exact phrase" vericod',
            [
                (False, [("exact phrase", ("exact", "phrase"), True, False, False, None)]),
                (False, [("vericod", ("vericod",), False, True, False, None)]),
            ],
        ),
        (
            "'word x",
            [
                (False, [("word", ("word",), True, False, False, None)]),
                (False, [("x", ("x",), False, True, False, None)]),
            ],
        ),
        (
            "!bad -worse ok",
            [
                (True, [("bad", ("bad",), False, False, False, None)]),
                (True, [("worse", ("worse",), False, False, False, None)]),
                (False, [("ok", ("ok",), False, True, False, None)]),
            ],
        ),
        (
            "gan | vae ",
            [
                (
                    False,
                    [
                        ("gan", ("gan",), False, False, False, None),
                        ("vae", ("vae",), False, False, False, None),
                    ],
                )
            ],
        ),
        ("SAM ", [(False, [("SAM", ("sam",), False, False, True, None)])]),
        (
            "title:bandit author:Smith venue:icml ",
            [
                (False, [("bandit", ("bandit",), False, False, False, "title")]),
                (False, [("Smith", ("smith",), False, False, True, "author")]),
                (False, [("icml", ("icml",), False, False, False, "venue")]),
            ],
        ),
        (
            "co-training ",
            [(False, [("co-training", ("co", "training"), False, False, False, None)])],
        ),
        ("| a", [(False, [("a", ("a",), False, True, False, None)])]),
        ("!!! ,,", []),
    ],
)
def test_query_language(query: str, terms: list[tuple]) -> None:
    assert describe(query) == terms


@pytest.mark.parametrize(
    ("repeated", "once"),
    [
        ("diffusion diffusion", "diffusion "),
        ("diffusion diffusion ", "diffusion "),
        ("diffusion models diffusion models", "diffusion models "),
        ("diffusion models diffusion mod", "diffusion models mod"),
        ("gan | vae gan | vae", "gan | vae "),
        ('"exact phrase" "exact phrase', '"exact phrase" '),
        ("-bad ok -bad", "-bad ok "),
        ("title:bandit title:bandit", "title:bandit "),
    ],
)
def test_a_term_typed_again_is_the_same_term(repeated: str, once: str) -> None:
    assert describe(repeated) == describe(once)


def test_repeats_are_found_after_terms_are_joined() -> None:
    # "x | y" is a term of its own, not a repeat of "x".
    assert len(describe("gan gan | vae ")) == 2
    assert len(describe("gan !gan ")) == 2  # both kept: nothing matches, as asked


@pytest.mark.parametrize(
    ("typed", "phrase"),
    [
        ('"sparse', False),
        ('"sparse ', False),  # a word typed whole on the way to a phrase: not read in the text
        ('" sparse  ', False),
        ('"co-training', True),
        ('"sparse a', True),
        ('"SAM"', False),
    ],
)
def test_what_is_a_phrase_read_in_the_text(typed: str, phrase: bool) -> None:
    (term,) = parse_query(typed).terms
    assert term.alternatives[0].is_phrase is phrase


def describe_either(query: str) -> list[tuple]:
    """Each either-or with a filter as (its words, its states as typed, its metadata filters)."""
    return [
        (
            [a.text for a in either.term.alternatives] if either.term else None,
            [
                ("!" if s.negated else "") + (f"#{s.tag}" if s.tag else "state")
                for s in either.states
            ],
            [("!" if m.negated else "") + f"{m.scope}:{m.value}" for m in either.metadata],
        )
        for either in parse_query(query).either
    ]


@pytest.mark.parametrize(
    ("query", "either", "terms", "filters"),
    [
        ("#later | #to-read ", [(None, ["#later", "#to-read"], [])], 0, 0),
        ("#later|#to-read ", [(None, ["#later", "#to-read"], [])], 0, 0),
        ("is:bookmarked | has:note ", [(None, ["state", "state"], [])], 0, 0),
        ("diffusion | #later ", [(["diffusion"], ["#later"], [])], 0, 0),
        ("a | b | !#done ", [(["a", "b"], ["!#done"], [])], 0, 0),
        ("year:2024 | cat:cs.LG ", [(None, [], ["year:2024", "cat:cs.LG"])], 0, 0),
        ("bandit | !year:2025 #x ", [(["bandit"], [], ["!year:2025"])], 0, 1),
        # Before, a filter between them joined the words around it: "gan | vae" and #later.
        ("gan | #later vae ", [(["gan"], ["#later"], [])], 1, 0),
        # Next to a negated word, | joins nothing.
        ("gan | !vae ", [], 2, 0),
        ("!vae | #later ", [], 1, 1),
    ],
)
def test_either_or_joins_words_and_filters(
    query: str, either: list[tuple], terms: int, filters: int
) -> None:
    parsed = parse_query(query)
    assert describe_either(query) == either
    assert (len(parsed.terms), len(parsed.states) + len(parsed.metadata)) == (terms, filters)
