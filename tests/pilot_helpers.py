"""What tests read off the reader's screen, and waiting for it with a bound.

Tests import these from here, never from another test module.
"""

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Static

from tui_reader.core.loading import load_paths
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.paper_list import PaperList

POLL = 0.02  # seconds between looks while waiting


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


async def type_filter(pilot: Pilot[Any], text: str) -> None:
    """Type a query into the filter and wait for its results."""
    await pilot.press("slash", *text)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def related_shown(pilot: Pilot[Any], paper_id: str) -> None:
    """Wait for the related papers, found once the cursor has rested on the paper."""
    pane = pilot.app.query_one(DetailPane)
    await wait_until(pilot, lambda: pane.related[0] == paper_id, f"papers related to {paper_id}")


async def ready(pilot: Pilot[Any]) -> None:
    """Wait until the papers are loaded and indexed."""
    app = pilot.app
    assert isinstance(app, ReaderApp)
    await wait_until(pilot, lambda: app.status == "ready", "the papers loaded and indexed", 60)
