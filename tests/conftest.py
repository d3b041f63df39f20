import os
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

from tui_reader.core.loading import load_paths
from tui_reader.core.store import PaperStore

SEEDS = Path(__file__).resolve().parent.parent / "seeds"

# The suite runs on shared machines, where a deadline fails an example for the machine's load,
# not the code's; a failure prints the blob that replays it (@reproduce_failure).
settings.register_profile("suite", deadline=None, print_blob=True)
settings.load_profile("suite")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: two workers more than the cores, as most tests of the reader wait on its
    timers and threads, not on a core (on 2 cores, the suite takes 447 s with 2 workers and
    392 s with 4). PYTEST_XDIST_AUTO_NUM_WORKERS still sets the number."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 2


@pytest.fixture(autouse=True)
def private_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test, and every command it runs, uses a library of its own, never the user's,
    and no config, session or cache file but those a test writes."""
    path = tmp_path / "library" / "library.json"
    path.parent.mkdir()
    monkeypatch.setenv("TUI_READER_LIBRARY", str(path))
    config = tmp_path / "empty-config.toml"
    config.touch()
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    monkeypatch.setenv("TUI_READER_SESSION", str(tmp_path / "session.json"))
    monkeypatch.setenv("TUI_READER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # fetched collections
    return path


@pytest.fixture
def unhurried_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """No paper is read by the clock: a test that is not about reading has no timer firing
    while it ends (which can race the app's shutdown on a slow machine)."""
    from tui_reader.ui import app

    monkeypatch.setattr(app, "READ_AFTER", 3600.0)


@pytest.fixture
def seed_store() -> PaperStore:
    return load_paths([SEEDS]).papers


@pytest.fixture
def write_seed(tmp_path: Path) -> Callable[..., Path]:
    """Write a seed-format file from a header and abstracts; returns its path."""

    def write(*abstracts: str, header: str | None = "Test Papers", name: str = "test.txt") -> Path:
        paragraphs = ([header] if header is not None else []) + list(abstracts)
        path = tmp_path / name
        path.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
        return path

    return write


def as_nobody(check: Callable[[], None]) -> None:
    """Run `check` as nobody in a child process: where tests run as root (as in CI), file
    permissions bite only another user."""
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        code = 1
        try:
            os.setgid(65534)
            os.setuid(65534)
            check()
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
