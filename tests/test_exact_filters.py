"""A filter's count means what it says: a plain word finds the papers holding a word that starts
with it, and a typo is forgiven only where the word as typed finds nothing (or almost nothing),
and then the results say which word they show."""

from pathlib import Path

import pytest

from tests.pilot_helpers import ready, wait_until
from tui_reader.cli.program import main
from tui_reader.core.feeds import FeedCounter
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.search_service import build_index, search_papers
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp


def paper(text: str, number: int) -> Paper:
    return Paper.from_abstract(f"{text} (paper {number}).", "C", Path("x.jsonl"))


def corpus() -> PaperStore:
    texts = (
        ["A convex relaxation of the problem."] * 4
        + ["A conventional baseline."] * 6
        + ["The convergence of gradient descent."] * 6
        + ["Regret bounds for the learner."] * 3
        + ["Regression with many features."] * 5
        + ["Satisficing in stochastic bandits."] * 3
        + ["Satisfying the constraints of a robot."] * 8
        + ["Adversarial examples fool networks."] * 45
        + ["Adverserial training, misspelt by its authors."] * 2
        + ["Bayesian optimisation of hyperparameters."] * 4
    )
    return PaperStore([paper(text, number) for number, text in enumerate(texts)])


def full(query: str, papers: PaperStore, index: object) -> tuple[set[str], str]:
    found = search_papers(index, query, Library(None), "relevance", papers)  # type: ignore[arg-type]
    words = {papers[int(n)].abstract.split()[0].lower() for n in found.numbers[: found.full]}
    return words, found.showing


@pytest.fixture(scope="module")
def searched() -> tuple[PaperStore, object]:
    papers = corpus()
    return papers, build_index(papers)


@pytest.mark.parametrize(
    ("query", "first_words"),
    [
        ("convex", {"a"}),  # the convex papers' first word, not conventional or convergence
        ("regret", {"regret"}),
        ("conv", {"a", "the"}),  # a beginning finds every word it begins
    ],
)
def test_a_plain_word_finds_only_papers_holding_a_word_it_begins(
    searched: tuple[list[Paper], object], query: str, first_words: set[str]
) -> None:
    papers, index = searched
    words, showing = full(query, papers, index)
    assert (words, showing) == (first_words, "")
    found = search_papers(index, query, Library(None), "relevance", papers)  # type: ignore[arg-type]
    expected = {"convex": 4, "regret": 3, "conv": 16}[query]
    assert found.full == expected


def test_a_typo_no_paper_holds_shows_the_word_meant_and_says_so(
    searched: tuple[list[Paper], object],
) -> None:
    papers, index = searched
    assert full("satisficng", papers, index) == (
        {"satisficing"},
        "showing satisficing for satisficng",
    )
    assert full("bayesain", papers, index) == ({"bayesian"}, "showing bayesian for bayesain")


@pytest.mark.parametrize("query", ["transformr", "transformr "])  # typed on, and whole
def test_a_typo_a_letter_short_of_a_word_shows_that_word_not_the_words_of_another_edit(
    query: str,
) -> None:
    """`transformr` is one edit from transformer (a letter left out) but also from transform
    and transforms (one taken out or replaced) and begins like transformation: the papers
    shown are those of the word the notice names."""
    texts = (
        ["Transformers for translation."] * 3
        + ["Transformer for vision."] * 2
        + ["Transforms of signals."] * 5
        + ["Transform of graphs."] * 5
        + ["Transformation of images."] * 5
    )
    papers = PaperStore([paper(text, number) for number, text in enumerate(texts)])
    words, showing = full(query, papers, build_index(papers))
    assert showing == "showing transformer for transformr"
    assert words == {"transformers", "transformer"}  # a word is a beginning, typed whole too


def test_a_misspelling_a_few_papers_hold_shows_the_word_meant_too(
    searched: tuple[list[Paper], object],
) -> None:
    papers, index = searched
    words, showing = full("adverserial", papers, index)
    assert words == {"adversarial", "adverserial"}
    assert showing == "showing adversarial for adverserial"


