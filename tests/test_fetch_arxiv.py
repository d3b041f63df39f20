"""`tui-reader fetch arxiv`: the Atom API and OAI-PMH, against local servers."""

import json
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.cli_helpers import command
from tests.fetch_helpers import (
    ATOM_ERROR,
    FakeTime,
    Reply,
    Script,
    atom_entry,
    atom_feed,
    closed_port_url,
    fetch_clock,
    lines,
    oai_error,
    oai_page,
    oai_record,
    serving,
)
from tui_reader.cli import program
from tui_reader.cli.registry import command_named
from tui_reader.cli.shared import first_day
from tui_reader.core.sources import arxiv, polite
from tui_reader.core.sources.arxiv import ArxivRequest, parse_atom, search_query
from tui_reader.core.sources.pages import MalformedPage

run_fetch = command("fetch")
DAY = 86_400.0  # seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeTime:
    return fetch_clock(monkeypatch, tmp_path / "data", arxiv)


def collection(tmp_path: Path, name: str) -> Path:
    return tmp_path / "data" / "tui-reader" / "collections" / f"{name}.jsonl"


FEED = atom_feed(
    [
        atom_entry(
            "2501.01234v2",
            "Sparse  Attention\n      at Scale",
            authors=("Ada Lovelace", "Alan Turing"),
            published="2025-01-02T18:00:00Z",
            updated="2025-02-10T09:30:00Z",
            categories=("cs.LG", "stat.ML", "68T05"),
            doi="10.1234/example.5678",
        ),
        atom_entry(
            "math/0601001v2",
            "An Old Result",
            published="2006-01-01T00:00:01Z",
            updated="2006-03-04T10:00:00Z",
            categories=("math.GT", "math.AG"),
            journal_ref="Geom. Topol. 10 (2006) 1-20",
        ),
        atom_entry("0704.0001v1", "Calculation of prompt diphoton production"),
    ],
    total=3,
)


def test_atom_entries_become_records() -> None:
    feed = parse_atom(FEED)
    assert (feed.entries, feed.total, feed.unreadable) == (3, 3, 0)
    new, old, short = feed.records
    assert new.source_id == "arxiv:2501.01234"
    assert (new.arxiv_id, new.arxiv_version) == ("2501.01234", 2)
    assert new.title == "Sparse Attention at Scale"
    assert new.abstract == "We study sparse attention at scale in depth."
    assert new.authors == ("Ada Lovelace", "Alan Turing")
    assert (new.published, new.updated, new.year) == ("2025-01-02", "2025-02-10", 2025)
    assert new.categories == ("cs.LG", "stat.ML")  # primary first; the MSC class left out
    assert new.doi == "10.1234/example.5678"
    assert new.venue == "arXiv"
    assert new.links == {
        "abstract": "https://arxiv.org/abs/2501.01234",
        "pdf": "https://arxiv.org/pdf/2501.01234",
        "doi": "https://doi.org/10.1234/example.5678",
    }
    assert new.url == "https://arxiv.org/abs/2501.01234"
    assert (old.arxiv_id, old.arxiv_version) == ("math/0601001", 2)
    assert old.source_id == "arxiv:math/0601001"
    assert old.venue == "Geom. Topol. 10 (2006) 1-20"
    assert old.links["abstract"] == "https://arxiv.org/abs/math/0601001"
    assert (short.arxiv_id, short.arxiv_version) == ("0704.0001", 1)


def test_a_record_is_one_line_with_stable_keys() -> None:
    line = parse_atom(FEED).records[1].to_json()
    assert "\n" not in line
    assert list(json.loads(line)) == [
        "source_id",
        "title",
        "authors",
        "abstract",
        "url",
        "venue",
        "year",
        "published",
        "updated",
        "arxiv_id",
        "arxiv_version",
        "doi",
        "categories",
        "openreview_forum",
        "decision",
        "keywords",
        "comments",
        "links",
    ]


def test_the_search_query_joins_categories_words_and_date() -> None:
    now = datetime(2025, 7, 1, 12, 30, tzinfo=timezone.utc)
    request = ArxivRequest(("cs.LG", "stat.ML"), "graph networks", date(2025, 6, 1), 10)
    assert search_query(request, now) == (
        "(cat:cs.LG OR cat:stat.ML) AND (all:graph AND all:networks)"
        " AND submittedDate:[202506010000 TO 202507011230]"
    )
    assert search_query(ArxivRequest(query='ti:"graph networks" AND au:lovelace')) == (
        '(ti:"graph networks" AND au:lovelace)'
    )


