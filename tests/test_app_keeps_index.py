"""The reader keeps the papers of a big input and their index once it has built it, in the
background while it runs (never at quit), and opens them from there next time."""

import errno
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.pilot_helpers import ready, wait_until
from tui_reader.cli import reader
from tui_reader.cli.program import main
from tui_reader.core import index_cache, opening
from tui_reader.core.library import Library
from tui_reader.core.opening import CacheWriter, Opening
from tui_reader.core.paper_columns import columns_of
from tui_reader.core.search_service import build_index
from tui_reader.core.segments import whole
from tui_reader.core.store import PaperStore
from tui_reader.core.writing import writing_prefix
from tui_reader.ui import loader, workspace
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.timings import Timings

KEPT_WITHIN = 30.0  # seconds


def kept(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("papers-v*"))


def test_the_reader_keeps_its_index_while_it_runs_and_opens_it_next_time(
    tmp_path: Path, write_seed: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "LOAD_AT_ONCE", 0)  # these two papers count as a big input
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    opened: list[ReaderApp] = []
    seen_running: list[list[Path]] = []
    run = ReaderApp.run

    def run_until_kept(app: ReaderApp) -> None:
        async def quit_once_kept(pilot: Pilot[Any]) -> None:
            await ready(pilot)
            ends = time.monotonic() + KEPT_WITHIN
            while not kept(tmp_path) and time.monotonic() < ends:
                await pilot.pause(0.05)
            seen_running.append(kept(tmp_path))
            app.exit()

        opened.append(app)
        run(app, headless=True, auto_pilot=quit_once_kept)

    monkeypatch.setattr(ReaderApp, "run", run_until_kept)
    assert main([str(path)]) == 0
    assert seen_running[0], f"nothing kept within {KEPT_WITHIN:g} s of the index being built"

    def fail(*_: object) -> None:
        raise AssertionError("the papers were loaded or indexed again")

    monkeypatch.setattr("tui_reader.core.segments.entry.build_index", fail)
    monkeypatch.setattr("tui_reader.core.segments.kept.build_index", fail)
    monkeypatch.setattr(opening, "build_index", fail)
    monkeypatch.setattr(opening, "stream_papers", fail)
    assert main([str(path)]) == 0
    second = opened[1]
    assert len(second.store) == 2 and second.workspace.index is not None