def test_a_negated_word_leaves_out_only_the_papers_holding_it(
    searched: tuple[list[Paper], object],
) -> None:
    papers, index = searched
    found = search_papers(index, "conv !convergence", Library(None), "relevance", papers)  # type: ignore[arg-type]
    assert found.full == 10  # convex and conventional: convergence alone is left out


def test_the_header_feeds_and_list_agree_on_one_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    papers = corpus()
    papers_file = tmp_path / "papers.jsonl"
    papers_file.write_text(
        "".join(f'{{"title": "", "abstract": "{p.abstract}"}}\n' for p in papers),
        encoding="utf-8",
    )
    library_path = tmp_path / "library.json"
    assert main(["list", "--papers", str(papers_file), "--library", str(library_path),
                 "--query", "convex | regret"]) == 0  # fmt: skip
    listed = capsys.readouterr().out.strip().splitlines()
    assert len(listed) == 7
    index = build_index(papers)
    (feed,) = FeedCounter().count({"f": "convex | regret"}, index, Library(None), papers)
    assert feed.total == len(listed)


async def test_the_header_counts_the_papers_holding_the_word_and_says_what_it_shows() -> None:
    app = ReaderApp(Opening(corpus()), Library(None))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        await pilot.press("slash", *"convex", "enter")
        await wait_until(
            pilot, lambda: app.workspace.settled and "of" in app.workspace.sub_title, "count"
        )
        assert app.workspace.sub_title.startswith("4 of 86 papers"), app.workspace.sub_title
        await pilot.press("slash", "ctrl+u", *"satisficng", "enter")
        await wait_until(pilot, lambda: "showing" in app.workspace.sub_title, "the word shown")
        assert app.workspace.sub_title.startswith(
            "3 of 86 papers · showing satisficing for satisficng"
        )


def capitalised() -> PaperStore:
    texts = ["The same method again.", "Samples of a robot.", "LG and lg both."]
    return PaperStore([paper(text, number) for number, text in enumerate(texts)])


@pytest.mark.parametrize("query", ["SAM", "SAM "])  # typed on, and whole
def test_a_capitalised_word_no_paper_writes_so_is_found_in_any_case_and_said(query: str) -> None:
    papers = capitalised()
    assert full(query, papers, build_index(papers)) == (
        {"the", "samples"},
        "no paper writes SAM: showing sam in any case",
    )


def test_a_capitalised_word_no_paper_writes_so_is_left_out_in_any_case_and_said() -> None:
    papers = PaperStore([*capitalised(), paper("sam in lower case.", 3)])
    assert full("!SAM", papers, build_index(papers)) == (
        {"the", "samples", "lg"},
        "no paper writes SAM: leaving out sam in any case",
    )


def test_a_capitalised_word_some_paper_writes_so_finds_it_so_and_says_nothing() -> None:
    papers = PaperStore([*capitalised(), paper("SAM minimises sharpness.", 3)])
    index = build_index(papers)
    assert full("SAM ", papers, index) == ({"sam"}, "")
    assert full("LG ", papers, index) == ({"lg"}, "")
    assert full("Transformr ", papers, index) == (set(), "")  # nothing found: nothing said


def test_the_commands_say_a_capitalised_word_was_searched_in_any_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    papers_file = tmp_path / "papers.jsonl"
    papers_file.write_text(
        "".join(f'{{"title": "", "abstract": "{p.abstract}"}}\n' for p in capitalised()),
        encoding="utf-8",
    )
    told = "tui-reader: no paper writes SAM: showing sam in any case\n"
    for arguments in (["search", "SAM"], ["list", "--query", "SAM"]):
        assert main([*arguments, "--papers", str(papers_file)]) == 0
        out, err = capsys.readouterr()
        assert (len(out.splitlines()), err) == (2, told), arguments


async def test_the_header_says_a_capitalised_word_was_searched_in_any_case() -> None:
    app = ReaderApp(Opening(capitalised()), Library(None))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        await pilot.press("slash", *"SAM", "enter")
        await wait_until(pilot, lambda: "writes" in app.workspace.sub_title, "the case said")
        assert app.workspace.sub_title == (
            "2 of 3 papers · no paper writes SAM: showing sam in any case"
        )
