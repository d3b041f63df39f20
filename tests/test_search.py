from pathlib import Path

from tui_reader.core.paper import Paper
from tui_reader.core.query import words
from tui_reader.core.search import SearchIndex
from tui_reader.core.store import PaperStore


def headlines(index: SearchIndex, query: str) -> list[str]:
    return [paper.headline for paper in index.search(query)]


def test_empty_query_shows_everything_in_order(seed_store: PaperStore) -> None:
    index = SearchIndex(seed_store)
    assert index.search("") == list(seed_store)
    assert index.search("  ,. ") == list(seed_store)


def test_typo_finds_the_diffusion_papers(seed_store: PaperStore) -> None:
    index = SearchIndex(seed_store)
    found = index.search("difusion")
    assert found
    assert all("diffusion" in paper.abstract.lower() for paper in found)
    assert len(found) == sum("diffusion" in p.abstract.lower() for p in seed_store)


def test_every_word_must_match(seed_store: PaperStore) -> None:
    index = SearchIndex(seed_store)
    both = index.search("diffusion tabular")
    assert [p.headline[:7] for p in both] == ["AugMask"]
    assert index.search("diffusion zzzzqqq") == []


def test_word_being_typed_matches_as_a_prefix(seed_store: PaperStore) -> None:
    index = SearchIndex(seed_store)
    assert headlines(index, "vericod")[0].startswith("AlgoVeri")


def test_headline_matches_rank_first(seed_store: PaperStore) -> None:
    index = SearchIndex(seed_store)
    assert headlines(index, "sparse attention")[0].startswith("DHSA")
    assert headlines(index, "muon")[0].startswith("NorMuon")


def test_rare_words_outweigh_common_ones() -> None:
    papers = [
        Paper.from_abstract(text, "C", Path("x.txt"))
        for text in (
            "Models models models learn.",
            "Models learn with kaczmarz iterations.",
            "Models learn quickly.",
        )
    ]
    index = SearchIndex(papers)
    assert index.search("models kaczmarz")[0].abstract.startswith("Models learn with kaczmarz")


def test_words_are_case_folded() -> None:
    assert words("Straße SAM-style, x2") == ["strasse", "sam", "style", "x2"]
