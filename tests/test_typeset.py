import gzip
import json
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reader.core.seeds import parse_seed_text
from tui_reader.core.text import clean
from tui_reader.core.typeset import Span, math_spans, math_to_text, typeset
from tui_reader.resources import bundled

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (r"$\mathcal{O}(1/T)$", "𝒪(1/T)"),
        (r"$\rho \sqrt{\ln T}$", "ρ √(ln T)"),
        (r"$H\sqrt{SAT}$", "H√(SAT)"),
        (r"$\sqrt[4]{T}$", "⁴√T"),
        (r"$\mathbb{R}^d$", "ℝᵈ"),
        (r"$\{0, 1/k, \dots, 1\}$", "{0, 1/k, …, 1}"),
        (r"$\alpha\beta \leq \epsilon$", "αβ ≤ ϵ"),
        (r"$10^{-3}$", "10⁻³"),
        (r"$x_{i=1}^{n-1}$", "xᵢ₌₁ⁿ⁻¹"),
        (r"$A^T$", "Aᵀ"),
        (r"$360^{\circ}$", "360°"),
        (r"$W^{k, p}(\mathbb{R}^d)$", "W^(k, p)(ℝᵈ)"),  # no superscript comma: kept readable
        (r"$x^*$", "x^*"),
        (r"$\frac{1}{2}$", "1/2"),
        (r"$\frac{a+b}{c}$", "(a+b)/c"),
        (r"$\|x\|_2$", "‖x‖₂"),
        (r"$\left( x \right)$", "( x )"),
        (r"$\operatorname{Tr}(A)$", "Tr(A)"),
        (r"$\boldsymbol{x}$", "𝐱"),
        (r"$n \to \infty$", "n → ∞"),
        (r"$32%$", "32%"),
        (r"$$\sum_i x_i$$", "∑ᵢ xᵢ"),
        (r"\(a \cdot b\)", "a · b"),
        # Not standard LaTeX (an author's own macro), or broken: shown as written.
        (r"$\eps$", r"$\eps$"),
        (r"$\frac{2\gamma{(1-\gamma)^2}\epsilon$", r"$\frac{2\gamma{(1-\gamma)^2}\epsilon$"),
    ],
)
def test_math_conversions(source: str, shown: str) -> None:
    assert math_to_text(source) == shown


def shown(text: str) -> str:
    return "".join(span.text for span in typeset(text))


@pytest.mark.parametrize(
    "text",
    [
        "It costs $5 and $10 a month.",
        "Prices: $ 5 and 10 $.",
        r"An escaped \$5 fee.",
        "A lone $ sign.",
        "x_i and snake_case_names stay, as do 2 * 3 * 4 and a_b_c.",
        "Two lines\nstay two lines.",
        "[/b] [CLS] [bold]not markup[/bold]",
    ],
)
def test_text_that_is_not_math_or_emphasis_is_unchanged(text: str) -> None:
    assert shown(text) == text.replace(r"\$", "$")


def test_math_spaced_inside_its_dollars_is_math_when_it_holds_a_command() -> None:
    text = r"regret of $ O \left(\sum_{i: \Delta_i > \Delta_*} \frac{1}{\Delta_i}\right), $ while"
    assert shown(text) == "regret of O (∑_(i: Δᵢ > Δ_*) 1/Δᵢ), while"
    assert shown("costs $ 5 and 10 $ each") == "costs $ 5 and 10 $ each"


def test_starred_subscripts_outside_math_are_not_emphasis() -> None:
    assert shown(r"the gap \Delta_* and \Delta_* here") == r"the gap \Delta_* and \Delta_* here"


def test_money_is_not_math() -> None:
    assert not any(span.math for span in typeset("It costs $5 and $10 a month."))


def test_emphasis_and_bold_become_styles() -> None:
    spans = typeset(r"**M**easuring *gaps* with _care_ and \emph{rigour}, \textbf{fast}.")
    assert spans == (
        Span("M", bold=True),
        Span("easuring "),
        Span("gaps", italic=True),
        Span(" with "),
        Span("care", italic=True),
        Span(" and "),
        Span("rigour", italic=True),
        Span(", "),
        Span("fast", bold=True),
        Span("."),
    )


def test_math_inside_bold_is_bold_math() -> None:
    assert typeset(r"a **bound of $\alpha$** here") == (
        Span("a "),
        Span("bound of ", bold=True),
        Span("α", bold=True, math=True),
        Span(" here"),
    )


def test_latex_escapes_in_prose() -> None:
    assert shown(r"5\% of \{a, b\} \& more") == "5% of {a, b} & more"


def test_unknown_text_commands_and_comments_stay_as_written() -> None:
    text = r"see \cite{smith} and 100% done {grouped}"
    assert shown(text) == text


def test_math_spans_follow_pandoc_dollar_rules() -> None:
    text = "$x$ costs $5 and $10, $$y$$ and $ z $"
    assert [text[start:end] for start, end in math_spans(text)] == ["$x$", "$$y$$"]


def letters(text: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFKD", text) if char.isalnum())


def kept_characters(source: str) -> str:
    """Letters and digits of LaTeX source as they read: less command names and colours."""
    source = re.sub(r"\\(text)?color\{\w*\}", " ", source)
    return letters(re.sub(r"\\[A-Za-z]+", " ", source))


def is_subsequence(needle: str, haystack: str) -> bool:
    rest = iter(haystack)
    return all(char in rest for char in needle)


def assert_nothing_dropped(source: str) -> None:
    rendered = letters(shown(source))
    assert is_subsequence(kept_characters(source), rendered), source


def seed_abstracts() -> list[str]:
    abstracts = []
    for path in sorted(bundled("seeds").glob("*.txt")):
        abstracts += parse_seed_text(path.read_text(encoding="utf-8"))[1]
    return abstracts


def test_every_seed_abstract_keeps_every_word_and_shows_its_math_converted() -> None:
    abstracts = seed_abstracts()
    assert len(abstracts) == 38
    for abstract in abstracts:
        assert_nothing_dropped(abstract)
        maths = [span.text for span in typeset(abstract) if span.math]
        assert len(maths) == len(math_spans(abstract))
        assert not [text for text in maths if "$" in text or "\\" in text]
    assert sum(len(math_spans(abstract)) for abstract in abstracts) == 52


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus is not beside the project")
def test_every_corpus_abstract_renders_and_keeps_every_word() -> None:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        for line in lines:
            abstract = clean(json.loads(line)["abstract"])
            if any(mark in abstract for mark in "$\\*_"):
                assert_nothing_dropped(abstract)


@given(st.text(alphabet="ab1 $\\*_{}%^&~()[]ρ", max_size=40))
def test_any_text_renders_without_losing_characters(text: str) -> None:
    assert_nothing_dropped(text)