def test_a_kept_index_of_another_version_is_built_again_while_the_reader_runs(
    tmp_path: Path, write_seed: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It was built again before the screen came, saying nothing: minutes at a million
    papers, after an update that changed the index's format."""
    from tui_reader.core.flat import disk

    monkeypatch.setattr(reader, "LOAD_AT_ONCE", 0)
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    assert main(["search", "diffusion", str(path)]) == 0  # kept with its index
    monkeypatch.setattr(disk, "VERSION", disk.VERSION + 1)
    monkeypatch.setattr(opening, "stream_papers", lambda *_, **__: pytest.fail("loaded again"))
    at_start: list[object] = []
    run = ReaderApp.run

    def run_until_kept(app: ReaderApp) -> None:
        async def quit_once_kept(pilot: Pilot[Any]) -> None:
            at_start.append((len(app.store), app.workspace.loader.cached_index))
            await ready(pilot)
            ends = time.monotonic() + KEPT_WITHIN
            while not new_index_kept(tmp_path, disk.VERSION):
                assert time.monotonic() < ends, "the new index was not kept"
                await pilot.pause(0.05)
            app.exit()

        run(app, headless=True, auto_pilot=quit_once_kept)

    monkeypatch.setattr(ReaderApp, "run", run_until_kept)
    assert main([str(path)]) == 0
    assert at_start == [(2, None)]  # the papers at once, their index to come
    assert load_cached_again(path) == 2


def quit_when_ready(run: Any, app: ReaderApp) -> None:
    """The reader run by `run` (its own, unpatched) until its papers are ready, then quit."""

    async def quit_once_ready(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        app.exit()

    run(app, headless=True, auto_pilot=quit_once_ready)


def new_index_kept(tmp_path: Path, version: int) -> bool:
    """Whether the entry holds an index of this version (its folders may be replaced as they
    are looked through)."""
    try:
        return any(kept(tmp_path)[0].glob(f"parts/*/flat-v{version}-*"))
    except (IndexError, FileNotFoundError):
        return False


def load_cached_again(path: Path) -> int:
    from tui_reader.core.loading import check_paths

    indexed = index_cache.load_cached(check_paths([path]), rebuild=False)
    assert indexed is not None
    return len(indexed.index)


@pytest.mark.parametrize("cache", ["with room", "full"])
def test_a_quit_just_after_the_index_is_built_waits_for_it_to_be_kept(
    tmp_path: Path, write_seed: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any, cache: str
) -> None:
    """Kept in a thread the quit did not wait for: quitting at once lost minutes of indexing
    at a million papers, done again at the next start. A cache that cannot take it is said
    once the reader has closed, as the last line."""
    monkeypatch.setattr(reader, "LOAD_AT_ONCE", 0)
    if cache == "full":

        def no_space(*_: object) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(whole, "write_part", no_space)
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    write_entry, closed, asked = index_cache.write_entry, threading.Event(), threading.Event()

    def kept_once_closed(*arguments: Any, **keywords: Any) -> bool:
        # Still being written when the reader, closed, asks about it: a write of two papers
        # let go at once could end before the reader asks, and then nothing is to be said.
        if not closed.wait(30) or not asked.wait(30):
            raise AssertionError("the reader never closed, or never asked about the write")
        return write_entry(*arguments, **keywords)

    unfinished = CacheWriter.unfinished

    def asked_about(writer: CacheWriter) -> threading.Thread | None:
        found = unfinished(writer)
        asked.set()
        return found

    monkeypatch.setattr(index_cache, "write_entry", kept_once_closed)
    monkeypatch.setattr(CacheWriter, "unfinished", asked_about)
    run = ReaderApp.run

    def run_until_ready(app: ReaderApp) -> None:
        quit_when_ready(run, app)
        closed.set()  # the entry is still being written as the reader closes

    monkeypatch.setattr(ReaderApp, "run", run_until_ready)
    assert main([str(path)]) == 0
    told = capsys.readouterr().err.splitlines()
    if cache == "full":
        assert not kept(tmp_path)
        why = f"{tmp_path / 'cache'}: {os.strerror(errno.ENOSPC)}"
        not_kept = f"cache not kept: {why}; the next run reads and indexes the papers again"
        assert told[-1] == f"tui-reader: {not_kept}"
        told.pop()
    else:
        assert kept(tmp_path)
    assert "keeping the papers and their index for the next start" in told[-1]


def test_ctrl_c_while_the_last_write_is_waited_for_leaves_nothing_half_written(
    tmp_path: Path, write_seed: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """The writing thread ends with the process: its folder was left in the cache."""
    monkeypatch.setattr(reader, "LOAD_AT_ONCE", 0)
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    begun, let_go = threading.Event(), threading.Event()

    def begun_then_stuck(*_: Any, **__: Any) -> bool:
        (tmp_path / "cache").mkdir(exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=writing_prefix(), dir=tmp_path / "cache"))
        (folder / "parts").mkdir()
        (folder / "parts" / "keys.npy").write_bytes(b"half")
        begun.set()
        let_go.wait(30)
        return False

    class Interrupted:
        def join(self) -> None:
            assert begun.wait(30), "the write never began"
            raise KeyboardInterrupt  # Ctrl-C as the reader waits for it

    monkeypatch.setattr(index_cache, "write_entry", begun_then_stuck)
    monkeypatch.setattr(CacheWriter, "unfinished", lambda _: Interrupted())
    run = ReaderApp.run
    monkeypatch.setattr(ReaderApp, "run", lambda app: quit_when_ready(run, app))
    try:
        assert main([str(path)]) == 0
        assert not list((tmp_path / "cache").glob(".writing-*"))
    finally:
        let_go.set()


async def test_papers_kept_without_their_index_are_searched_as_it_is_built(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad index file planted at a million papers: the papers were opened and
    their index built again, and the filter found nothing for the 50 s that took."""
    used: list[int] = []
    use = workspace.Workspace._use_index

    def using(screen: workspace.Workspace, index: Any) -> None:
        used.append(len(index))
        use(screen, index)

    monkeypatch.setattr(workspace.Workspace, "_use_index", using)
    app = ReaderApp(Opening(seed_store), Library(None), timings=Timings(first_indexed=5))
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_until(pilot, lambda: app.workspace.status == "ready", "the whole index")
    assert used == [5, 10, len(seed_store)]


async def test_an_index_kept_from_before_is_searched_from_the_start(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It was handed to a thread that posted it back: the first frames came before it."""
    monkeypatch.setattr(loader, "in_background", lambda name, work: None)  # no threads
    index = build_index(seed_store)
    app = ReaderApp(Opening(seed_store, index=index), Library(None))
    async with app.run_test(size=(120, 30)) as pilot:
        assert app.workspace.status == "ready" and app.workspace.index is index
        await pilot.press("slash", *"diffusion")
        await wait_until(pilot, lambda: app.workspace.shown_query == "diffusion", "results")


async def test_the_header_says_while_the_index_is_kept_for_the_next_start(
    seed_store: PaperStore,
) -> None:
    """A quit then waits for it (9 s at a million papers): nothing said so
    until the reader had closed."""
    told: list[Any] = []

    class Told(CacheWriter):
        def __call__(self, *given: Any) -> None:
            told.append(given[-1])  # tells the reader once kept: here, once the test says

    app = ReaderApp(
        Opening(PaperStore(), stream=iter([columns_of(list(seed_store))]), cache_writer=Told([]))
    )
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: bool(told), "the index given to keep")
        await wait_until(pilot, lambda: app.workspace.settled, "the header")
        assert app.workspace.sub_title.endswith(" · keeping the index for the next start…")
        told[0](None, "")  # not kept, nothing to tell
        await wait_until(pilot, lambda: "keeping" not in app.workspace.sub_title, "the end")
        assert app.workspace.sub_title == f"{len(seed_store)} papers"
