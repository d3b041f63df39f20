"""Related papers (core.flat.related): which papers are most like one, and why."""

from pathlib import Path

import pytest

from tui_reader.core.flat import index as index_module
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.flat.related import _short_forms
from tui_reader.core.paper import Paper
from tui_reader.core.store import PaperStore

# Papers of other topics, so that words have rarities to tell apart.
OTHERS = [
    ("Hierarchical clustering of documents", "Hierarchical clustering of news documents."),
    ("Hierarchical clustering for images", "Hierarchical clustering of image collections."),
    ("Hierarchical clustering at scale", "Hierarchical clustering of a billion points."),
    ("Hierarchical models of text", "Hierarchical models of text and speech."),
    ("Clustering graphs", "Clustering graphs by their cuts."),
    ("Regret of bandits", "Regret bounds for bandits with many arms."),
    ("Neural operators", "Neural operators on irregular geometry."),
    ("Robot grasping", "Robots learn to grasp objects from video."),
]


def related_titles(*papers: tuple[str, str], count: int = 2) -> list[str]:
    """The titles of the papers most like the first of these (and OTHERS), best first."""
    listed = [
        Paper.from_abstract(abstract, "C", Path("x.jsonl"), title=title)
        for title, abstract in [*papers, *OTHERS]
    ]
    index = FlatIndex.of(PaperStore(listed))
    return [listed[number].title for number in index.related(0, count).tolist()]


def test_a_rare_word_shared_outweighs_several_common_ones() -> None:
    # "coalescent" is in two papers; "hierarchical", "clustering" and "priors" in many. Each
    # word shared weighs its rarity in both papers: the rare one counts the more for it.
    assert related_titles(
        ("Coalescent priors", "Kingman's coalescent as a prior for hierarchical clustering."),
        ("Genealogies", "A coalescent of genealogies."),
        ("Priors for clustering", "Hierarchical clustering with priors, hierarchical priors."),
        ("Priors of text", "Priors for hierarchical clustering of text."),
        ("More priors", "Priors on priors for clustering."),
        count=1,
    ) == ["Genealogies"]


def test_a_word_repeated_counts_once() -> None:
    # The coined name said five times does not outweigh two words shared.
    assert related_titles(
        ("Zorblax", "Zorblax: zorblax trains zorblax with sparse kernels, zorblax and zorblax."),
        ("A name", "About a zorblax."),
        ("Sparse kernels", "Sparse kernels for regression."),
        ("Dense networks", "Dense networks for regression and kernels."),
        count=1,
    ) == ["Sparse kernels"]


def test_common_english_relates_nothing() -> None:
    assert related_titles(
        ("Spectral sparsifiers", "Meanwhile, although spectral sparsifiers hold, whereas"),
        ("Whatever", "Meanwhile, although it rains, whereas it snows."),
        ("Sparsifiers of graphs", "Spectral sparsifiers of graphs."),
    ) == ["Sparsifiers of graphs"]


def test_two_words_that_follow_each_other_count_more_than_apart() -> None:
    # The same words, but "drug design" is said as the paper says it in one of them only.
    assert related_titles(
        ("Diffusion", "Diffusion models for drug design in protein pockets."),
        ("Apart", "Design for the drug, in protein pockets."),
        ("Together", "Drug design, in protein pockets."),
    ) == ["Together", "Apart"]


def test_a_word_of_both_title_and_abstract_counts_twice() -> None:
    # The two have as many words, and share the same with the paper; one of them in both its
    # title and abstract.
    assert related_titles(
        ("Homophily of labels", "Homophily of node labels."),
        ("Overview", "An overview of homophily and node labels."),
        ("Homophily", "A survey of homophily and node labels."),
    ) == ["Homophily", "Overview"]


SEGA = ("SEGA for gradients", "SEGA (sketched gradient method) lowers the variance of sketches.")
SKETCHES = ("Sketches", "The variance of sketches, lowered.")


def test_a_short_form_both_define_otherwise_relates_nothing() -> None:
    # Both write "SEGA", each for something else: what else they share decides.
    assert related_titles(
        SEGA, ("SEGA for images", "Semantic guidance (SEGA) steers images."), SKETCHES, count=1
    ) == ["Sketches"]


@pytest.mark.parametrize(
    "defined", ["Sketched gradients (SEGA)", "Sketched gradient explained (SEGA)"]
)
def test_a_short_form_both_define_alike_relates(defined: str) -> None:
    # The same words begin alike, the plural aside; or half of the longer's.
    assert related_titles(
        SEGA, ("SEGA for images", f"{defined} for images."), SKETCHES, count=1
    ) == ["SEGA for images"]


GD = {"grad", "desc"}


@pytest.mark.parametrize(
    ("text", "defined"),
    [
        ("deep belief networks (dbns) can", {"dbn": {"deep", "beli", "netw"}}),
        ("a method---sega (sketched gradient method)---which", {"sega": {"sket", "grad"}}),
        ("structure-based drug design (sbdd) aims", {"sbdd": {"stru", "drug", "desi"}}),
        ("methods (e.g. sgd) and models (see below)", {}),
        ("gradient descent (gd), stochastic gd (sgd)", {"gd": GD, "sgd": {"stoc", *GD}}),
        ("conformal prediction (cp). cp (cannot handle noise)", {"cp": {"conf", "pred"}}),
        ("a title\nwe develop name (stm)", {}),
        ("brackets (--) of no words, () nor ( )", {}),
        ("all of it (oi) is common english", {}),
        ("h2o (heavy hitter oracle) keeps", {}),
    ],
)
def test_short_forms_are_found_with_their_long_forms(
    text: str, defined: dict[str, set[str]]
) -> None:
    assert _short_forms(text) == defined


@pytest.mark.parametrize("kept", [5, 100_000])
def test_the_rarities_kept_from_paper_to_paper_change_nothing(
    monkeypatch: pytest.MonkeyPatch, kept: int
) -> None:
    monkeypatch.setattr(index_module, "RARITIES_KEPT", kept)
    papers = PaperStore(
        [
            Paper.from_abstract(abstract, "C", Path("x.jsonl"), title=title)
            for title, abstract in OTHERS
        ]
    )
    index = FlatIndex.of(papers)
    for number in range(len(papers)):
        alone = FlatIndex.of(papers).related(number, 3).tolist()
        assert index.related(number, 3).tolist() == alone
