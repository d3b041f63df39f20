"""Saved searches as feeds from the command line: `searches` counts, `digest` lists unread."""

import json
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tui_reader.cli.commands.digest import _published_since, markdown_digest, text_digest
from tui_reader.core.engine import Ranking, SearchEngine
from tui_reader.core.feeds import FeedCounter
from tui_reader.core.library import Library, default_path
from tui_reader.core.loading import load_paths
from tui_reader.core.paper import Paper
from tui_reader.core.query import Query
from tui_reader.core.search_service import build_index
from tui_reader.core.store import Numbers, PaperStore
from tui_reader.resources import bundled

Capsys = pytest.CaptureFixture[str]
LOAM = "28f1d9d7a354"  # a seed paper about reinforcement learning


def library() -> Library:
    opened, messages = Library.open(default_path())
    assert messages == []
    return opened


def save_searches(**searches: str) -> None:
    saved = library()
    for name, query in searches.items():
        saved.save_search(name.replace("_", " "), query)
    saved.save()


def listed(capsys: Capsys, query: str) -> list[str]:
    """The ids `list --query` gives."""
    status, out, _ = run(capsys, "list", "--query", query)
    assert status == 0
    return [line.split()[0] for line in out.splitlines()]


def test_counts_agree_with_list_query_and_follow_what_is_read(capsys: Capsys) -> None:
    save_searches(rl="reinforcement learning", theory="regret bound", tagged="#kept")
    rl = listed(capsys, "reinforcement learning")
    assert len(rl) > 2 and LOAM in rl
    marking = library()
    marking.set_read(rl[:2], True)
    marking.change_tags([LOAM], add=["kept"])
    marking.save()
    status, out, err = run(capsys, "searches", "--format", "jsonl")
    assert (status, err) == (0, "")
    counts = {record["name"]: record for record in map(json.loads, out.splitlines())}
    assert list(counts) == ["rl", "tagged", "theory"]
    for name, query in (("rl", "reinforcement learning"), ("theory", "regret bound")):
        assert counts[name]["total"] == len(listed(capsys, query))
        assert counts[name]["unread"] == len(listed(capsys, f"is:unread {query}"))
    assert counts["rl"]["unread"] == len(rl) - 2
    assert (counts["tagged"]["unread"], counts["tagged"]["total"]) == (0, 1)  # LOAM is read
    status, out, _ = run(capsys, "searches")
    assert out.splitlines()[0].split() == ["rl", f"{len(rl) - 2}", "unread", "of", f"{len(rl)}",
                                           "reinforcement", "learning"]  # fmt: skip


def test_no_saved_searches_is_said_on_stderr(capsys: Capsys) -> None:
    for command in ("searches", "digest"):
        status, out, err = run(capsys, command)
        assert (status, out) == (0, "")
        assert (
            err
            == "tui-reader: no saved searches yet: S in the reader saves the filter under a name\n"
        )


def test_digest_lists_the_unread_papers_of_each_search(capsys: Capsys) -> None:
    save_searches(rl="reinforcement learning", diffusion="diffusion")
    rl = listed(capsys, "reinforcement learning")
    marking = library()
    marking.set_read([rl[0]], True)
    marking.save()
    status, out, err = run(capsys, "digest")
    assert (status, err) == (0, "")
    diffusion = listed(capsys, "diffusion")
    unread = len(rl) - 1 + len(diffusion)
    assert out.startswith(f"# tui-reader digest: {unread} unread papers in 2 saved searches\n")
    assert f"\n## rl ({len(rl) - 1} unread papers)\n" in out
    assert "\n## diffusion (" in out
    assert out.count("\n- [") == unread
    papers = {paper.id: paper for paper in load_paths([bundled("seeds")]).papers}
    assert papers[rl[0]].abstract not in out, "a read paper is left out"
    assert papers[rl[1]].abstract in out


def test_digest_of_one_search_as_json_lines(capsys: Capsys) -> None:
    save_searches(rl="reinforcement learning", diffusion="diffusion")
    status, out, _ = run(capsys, "digest", "--search", "rl", "--format", "jsonl")
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 0
    assert [record["id"] for record in records] == listed(capsys, "reinforcement learning")
    assert {(record["search"], record["query"], record["read"]) for record in records} == {
        ("rl", "reinforcement learning", False)
    }


