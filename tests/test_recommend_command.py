"""`tui-reader recommend`: the undecided papers, best first by what the reader kept."""

import json
import threading
import time
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tui_reader.cli import shared
from tui_reader.core.library import Library, default_path
from tui_reader.core.paper import paper_id

Capsys = pytest.CaptureFixture[str]
BANDITS = ["bandit", "regret", "arms", "exploration", "reward", "horizon", "optimism", "confidence"]
ROBOTS = [
    "robot",
    "grasping",
    "manipulation",
    "gripper",
    "locomotion",
    "controller",
    "torque",
    "legged",
]


def _abstract(number: int) -> str:
    words = BANDITS if number % 2 else ROBOTS
    chosen = [words[(number * k) % len(words)] for k in (1, 3, 5)]
    return f"We study {' '.join(chosen)} with data and models, case {number}."


def _corpus(tmp_path: Path) -> Path:
    path = tmp_path / "papers.jsonl"
    lines = []
    for number in range(120):
        topic = "Bandits" if number % 2 else "Robots"
        record = {"title": f"{topic} paper {number}", "abstract": _abstract(number)}
        lines.append(json.dumps(record | {"authors": [f"Author {number % 5}"]}))
    path.write_text("\n".join(lines) + "\n")
    return path


def _decide(keep: list[int], skip: list[int], tag: str = "") -> None:
    library, _ = Library.open(default_path())
    kept = [paper_id(_abstract(n)) for n in keep]
    if tag:
        library.change(kept, "tagged", add_tags=[tag], read=True)
    else:
        library.change(kept, "kept", bookmarked=True, read=True)
    library.change([paper_id(_abstract(n)) for n in skip], "skipped", read=True)
    library.save()


def test_the_kept_topic_is_recommended_first_one_line_a_paper_nothing_decided(
    tmp_path: Path, capsys: Capsys
) -> None:
    keep, skip = [1, 3, 5, 7], [0, 2, 4, 6, 8]
    _decide(keep, skip)
    status, out, err = run(capsys, "recommend", "--papers", str(_corpus(tmp_path)), "--limit", "30")
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == 30
    assert lines[0].startswith("  1. ")
    assert all("Bandits paper" in line for line in lines)
    decided = {paper_id(_abstract(n)) for n in keep + skip}
    assert not {line.split()[1] for line in lines} & decided


def test_jsonl_gives_the_score_and_why_of_each(tmp_path: Path, capsys: Capsys) -> None:
    _decide([1, 3, 5, 7], [0, 2, 4, 6])
    corpus = str(_corpus(tmp_path))
    status, out, _ = run(capsys, "recommend", "--papers", corpus, "--format", "jsonl")
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["rank"] for r in records] == list(range(1, 21))
    scores = [r["score"] for r in records]
    assert scores == sorted(scores, reverse=True)
    for record in records[:5]:  # why: the paper's words or authors, one of the kept topic's
        assert record["why"], record
        held = (
            f"{record['title']} {record['abstract']} author 0 author 1 author 2 author 3 author 4"
        )
        # each written in the paper as named: a pair's two words together
        assert all(name.lower() in held.lower() for name in record["why"]), record["why"]
        assert {word for words in record["why"] for word in words.split()} & set(BANDITS)


def test_under_a_handful_of_decisions_it_says_how_many_more_and_exits_1(
    tmp_path: Path, capsys: Capsys
) -> None:
    _decide([1], [0, 2])
    status, out, err = run(capsys, "recommend", "--papers", str(_corpus(tmp_path)))
    assert (status, out) == (1, "")
    assert "it needs 2 more kept and 1 more read and not kept" in err


def test_a_tag_learns_from_its_papers_only(tmp_path: Path, capsys: Capsys) -> None:
    _decide([0, 2, 4], [1, 3, 5], tag="robots")
    corpus = str(_corpus(tmp_path))
    status, out, err = run(capsys, "recommend", "--papers", corpus, "--tag", "#Robots")
    assert status == 0, err
    assert all("Robots paper" in line for line in out.splitlines())
    assert "tags are kept in lower case" in err


