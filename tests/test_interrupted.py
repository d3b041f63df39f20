"""Ctrl-C during a command: one line and exit status 130, no traceback from the command or
its pools' processes, and nothing half-written left in the cache."""

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tui_reader.cli import program
from tui_reader.cli.commands import export as export_command
from tui_reader.core import atomic_file
from tui_reader.core.flat.build import POOLED_FROM
from tui_reader.core.library import Library
from tui_reader.core.loading import PROCESSES_FROM
from tui_reader.core.recommend import features, open_recommender
from tui_reader.core.store import PaperStore

WORDS = [f"w{number}x" for number in range(4000)]


def _papers(path: Path) -> Path:
    """Enough papers in a file big enough that both pools, reading and indexing, start."""
    draw = random.Random(7)
    with path.open("w", encoding="utf-8") as out:
        written, number = 0, 0
        while written < PROCESSES_FROM * 1.3 or number < POOLED_FROM * 1.3:
            record = {
                "title": f"Paper {number} " + " ".join(draw.choices(WORDS, k=6)),
                "abstract": " ".join(draw.choices(WORDS, k=140)),
                "authors": [f"Author {number % 97}"],
            }
            line = json.dumps(record) + "\n"
            written += out.write(line)
            number += 1
    return path


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):  # the thread ended
            found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0] != "Z"
    except OSError:
        return False


def _interrupted(arguments: list[str], after: float) -> tuple[int, str, set[int]]:
    """The command run as a terminal's foreground group, Ctrl-C sent to the whole group
    `after` seconds once its pool's processes have started: its status, its stderr and the
    processes it started."""
    started = subprocess.Popen(
        [sys.executable, "-m", "tui_reader", *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        # As a terminal starts it: a shell's background job (`cmd &`) is given SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while len(_children(started.pid)) < 2:  # a pool's processes (and its tracker)
            assert started.poll() is None and time.monotonic() < deadline, "no pool started"
            time.sleep(0.02)
        time.sleep(after)
        children = _children(started.pid)
        assert started.poll() is None, "it ended before Ctrl-C"
        os.killpg(started.pid, signal.SIGINT)
        _, err = started.communicate(timeout=60)
    finally:
        if started.poll() is None:
            started.kill()
    return started.returncode, err, children


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.0, 0.5, 2.0])
@pytest.mark.parametrize("command", ["search", "recommend"])
def test_ctrl_c_during_a_cold_build_says_one_line_and_leaves_nothing_half_written(
    tmp_path: Path, command: str, after: float
) -> None:
    papers = str(_papers(tmp_path / "papers.jsonl"))
    arguments = (
        ["search", "w1x", papers] if command == "search" else ["recommend", "--papers", papers]
    )
    status, err, children = _interrupted(arguments, after)
    assert (status, err) == (130, "tui-reader: interrupted\n")
    deadline = time.monotonic() + 10
    while any(_running(child) for child in children):  # the pools' processes end too
        assert time.monotonic() < deadline, "a pool's process is left running"
        time.sleep(0.05)
    cache = tmp_path / "cache"
    left = [path.name for path in cache.rglob("*")] if cache.exists() else []
    assert not [name for name in left if name.startswith(".writing-")]


def test_the_papers_rows_interrupted_as_they_are_kept_leave_nothing(
    tmp_path: Path, seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(folder: Path, *_: object) -> None:
        (folder / "rows.npy").write_bytes(b"half")
        raise KeyboardInterrupt

    monkeypatch.setattr(features, "save", interrupted)
    library = Library(None)  # decisions enough for a model: the rows are built as it opens
    ids = [seed_store.id_of(number) for number in range(6)]
    library.change(ids[:3], "kept", bookmarked=True, read=True)
    library.change(ids[3:], "skipped", read=True)
    with pytest.raises(KeyboardInterrupt):
        open_recommender(seed_store, library, None, tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()) == []


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_command_told_to_end_says_one_line_and_leaves_nothing_half_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    number: signal.Signals,
) -> None:
    """SIGTERM or SIGHUP (the terminal closed) as an export was being written ended the
    command with no line, its file half written left beside the one it replaces."""
    out = tmp_path / "out.md"
    out.write_text("kept as it was\n")

    def told_to_end(_descriptor: int) -> None:
        os.kill(os.getpid(), number)
        time.sleep(1)  # the handler runs in the meantime

    handlers = {n: signal.getsignal(n) for n in (signal.SIGTERM, signal.SIGHUP)}
    monkeypatch.setattr(atomic_file.os, "fsync", told_to_end)
    try:
        status = program.main(["export", "-o", str(out), "--force"])
    finally:
        for n, handler in handlers.items():
            signal.signal(n, handler)
    assert (status, capsys.readouterr().err) == (
        128 + number,
        f"tui-reader: ended ({number.name})\n",
    )
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".out")] == []
    assert out.read_text() == "kept as it was\n"


def test_a_command_out_of_memory_says_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under `ulimit -v`, a command ended in a MemoryError's traceback."""

    def no_memory(*_: object) -> str:
        raise MemoryError

    monkeypatch.setattr(export_command, "render", no_memory)
    status = program.main(["export", "--format", "md"])
    assert (status, capsys.readouterr().err) == (
        1,
        "tui-reader: out of memory: the command stopped\n",
    )
