import asyncio
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from textual.worker import Worker, WorkerCancelled
from textual.worker_manager import WorkerManager

from tui_reader.core.loading import load_paths
from tui_reader.core.store import PaperStore

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@pytest.fixture(autouse=True)
def private_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test, and every command it runs, uses a library of its own, never the user's,
    and no config, session or cache file but those a test writes."""
    path = tmp_path / "library" / "library.json"
    path.parent.mkdir()
    monkeypatch.setenv("TUI_READER_LIBRARY", str(path))
    monkeypatch.setenv("TUI_READER_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.setenv("TUI_READER_SESSION", str(tmp_path / "session.json"))
    monkeypatch.setenv("TUI_READER_CACHE", str(tmp_path / "cache"))
    return path


WORK_TIMEOUT = 60.0  # seconds the app's background work may take in a test


@pytest.fixture(autouse=True)
def stale_work_may_be_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    """`app.workers.wait_for_complete()` waits for the work that counts, up to WORK_TIMEOUT.
    The reader cancels a search (or sort) made stale by the next key on purpose; Textual's
    wait would raise for it when it happens to be cancelled mid-wait, which depends on the
    machine's speed."""

    async def wait_for_complete(
        manager: WorkerManager, workers: Iterable[Worker[object]] | None = None
    ) -> None:
        waiting = list(workers or manager)
        waits = asyncio.gather(*(worker.wait() for worker in waiting), return_exceptions=True)
        try:
            outcomes = await asyncio.wait_for(waits, WORK_TIMEOUT)
        except asyncio.TimeoutError:
            names = ", ".join(worker.name for worker in waiting if not worker.is_finished)
            pytest.fail(f"waited {WORK_TIMEOUT:g} s for the app's work: {names}", pytrace=False)
        for outcome in outcomes:
            if isinstance(outcome, BaseException) and not isinstance(
                outcome, (WorkerCancelled, asyncio.CancelledError)
            ):
                raise outcome

    monkeypatch.setattr(WorkerManager, "wait_for_complete", wait_for_complete)


@pytest.fixture
def unhurried_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """No paper is read by the clock: a test that is not about reading has no timer firing
    while it ends (which can race the app's shutdown on a slow machine)."""
    from tui_reader.ui import app

    monkeypatch.setattr(app, "READ_AFTER", 3600.0)


@pytest.fixture
def seed_store() -> PaperStore:
    loaded = load_paths([SEEDS])
    return PaperStore(loaded.papers, loaded.collections)


@pytest.fixture
def write_seed(tmp_path: Path) -> Callable[..., Path]:
    """Write a seed-format file from a header and abstracts; returns its path."""

    def write(*abstracts: str, header: str | None = "Test Papers", name: str = "test.txt") -> Path:
        paragraphs = ([header] if header is not None else []) + list(abstracts)
        path = tmp_path / name
        path.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
        return path

    return write
