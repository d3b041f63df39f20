"""The collection a fetch writes: resumable after Ctrl+C or a dropped connection, without
duplicates, readable by today's reader, safe with hostile text."""

import io
import json
from collections.abc import Callable
from pathlib import Path

import filelock
import pytest

from tests.cli_helpers import command
from tests.fetch_helpers import (
    FakeTime,
    Params,
    Reply,
    Script,
    atom_entry,
    atom_feed,
    fetch_clock,
    lines,
    serving,
)
from tui_reader.cli.commands.fetch import Progress
from tui_reader.core.loading import load_paths
from tui_reader.core.sources import arxiv
from tui_reader.core.sources.collection import Tally, state_path

run_fetch = command("fetch")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeTime:
    return fetch_clock(monkeypatch, tmp_path / "data", arxiv)


def page(numbers: list[int], start: int, total: int = 6, version: int = 1) -> Reply:
    entries = [atom_entry(f"2501.{n:05d}v{version}", f"Paper {n}") for n in numbers]
    return Reply(atom_feed(entries, total, start))


def listing(total: int = 6) -> Callable[[Params], Reply]:
    """The newest `total` papers of a category, answering any `start` and `max_results`."""

    def respond(params: Params) -> Reply:
        start, size = int(params["start"]), int(params["max_results"])
        numbers = list(range(start + 1, min(start + size, total) + 1))
        return page(numbers, start, total)

    return respond


