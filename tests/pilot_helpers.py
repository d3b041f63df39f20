"""What tests read off the reader's screen, and waiting for it with a bound.

Tests import these from here, never from another test module.
"""

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Static
from textual.worker import WorkerCancelled

from tui_reader.core.loading import load_paths
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.paper_list import PaperList

POLL = 0.02  # seconds between looks while waiting
WORK_TIMEOUT = 60.0  # seconds the app's background work may take in a test


async def wait_until(
    pilot: Pilot[Any], condition: Callable[[], object], what: str, timeout: float = 10.0
) -> None:
    """Let the app run until `condition()` holds; fail, saying `what` was awaited, after
    `timeout` seconds. Bounded by the clock, so a slow machine waits longer but never forever."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:g} s for {what}", pytrace=False)
        await pilot.pause(POLL)


async def work_done(app: App[Any], timeout: float = WORK_TIMEOUT) -> None:
    """Wait, up to `timeout` seconds, for the work the app has running now (its workers).

    The reader cancels a search (or sort) made stale by the next key on purpose, so a worker
    cancelled while waited for is no failure; one that failed raises its error here. A dialog
    flow (group "dialog") waits for the reader's answer, not for work: it is not waited for."""
    waiting = [worker for worker in app.workers if worker.group != "dialog"]
    waits = asyncio.gather(*(worker.wait() for worker in waiting), return_exceptions=True)
    try:
        outcomes = await asyncio.wait_for(waits, timeout)
    except TimeoutError:
        names = ", ".join(worker.name for worker in waiting if not worker.is_finished)
        pytest.fail(f"waited {timeout:g} s for the app's work: {names}", pytrace=False)
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(
            outcome, (WorkerCancelled, asyncio.CancelledError)
        ):
            raise outcome


def lines(app: ReaderApp) -> list[str]:
    """The text of the list's visible rows, blank rows dropped."""
    paper_list = app.query_one(PaperList)
    strips = (paper_list.render_line(y) for y in range(paper_list.size.height))
    texts = ("".join(segment.text for segment in strip) for strip in strips)
    return [text for text in texts if text.strip()]


def rows(app: ReaderApp) -> list[str]:
    """The visible rows without their mark, star and unread columns."""
    if not app.query_one(PaperList).papers:
        return [line.strip() for line in lines(app)]
    return [line[4:].strip() for line in lines(app)]


def detail(app: ReaderApp) -> str:
    """The detail pane's text."""
    content = app.query_one("#detail-body", Static).content
    assert isinstance(content, Content)
    return content.plain


def store_from(path: Path) -> PaperStore:
    loaded = load_paths([path])
    return PaperStore(loaded.papers, loaded.collections)


async def work_shown(pilot: Pilot[Any]) -> None:
    """Wait for the app's work, then for what it gives to be drawn."""
    await work_done(pilot.app)
    await pilot.pause()


async def keys_handled(pilot: Pilot[Any]) -> None:
    """Let every key of a burst be handled (keys are handled in a few frames at most)."""
    await work_done(pilot.app)
    for _ in range(5):
        await pilot.pause(0.02)


async def settled(pilot: Pilot[Any]) -> None:
    """Wait for the detail pane and the header to follow the list (once keys pause)."""
    app = pilot.app
    assert isinstance(app, ReaderApp)
    await wait_until(pilot, lambda: app.workspace.settled, "the detail pane and the header")
    await pilot.pause()


async def type_filter(pilot: Pilot[Any], text: str) -> None:
    """Type a query into the filter and wait for its results, and the pane and header."""
    await pilot.press("slash", *text)
    await work_done(pilot.app)
    await pilot.pause()
    await settled(pilot)


async def related_shown(pilot: Pilot[Any], paper_id: str) -> None:
    """Wait for the related papers, found once the cursor has rested on the paper."""
    pane = pilot.app.query_one(DetailPane)
    await wait_until(pilot, lambda: pane.related[0] == paper_id, f"papers related to {paper_id}")


async def ready(pilot: Pilot[Any]) -> None:
    """Wait until the papers are loaded and indexed."""
    app = pilot.app
    assert isinstance(app, ReaderApp)
    await wait_until(
        pilot, lambda: app.workspace.status == "ready", "the papers loaded and indexed", 60
    )


async def at_rest(pilot: Pilot[Any]) -> None:
    """Wait for the search, the pane and header, then the related papers of the paper shown:
    nothing left that changes the screen."""
    await work_shown(pilot)
    await settled(pilot)
    await related_shown(pilot, pilot.app.query_one(PaperList).current.id)
    await work_shown(pilot)
