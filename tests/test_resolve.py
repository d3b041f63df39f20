"""tui-reader resolve: the text similarity on real near-misses and true matches, the lookups
against local servers replaying the APIs' documented answers, and what the library keeps."""

import gzip
import json
import re
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import command
from tests.conftest import SEEDS
from tests.fetch_helpers import (
    FakeTime,
    Params,
    Reply,
    Script,
    Server,
    atom_entry,
    atom_feed,
    closed_port_url,
    fake_time,
    note,
    notes_page,
    serving,
)
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.paper import Paper
from tui_reader.core.paper_columns import columns_of
from tui_reader.core.resolve import (
    certain_match,
    resolve_online,
    resolved_paper,
    resolving,
    search_words,
    show_resolutions,
    similarity,
    with_resolutions,
)
from tui_reader.core.sources import polite
from tui_reader.core.sources.record import SourceRecord
from tui_reader.core.store import PaperStore, papers_of
from tui_reader.core.typeset import typeset

run_resolve = command("resolve")

CORPUS = Path("/work/shared/corpora/ml-abstracts-31k.jsonl.gz")
SEED_PAPERS = load_paths([SEEDS]).papers


def seed(start: str) -> str:
    (abstract,) = [p.abstract for p in SEED_PAPERS if p.abstract.startswith(start)]
    return abstract


BANDIT = seed("We study a variant of the stochastic multi-armed bandit problem")
LOAM = seed("Large Language Models (LLMs) have emerged as powerful tools")
JUDGE = seed("Large Language Models (LLMs) are increasingly used for zero-shot")


def sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+", text)


# The similarity, on the bundled ICML 2026 abstracts


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param("".join(span.text for span in typeset(BANDIT)), id="LaTeX typeset"),
        pytest.param(BANDIT.replace("$\\Delta_i$", "$\\Delta_{i}$"), id="LaTeX written otherwise"),
        pytest.param(textwrap.fill(BANDIT, 60), id="other line breaks"),
        pytest.param(
            BANDIT + " We also release code and an evaluation on three further benchmarks.",
            id="a v2 with a sentence added",
        ),
    ],
)
def test_the_same_abstract_written_otherwise_matches(variant: str) -> None:
    assert similarity(BANDIT, variant).certain, similarity(BANDIT, variant)