def fetch(server_url: str, out: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setenv("TUI_READER_ARXIV_API", server_url)
    return run_fetch(["arxiv", "--category", "cs.LG", "-o", str(out)])


def test_ctrl_c_keeps_whole_pages_and_a_rerun_goes_on_without_duplicates(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "c.jsonl"
    clock.interrupt_at = 1  # Ctrl+C while waiting before the third page
    with serving(listing()) as server:
        assert fetch(server.url, out, monkeypatch) == 130
    assert len(server.requests) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"tui-reader: interrupted; {out} keeps the 4 papers fetched so far: "
        "run the same command again to go on from there"
    )
    assert [r["title"] for r in lines(out)] == [f"Paper {n}" for n in range(1, 5)]
    assert json.loads(state_path(out).read_text())["cursor"] == {"start": 4}

    clock.interrupt_at = None
    with serving(listing()) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    assert [r["start"] for r in server.requests] == ["4"]
    assert [r["title"] for r in lines(out)] == [f"Paper {n}" for n in range(1, 7)]
    assert not state_path(out).exists()


def test_a_dropped_connection_keeps_what_was_fetched(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "d.jsonl"
    monkeypatch.setattr("tui_reader.core.sources.polite.RETRIES", 2)
    script = Script(page([1, 2], 0), *[Reply(drop=True)] * 3)
    with serving(script) as server:
        assert fetch(server.url, out, monkeypatch) == 1
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith("tui-reader: arXiv at 127.0.0.1:")
    assert "still after 2 retries" in err
    assert f"{out} keeps the 2 papers fetched so far" in err
    with serving(listing()) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    assert [r["start"] for r in server.requests] == ["2", "4"]
    assert len(lines(out)) == 6


def test_papers_already_kept_are_not_written_again_when_the_listing_shifts(
    clock: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "s.jsonl"
    clock.interrupt_at = 0
    with serving(listing()) as server:
        assert fetch(server.url, out, monkeypatch) == 130
    # Two new papers came out meanwhile: the listing, newest first, moved down by two, so
    # the page at the saved start holds the two papers kept already.
    shifted = Script(page([1, 2], 2, 8), page([3, 4], 4, 8), page([5, 6], 6, 8))
    clock.interrupt_at = None
    with serving(shifted) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    assert [r["title"] for r in lines(out)] == [f"Paper {n}" for n in range(1, 7)]


def test_a_line_cut_off_by_a_crash_is_dropped_before_going_on(
    clock: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "x.jsonl"
    clock.interrupt_at = 0
    with serving(listing()) as server:
        assert fetch(server.url, out, monkeypatch) == 130
    with open(out, "ab") as file:
        file.write(b'{"source_id": "arxiv:2501.00003", "title": "Pap')  # killed mid-write
    clock.interrupt_at = None
    with serving(listing()) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    assert [r["title"] for r in lines(out)] == [f"Paper {n}" for n in range(1, 7)]


def test_a_new_version_replaces_the_line_of_the_paper_where_it_was(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "v.jsonl"
    with serving(listing(4)) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    revised = Script(page([1], 0, 4), page([2], 1, 4, version=3), page([3, 4], 2, 4))
    with serving(revised) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    records = lines(out)
    assert [r["arxiv_id"] for r in records] == [f"2501.{n:05d}" for n in range(1, 5)]
    assert [r["arxiv_version"] for r in records] == [1, 3, 1, 1]
    err = capsys.readouterr().err.splitlines()
    assert ": 0 new papers, 1 updated;" in err[-2]
    assert err[-1] == "1 paper has a new version: 2501.00002v3"


def test_a_state_left_by_another_request_is_not_used(
    clock: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "o.jsonl"
    request = {"source": "arxiv", "categories": ["math.AG"], "query": "", "since": ""}
    state = {"format": 1, "request": request, "cursor": {"start": 4}}
    state_path(out).write_text(json.dumps(state))
    with serving(listing()) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    assert [r["start"] for r in server.requests] == ["0", "2", "4"]


def test_the_reader_opens_a_fetched_collection(
    clock: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r.jsonl"
    feed = atom_feed(
        [
            atom_entry(
                "2501.00001v2",
                "Sparse Attention",
                authors=("Ada Lovelace", "Alan Turing"),
                doi="10.1234/x",
                journal_ref="J. Sparse 1 (2025)",
            )
        ],
        1,
    )
    with serving(Script(Reply(feed))) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    loaded = load_paths([out])
    assert loaded.problems == []
    (paper,) = loaded.papers
    assert paper.title == "Sparse Attention"
    assert paper.headline == "Sparse Attention"
    assert paper.authors == ("Ada Lovelace", "Alan Turing")
    assert paper.url == "https://arxiv.org/abs/2501.00001"
    assert paper.venue == "J. Sparse 1 (2025)"
    assert paper.abstract == "We study sparse attention in depth."


def test_hostile_text_is_kept_as_text_without_control_characters(
    clock: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # XML cannot carry ESC, but it can carry C1 controls (CSI is U+009B) and bidi overrides.
    out = tmp_path / "h.jsonl"
    title = "[/b] [CLS] [$accent]Evil \u202eTitle\x9b2J"
    feed = atom_feed([atom_entry("2501.00001v1", title, abstract="A [0,1] bound\x9b2J.")], 1)
    with serving(Script(Reply(feed))) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    (record,) = lines(out)
    assert record["title"] == "[/b] [CLS] [$accent]Evil Title"
    assert record["abstract"] == "A [0,1] bound."


def test_a_second_fetch_into_the_same_file_is_refused(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "l.jsonl"
    with filelock.FileLock(f"{out}.lock"), serving(listing()) as server:
        assert fetch(server.url, out, monkeypatch) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"tui-reader: another fetch is writing {out}; nothing was changed"
    )
    assert not out.exists()


def test_an_output_that_is_a_folder_is_bad_usage(
    clock: FakeTime, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_fetch(["arxiv", "--category", "cs.LG", "-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"tui-reader fetch arxiv: {tmp_path}: is a folder, not a file "
        "(see tui-reader fetch arxiv --help)"
    )


def test_fetch_list_shows_the_collections(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_fetch(["list"]) == 0
    assert capsys.readouterr().out.startswith("no collections in ")
    clock.interrupt_at = 0
    with serving(listing()) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG"]) == 130
    capsys.readouterr()
    assert run_fetch(["list"]) == 0
    folder = tmp_path / "data" / "tui-reader" / "collections"
    assert capsys.readouterr().out == (
        f"{folder / 'arxiv-cs-LG.jsonl'}\t2 papers  (unfinished: fetch again to go on)\n"
    )


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_redraws_one_line_on_a_terminal_and_prints_lines_elsewhere() -> None:
    tally = Tally(Path("c.jsonl"), position=50, total=200, added=40, updated=2, papers=48)
    screen, log = Terminal(), io.StringIO()
    for stream in (screen, log):
        progress = Progress("arXiv cs.LG", stream)
        progress(tally)
        progress.note("arXiv: 503 Service Unavailable; trying again in 7 s\x1b[2J")
        progress(tally)
        progress.end()
    line = "arXiv cs.LG: [######------------------] 50 of 200, 48 papers (40 new, 2 updated)"
    wait = "arXiv: 503 Service Unavailable; trying again in 7 s"
    assert screen.getvalue() == f"\r\x1b[K{line}\n{wait}\n\r\x1b[K{line}\n"
    assert log.getvalue() == f"{line}\n{wait}\n{line}\n"


def test_the_reader_opens_the_fetched_collections_when_given_no_paths(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    write_seed,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tui_reader.cli.program import main
    from tui_reader.ui.app import ReaderApp

    opened: list[ReaderApp] = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: opened.append(app))
    assert main([]) == 0  # nothing fetched yet: the bundled abstracts
    assert opened[-1].store.title == "ICML 2026 Papers"
    with serving(listing(2)) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG"]) == 0
        assert run_fetch(["arxiv", "--query", "graph", "--max", "1"]) == 0
    assert main([]) == 0
    assert [paper.title for paper in opened[-1].store] == ["Paper 1", "Paper 2"]
    assert opened[-1].store.collections == ["arxiv-cs-LG", "arxiv-query-graph"]
    capsys.readouterr()
    assert main(["list"]) == 0  # the commands read what the reader opens
    listed = capsys.readouterr().out
    assert "Paper 1" in listed and "Paper 2" in listed and "LOAM" not in listed
    write_seed("Only this paper.", header="From Config")
    config = tmp_path / "config.toml"
    config.write_text('paths = ["test.txt"]\n', encoding="utf-8")
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    assert main([]) == 0  # the config's paths win
    assert opened[-1].store.title == "From Config"


def test_a_fetch_again_names_the_papers_with_a_new_version(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "v.jsonl"
    with serving(Script(page([1, 2], 0, 4, version=2), page([3, 4], 2, 4))) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    assert "new version" not in capsys.readouterr().err
    again = Script(page([1], 0, 4, version=3), page([2], 1, 4, version=2), page([3, 4], 2, 4, 2))
    with serving(again) as server:
        assert fetch(server.url, out, monkeypatch) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[-2].endswith(f": 0 new papers, 3 updated; {out} holds 4")
    assert err[-1] == "3 papers have a new version: 2501.00001v3, 2501.00003v2, 2501.00004v2"
    assert [r["arxiv_version"] for r in lines(out)] == [3, 2, 2, 2]


def test_what_the_user_made_of_a_paper_follows_it_to_its_arxiv_id(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    private_library: Path,
) -> None:
    from tui_reader.core.library import Library
    from tui_reader.core.paper import paper_id

    # A paper first read from a plain file (the id of its text), another one resolved.
    plain = paper_id("We study paper 1 in depth.")
    library, _ = Library.open(private_library)
    library.change_tags([plain], add=["to-read", "method"])
    library.set_bookmarked([plain], True)
    library.set_note(plain, "Compare with [/b] the baseline.")
    library.change_tags(["0123456789ab"], add=["resolved-one"])
    library.set_resolved("0123456789ab", {"title": "Paper 2", "arxiv_id": "2501.00002"})
    library.change_tags(["2501.00001"], add=["method"])
    library.set_note("2501.00001", "Already noted.")
    library.change_tags(["fedcba987654"], add=["unrelated"])
    library.save()
    with serving(listing(2)) as server:
        assert fetch(server.url, tmp_path / "o.jsonl", monkeypatch) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        "the tags, bookmarks, read marks and notes of 2 papers now follow their arXiv ids"
    )
    after, messages = Library.open(private_library)  # from the files: journaled
    assert messages == []
    assert after.tags("2501.00001") == ["method", "to-read"]
    assert after.is_bookmarked("2501.00001")
    assert after.note("2501.00001") == "Already noted.\n\nCompare with [/b] the baseline."
    assert after.tags("2501.00002") == ["resolved-one"]
    assert after.tags(plain) == after.tags("0123456789ab") == []
    assert not after.is_bookmarked(plain) and after.note(plain) == ""
    assert after.tags("fedcba987654") == ["unrelated"]
    journal = private_library.with_name("library.json.journal").read_text(encoding="utf-8")
    with serving(listing(2)) as server:  # once: a second fetch moves nothing
        assert fetch(server.url, tmp_path / "o.jsonl", monkeypatch) == 0
    assert "now follow" not in capsys.readouterr().err
    assert private_library.with_name("library.json.journal").read_text(encoding="utf-8") == journal