def test_a_tag_no_paper_has_is_said_as_list_says_it(tmp_path: Path, capsys: Capsys) -> None:
    _decide([0, 2, 4], [1, 3, 5], tag="robots")
    corpus = str(_corpus(tmp_path))
    status, out, err = run(capsys, "recommend", "--papers", corpus, "--tag", "nosuch")
    assert (status, out) == (1, "")
    assert err == "tui-reader: no paper has the tag #nosuch\n"
    assert run(capsys, "list", "--papers", corpus, "--query", "#nosuch")[2] == err


def test_a_query_no_paper_matches_is_said_so(tmp_path: Path, capsys: Capsys) -> None:
    _decide([1, 3, 5, 7], [0, 2, 4, 6])
    status, out, err = run(
        capsys, "recommend", "--papers", str(_corpus(tmp_path)), "--query", "zzyzx"
    )
    assert (status, out, err) == (1, "", "tui-reader: no paper matches 'zzyzx'\n")


def test_a_query_keeps_its_papers_only(tmp_path: Path, capsys: Capsys) -> None:
    _decide([1, 3, 5], [0, 2, 4])
    corpus = str(_corpus(tmp_path))
    status, out, _ = run(capsys, "recommend", "--papers", corpus, "--query", "torque")
    assert status == 0
    assert out and all("Robots paper" in line for line in out.splitlines())


@pytest.mark.parametrize("query", ["(((", " ", "", "is:bookmarkd", "is:bookm", "year:abc", "zzyzx"])
def test_a_query_is_checked_as_search_checks_it(tmp_path: Path, capsys: Capsys, query: str) -> None:
    """`(((` recommended every paper, `is:bookmarkd` ran silently, `is:bookm` found nothing
    with status 1, `year:abc` was searched as words unsaid."""
    _decide([1, 3, 5], [0, 2, 4])
    corpus = str(_corpus(tmp_path))
    searched = run(capsys, "search", query, "--papers", corpus)
    status, out, err = run(capsys, "recommend", "--papers", corpus, "--query", query)
    if searched[0] == 2:  # a mistake in the query: the same line, nothing recommended
        assert (status, out, err) == searched
        return
    told = [line for line in searched[2].splitlines() if "searched as words" in line]
    assert told == [line for line in err.splitlines() if "searched as words" in line]
    assert status == searched[0] and bool(out) == bool(searched[1])


def test_the_library_is_only_read(tmp_path: Path, capsys: Capsys) -> None:
    _decide([1, 3, 5], [0, 2, 4])
    before = {p.name: p.read_bytes() for p in default_path().parent.iterdir()}
    assert run(capsys, "recommend", "--papers", str(_corpus(tmp_path)))[0] == 0
    assert {p.name: p.read_bytes() for p in default_path().parent.iterdir()} == before


def test_a_limit_under_one_is_a_mistake(tmp_path: Path, capsys: Capsys) -> None:
    status, _, err = run(capsys, "recommend", "--papers", str(_corpus(tmp_path)), "--limit", "0")
    assert status == 2
    assert "--limit must be 1 or more" in err


def test_recommend_mistyped_is_named(capsys: Capsys) -> None:
    status, _, err = run(capsys, "recomend")
    assert status == 2
    assert "did you mean `tui-reader recommend`" in err


def test_digest_for_you_puts_each_searchs_papers_in_the_models_order(
    tmp_path: Path, capsys: Capsys
) -> None:
    _decide([1, 3, 5], [0, 2, 4])
    library, _ = Library.open(default_path())
    library.save_search("papers", "paper")
    library.save()
    corpus = str(_corpus(tmp_path))
    status, out, _ = run(capsys, "digest", "--papers", corpus, "--format", "jsonl", "--for-you")
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 120 - 6
    assert all("Bandits" in record["title"] for record in records[:20])
    recommended = run(capsys, "recommend", "--papers", corpus, "--limit", "200")[1]
    assert [r["id"] for r in records] == [line.split()[1] for line in recommended.splitlines()]


@pytest.mark.parametrize("model", [True, False])
def test_digest_for_you_puts_the_papers_kept_and_unread_last(
    tmp_path: Path, capsys: Capsys, model: bool
) -> None:
    """As the reader's for-you order does: two bandit papers bookmarked and not read opened
    the digest, the model ranking them best."""
    if model:
        _decide([1, 3, 5], [0, 2, 4])
    library, _ = Library.open(default_path())
    library.change([paper_id(_abstract(n)) for n in (7, 9)], "kept", bookmarked=True)
    library.save_search("papers", "paper")
    library.save()
    corpus = str(_corpus(tmp_path))
    status, out, err = run(capsys, "digest", "--papers", corpus, "--format", "jsonl", "--for-you")
    assert status == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == (120 - 6 if model else 120)
    assert [r["bookmarked"] for r in records[-2:]] == [True, True]
    assert not any(r["bookmarked"] for r in records[:-2])
    if model:
        assert all("Bandits" in record["title"] for record in records[:20])
    else:
        assert "no model of your interests yet" in err