def test_digest_of_an_unknown_search_names_the_saved_ones(capsys: Capsys) -> None:
    save_searches(rl="reinforcement learning")
    assert run(capsys, "digest", "--search", "nope") == (
        2,
        "",
        "tui-reader: no saved search 'nope' (saved: rl)\n",
    )


def test_since_keeps_papers_without_a_date(capsys: Capsys) -> None:
    save_searches(rl="reinforcement learning")
    everything = run(capsys, "digest", "--format", "jsonl")[1]
    assert run(capsys, "digest", "--format", "jsonl", "--since", "2100-01")[1] == everything
    status, _, err = run(capsys, "digest", "--since", "last week")
    assert (status, err) == (
        2,
        "tui-reader digest: argument --since: not a date: 'last week' (like 2026-06-01)"
        " (see tui-reader digest --help)\n",
    )


class Dated:
    """A paper as fetched sources will give it: with the day it was published."""

    def __init__(self, published: str) -> None:
        self.published = published


def test_since_compares_the_publication_day() -> None:
    from datetime import date

    since = date(2026, 3, 1)
    kept = [_published_since(Dated(day), since) for day in ("2026-02-28", "2026-03-01", "")]  # type: ignore[arg-type]
    assert kept == [False, True, True]


def test_digest_text_is_data(capsys: Capsys) -> None:
    save_searches(ticks="`rm -rf` [/b] reinforcement")
    status, out, _ = run(capsys, "digest")
    assert status == 0
    assert "Query: `'rm -rf' [/b] reinforcement`" in out
    save_searches(**{"[x](javascript:alert(1)) <b>": "reinforcement"})  # its name too
    out = run(capsys, "digest")[1]
    assert "## \\[x\\](javascript:alert(1)) \\<b\\> (" in out


def test_a_digest_names_each_paper_by_its_headline_read_as_unicode() -> None:
    """The digest's link text was the whole sentence a headline was cut from, with its LaTeX
    as written, and its abstracts kept what PDF extraction broke."""
    sentence = (
        r"We propose $\beta$-Nets, a network of piri(cid:173) form cells that reads every odour "
        "of the rat's world and keeps each one apart from all the others it has met."
    )
    untitled = Paper.from_abstract(sentence + " It works.", "c", Path("x.txt"))
    titled = Paper.from_abstract(
        "Modelling e(cid:14)cient ``place'' (cid:12)elds.",
        "c",
        Path("x.txt"),
        title=r"$\alpha$-nets for \emph{Schr\"odinger} bridges",
    )
    digest = markdown_digest(
        [("nets", "nets", [untitled, titled])], Library(None), "https://s/{query}"
    )
    links = [line for line in digest.splitlines() if line.startswith("- [")]
    assert [link.split("](", 1)[0] for link in links] == [
        "- [β-Nets, a network of piriform cells that reads every odour of the rat's world and "
        "keeps each…",
        "- [α-nets for Schrödinger bridges",
    ]
    assert "\n  Modelling efficient ``place'' fields.\n" in digest


def test_a_digest_as_plain_text_reads_as_the_screen_shows_it() -> None:
    """Mailed as plain text, the Markdown digest showed its escapes (`d \\> 1`,
    `\\cite`) and its LaTeX as written."""
    paper = Paper.from_abstract(
        r"For $d > 1$ the bound is *tight*, 50\% better [/b] than \cite{x} at "
        + "https://example.org/a_very_long_link_that_stays_whole_on_its_own_line " * 2,
        "c",
        Path("x.txt"),
        title=r"$\alpha$-nets for \emph{Schr\"odinger} bridges",
    )
    saved = Library(None)
    saved.change_tags([paper.id], add=["kept"])
    digest = text_digest([("nets", "is:unread nets", [paper])], saved, "https://s/{query}")
    lines = digest.splitlines()
    assert lines[:7] == [
        "tui-reader digest: 1 unread paper in 1 saved search",
        "",
        "nets (1 unread paper)",
        "=====================",
        "Query: is:unread nets",
        "",
        "* α-nets for Schrödinger bridges",
    ]
    assert lines[7].startswith("  https://") and lines[8] == "  #kept"  # its link, its tags
    abstract = " ".join(line.strip() for line in lines[10:])
    assert abstract.startswith("For d > 1 the bound is *tight*, 50% better [/b] than \\cite{x}")
    assert all(line.startswith("  ") for line in lines[10:])
    assert all(len(line) <= 72 or " " not in line.strip() for line in lines[10:])
    assert "  https://example.org/a_very_long_link_that_stays_whole_on_its_own_line" in lines


