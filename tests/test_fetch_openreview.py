"""`tui-reader fetch openreview VENUE_ID`: API v2 notes, paged, against a local server."""

import json
from pathlib import Path

import pytest

from tests.cli_helpers import command
from tests.fetch_helpers import (
    VENUE,
    FakeTime,
    Reply,
    Script,
    closed_port_url,
    fetch_clock,
    lines,
    note,
    notes_page,
    serving,
)
from tui_reader.core.loading import load_paths
from tui_reader.core.sources import openreview
from tui_reader.core.sources.openreview import VenueRequest, note_record

run_fetch = command("fetch")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeTime:
    return fetch_clock(monkeypatch, tmp_path / "data", openreview)


def collection(tmp_path: Path, name: str) -> Path:
    return tmp_path / "data" / "tui-reader" / "collections" / f"{name}.jsonl"


def test_accepted_papers_are_the_notes_whose_venueid_is_the_venue(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pages = Script(
        Reply(notes_page([note("aaa111", "Sparse Attention"), note("bbb222", "Dense Attention")])),
        Reply(notes_page([note("ccc333", "Any Attention", venue="ICML 2026 Oral")])),
    )
    with serving(pages, path="/notes") as server:
        monkeypatch.setenv("TUI_READER_OPENREVIEW_API", server.url.removesuffix("/notes"))
        assert run_fetch(["openreview", VENUE, "--accepted"]) == 0, capsys.readouterr().err
    assert server.requests == [
        {"content.venueid": VENUE, "offset": "0", "limit": "2"},
        {"content.venueid": VENUE, "offset": "2", "limit": "2"},
    ]
    assert clock.waits == [1.0]
    path = collection(tmp_path, "openreview-ICML-cc-2026-Conference-accepted")
    records = lines(path)
    assert [r["title"] for r in records] == ["Sparse Attention", "Dense Attention", "Any Attention"]
    assert [r["venue"] for r in records] == ["ICML 2026 Poster"] * 2 + ["ICML 2026 Oral"]
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"OpenReview {VENUE} (accepted): 3 new papers, 0 updated; {path} holds 3"
    )