@pytest.mark.parametrize(
    ("request_", "harvest"),
    [
        (ArxivRequest(("cs.LG",), since=date(2025, 6, 1)), True),
        (ArxivRequest(since=date(2025, 6, 1)), True),
        (ArxivRequest(("cs.LG",), since=date(2025, 6, 1), max=100), False),
        (ArxivRequest(("cs.LG",), "graph", since=date(2025, 6, 1)), False),
        (ArxivRequest(("cs.LG",)), False),
    ],
)
def test_a_harvest_is_since_a_date_with_no_query_and_no_max(
    request_: ArxivRequest, harvest: bool
) -> None:
    assert request_.harvest is harvest


def entries(*numbers: int) -> list[str]:
    return [atom_entry(f"2501.{n:05d}v1", f"Paper {n}") for n in numbers]


def test_atom_pages_until_max(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    script = Script(
        Reply(atom_feed(entries(1, 2), 100, 0)),
        Reply(atom_feed(entries(3, 4), 100, 2)),
        Reply(atom_feed(entries(5), 100, 4)),
    )
    with serving(script) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        status = run_fetch(["arxiv", "--category", "cs.LG", "--category", "stat.ML", "--max", "5"])
    assert status == 0, capsys.readouterr().err
    assert [(r["start"], r["max_results"]) for r in server.requests] == [
        ("0", "2"),
        ("2", "2"),
        ("4", "1"),
    ]
    first = server.requests[0]
    assert first["search_query"] == "(cat:cs.LG OR cat:stat.ML)"
    assert (first["sortBy"], first["sortOrder"]) == ("submittedDate", "descending")
    assert clock.waits == [3.0, 3.0]  # arXiv: one request every three seconds
    path = collection(tmp_path, "arxiv-cs-LG-stat-ML")
    assert [r["title"] for r in lines(path)] == [f"Paper {n}" for n in range(1, 6)]
    assert not path.with_name(path.name + ".fetch-state").exists()
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == f"arXiv cs.LG stat.ML: 5 new papers, 0 updated; {path} holds 5"
    assert "[#########" in err[0] or "2 of 5" in err[0]


def test_atom_stops_at_the_end_of_the_listing(
    clock: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = Script(Reply(atom_feed(entries(1, 2), 3, 0)), Reply(atom_feed(entries(3), 3, 2)))
    with serving(script) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--query", "graph", "-o", str(tmp_path / "g.jsonl")]) == 0
    assert len(server.requests) == 2
    assert server.requests[0]["search_query"] == "(all:graph)"
    assert len(lines(tmp_path / "g.jsonl")) == 3


def test_an_empty_page_before_the_end_is_not_the_end(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "e.jsonl"
    script = Script(Reply(atom_feed(entries(1, 2), 5, 0)), Reply(atom_feed([], 5, 2)))
    with serving(script) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG", "-o", str(out)]) == 1
    message = capsys.readouterr().err.splitlines()[-1]
    assert message.startswith("tui-reader: arXiv answered an empty page at 2 of 5; ")
    assert f"{out} keeps the 2 papers fetched so far" in message
    assert json.loads(out.with_name(out.name + ".fetch-state").read_text())["cursor"] == {
        "start": 2
    }


def test_an_api_error_is_one_line_and_changes_nothing(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with serving(Script(Reply(ATOM_ERROR, 400))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--query", "id:1234.12345"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "tui-reader: arXiv: incorrect id format for 1234.12345; nothing was changed"
    )
    assert not (tmp_path / "data").exists()


def test_a_page_cut_off_keeps_what_was_read_and_resumes(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    whole = atom_feed(entries(3, 4), 6, 2)
    cut = whole[: whole.index(b"<entry>", whole.index(b"2501.00003")) + 40]
    out = tmp_path / "cut.jsonl"
    with serving(Script(Reply(atom_feed(entries(1, 2), 6, 0)), Reply(cut))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG", "-o", str(out)]) == 1
    message = capsys.readouterr().err.splitlines()[-1]
    assert message.startswith("tui-reader: an arXiv page was not valid XML (")
    assert message.endswith(
        f"{out} keeps the 3 papers fetched so far: run the same command again to go on from there"
    )
    assert [r["title"] for r in lines(out)] == ["Paper 1", "Paper 2", "Paper 3"]

    again = Script(Reply(whole), Reply(atom_feed(entries(5, 6), 6, 4)))
    with serving(again) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG", "-o", str(out)]) == 0
    assert [r["start"] for r in server.requests] == ["2", "4"]
    assert [r["title"] for r in lines(out)] == [f"Paper {n}" for n in range(1, 7)]
    assert "3 new papers" in capsys.readouterr().err.splitlines()[-1]  # one was read before


def test_a_page_that_is_not_xml_at_all_is_reported() -> None:
    with pytest.raises(MalformedPage, match="not valid XML") as caught:
        parse_atom(b"<html><body>Service temporarily unavailable")
    assert caught.value.records == []


def test_xml_entities_that_expand_are_refused() -> None:
    bomb = b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><feed>&lol;</feed>'
    with pytest.raises(MalformedPage, match="not valid XML"):
        parse_atom(bomb)


OAI_FIRST = oai_page(
    [
        oai_record(
            "2506.00001",
            "Learning Sparse Codes",
            "cs.LG stat.ML",
            created="2025-06-01",
            updated="2025-06-02",
        ),
        oai_record("2506.00002", "Seeing Far", "cs.CV"),  # not a category asked for
        oai_record("2401.00009", "An Older Paper", "cs.LG", created="2024-01-02"),  # revised
        oai_record("2506.00003", "Gone", deleted=True),
    ],
    token="6960524|1001",
    cursor=0,
    size=6,
)
OAI_LAST = oai_page(
    [
        oai_record("2506.00004", "Kernel Methods Again", "stat.ML cs.LG"),
        oai_record("2506.00005", "Robots", "cs.RO"),
    ],
    token="",
    cursor=4,
    size=6,
)


def test_oai_harvest_pages_with_resumption_tokens(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with serving(Script(Reply(OAI_FIRST), Reply(OAI_LAST))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        monkeypatch.setenv("TUI_READER_ARXIV_API", closed_port_url())  # not used by a harvest
        assert run_fetch(["arxiv", "--category", "cs.LG", "--since", "2025-06-01"]) == 0
    assert server.requests == [
        {"verb": "ListRecords", "metadataPrefix": "arXiv", "from": "2025-06-01", "set": "cs"},
        {"verb": "ListRecords", "resumptionToken": "6960524|1001"},
    ]
    assert clock.waits == [3.0]
    records = lines(collection(tmp_path, "arxiv-cs-LG-since-2025-06-01"))
    assert [r["arxiv_id"] for r in records] == ["2506.00001", "2506.00004"]
    first = records[0]
    assert first["authors"] == ["Ada Lovelace", "Charles Babbage Jr"]
    assert first["abstract"] == "We harvest learning sparse codes."
    assert (first["published"], first["updated"], first["year"]) == (
        "2025-06-01",
        "2025-06-02",
        2025,
    )
    assert first["categories"] == ["cs.LG", "stat.ML"]
    assert first["arxiv_version"] is None  # the arXiv format gives no versions
    assert first["url"] == "https://arxiv.org/abs/2506.00001"
    err = capsys.readouterr().err
    assert "arXiv OAI-PMH cs.LG since 2025-06-01: [" in err
    assert "6 of 6" in err


def test_an_oai_page_cut_off_keeps_only_the_papers_asked_for(
    clock: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = OAI_FIRST[: OAI_FIRST.index(b"<record>", OAI_FIRST.index(b"2401.00009")) + 20]
    with serving(Script(Reply(cut))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG", "--since", "2025-06-01"]) == 1
    records = lines(collection(tmp_path, "arxiv-cs-LG-since-2025-06-01"))
    # Not Seeing Far (cs.CV) nor An Older Paper (submitted before --since), read before the cut.
    assert [r["arxiv_id"] for r in records] == ["2506.00001"]


def test_oai_harvests_the_set_of_each_archive_once(
    clock: FakeTime, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    empty = oai_error("noRecordsMatch", "No records match")
    with serving(Script(Reply(empty), Reply(empty))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        arguments = ["--category", "cs.LG", "--category", "cs.AI", "--category", "hep-th"]
        assert run_fetch(["arxiv", *arguments, "--since", "2025-06"]) == 0
    assert [r["set"] for r in server.requests] == ["cs", "physics:hep-th"]
    assert server.requests[0]["from"] == "2025-06-01"
    assert not (tmp_path / "data").exists()  # no papers: no file


def test_an_expired_resumption_token_starts_the_set_again(
    clock: FakeTime,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "h.jsonl"
    with serving(Script(Reply(OAI_FIRST), Reply(b"", 503))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        monkeypatch.setattr("tui_reader.core.sources.polite.RETRIES", 0)
        assert (
            run_fetch(["arxiv", "--category", "cs.LG", "--since", "2025-06-01", "-o", str(out)])
            == 1
        )
    assert "503 Service Unavailable, still after 0 retries" in capsys.readouterr().err
    assert len(lines(out)) == 1
    expired = oai_error(
        "badResumptionToken", "The value of the resumptionToken argument is invalid or expired."
    )
    with serving(Script(Reply(expired), Reply(OAI_FIRST), Reply(OAI_LAST))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        assert (
            run_fetch(["arxiv", "--category", "cs.LG", "--since", "2025-06-01", "-o", str(out)])
            == 0
        )
    assert [r.get("resumptionToken", r.get("set")) for r in server.requests] == [
        "6960524|1001",
        "cs",
        "6960524|1001",
    ]
    assert [r["arxiv_id"] for r in lines(out)] == ["2506.00001", "2506.00004"]


def test_an_oai_error_is_reported(
    clock: FakeTime, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = oai_error("badArgument", "Illegal set: nonsense")
    with serving(Script(Reply(bad))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG", "--since", "2025-06-01"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "tui-reader: arXiv OAI-PMH: badArgument Illegal set: nonsense; nothing was changed"
    )


def test_offline_says_so_in_one_line_and_changes_nothing(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("TUI_READER_ARXIV_API", closed_port_url())
    before = sorted(tmp_path.rglob("*"))
    assert run_fetch(["arxiv", "--category", "cs.LG"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("tui-reader: cannot reach arXiv at 127.0.0.1:")
    assert err[0].endswith("refused; offline?); nothing was changed")
    assert sorted(tmp_path.rglob("*")) == before
    assert clock.waits == []


def test_a_retry_after_that_is_not_a_number_is_waited_out_as_a_backoff(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    script = Script(Reply(b"busy", 503, {"Retry-After": "²"}), Reply(atom_feed(entries(1), 1)))
    with serving(script) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--query", "graph", "-o", str(tmp_path / "g.jsonl")]) == 0
    assert clock.waits == [polite.BACKOFF]
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"arXiv: 503 Service Unavailable; trying again in {polite.BACKOFF:.0f} s"


def test_a_redirect_to_a_file_stops_the_fetch_at_once_in_one_line(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with serving(Script(Reply(b"", 302, {"Location": "file:///etc/passwd"}))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG"]) == 1
    host = server.url.removeprefix("http://").removesuffix("/api")
    assert capsys.readouterr().err.splitlines() == [
        f"tui-reader: arXiv at {host}: redirects to file:///etc/passwd, which is not an "
        "http(s) address; nothing was changed"
    ]
    assert clock.waits == []
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        (["--category", "cs LG"], "not an arXiv category: 'cs LG'"),
        (["--since", "June"], "not a date: 'June'"),
        (["--category", "cs.LG", "--max", "0"], "not a number of papers: '0'"),
        ([], "say what to fetch: --category, --query or --since"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    clock: FakeTime,
    tmp_path: Path,
    arguments: list[str],
    problem: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_fetch(["arxiv", *arguments]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert problem in err[0]
    assert not (tmp_path / "data").exists()


def test_a_base_url_that_is_not_http_is_bad_usage(
    clock: FakeTime, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TUI_READER_ARXIV_API", "file:///etc/passwd")
    assert run_fetch(["arxiv", "--category", "cs.LG"]) == 2
    assert "$TUI_READER_ARXIV_API is not an http(s) URL" in capsys.readouterr().err


def test_fetch_is_a_command_of_tui_reader(
    clock: FakeTime, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from tui_reader.cli.program import main

    with serving(Script(Reply(atom_feed(entries(1), 1, 0)))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_API", server.url)
        assert main(["fetch", "arxiv", "--category", "cs.LG", "-o", str(tmp_path / "a.jsonl")]) == 0
    assert len(lines(tmp_path / "a.jsonl")) == 1


def test_the_config_names_the_services_and_the_environment_wins(
    clock: FakeTime, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "a.jsonl"
    config = tmp_path / "config.toml"
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    monkeypatch.delenv("TUI_READER_ARXIV_API", raising=False)
    with serving(Script(Reply(atom_feed(entries(1), 1, 0)))) as server:
        config.write_text(f'[sources]\narxiv_api = "{server.url}"\n', encoding="utf-8")
        assert run_fetch(["arxiv", "--category", "cs.LG", "-o", str(out)]) == 0
    assert len(server.requests) == 1 and len(lines(out)) == 1
    with serving(Script()) as unused, serving(Script(Reply(atom_feed(entries(2), 1, 0)))) as used:
        config.write_text(f'[sources]\narxiv_api = "{unused.url}"\n', encoding="utf-8")
        monkeypatch.setenv("TUI_READER_ARXIV_API", used.url)
        assert run_fetch(["arxiv", "--category", "cs.LG", "-o", str(out)]) == 0
    assert (len(unused.requests), len(used.requests)) == (0, 1)


def test_since_today_or_yesterday_is_a_date_a_cron_job_need_not_write() -> None:
    fetch = command_named("fetch")
    assert fetch is not None
    parsed = fetch.parser().parse_args(["arxiv", "--category", "cs.LG", "--since", "yesterday"])
    assert first_day(parsed.since) == date.today() - timedelta(days=1)
    parsed = fetch.parser().parse_args(["arxiv", "--category", "cs.LG", "--since", "Today"])
    assert first_day(parsed.since) == date.today()


def test_a_fetch_brings_the_papers_kept_for_the_reader_up_to_date_and_they_are_new(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The daily loop: a fetch into a collection kept for the reader takes its new papers
    into the entry kept (a part of their own), so the next start reads them at once, and
    `is:new` finds them."""
    out = tmp_path / "cs-LG.jsonl"
    fetch = ["arxiv", "--category", "cs.LG", "--since", "2025-06-01", "-o", str(out)]
    with serving(Script(Reply(OAI_FIRST), Reply(OAI_LAST))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        assert run_fetch(fetch) == 0
    assert program.main(["search", "kernel", str(out)]) == 0  # kept
    later = time.time() + 2 * DAY  # the next day: the first fetch's papers new no more
    monkeypatch.setattr(time, "time", lambda: later)
    day = [oai_record("2506.00007", "Kernel Bandits", "cs.LG"), oai_record("2506.00008", "Kernels")]
    with serving(Script(Reply(oai_page(day, token="", cursor=0, size=2)))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        assert run_fetch(fetch) == 0
    (entry,) = (tmp_path / "cache").glob("papers-v*")
    manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["sources"][0]["size"] == out.stat().st_size  # brought up to date
    assert len(manifest["parts"]) == 2
    capsys.readouterr()
    assert program.main(["search", "--format", "jsonl", "is:new", str(out)]) == 0
    found = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    assert sorted(found) == ["2506.00007", "2506.00008"]


def test_a_days_fetch_into_a_new_file_is_taken_in_by_the_collections_kept_at_once(
    clock: FakeTime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--since yesterday` names a new file each day: no entry held it, so the fetch brought
    nothing up to date, and the next start read the day's papers before it began."""
    with serving(Script(Reply(OAI_FIRST), Reply(OAI_LAST))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG", "--since", "2025-06-01"]) == 0
    assert program.main(["search", "kernel"]) == 0  # the fetched collections kept
    later = time.time() + 2 * DAY  # the next day: the first fetch's papers new no more
    monkeypatch.setattr(time, "time", lambda: later)
    day = [oai_record("2506.00007", "Kernel Bandits", "cs.LG"), oai_record("2506.00008", "Kernels")]
    with serving(Script(Reply(oai_page(day, token="", cursor=0, size=2)))) as server:
        monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
        assert run_fetch(["arxiv", "--category", "cs.LG", "--since", "2025-06-02"]) == 0
    files = sorted(map(str, collection(tmp_path, "x").parent.glob("*.jsonl")))
    kept = [json.loads(m.read_text()) for m in (tmp_path / "cache").glob("papers-v*/manifest.json")]
    (both,) = [manifest for manifest in kept if sorted(manifest["files"]) == files]
    assert len(files) == 2 and len(both["parts"]) == 2  # the day's file a part of its own
    capsys.readouterr()
    assert program.main(["search", "--format", "jsonl", "is:new"]) == 0
    found = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    assert sorted(found) == ["2506.00007", "2506.00008"]