def test_digest_format_text_from_the_command(capsys: Capsys) -> None:
    save_searches(rl="reinforcement learning")
    status, out, err = run(capsys, "digest", "--format", "text")
    assert (status, err) == (0, "")
    rl = listed(capsys, "reinforcement learning")
    assert out.startswith(f"tui-reader digest: {len(rl)} unread papers in 1 saved search\n")
    assert out.count("\n* ") == len(rl)


class CountingEngine:
    """An engine that counts the queries it runs."""

    def __init__(self, engine: SearchEngine) -> None:
        self.engine, self.runs = engine, 0

    def __len__(self) -> int:
        return len(self.engine)

    def run(self, query: Query, first: int | None = None, stop: object = None) -> Ranking:
        self.runs += 1
        return self.engine.run(query)

    def related(self, number: int, count: int = 5) -> Numbers:
        return self.engine.related(number, count)

    def warm(self) -> None:
        self.engine.warm()


def test_the_counter_recounts_from_kept_matches_until_the_papers_change() -> None:
    papers = load_paths([bundled("seeds")]).papers
    engine = CountingEngine(build_index(papers))
    state = Library(None)
    counter = FeedCounter()
    searches = {"rl": "reinforcement learning", "rl, not done": "reinforcement !#done"}
    first = counter.count(searches, engine, state, papers)
    assert engine.runs == 2
    rl = first[0]
    assert rl.unread == rl.total and rl.total is not None and rl.total > 1
    done = next(paper.id for paper in papers if "reinforcement" in paper.abstract.lower())
    state.set_read([done], True)
    state.change_tags([done], add=["done"])
    second = counter.count(searches, engine, state, papers)
    assert engine.runs == 3, "the query without state filters is not run again"
    assert (second[0].unread, second[0].total) == (rl.total - 1, rl.total)
    not_done = first[1].total
    assert not_done is not None
    assert second[1].total == not_done - 1  # its query asks about the state: run again
    counter.count(searches, engine, state, PaperStore(papers[:-1]))
    assert engine.runs == 5, "other papers: every query runs again"


def test_a_query_waits_for_the_index_and_state_filters_do_not() -> None:
    papers = load_paths([bundled("seeds")]).papers
    state = Library(None)
    state.set_bookmarked([papers[0].id], True)
    counts = FeedCounter().count(
        {"words": "diffusion", "stars": "is:bookmarked"}, None, state, papers
    )
    assert [(c.unread, c.total, c.counts) for c in counts] == [(None, None, "…"), (1, 1, "1 / 1")]


def test_counting_reads_the_ids_of_a_store_without_building_its_papers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Building each matched paper read its abstract: counting the saved searches of a
    reader of 100,000 papers left 101 MB of abstracts in its memory."""
    store = PaperStore(load_paths([bundled("seeds")]).papers)
    index = build_index(store)
    read = next(paper.id for paper in store if "diffusion" in paper.abstract.lower())
    state = Library(None)
    state.set_read([read], True)
    monkeypatch.setattr(PaperStore, "_paper", lambda *_: pytest.fail("a paper was built"))
    (diffusion,) = FeedCounter().count({"d": "diffusion"}, index, state, store)
    assert diffusion.total is not None and diffusion.unread == diffusion.total - 1


def test_a_saved_either_or_of_tags_counts_either_and_follows_the_tags() -> None:
    papers = load_paths([bundled("seeds")]).papers
    state = Library(None)
    counter = FeedCounter()
    searches = {"queue": "#later | #to-read"}
    assert counter.count(searches, None, state, papers)[0].total == 0
    state.change_tags([papers[0].id], add=["later"])
    state.change_tags([papers[1].id], add=["to-read"])
    assert counter.count(searches, None, state, papers)[0].total == 2