def test_every_submission_answers_the_submission_invitation(
    clock: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = [
        note("a1", "Kept", venueid=VENUE),
        note(
            "r1",
            "Turned Down",
            venueid=f"{VENUE}/Rejected_Submission",
            venue="Submitted to ICML 2026",
        ),
    ]
    last = [note("w1", "Taken Back", venueid=f"{VENUE}/Withdrawn_Submission")]
    with serving(
        Script(Reply(notes_page(notes)), Reply(notes_page(last))), path="/notes"
    ) as server:
        monkeypatch.setenv("TUI_READER_OPENREVIEW_API", server.url.removesuffix("/notes") + "/")
        assert run_fetch(["openreview", VENUE, "-o", str(tmp_path / "all.jsonl")]) == 0
    assert [r["invitation"] for r in server.requests] == [f"{VENUE}/-/Submission"] * 2
    assert "content.venueid" not in server.requests[0]
    decisions = [(r["title"], r["decision"]) for r in lines(tmp_path / "all.jsonl")]
    assert decisions == [
        ("Kept", "accepted"),
        ("Turned Down", "rejected"),
        ("Taken Back", "withdrawn"),
    ]


def test_a_note_becomes_a_record_with_its_content_values() -> None:
    data = note(
        "xYz789",
        "Sparse Attention",
        authors=[
            {"fullname": "Ada Lovelace", "username": "~Ada_Lovelace1"},
            {"fullname": "Alan Turing"},
        ],
    )
    data["content"]["keywords"] = {"value": "attention, sparsity"}  # type: ignore[index]
    data["content"]["code"] = {"value": "https://github.com/example/sparse"}  # type: ignore[index]
    record = note_record(data, VenueRequest(VENUE, accepted=True))
    assert record is not None
    assert record.source_id == "openreview:xYz789"
    assert record.openreview_forum == "xYz789"
    assert record.authors == ("Ada Lovelace", "Alan Turing")
    assert record.keywords == ("attention", "sparsity")
    assert record.abstract == "We propose sparse attention."
    assert (record.year, record.published, record.updated) == (2026, "2025-05-01", "2025-06-01")
    assert record.links == {
        "pdf": "https://openreview.net/pdf/xYz789.pdf",
        "forum": "https://openreview.net/forum?id=xYz789",
        "code": "https://github.com/example/sparse",
    }
    assert record.url == "https://openreview.net/forum?id=xYz789"
    assert (record.arxiv_id, record.categories) == ("", ())


def test_notes_that_are_not_papers_are_counted_and_left_out(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = json.dumps({"notes": [note("ok1", "Fine"), {"id": "bad", "content": "nope"}, 7]})
    with serving(Script(Reply(page.encode())), path="/notes") as server:
        monkeypatch.setenv("TUI_READER_OPENREVIEW_API", server.url.removesuffix("/notes"))
        monkeypatch.setattr(openreview, "PAGE_SIZE", 5)
        assert run_fetch(["openreview", VENUE, "-o", str(tmp_path / "v.jsonl")]) == 0
    assert [r["title"] for r in lines(tmp_path / "v.jsonl")] == ["Fine"]
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .endswith("holds 1 (left out 2 entries that could not be read)")
    )


def test_papers_without_an_abstract_are_left_out_and_said(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Kept, they were skipped as records with no abstract at every start of the reader and
    every command after, on stderr (a cron job's mail)."""
    empty, blank = note("e1", "Empty"), note("e2", "Blank")
    empty["content"]["abstract"] = {"value": ""}  # type: ignore[index]
    blank["content"]["abstract"] = {"value": " \x1b[31m \n"}  # type: ignore[index]
    page = json.dumps({"notes": [note("ok1", "Fine"), empty, blank]})
    with serving(Script(Reply(page.encode())), path="/notes") as server:
        monkeypatch.setenv("TUI_READER_OPENREVIEW_API", server.url.removesuffix("/notes"))
        monkeypatch.setattr(openreview, "PAGE_SIZE", 5)
        assert run_fetch(["openreview", VENUE, "-o", str(tmp_path / "v.jsonl")]) == 0
    assert [r["title"] for r in lines(tmp_path / "v.jsonl")] == ["Fine"]
    told = capsys.readouterr().err.splitlines()[-1]
    assert told.endswith("holds 1 (left out 2 papers without an abstract)"), told
    assert [p.title for p in load_paths([tmp_path / "v.jsonl"]).papers] == ["Fine"]
    assert not load_paths([tmp_path / "v.jsonl"]).problems


def test_a_page_cut_off_mid_json_keeps_the_pages_before_and_resumes(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    second = notes_page([note("c3", "Third"), note("d4", "Fourth")])
    out = tmp_path / "cut.jsonl"
    first = Reply(notes_page([note("a1", "First"), note("b2", "Second")]))
    with serving(Script(first, Reply(second[: len(second) // 2])), path="/notes") as server:
        monkeypatch.setenv("TUI_READER_OPENREVIEW_API", server.url.removesuffix("/notes"))
        assert run_fetch(["openreview", VENUE, "-o", str(out)]) == 1
    message = capsys.readouterr().err.splitlines()[-1]
    assert message.startswith("tui-reader: an OpenReview page was not valid JSON (")
    assert f"{out} keeps the 2 papers fetched so far" in message
    assert [r["title"] for r in lines(out)] == ["First", "Second"]

    rest = Script(Reply(second), Reply(notes_page([])))
    with serving(rest, path="/notes") as server:
        monkeypatch.setenv("TUI_READER_OPENREVIEW_API", server.url.removesuffix("/notes"))
        assert run_fetch(["openreview", VENUE, "-o", str(out)]) == 0
    assert [r["offset"] for r in server.requests] == ["2", "4"]
    assert [r["title"] for r in lines(out)] == ["First", "Second", "Third", "Fourth"]


def test_offline_changes_nothing(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("TUI_READER_OPENREVIEW_API", closed_port_url())
    assert run_fetch(["openreview", VENUE]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("tui-reader: cannot reach OpenReview at 127.0.0.1:")
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("venue", ["ICML 2026", "/ICML.cc", "ICML.cc//2026", ""])
def test_a_bad_venue_id_is_bad_usage(
    clock: FakeTime, venue: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_fetch(["openreview", venue]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert "not an OpenReview venue id" in err[0]


def test_escape_sequences_in_a_note_never_reach_the_file() -> None:
    data = note(
        "e1", "\x1b]52;c;ZXZpbA==\x07Title [/b]", abstract="Bound \x1b[2J[0,1]\x1b]8;;x\x1b\\."
    )
    data["content"]["authors"] = {"value": ["Ada\x1b[31m Lovelace"]}  # type: ignore[index]
    record = note_record(data, VenueRequest(VENUE))
    assert record is not None
    line = record.to_json()
    assert "\x1b" not in json.loads(line)["title"] + json.loads(line)["abstract"]
    assert (record.title, record.abstract) == ("Title [/b]", "Bound [0,1].")
    assert record.authors == ("Ada Lovelace",)


def test_the_config_names_openreview(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_clock(monkeypatch, tmp_path / "data", openreview)
    config = tmp_path / "config.toml"
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    monkeypatch.delenv("TUI_READER_OPENREVIEW_API", raising=False)
    with serving(Script(Reply(notes_page([note("f1", "One")]))), path="/notes") as server:
        base = server.url.removesuffix("/notes")
        config.write_text(f'[sources]\nopenreview_api = "{base}"\n', encoding="utf-8")
        out = tmp_path / "o.jsonl"
        assert run_fetch(["openreview", VENUE, "-o", str(out)]) == 0, capsys.readouterr().err
    assert [r["title"] for r in lines(out)] == ["One"]


def test_a_page_of_far_more_objects_or_notes_than_asked_is_refused_unread() -> None:
    """A page of millions of empty notes took 1.6 GB to read, and asked for the next page."""
    request = VenueRequest(VENUE)
    flood = b'{"notes": [' + b",".join([b"{}"] * 300_000) + b"]}"
    with pytest.raises(openreview.MalformedPage, match="far more than the 1,000 notes asked"):
        openreview.parse_notes(flood, request)
    many = json.dumps({"notes": [{}] * 1001}).encode()
    with pytest.raises(openreview.MalformedPage, match="1,001 notes, 1,000 asked"):
        openreview.parse_notes(many, request)
