"""Quitting at any moment is clean: what background work finds after the reader has begun to
quit is dropped, never delivered to panes that are being taken down."""

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from textual.widgets import Static
from textual.worker import Worker

from tests.pilot_helpers import wait_until
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui import detail_pane as detail_module
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.timings import Timings

LOOPS = 10


class ThreadWork:
    """The work of the app's thread workers: what it raised, even after its worker was
    cancelled (as the reader quits), when nothing else would see it; and whether it is done."""

    def __init__(self) -> None:
        self.errors: list[BaseException] = []
        self.running = 0
        self.changed = threading.Condition()

    def watch(self, work: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            with self.changed:
                self.running += 1
            try:
                return work()
            except BaseException as error:
                self.errors.append(error)
                raise
            finally:
                with self.changed:
                    self.running -= 1
                    self.changed.notify_all()

        return run

    async def finished(self, timeout: float = 10) -> None:
        def wait() -> bool:
            with self.changed:
                return self.changed.wait_for(lambda: self.running == 0, timeout)

        assert await asyncio.to_thread(wait), f"background work still running after {timeout} s"


@pytest.fixture
def thread_work(monkeypatch: pytest.MonkeyPatch) -> ThreadWork:
    watched = ThreadWork()
    init = Worker.__init__

    def watching(worker: Worker[Any], node: Any, work: Any, **options: Any) -> None:
        thread_work = options.get("thread") and callable(work)
        init(worker, node, watched.watch(work) if thread_work else work, **options)

    monkeypatch.setattr(Worker, "__init__", watching)
    return watched


@pytest.fixture
def results_while_quitting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Related papers and search results are found just as the reader quits: once the detail
    pane's text has been taken down, and the pane itself not yet (where NoMatches was raised).
    Returns what is being found."""
    quitting = threading.Event()
    finding: list[str] = []

    class Body(Static):
        def on_mount(self) -> None:
            quitting.clear()
            finding.clear()

        def on_unmount(self) -> None:
            quitting.set()

    def at_quit(method: Callable[..., Any]) -> Callable[..., Any]:
        def found(*args: Any, **kwargs: Any) -> Any:
            answer = method(*args, **kwargs)
            finding.append(method.__name__)
            assert quitting.wait(10), "the reader did not quit"
            return answer

        return found

    monkeypatch.setattr(detail_module, "Static", Body)
    monkeypatch.setattr(FlatIndex, "related", at_quit(FlatIndex.related))
    monkeypatch.setattr(FlatIndex, "run", at_quit(FlatIndex.run))
    return finding


async def quit_while_finding(
    store: PaperStore, finding: list[str], what: str, *keys: str
) -> ReaderApp:
    """Send the keys, and quit while the work they started finds `what`."""
    app = ReaderApp(
        Opening(store), timings=Timings(related_after=0.001)
    )  # found as the cursor moves
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*keys)
        await wait_until(pilot, lambda: what in finding, f"{what} to be found")
        await pilot.press("q")
    return app


async def test_quitting_right_after_moving_the_cursor(
    seed_store: PaperStore, results_while_quitting: list[str], thread_work: ThreadWork
) -> None:
    for _ in range(LOOPS):
        app = await quit_while_finding(seed_store, results_while_quitting, "related", "j")
        await thread_work.finished()  # the related papers are found as the reader quits
        assert app.return_code == 0 and app._exception is None, app._exception
        assert thread_work.errors == []
        assert app.workspace.detail_pane.related[0] != seed_store[1].id  # dropped


@pytest.mark.slow
async def test_quitting_right_after_typing_a_query(
    seed_store: PaperStore, results_while_quitting: list[str], thread_work: ThreadWork
) -> None:
    for _ in range(LOOPS):
        keys = ("slash", *"graph", "tab")  # Tab leaves the search to its thread
        app = await quit_while_finding(seed_store, results_while_quitting, "run", *keys)
        await thread_work.finished()
        assert app.return_code == 0 and app._exception is None, app._exception
        assert thread_work.errors == []
        assert app.workspace.shown_query == ""  # the results were dropped


@pytest.mark.parametrize("where", ["list", "triage"])
async def test_a_note_being_written_when_the_reader_closes_is_kept(
    seed_store: PaperStore, where: str
) -> None:
    """Ctrl+Q, SIGTERM or a closed terminal (the command's exit) with the note editor open
    threw its text away: only Escape or Ctrl+S saved it."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.workspace.paper_list.current is not None, "papers")
        paper = app.workspace.paper_list.current
        assert paper is not None
        if where == "triage":
            await pilot.press("I")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "TriageScreen", "triage")
            paper = app.screen.triage.current  # type: ignore[attr-defined]
        await pilot.press("n", *"half a thought")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "NoteEditor", "the editor")
        await pilot.pause()
        app.exit()
    assert app.library.note(paper.id) == "half a thought"