@pytest.mark.parametrize(
    "other",
    [
        pytest.param(JUDGE, id="another paper of the same area"),
        pytest.param(
            " ".join(sentences(BANDIT)[:2] + sentences(LOAM)[2:]), id="shares its first sentences"
        ),
        # Four of its five sentences (91 by the score alone, 0.83 of its length).
        pytest.param(" ".join(sentences(BANDIT)[:4]), id="a shorter workshop version"),
        # All of it and a sixth more (91 by the score alone, 0.84 of the length).
        pytest.param(BANDIT + " " + JUDGE[: len(BANDIT) // 6], id="a part of a longer one"),
        pytest.param("", id="no text"),
    ],
)
def test_a_near_miss_does_not_match(other: str) -> None:
    assert not similarity(BANDIT, other).certain, similarity(BANDIT, other)


def record(source_id: str, abstract: str, title: str = "Satisficing Bandits") -> SourceRecord:
    return SourceRecord(source_id, title, abstract)


def test_a_match_is_certain_only_when_one_paper_passes() -> None:
    retyped = textwrap.fill(BANDIT, 70)
    assert certain_match(BANDIT, [record("arxiv:1", JUDGE), record("arxiv:2", retyped)]) == (
        certain_match(BANDIT, [record("arxiv:2", retyped)])
    )
    found = certain_match(BANDIT, [record("arxiv:2", retyped)])
    assert found is not None and found.record.source_id == "arxiv:2"
    # The same abstract under two papers (it happens in scraped listings): no one is certain.
    assert certain_match(BANDIT, [record("arxiv:1", BANDIT), record("arxiv:2", retyped)]) is None


def test_the_search_words_are_the_long_rare_words_in_order() -> None:
    words = search_words(BANDIT)
    assert 1 <= len(words) <= 12
    assert "satisficing" in words and "suboptimality" in words
    assert all(w.isascii() and len(w) >= 5 for w in words)
    assert words == sorted(words, key=lambda w: BANDIT.lower().index(w))


# The similarity, on real pairs of the shared corpus (31,867 abstracts): the docstring's numbers


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    if not CORPUS.exists():
        pytest.skip(f"{CORPUS} is not here")
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def abstract_of(corpus: list[dict[str, Any]], title: str, venue: str) -> str:
    (found,) = [
        r["abstract"] for r in corpus if r["title"].startswith(title) and r["venue"] == venue
    ]
    return str(found)


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        # A different paper by the same authors, its abstract a revision of the other's: 86.
        (
            ("Online Structure Learning for Sum-Product", "ICLR 2017"),
            ("Online Structure Learning for Feed-Forward", "NeurIPS 2018"),
            False,
        ),
        # Two papers whose abstracts share their first sentences: 60.
        (
            ("Thompson Sampling for Contextual Bandits with Linear", "ICML 2013"),
            ("Further Optimal Regret Bounds for Thompson", "AISTATS 2013"),
            False,
        ),
        # A short version of a paper and the paper: 32.
        (
            ("Attentive Recurrent Comparators", "ICML 2017"),
            ("Attentive Recurrent Comparators", "ICLR 2017"),
            False,
        ),
        # The same paper much revised: 81, not certain.
        (
            ("Dynamic Evaluation of Neural Sequence", "ICML 2018"),
            ("Dynamic Evaluation of Neural Sequence", "ICLR 2018"),
            False,
        ),
        # The same paper with a clause, or a first sentence, added: 94.5 and 93.4.
        (("The Predictron", "ICML 2017"), ("The Predictron", "ICLR 2017"), True),
        (
            ("Conditional Image Synthesis", "ICML 2017"),
            ("Conditional Image Synthesis", "ICLR 2017"),
            True,
        ),
        # The same abstract typeset a little differently: 99.7.
        (("Warped Convolutions", "ICML 2017"), ("Warped Convolutions", "ICLR 2017"), True),
    ],
)
def test_real_pairs(
    corpus: list[dict[str, Any]], one: tuple[str, str], other: tuple[str, str], same: bool
) -> None:
    alike = similarity(abstract_of(corpus, *one), abstract_of(corpus, *other))
    assert alike.certain is same, alike


# Resolving against local servers: OpenReview's search and arXiv's API


OTHER = (
    "We study the sample complexity of learning a linear dynamical system from a single "
    "trajectory, and show that least squares is optimal up to logarithmic factors."
)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return fake_time(monkeypatch)


@pytest.fixture
def papers(write_seed: Any) -> Path:
    """Three title-less papers: one both services know, one only near-missed, one unknown."""
    return Path(write_seed(BANDIT, " ".join(sentences(BANDIT)[:2] + sentences(LOAM)[2:]), OTHER))


HOSTILE_TITLE = "Satisficing [/b] Bandits\x1b]52;c;aGVsbG8=\x07 [CLS]"


def services(monkeypatch: pytest.MonkeyPatch, openreview: Server, arxiv: Server) -> None:
    monkeypatch.setenv("TUI_READER_OPENREVIEW_API", openreview.url.removesuffix("/notes/search"))
    monkeypatch.setenv("TUI_READER_ARXIV_API", arxiv.url)


def first_run() -> tuple[Script, Script]:
    """The services' answers for the three papers, in the order they are asked."""
    found = note(
        "Fx1bandit",
        HOSTILE_TITLE,
        abstract=textwrap.fill(BANDIT, 72),
        authors=["Ada Lovelace", "Alan Turing"],
    )
    review = {**note("Rev1", "Official Review"), "forum": "Fx1bandit"}  # a reply: not a paper
    openreview = Script(
        Reply(notes_page([review, found])), Reply(notes_page([])), Reply(notes_page([]))
    )
    entry = atom_entry(
        "2501.04321v2",
        "Satisficing Regret near the Threshold",
        abstract=BANDIT + " Code is available.",
        categories=("cs.LG", "stat.ML"),
    )
    near = atom_entry("2501.09999v1", "Near", abstract=" ".join(sentences(BANDIT)[:3]))
    arxiv = Script(
        Reply(atom_feed([entry], 1)), Reply(atom_feed([near], 1)), Reply(atom_feed([], 0))
    )
    return openreview, arxiv