def test_digest_for_you_without_a_model_says_so_and_keeps_the_searchs_order(
    tmp_path: Path, capsys: Capsys
) -> None:
    library, _ = Library.open(default_path())
    library.save_search("papers", "paper")
    library.save()
    corpus = str(_corpus(tmp_path))
    plain = run(capsys, "digest", "--papers", corpus, "--format", "jsonl")[1]
    status, out, err = run(capsys, "digest", "--papers", corpus, "--format", "jsonl", "--for-you")
    assert (status, out) == (0, plain)
    assert "no model of your interests yet" in err


def test_decisions_on_papers_not_read_are_said_with_how_to_name_their_files(
    tmp_path: Path, capsys: Capsys
) -> None:
    """The reader was given a file (`tui-reader FILE`) the commands were not: `recommend` said
    no paper was kept, and `digest` and `searches` found nothing, without a word why."""
    _decide([1, 3, 5, 7], [0, 2, 4, 6, 8])  # on papers of a file named to the reader only
    library, _ = Library.open(default_path())
    library.save_search("grippers", "gripper")  # in no bundled abstract
    others = [paper_id(_abstract(n)) for n in (20, 21)]  # left with nothing: not counted
    library.set_bookmarked(others, True)
    library.set_bookmarked(others, False)
    library.give_citation_keys([(paper_id(_abstract(22)), "robot2025paper")])
    library.save()
    elsewhere = "9 papers of your library are not in the papers read ("
    status, _, err = run(capsys, "recommend")  # the bundled abstracts
    assert status == 1
    assert err.startswith(f"tui-reader: {elsewhere}")  # the cause first
    assert "name their files with --papers; no model of your interests yet" in err
    for command in (["digest", "--search", "grippers"], ["searches"]):
        status, _, err = run(capsys, *command)
        assert status == 0 and elsewhere in err, command
    status, _, err = run(capsys, "digest", "--search", "grippers", "--for-you")
    assert status == 0 and err.startswith(f"tui-reader: {elsewhere}") and err.count("\n") == 1
    library, _ = Library.open(default_path())
    library.save_search("bandits", "bandit")  # in some
    library.save()
    # Without a model, the digest of a search that found papers says why there is none.
    err = run(capsys, "digest", "--search", "bandits", "--for-you")[2]
    assert err.startswith(f"tui-reader: {elsewhere}") and "no model" in err
    # A search that found papers, none unread since a day to come: no hint, every morning.
    for command in (["digest", "--since", "2099-01-01"], ["searches"]):
        assert elsewhere not in run(capsys, *command)[2], command
    corpus = str(_corpus(tmp_path))
    for command in (["recommend"], ["digest"], ["searches"]):
        assert elsewhere not in run(capsys, *command, "--papers", corpus)[2]


def test_slow_work_is_told_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first run over new papers takes seconds: a terminal hears what is being done, a
    script or a cron's mail does not, nor does work done within SLOW seconds."""
    told: list[str] = []
    heard = threading.Event()

    def warn(message: str) -> None:
        told.append(message)
        heard.set()

    monkeypatch.setattr(shared, "warn", warn)
    monkeypatch.setattr(shared, "SLOW", 0.0)
    monkeypatch.setattr(shared, "on_terminal", lambda: True)
    with shared.told_if_slow("indexing"):
        assert heard.wait(10)
    assert told == ["indexing…"]
    monkeypatch.setattr(shared, "SLOW", 0.1)
    with shared.told_if_slow("quick"):
        pass
    time.sleep(0.3)  # past SLOW: a line not cancelled would be said by now
    monkeypatch.setattr(shared, "SLOW", 0.0)
    monkeypatch.setattr(shared, "on_terminal", lambda: False)
    with shared.told_if_slow("piped"):
        time.sleep(0.2)
    assert told == ["indexing…"]
