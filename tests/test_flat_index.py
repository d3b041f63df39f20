"""The flat engine (core.flat): what it finds beyond the old one, and its arrays on disk."""

from pathlib import Path

import pytest

from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.paper import Paper
from tui_reader.core.query import parse_query
from tui_reader.core.store import PaperStore


def found(index: FlatIndex, papers: list[Paper], query: str) -> list[str]:
    """Headlines of the papers matching every term, best first."""
    ranking = index.run(parse_query(query))
    return [papers[number].headline for number in ranking.numbers[: ranking.full]]


def corpus(*texts: str) -> list[Paper]:
    return [Paper.from_abstract(text, "C", Path("x.jsonl")) for text in texts]


@pytest.mark.parametrize(
    ("query", "word"),
    [
        ("homoph graph", "homophily"),
        ("satisf bandit", "satisficing"),
        ("homoph graph domain", "homophily"),
        ("satisf bandt regre", "satisficing"),
    ],
)
def test_every_word_matches_as_a_prefix_with_typos(
    seed_store: PaperStore, query: str, word: str
) -> None:
    papers = list(seed_store)
    headlines = found(FlatIndex.of(papers), papers, query)
    assert headlines and word in headlines[0].lower(), headlines[:3]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("alpha divergence", 0),
        ("Schrodinger bridge", 1),
        ("schrödinger bridge", 1),
        ("O(1/T) rate", 2),
        ('"O(1/T) rate"', 2),
        ("naive bayes", 3),
    ],
)
def test_search_reads_typeset_math_and_accents(query: str, expected: int) -> None:
    papers = corpus(
        r"Bounds for the $\alpha$-divergence of two measures.",
        r"A Schr\"odinger bridge between two distributions.",
        r"SGD converges at the $\mathcal{O}(1/T)$ rate under convexity.",
        r"Na\"{\i}ve Bayes classifiers revisited.",
        "Unrelated text about graphs and other things.",
    )
    index = FlatIndex.of(papers)
    ranking = index.run(parse_query(query + " "))
    assert ranking.full >= 1 and int(ranking.numbers[0]) == expected


def test_a_word_typed_whole_still_ranks_its_exact_papers_first() -> None:
    papers = corpus("Graphene sheets conduct.", "A graph of papers.", "Graphs everywhere.")
    index = FlatIndex.of(papers)
    ranking = index.run(parse_query("graph "))
    assert int(ranking.numbers[0]) == 1 and ranking.full == 3


def test_hostile_text_is_only_text() -> None:
    papers = corpus("[/b] [CLS] \x1b]52;c;aGk=\x07 tokens\x00inside", "Plain words.")
    index = FlatIndex.of(papers)
    assert found(index, papers, "cls tokens") == [papers[0].headline]
    assert found(index, papers, "plain") == [papers[1].headline]
