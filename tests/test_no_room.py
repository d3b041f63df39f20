"""A build with no room for its temporary files (a full disk, a temporary folder that cannot be
written) says so in one line, keeps nothing half-written in the cache, leaves no temporary
file, and leaves what was kept before as it was; the reader goes on with the papers it has.
A cache folder that cannot take the entry (a full disk, a file where a folder should be) is
said in one line too, and the search or the reader goes on: so is one that cannot take the
entry brought up to date, its index built again, or what a fetch added to it."""

import errno
import json
import os
import random
import tempfile
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.fetch_helpers import Reply, Script, fetch_clock, lines, oai_page, oai_record, serving
from tests.pilot_helpers import wait_until
from tui_reader.core import columns, loading
from tui_reader.core.flat import disk, postings
from tui_reader.core.library import Library
from tui_reader.core.opening import CacheWriter, Opening, Way, open_papers
from tui_reader.core.paper_columns import columns_of
from tui_reader.core.search_service import build_index
from tui_reader.core.segments import whole
from tui_reader.core.sources import arxiv
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp

WORDS = [
    "diffusion",
    "graph",
    "neural",
    "sparse",
    "attention",
    "kernel",
    "bandit",
    "gradient",
    "prior",
    "policy",
]


def papers_file(path: Path, count: int, seed: int = 1) -> Path:
    draw = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for n in range(count):
            abstract = " ".join(draw.choices(WORDS, k=40)) + f" number {seed}-{n}."
            record = {"title": " ".join(draw.choices(WORDS, k=5)), "abstract": abstract}
            out.write(json.dumps(record) + "\n")
    return path


def no_space(*arguments: object) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder temporary files go to."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def kept(root: Path) -> dict[str, bytes]:
    """Every file under the cache folder, by its path there."""
    return {
        str(path.relative_to(root)): path.read_bytes() for path in root.rglob("*") if path.is_file()
    }


@pytest.mark.parametrize("where", ["store", "postings", "folder"])
def test_a_search_with_no_room_for_its_temporary_files_says_so_and_keeps_nothing(
    tmp_path: Path,
    scratch: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    where: str,
) -> None:
    before = papers_file(tmp_path / "before.jsonl", 60, seed=1)
    day = papers_file(tmp_path / "day.jsonl", 300, seed=2)
    status, out, err = run(capsys, "search", "diffusion", str(before))
    assert status == 0 and out and not err
    cache = tmp_path / "cache"
    kept_before = kept(cache)
    with monkeypatch.context() as patched:
        for name in ("FIRST_BATCH", "BATCH"):
            patched.setattr(loading, name, 50)
        if where == "store":  # the texts past the first batch's go to a temporary file
            patched.setattr(columns, "SPILL_FROM", 1)
        elif where == "postings":  # the postings are made in temporary files
            patched.setattr(postings, "WINDOW", 100)
        if where == "folder":
            patched.setattr(tempfile, "tempdir", str(tmp_path / "not-there"))
            why = f"temporary files cannot be written in {tmp_path / 'not-there'} (No such file"
        else:
            patched.setattr(os, "pwrite", no_space)
            why = f"temporary files cannot be written in {scratch} (no space left on the device)"
        status, out, err = run(capsys, "search", "diffusion", str(before), str(day))
        assert status == 1 and not out
        (line,) = err.splitlines()
        assert line.startswith(f"tui-reader: the papers could not be read and indexed: {why}")
        assert line.endswith(": TMPDIR names another folder")
        assert kept(cache) == kept_before  # nothing half-written, the entry kept before intact
        assert not list(scratch.iterdir())
    status, out, err = run(capsys, "search", "diffusion", str(before))
    assert status == 0 and out and not err


def test_the_reader_with_no_room_for_a_small_input_says_so_and_exits(
    tmp_path: Path,
    scratch: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = papers_file(tmp_path / "papers.jsonl", 200)
    for name in ("FIRST_BATCH", "BATCH"):
        monkeypatch.setattr(loading, name, 50)
    monkeypatch.setattr(columns, "SPILL_FROM", 1)
    monkeypatch.setattr(os, "pwrite", no_space)

    def never(*arguments: object, **named: object) -> None:
        raise AssertionError("the reader started")

    monkeypatch.setattr(ReaderApp, "run", never)
    status, out, err = run(capsys, str(path))
    assert status == 1 and not out
    (line,) = err.splitlines()
    assert "(no space left on the device): TMPDIR names another folder" in line
    assert not list(scratch.iterdir()) and not (tmp_path / "cache").exists()


async def test_the_reader_with_no_room_while_papers_stream_goes_on_with_those_it_has(
    tmp_path: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers = list(loading.load_paths([papers_file(tmp_path / "papers.jsonl", 120)]).papers)
    monkeypatch.setattr(columns, "SPILL_FROM", 1)  # the second batch goes to a temporary file
    monkeypatch.setattr(os, "pwrite", no_space)
    written: list[object] = []
    stream = iter([columns_of(papers[:40]), columns_of(papers[40:])])
    opening = Opening(PaperStore(), stream=stream, cache_writer=written.append)  # type: ignore[arg-type]
    app = ReaderApp(opening, Library(None))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        shown = app.workspace
        told = (
            f"The papers could not be indexed: temporary files cannot be written in {scratch} "
            "(no space left on the device): TMPDIR names another folder; "
            "loading stopped at 40 papers"
        )
        await wait_until(
            pilot, lambda: told in [notice.message for notice in app._notifications], "the notice"
        )
        await wait_until(pilot, lambda: "not indexed" in str(shown.sub_title), "the header")
        assert shown.sub_title == "40 papers · not indexed"
        await pilot.press("j", "j")
        assert shown.paper_list.cursor == 2
        await pilot.press("slash", *"diffusion")  # the list is all the papers, and says so
        assert shown.sub_title == "40 papers · not indexed"
    assert not written


def not_kept(folder: Path, why: str) -> str:
    return f"cache not kept: {folder}: {why}; the next run reads and indexes the papers again"


@pytest.mark.parametrize("cache", ["full", "under a file", "a file"])
def test_a_search_whose_cache_cannot_take_the_entry_says_so_in_one_line_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], cache: str
) -> None:
    path = papers_file(tmp_path / "papers.jsonl", 60)
    if cache == "full":  # the entry's part cannot be written
        folder, why = tmp_path / "cache", os.strerror(errno.ENOSPC)
        monkeypatch.setattr(whole, "write_part", no_space)
    elif cache == "under a file":  # as a folder that cannot be written, for a user the
        folder, why = tmp_path / "a file" / "cache", os.strerror(errno.ENOTDIR)  # permissions
        (tmp_path / "a file").write_text("not a folder", encoding="utf-8")  # hold to them
        monkeypatch.setenv("TUI_READER_CACHE", str(folder))
    else:  # mkdir says "File exists"
        folder, why = tmp_path / "a file", "not a folder"
        folder.write_text("not a folder", encoding="utf-8")
        monkeypatch.setenv("TUI_READER_CACHE", str(folder))
    for _ in range(2):  # said at every run that cannot keep it
        status, out, err = run(capsys, "search", "diffusion", str(path))
        assert status == 0 and "diffusion" in out
        assert err.splitlines() == [f"tui-reader: {not_kept(folder, why)}"]
        assert not folder.is_dir() or not list(folder.iterdir())  # no entry, nor a part of one


