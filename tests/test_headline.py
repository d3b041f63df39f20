import pytest

from tui_reader.core.headline import (
    HEADLINE_MAX,
    headline_for,
    headline_source,
    long_form,
    plain,
    sentences,
    shorten,
)
from tui_reader.core.store import PaperStore

# Every seed abstract's headline, read one by one: the name the abstract gives its contribution
# with its gist, else what the authors do (without "we propose", "we show that"), else a claim
# in bold. None is the opening background: 14 of these were, or began "We study", before.
EXPECTED = [
    "LOAM: LLM-based design of Observation and Action Models",
    "The mechanism of sim-and-real co-training through theoretical analysis and empirical study",
    "AugMask: a plug-and-play training framework that adapts missing-unaware backbones to incomplete…",
    "MLP neurons are as sparse a feature basis as SAEs",
    "Semantic isotropy: the degree of uniformity across normalized text embeddings on the unit sphere",
    "A framework for evaluating goal-directedness that integrates behavioural evaluation…",
    "EEB: Erasure Evasion Backdoor",
    "uncertain-UCB: a new algorithm which achieves satisficing pseudo-regret",
    "The Geometric Forgetting Hypothesis",
    "Polyak schedulers tailored to SAM-style updates",
    "PULSE: a framework for more efficient human-centric evaluation of agent designs",
    "The generalization behavior of functions in Sobolev spaces",
    "The NSR landscape is highly non-uniform and typically increases as the policy approaches an optimum",
    "PSAHS: Progressive Structure Adjustment for Homophily Shift",
    "APE: Automated Proof Engineering",
    "Analogy transduction as synthesizing new plans by composing task-endogenous analogies with given…",
    "Empirical GPs: a principled framework for constructing flexible, data-driven GP priors…",
    "RL4RLA: a general RL framework that automates the discovery of interpretable, symbolic RLA…",
    "Dspic: an efficient shared-policy algorithm grounded in the maximum entropy framework",
    "DSF: Definition-Specific Familiarity",
    "Exact unlearning in reinforcement learning",
    "DHSA: Dynamic Hierarchical Sparse Attention",
    "Post-training linear autoregressive models with outcome and process rewards",
    "WestWorld: a knoWledge-Encoded Scalable Trajectory World model for diverse robotic systems",
    "The revenue of approximate correlated equilibrium in discrete first price auctions",
    "Scaling laws for transformers trained to predict random walks on graphs with tunable complexity",
    "AlgoVeri: a benchmark that evaluates vericoding of 77 classical algorithms in each of Dafny…",
    "MSIS: Multi-State Importance Sampling",
    "ADEPT: Agentic Decoding of Emotion via Probing Tools",
    "MAP: Measuring Agents in Production",
    "BLL-Loss: Bounded Log-Likelihood Loss",
    "A new model that specifically characterizes evolutionary selection",
    "A new analysis of IF and NS for convex ERM that replaces global assumptions with local conditions",
    "mHC: Manifold-Constrained Hyper-Connections",
    "NorMuon: Neuron-wise Normalized Muon",
    "DeCoDe: a novel diffusion framework that decouples the diffusion processes of the binding position…",
    "A novel fair classification algorithm that learns effective feature representations to improve…",
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
    ("abstract", "headline"),
    [
        # Background loses to the sentence that says what the authors do, without its lead-in.
        (
            "Cats are loved by many. We propose a framework for measuring purrs in the wild.",
            "A framework for measuring purrs in the wild",
        ),
        (
            "Cats are loved. In this paper, we show that cats purr at 25 Hz when content.",
            "Cats purr at 25 Hz when content",
        ),
        (
            "Cats are loved. This paper studies the problem of counting cats in photographs.",
            "Counting cats in photographs",
        ),
        (
            "Cats are loved. The purpose of this paper is to investigate the purring of cats.",
            "The purring of cats",
        ),
        # Not ASCII: the leads are searched for everywhere, not only where lower case finds them.
        (
            "Katzen schnurren. In Köln, we show that cats purr at 25 Hz when content.",
            "Cats purr at 25 Hz when content",
        ),
        # The first lead that opens a claim, after others that do not.
        (
            "The cats we keep purr. So the main purpose of our study is to examine the purring of cats.",
            "The purring of cats",
        ),
        # Cut at the end of the claim's clause.
        (
            "To address this, we derive Polyak schedulers tailored to SAM-style updates, "
            "yielding novel adaptive algorithms.",
            "Polyak schedulers tailored to SAM-style updates",
        ),
        (
            "We investigate the purring of domestic cats at home, and identify two effects.",
            "The purring of domestic cats at home",
        ),
        (
            "We formalize and illustrate the concept of purring in cats.",
            "The concept of purring in cats",
        ),
        (
            "We study post-training of language models with rewards.",
            "Post-training of language models with rewards",
        ),
        # The first contribution wins over a later one; a claim that leans on what came
        # before ("this limitation") or follows on ("we further") gives way.
        (
            "We study the purring of cats at home. We propose a purr detector for phones.",
            "The purring of cats at home",
        ),
        (
            "Cats are loved. We show that this limitation is real. We further derive a bound on "
            "purring. We find that cats purr louder when they are fed.",
            "Cats purr louder when they are fed",
        ),
        # Building on other work is not a contribution.
        ("Cats are loved by many. We build on prior work about dogs.", "Cats are loved by many"),
        # An abbreviation proposed by others or far from the authors' verb is not their name.
        (
            "Many divergences have been proposed for coresets, with forward Kullback-Leibler (KL) "
            "divergence being best. We propose a divergence for cat coresets.",
            "A divergence for cat coresets",
        ),
        (
            "We present an algorithm for publishing the count of walks and Katz centrality under "
            "local differential privacy (LDP).",
            "An algorithm for publishing the count of walks and Katz centrality under local differential privacy",
        ),
        # A soft hyphen lost in PDF extraction is joined back.
        (
            "A network model with state-dependent modula(cid:173) tion of sequences.",
            "A network model with state-dependent modulation of sequences",
        ),
        # So are ligatures: "we ﬁnd" says what the authors do.
        (
            "Cats purr in the dark of the night. We ﬁnd that dogs bark loudly at night.",
            "Dogs bark loudly at night",
        ),
        (
            "Cats purr in the dark. We identify the e(cid:14)cient classi(cid:12)ers of cat speech.",
            "The efficient classifiers of cat speech",
        ),
    ],
)
def test_headline_says_what_the_authors_do(abstract: str, headline: str) -> None:
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
        (
            "Cats purr. In this paper, we show that dogs bark (loudly) at night. It works.",
            "In this paper, we show that dogs bark (loudly) at night.",
        ),
        ("", ""),
    ],
)
def test_headline_source_is_the_whole_sentence(abstract: str, source: str) -> None:
    assert headline_source(abstract) == source


