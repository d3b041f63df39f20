import pytest

from tui_reader.core.headline import (
    HEADLINE_MAX,
    headline_for,
    headline_source,
    long_form,
    sentences,
    shorten,
)
from tui_reader.core.store import PaperStore

# Every seed abstract's headline, reviewed by hand: a named contribution with its gist where the
# abstract names one, else the first sentence (its main clause when that is long enough).
EXPECTED = [
    "LOAM: LLM-based design of Observation and Action Models",
    "Co-training is widely used for training generative robot policies",
    "AugMask: a plug-and-play training framework that adapts missing-unaware backbones to incomplete…",
    "MLP neurons are as sparse a feature basis as SAEs",
    "Semantic isotropy: the degree of uniformity across normalized text embeddings on the unit sphere",
    "Understanding an agent's goals helps explain and predict its behaviour, yet there is no…",
    "EEB: Erasure Evasion Backdoor",
    "uncertain-UCB: a new algorithm which achieves satisficing pseudo-regret",
    "Neural operators perform well on structured domains, yet their behaviour on irregular geometries…",
    "Sharpness-Aware Minimization has established itself as a powerful and widely adopted optimizer…",
    "PULSE: a framework for more efficient human-centric evaluation of agent designs",
    "Motivated by recent work on benign overfitting in overparameterized machine learning, we study…",
    "Policy-gradient methods are widely used in reinforcement learning, yet training often becomes…",
    "PSAHS: Progressive Structure Adjustment for Homophily Shift",
    "APE: Automated Proof Engineering",
    "Compositional generalization is essential for reaching unseen goals under novel contextual…",
    "Empirical GPs: a principled framework for constructing flexible, data-driven GP priors…",
    "RL4RLA: a general RL framework that automates the discovery of interpretable, symbolic RLA…",
    "Dspic: an efficient shared-policy algorithm grounded in the maximum entropy framework",
    "DSF: Definition-Specific Familiarity",
    "We formulate the problem of exact unlearning in reinforcement learning",
    "DHSA: Dynamic Hierarchical Sparse Attention",
    "We study post-training linear autoregressive models with outcome and process rewards",
    "WestWorld: a knoWledge-Encoded Scalable Trajectory World model for diverse robotic systems",
    "We study the revenue of approximate correlated equilibrium in discrete first price auctions",
    "Scaling laws have played a major role in modern AI, providing predictive power over how model…",
    "AlgoVeri: a benchmark that evaluates vericoding of 77 classical algorithms in each of Dafny…",
    "MSIS: Multi-State Importance Sampling",
    "ADEPT: Agentic Decoding of Emotion via Probing Tools",
    "MAP: Measuring Agents in Production",
    "BLL-Loss: Bounded Log-Likelihood Loss",
    "Understanding potential selection in data is crucial for causal discovery",
    "Data attribution estimates how a trained model would change if a subset of training points were…",
    "mHC: Manifold-Constrained Hyper-Connections",
    "NorMuon: Neuron-wise Normalized Muon",
    "DeCoDe: a novel diffusion framework that decouples the diffusion processes of the binding position…",
    "Post-hoc controllability of fair machine learning models, the ability to control the trade-off…",
    "LaST₀: a framework that enables efficient reasoning before acting through a Latent Spatio-Temporal…",
]


def test_every_seed_headline(seed_store: PaperStore) -> None:
    assert [paper.headline for paper in seed_store] == EXPECTED


def test_headlines_fit_and_carry_no_markup(seed_store: PaperStore) -> None:
    for paper in seed_store:
        assert 10 <= len(paper.headline) <= HEADLINE_MAX
        assert "*" not in paper.headline and "\\emph" not in paper.headline


@pytest.mark.parametrize(
    ("abstract", "headline"),
    [
        ("We propose FooNet, a network for bars. It works.", "FooNet: a network for bars"),
        (
            "We introduce Graph Attention Routing (GAR), which routes.",
            "GAR: Graph Attention Routing",
        ),
        ("Cats are great. Dogs too.", "Cats are great"),
        ("One sentence without a full stop", "One sentence without a full stop"),
        ("", ""),
        ("[/b] [CLS] tokens break [$accent] markup.", "[/b] [CLS] tokens break [$accent] markup"),
        # An aside goes; parentheses inside a word or a URL stay.
        (
            "Large models (LLMs) read the page https://example.org/a_(b) and its model(s) well.",
            "Large models read the page https://example.org/a_(b) and its model(s) well",
        ),
        ("(In short) cats are great.", "Cats are great"),
    ],
)
def test_headline_forms(abstract: str, headline: str) -> None:
    assert headline_for(abstract) == headline


@pytest.mark.parametrize(
    ("abstract", "source"),
    [
        (
            "Cats purr. We propose **FooNet**, a network for bars. It works.",
            "We propose FooNet, a network for bars.",
        ),
        (
            "Background first. Then **a bold claim of four words** here. More.",
            "Then a bold claim of four words here.",
        ),
        (
            "Cats (felines) are great, which is known. Dogs too.",
            "Cats (felines) are great, which is known.",
        ),
        ("", ""),
    ],
)
def test_headline_source_is_the_whole_sentence(abstract: str, source: str) -> None:
    assert headline_source(abstract) == source


def test_sentences_do_not_split_at_abbreviations_or_decimals() -> None:
    text = "Rates rose 34.8% (e.g. in Smith et al. 2020). Next one. Last"
    assert sentences(text) == ["Rates rose 34.8% (e.g. in Smith et al. 2020).", "Next one.", "Last"]


def test_long_form_of_an_abbreviation() -> None:
    assert long_form("mHC", "we propose Manifold-Constrained Hyper-Connections") == (
        "Manifold-Constrained Hyper-Connections"
    )
    assert long_form("XYZ", "nothing matches here") is None


def test_shorten_cuts_at_a_word_and_drops_dangling_words() -> None:
    assert shorten("alpha beta of gamma", 15) == "alpha beta…"
    assert shorten("short", 15) == "short"
    assert shorten("x" * 30, 10) == "x" * 9 + "…"
