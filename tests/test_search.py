from collections.abc import Sequence
from pathlib import Path

import pytest

from tui_reader.core.engine import Ranking
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.highlight import Highlight
from tui_reader.core.paper import Paper
from tui_reader.core.query import parse_query, words
from tui_reader.core.store import PaperStore


class Searched:
    """An index over papers, with the papers its numbers name."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = list(papers)
        self.engine = FlatIndex.of(PaperStore(self.papers))

    def run(self, query: str) -> tuple[list[Paper], Ranking]:
        """The papers ranked for the query (all and close), and the ranking."""
        ranking = self.engine.run(parse_query(query))
        return [self.papers[number] for number in ranking.numbers], ranking

    def search(self, query: str) -> list[Paper]:
        """The papers matching every term of the query, best first."""
        papers, ranking = self.run(query)
        return papers[: ranking.full]


def headlines(index: Searched, query: str) -> list[str]:
    return [paper.headline for paper in index.search(query)]


def test_empty_query_shows_everything_in_order(seed_store: PaperStore) -> None:
    index = Searched(seed_store)
    assert index.search("") == list(seed_store)
    assert index.search("  ,. ") == list(seed_store)


def test_typo_finds_the_diffusion_papers(seed_store: PaperStore) -> None:
    index = Searched(seed_store)
    found = index.search("difusion")
    assert found
    assert all("diffusion" in paper.abstract.lower() for paper in found)
    assert len(found) == sum("diffusion" in p.abstract.lower() for p in seed_store)


def test_every_word_must_match(seed_store: PaperStore) -> None:
    index = Searched(seed_store)
    both = index.search("diffusion tabular")
    assert [p.headline[:7] for p in both] == ["AugMask"]
    assert index.search("diffusion zzzzqqq") == []


def test_word_being_typed_matches_as_a_prefix(seed_store: PaperStore) -> None:
    index = Searched(seed_store)
    assert headlines(index, "vericod")[0].startswith("AlgoVeri")


def test_headline_matches_rank_first(seed_store: PaperStore) -> None:
    index = Searched(seed_store)
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
    index = Searched(papers)
    assert index.search("models kaczmarz")[0].abstract.startswith("Models learn with kaczmarz")


def test_words_are_case_folded() -> None:
    assert words("Straße SAM-style, x2") == ["strasse", "sam", "style", "x2"]


def corpus(*texts: str, titles: tuple[str, ...] = ()) -> list[Paper]:
    titles = titles or ("",) * len(texts)
    return [
        Paper.from_abstract(text, "C", Path("x.jsonl"), title=title)
        for text, title in zip(texts, titles, strict=True)
    ]


def ranked(index: Searched, query: str) -> list[str]:
    return [paper.abstract for paper in index.run(query)[0]]


def test_papers_matching_every_term_rank_above_those_matching_some() -> None:
    papers = corpus(
        "Graph models of proteins.",
        "Graph neural networks for molecules and proteins.",
        "Neural networks for text.",
    )
    index = Searched(papers)
    found, ranking = index.run("graph neural proteins ")
    assert ranking.full == 1
    # "Graph models of proteins" has two of the three words: close, below; the third only one.
    assert [p.abstract for p in found] == [papers[1].abstract, papers[0].abstract]


def test_exact_words_rank_above_typos_and_prefixes() -> None:
    papers = corpus("A study of diffusion.", "A study of difusion.", "A study of diffusions.")
    assert ranked(Searched(papers), "difusion ")[0] == "A study of difusion."
    assert ranked(Searched(papers), "diffusion ")[0] == "A study of diffusion."


def test_title_matches_rank_above_abstract_only_ones() -> None:
    papers = corpus(
        "We mention bandits once.", "Nothing here.", titles=("Other things", "Bandits at scale")
    )
    assert ranked(Searched(papers), "bandits ")[0] == "Nothing here."


def test_capitals_make_a_term_case_sensitive() -> None:
    papers = corpus("SAM minimises sharpness.", "The same method again.", "Samples of SAMURAI.")
    assert ranked(Searched(papers), "SAM ") == ["SAM minimises sharpness."]
    assert ranked(Searched(papers), "SAM") == [
        "SAM minimises sharpness.",
        "Samples of SAMURAI.",
    ]
    assert len(ranked(Searched(papers), "sam ")) >= 1


def test_phrases_exclusions_either_and_fields() -> None:
    papers = corpus(
        "Sparse attention for long context.",
        "Attention is sparse here.",
        "Dense attention with images.",
        titles=("Long sparse", "Short", "Images"),
    )
    index = Searched(papers)
    assert ranked(index, '"sparse attention"') == [papers[0].abstract]
    assert ranked(index, "attention !images ") == [papers[0].abstract, papers[1].abstract]
    assert ranked(index, "attention -sparse ") == [papers[2].abstract]
    assert set(ranked(index, "long | images ")) == {papers[0].abstract, papers[2].abstract}
    assert ranked(index, "title:sparse ") == [papers[0].abstract]
    assert ranked(index, "'atention ") == []
    assert ranked(index, "atention ")  # a typo is forgiven unless the word is quoted


def test_half_typed_words_match_as_prefixes_with_typos() -> None:
    papers = corpus("Reinforcement learning of policies.", "Supervised learning.")
    index = Searched(papers)
    assert ranked(index, "reinfor")[0] == papers[0].abstract
    assert ranked(index, "reinforcment lear")[0] == papers[0].abstract
    assert ranked(index, "difus") == []


def test_terms_standing_close_together_rank_higher() -> None:
    papers = corpus(
        "Policy methods are common. Much later in this text comes the word gradient.",
        "We analyse policy gradient methods.",
    )
    assert ranked(Searched(papers), "policy gradient ")[0] == papers[1].abstract


def test_a_hyphenated_compound_is_found_typed_as_one_word() -> None:
    papers = [
        Paper.from_abstract("Co-training of generative robot policies.", "C", Path("x.txt")),
        Paper.from_abstract("Training with a co author.", "C", Path("x.txt")),
    ]
    index = Searched(papers)
    assert index.search("cotraining") == [papers[0]]
    assert index.search("co-training")[0] == papers[0]
    assert highlighted(index.run("cotraining")[1].matched, papers[0].abstract) == ["Co-training"]


@pytest.mark.parametrize(
    "query", ["diffusion", "diffusion models", "difusion tabular", "gan | diffusion agents", "rl"]
)
def test_repeating_a_query_changes_nothing(seed_store: PaperStore, query: str) -> None:
    index = Searched(seed_store)
    once = index.engine.run(parse_query(query + " "))
    long_repeat = " ".join([query] * (1280 // (len(query) + 1)))
    for repeated in (f"{query} {query}", f"{query} {query} ", long_repeat):
        ranking = index.engine.run(parse_query(repeated))
        assert list(ranking.numbers) == list(once.numbers), repeated
        assert ranking.full == once.full and list(ranking.scores) == list(once.scores)


def highlighted(matched: frozenset[str] | set[str], text: str) -> list[str]:
    highlight = Highlight.of(matched)
    assert highlight is not None
    return [text[start:end] for start, end in highlight.spans(text)]


def test_every_matched_word_is_highlighted_however_many() -> None:
    # Among 100,000 papers "diffusion" completes to thousands of words; a typo's words and
    # another word's shared a limit of 60: "difusion modl" highlighted "Model", not "Diffusion".
    matched = {"diffusion", "diffusions"} | {f"diffusion-variant{n:03}" for n in range(500)}
    letters = "abcdefghijklmnopqrstuvwxyz"
    matched |= {f"mo{first}{second}" for first in letters for second in letters}  # 676, short
    text = "Cold Diffusion: a diffusion-variant007 of MODE, and a model"
    assert highlighted(matched, text) == ["Diffusion", "diffusion-variant007", "MODE"]
    assert highlighted({"SAM", "schrodinger"}, "Sam and SAM, Schrödinger's cat") == [
        "Sam",
        "SAM",
        "Schrödinger",
    ]


def test_a_word_with_its_accent_written_apart_is_highlighted_whole() -> None:
    """Decomposed (NFD) text: the index folds "Schro\u0308dinger" to schrodinger and finds
    it; the highlight cut the word at the accent and found nothing."""
    decomposed = "Schro\u0308dinger bridges, cafe\u0301-style"
    assert highlighted({"schrodinger", "cafe-style"}, decomposed) == [
        "Schro\u0308dinger",
        "cafe\u0301-style",
    ]


def test_a_soft_hyphen_or_zero_width_space_inside_a_word_does_not_split_it() -> None:
    """Invisible on screen, they cut "graph" into "gra" and "ph" for the search."""
    texts = ("Message passing on gra\u200bph neu\u00adral networks.", "Bandits with regret.")
    searched = Searched([Paper.from_abstract(text, "C", Path("x.txt")) for text in texts])
    found, ranking = searched.run('graph neural "graph neural"')
    assert [paper.abstract for paper in found[: ranking.full]] == [texts[0]]
    assert highlighted(ranking.matched, texts[0]) == ["gra\u200bph", "neu\u00adral"]


def test_a_word_written_once_as_a_compound_is_highlighted_either_way() -> None:
    papers = [
        Paper.from_abstract("An optimal pol-icy, hyphenated by a PDF.", "C", Path("x.txt")),
        Paper.from_abstract("The optimal policy of the agent.", "C", Path("x.txt")),
    ]
    matched = Searched(papers).run("policy")[1].matched
    assert highlighted(matched, papers[0].abstract) == ["pol-icy"]
    assert highlighted(matched, papers[1].abstract) == ["policy"]
    assert highlighted({"training"}, "Co-training and training") == ["training", "training"]
    assert highlighted({"co-training", "based"}, "co-training-based, co-trained") == [
        "co-training",
        "based",
    ]


def test_a_long_hyphenated_run_is_highlighted_part_by_part_at_once() -> None:
    # Every run of parts was tried: a chain of 3,000 parts took 12 s, on the screen's thread.
    chain = "-".join(["ab"] * 3000)
    found = highlighted({"ab", "co-training"}, f"{chain} co-training-based")
    assert found == ["ab"] * 3000 + ["co-training"]


def test_a_word_typed_with_capitals_ranks_above_the_words_it_begins_even_in_a_title() -> None:
    """A word it begins in a title counted double, a beginning three quarters: SAMURAI in a
    title ranked above SAM in an abstract."""
    papers = corpus(
        "Robots with a samurai's patience.",
        "Sampling with care.",
        "We sharpen SAM for robustness.",
        "A paper without a title, on SAMURAI.",
        "On sharpness.",
        titles=("SAMURAI: patience", "Sampling in SAMPLING", "Robustness", "", "SAM sharpened"),
    )
    assert ranked(Searched(papers), "SAM")[:2] == [papers[4].abstract, papers[2].abstract]


def test_a_word_typed_in_lower_case_ranks_below_its_plural_in_a_title() -> None:
    """Typed in lower case, a word it begins in a title is raised as any word there: a title
    of Bandits above an abstract holding bandit."""
    papers = corpus(
        "We spend a budget with care.",
        "A bandit algorithm explores.",
        "On sharpness.",
        titles=("Bandits with knapsacks", "Exploration", "Sharpness"),
    )
    assert ranked(Searched(papers), "bandit") == [papers[0].abstract, papers[1].abstract]