def test_sentences_do_not_split_at_abbreviations_or_decimals() -> None:
    text = "Rates rose 34.8% (e.g. in Smith et al. 2020). Next one. Last"
    assert sentences(text) == ["Rates rose 34.8% (e.g. in Smith et al. 2020).", "Next one.", "Last"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Without "?" or "!", full stops alone are looked for: the same sentences.
        (
            "See Fig. 2. Then (i.e. here) ok. A. Smith et al. 2020. Done",
            ["See Fig. 2.", "Then (i.e. here) ok.", "A. Smith et al. 2020.", "Done"],
        ),
        ("Why? E.g. this. Or vs. that! Yes", ["Why?", "E.g. this.", "Or vs. that!", "Yes"]),
        ("Ends here.\tNext one.  Last.", ["Ends here.", "Next one.", "Last."]),
    ],
)
def test_sentences_end_at_full_stops_questions_and_exclamations(
    text: str, expected: list[str]
) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("_Sparse_ models and **bold** claims", "Sparse models and bold claims"),
        (
            "a*b* and x_i_ and $_0$ and \\_k_ and *lead * x",
            "ab and x_i_ and $_0$ and \\_k_ and lead * x",
        ),
        ("** loose ** and ***three***", " loose  and three"),
    ],
)
def test_plain_drops_emphasis_markup(text: str, expected: str) -> None:
    assert plain(text) == expected


def test_a_claim_ends_where_another_verb_of_the_authors_begins() -> None:
    for joined in (", and we show", " and we show", ", thereby showing"):
        abstract = (
            f"We propose a sparse attention method for long documents{joined} that it is fast."
        )
        assert headline_for(abstract) == "A sparse attention method for long documents"


def test_long_form_of_an_abbreviation() -> None:
    assert long_form("mHC", "we propose Manifold-Constrained Hyper-Connections") == (
        "Manifold-Constrained Hyper-Connections"
    )
    assert long_form("XYZ", "nothing matches here") is None


def test_shorten_cuts_at_a_word_and_drops_dangling_words() -> None:
    assert shorten("alpha beta of gamma", 15) == "alpha beta…"
    assert shorten("short", 15) == "short"
    assert shorten("x" * 30, 10) == "x" * 9 + "…"