async def test_the_reader_whose_cache_cannot_take_the_entry_says_so_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = papers_file(tmp_path / "papers.jsonl", 60)
    monkeypatch.setattr(whole, "write_part", no_space)
    store = loading.load_paths([path]).papers
    app = ReaderApp(Opening(store, cache_writer=CacheWriter([path])), Library(None))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        told = not_kept(tmp_path / "cache", os.strerror(errno.ENOSPC))
        told = told[0].upper() + told[1:]

        def notices() -> list[tuple[str, str]]:
            return [(notice.message, notice.severity) for notice in app._notifications]

        await wait_until(pilot, lambda: (told, "warning") in notices(), "the notice")
        shown = app.workspace
        await wait_until(pilot, lambda: shown.sub_title == "60 papers", "the header")
        await pilot.press("slash", *"diffusion")
        await wait_until(pilot, lambda: shown.shown_query == "diffusion", "results")
        assert [message for message, _ in notices()].count(told) == 1
    assert not list((tmp_path / "cache").iterdir())


def appended(path: Path) -> None:
    with path.open("a", encoding="utf-8") as papers:
        papers.write(json.dumps({"title": "Appended", "abstract": "Diffusion appended."}) + "\n")


@pytest.mark.parametrize("kept", ["appended to", "of another version"])
def test_a_search_whose_cache_cannot_take_the_entry_it_kept_made_anew_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], kept: str
) -> None:
    """Not also that the entry kept could not be used: it was sound, the disk full."""
    path = papers_file(tmp_path / "papers.jsonl", 60)
    assert run(capsys, "search", "diffusion", str(path))[0] == 0
    if kept == "appended to":  # the entry brought up to date
        appended(path)
    else:  # its index built again
        monkeypatch.setattr(disk, "VERSION", disk.VERSION + 1)
    monkeypatch.setattr(disk, "save_array", no_space)
    status, out, err = run(
        capsys, "search", "appended" if kept == "appended to" else "diffusion", str(path)
    )
    assert status == 0 and out
    assert err.splitlines() == [
        f"tui-reader: {not_kept(tmp_path / 'cache', os.strerror(errno.ENOSPC))}"
    ]


def test_the_reader_whose_cache_cannot_take_the_papers_appended_says_so_once_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = papers_file(tmp_path / "papers.jsonl", 60)
    open_papers([path], [path], indexed=True)  # kept
    appended(path)
    monkeypatch.setattr(disk, "save_array", no_space)
    found = open_papers([path], [path], stream_from=10**9)
    assert found.way is Way.LOADED and not found.cache_problems  # told when the write fails
    assert isinstance(found.cache_writer, CacheWriter)
    found.cache_writer(found.store, build_index(found.store), (), 0, lambda *_: None)
    if (write := found.cache_writer.unfinished()) is not None:
        write.join()
    assert found.cache_writer.not_kept == not_kept(tmp_path / "cache", os.strerror(errno.ENOSPC))


def test_a_fetch_whose_cache_cannot_take_the_new_papers_says_so_once_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_clock(monkeypatch, tmp_path / "data", arxiv)
    out = tmp_path / "cs-LG.jsonl"
    fetch = ["fetch", "arxiv", "--category", "cs.LG", "--since", "2025-06-01"]

    def fetched(number: int) -> str:
        """Fetch the paper of this number into `out`, which then holds that many; stderr."""
        record = oai_record(f"2506.0000{number}", f"Kernel Methods {number}")
        with serving(Script(Reply(oai_page([record], token="", cursor=0, size=1)))) as server:
            monkeypatch.setenv("TUI_READER_ARXIV_OAI", server.url)
            status, _, err = run(capsys, *fetch, "-o", str(out))
        assert status == 0 and len(lines(out)) == number
        return err

    fetched(1)
    assert run(capsys, "search", "kernel", str(out))[0] == 0  # kept: the entry a fetch refreshes
    monkeypatch.setattr(disk, "save_array", no_space)
    told = f"tui-reader: {not_kept(tmp_path / 'cache', os.strerror(errno.ENOSPC))}"
    assert fetched(2).splitlines().count(told) == 1