def test_resolve_keeps_a_certain_match_and_every_command_shows_it(
    clock: FakeTime,
    papers: Path,
    private_library: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tui_reader.cli.program import main

    openreview_script, arxiv_script = first_run()
    with (
        serving(openreview_script, "/notes/search") as openreview,
        serving(arxiv_script) as arxiv,
    ):
        services(monkeypatch, openreview, arxiv)
        assert main(["resolve", "--papers", str(papers)]) == 0
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "resolve: 3 of 3 papers looked up, 1 found (title, authors and links kept in the "
        "library), 2 without a certain match"
    )
    asked = openreview.requests[0]
    assert (asked["content"], asked["group"], asked["source"], asked["limit"]) == (
        "all",
        "all",
        "all",
        "10",
    )
    assert asked["term"].split() == search_words(BANDIT)
    query = arxiv.requests[0]
    assert query["search_query"] == " OR ".join(f"abs:{w}" for w in search_words(BANDIT))
    assert (query["sortBy"], query["max_results"]) == ("relevance", "10")
    # arXiv asked at 0, 3 and 6 s (one request every three seconds), OpenReview at 0, 1 and 3.
    assert clock.waits == [1.0, 2.0, 3.0]

    # Kept in the library: it survives a restart.
    bandit_id = load_paths([papers]).papers[0].id
    library, _ = Library.open(private_library)
    kept = library.resolved(bandit_id)
    assert kept["title"] == "Satisficing [/b] Bandits [CLS]"
    assert kept["arxiv_id"] == "2501.04321" and kept["openreview_forum"] == "Fx1bandit"
    assert [m["source"] for m in kept["matches"]] == ["arxiv:2501.04321", "openreview:Fx1bandit"]

    # list and export show it.
    assert main(["list", "--papers", str(papers), "--format", "jsonl"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert listed[0]["title"] == kept["title"]
    assert listed[0]["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert listed[0]["url"] == "https://arxiv.org/abs/2501.04321"
    assert "https://openreview.net/forum?id=Fx1bandit" in listed[0]["links"]
    assert [p["title"] for p in listed[1:]] == ["", ""]
    assert main(["export", "--papers", str(papers), "--format", "bib"]) == 0
    bib = capsys.readouterr().out
    assert "eprint = {2501.04321}" in bib and "Lovelace" in bib

    # The reader shows it.
    from tui_reader.ui.app import ReaderApp

    opened: list[ReaderApp] = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: opened.append(app))
    assert main([str(papers)]) == 0
    shown = opened[0].store[0]
    assert (shown.id, shown.title, shown.headline) == (bandit_id, kept["title"], kept["title"])
    assert dict(shown.kind_links)["forum"] == "https://openreview.net/forum?id=Fx1bandit"

    # Run again: nothing left to look up, nothing asked.
    with serving(Script(), "/notes/search") as openreview, serving(Script()) as arxiv:
        services(monkeypatch, openreview, arxiv)
        assert run_resolve(["--papers", str(papers)]) == 0
    assert (openreview.requests, arxiv.requests) == ([], [])
    assert "every paper has a title or was looked up" in capsys.readouterr().err

    # --again looks up only those without a match.
    empty = [Reply(notes_page([])), Reply(notes_page([]))]
    with (
        serving(Script(*empty), "/notes/search") as openreview,
        serving(Script(Reply(atom_feed([], 0)), Reply(atom_feed([], 0)))) as arxiv,
    ):
        services(monkeypatch, openreview, arxiv)
        assert run_resolve(["--papers", str(papers), "--again"]) == 0
    assert (len(openreview.requests), len(arxiv.requests)) == (2, 2)


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both services at a port nothing listens on, as for a machine offline."""
    monkeypatch.setenv("TUI_READER_OPENREVIEW_API", closed_port_url())
    monkeypatch.setenv("TUI_READER_ARXIV_API", closed_port_url())


@pytest.mark.usefixtures("offline")
def test_offline_says_so_in_one_line_and_changes_nothing(
    clock: FakeTime, papers: Path, private_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_resolve(["--papers", str(papers)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("tui-reader: cannot reach OpenReview at 127.0.0.1:")
    assert err[0].endswith("offline?); nothing was changed")
    assert sorted(p.name for p in private_library.parent.iterdir()) in ([], ["library.json.lock"])


@pytest.mark.usefixtures("offline")  # nothing looked up: else said offline
def test_a_read_only_library_is_said_in_one_line_before_anything_is_looked_up(
    papers: Path, private_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Library.open(private_library)[0].save()
    private_library.chmod(0o444)
    assert run_resolve(["--papers", str(papers)]) == 1
    assert capsys.readouterr().err == (
        f"tui-reader: changes could not be saved: {private_library} is read-only\n"
    )


def test_an_interrupted_run_goes_on_where_it_stopped(
    clock: FakeTime,
    papers: Path,
    private_library: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    openreview_script, arxiv_script = first_run()
    clock.interrupt_at = 0  # Ctrl+C while waiting to look the second paper up
    with (
        serving(openreview_script, "/notes/search") as openreview,
        serving(arxiv_script) as arxiv,
    ):
        services(monkeypatch, openreview, arxiv)
        assert run_resolve(["--papers", str(papers)]) == 130
        assert capsys.readouterr().err.splitlines()[-1] == (
            "tui-reader: interrupted; the 1 paper looked up so far is kept: run the same "
            "command again to go on"
        )
        clock.interrupt_at = None
        assert run_resolve(["--papers", str(papers)]) == 0
    assert "resolve: 2 of 2 papers looked up, 0 found" in capsys.readouterr().err
    assert (len(openreview.requests), len(arxiv.requests)) == (3, 3)
    library, _ = Library.open(private_library)
    assert library.resolved(load_paths([papers]).papers[0].id)["title"]


def test_a_service_that_keeps_failing_stops_with_what_was_kept(
    clock: FakeTime,
    papers: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def busy(params: Params) -> Reply:
        return Reply(b"busy", status=503, headers={"Retry-After": "7"})

    openreview_script, _ = first_run()
    with serving(openreview_script, "/notes/search") as openreview, serving(busy) as arxiv:
        services(monkeypatch, openreview, arxiv)
        assert run_resolve(["--papers", str(papers)]) == 1
    assert 7.0 in clock.waits  # Retry-After honoured
    err = capsys.readouterr().err.splitlines()[-1]
    assert "503" in err and err.endswith("; nothing was changed")


def test_a_retry_after_that_is_not_a_number_is_waited_out_as_a_backoff(
    clock: FakeTime,
    papers: Path,
    private_library: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    openreview_script, arxiv_script = first_run()
    openreview_script.replies.insert(0, Reply(b"busy", 503, {"Retry-After": "²"}))
    with (
        serving(openreview_script, "/notes/search") as openreview,
        serving(arxiv_script) as arxiv,
    ):
        services(monkeypatch, openreview, arxiv)
        assert run_resolve(["--papers", str(papers)]) == 0
    assert polite.BACKOFF in clock.waits
    assert "resolve: 3 of 3 papers looked up, 1 found" in capsys.readouterr().err


def test_the_worker_function_stops_when_asked(clock: FakeTime, tmp_path: Path) -> None:
    library = Library(None)
    stop = threading.Event()
    stop.set()
    outcome = resolve_online(SEED_PAPERS, library, {}, stop=stop)
    assert (outcome.to_look_up, outcome.looked_up) == (38, 0)


# What the library keeps, read warily


def test_a_resolution_merges_like_any_change_and_bad_fields_are_left_out(
    private_library: Path,
) -> None:
    paper = SEED_PAPERS[0]
    one, _ = Library.open(private_library)
    two, _ = Library.open(private_library)
    one.set_resolved(paper.id, {"title": "First", "checked": "2026-11-30"})
    one.save()
    two.set_resolved(paper.id, {"title": "Second", "checked": "2026-11-30"})
    two.save()
    assert Library.open(private_library)[0].resolved(paper.id)["title"] == "Second"

    edited = {
        "title": "  A  Title\x1b[31m ",
        "authors": "Ada Lovelace",  # not a list
        "links": {"pdf": "javascript:alert(1)", "code": "https://github.com/x/y", "evil": 3},
        "year": "2026",
        "arxiv_id": "not an id",
        "doi": 10,
    }
    shown = resolved_paper(paper, edited)
    assert (shown.title, shown.headline) == ("A Title", "A Title")
    assert shown.authors == paper.authors == ()
    assert shown.kind_links == (("code", "https://github.com/x/y"),)
    assert (shown.year, shown.arxiv_id, shown.doi) == (None, "", "")
    assert shown.id == paper.id


def test_papers_with_a_title_or_without_a_find_are_shown_as_they_are() -> None:
    library = Library(None)
    titled = Paper.from_abstract("An abstract.", "c", Path("c"), title="Own Title")
    library.set_resolved(titled.id, {"title": "Found Title"})
    library.set_resolved(SEED_PAPERS[1].id, {"checked": "2026-11-30"})
    shown = with_resolutions([titled, SEED_PAPERS[1]], library)
    assert shown == [titled, SEED_PAPERS[1]]


def test_a_store_shows_each_paper_resolve_found_with_what_it_found() -> None:
    store = PaperStore(SEED_PAPERS, ["ICML 2026 Papers"])  # as loaded at once, or kept
    library = Library(None)
    library.set_resolved(SEED_PAPERS[2].id, {"title": "Found Title", "checked": "2026-11-30"})
    library.set_resolved(SEED_PAPERS[3].id, {"checked": "2026-11-30"})  # looked up, no match
    show_resolutions(store, library)
    assert store[2].title == "Found Title" == store.get(SEED_PAPERS[2].id).title  # type: ignore[union-attr]
    assert store[2].id == SEED_PAPERS[2].id  # its tags stay
    assert store[3] == SEED_PAPERS[3] and store[1] == SEED_PAPERS[1]


def test_merging_a_copy_says_how_many_resolutions_changed(tmp_path: Path) -> None:
    copy, _ = Library.open(tmp_path / "copy.json")
    copy.set_resolved(SEED_PAPERS[0].id, {"title": "Found", "checked": "2026-11-30"})
    copy.save()
    library, _ = Library.open(tmp_path / "library.json")
    assert (
        str(library.merge_copy(tmp_path / "copy.json")) == "1 paper changed: 1 resolution changed"
    )
    assert library.resolved(SEED_PAPERS[0].id)["title"] == "Found"


def test_papers_loaded_in_batches_are_shown_with_what_was_found() -> None:
    library = Library(None)
    library.set_resolved(SEED_PAPERS[1].id, {"title": "Found Title"})
    by_pool = columns_of(SEED_PAPERS[3:5])  # as the loading pool sends a piece
    first, third = columns_of(SEED_PAPERS[:2]), columns_of(SEED_PAPERS[2:3])
    batches = [first, "big.jsonl:3: not JSON", third, by_pool]
    shown = list(resolving(iter(batches), library))
    assert shown[1] == "big.jsonl:3: not JSON" and papers_of(shown[2]) == SEED_PAPERS[2:3]  # type: ignore[arg-type]
    assert [paper.title for paper in papers_of(shown[0])] == ["", "Found Title"]  # type: ignore[arg-type]
    assert shown[3] is by_pool  # none of its papers found: passed as it is
    library.set_resolved(SEED_PAPERS[4].id, {"title": "Also Found"})
    shown = list(resolving(iter(batches), library))
    assert [paper.title for paper in papers_of(shown[3])] == ["", "Also Found"]  # type: ignore[arg-type]
