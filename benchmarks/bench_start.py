"""Time the real reader's start as a user meets it: from running `tui-reader FILE` in a
terminal to the first frame that shows the file's first paper.

    python benchmarks/bench_start.py /tmp/corpus-100k.jsonl.gz            # five runs
    python benchmarks/bench_start.py --runs 9 /tmp/corpus-100k.jsonl.gz

The reader runs in a pseudo-terminal of 120x40 with a library, settings and session of its
own (in a temporary folder), and the cache folder of the user running this: run
`tui-reader search x FILE` once first for a warm start. `bench_app.py` imports the app in its
own process and drives it through Pilot; this runs the command itself, its imports and
settings included, and reads what it writes to the terminal.
"""

import argparse
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

from tui_reader.core.loading import iter_file
from tui_reader.core.store import papers_of

ESCAPES = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]"
)


def first_headline(path: Path) -> str:
    """The start of the headline the list shows first (papers in file order)."""
    papers = iter_file(path)
    try:
        batch = next(item for item in papers if not isinstance(item, str))
    finally:
        papers.close()  # type: ignore[attr-defined]
    return papers_of(batch)[0].headline[:24]


def command() -> list[str]:
    script = Path(sys.executable).with_name("tui-reader")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui_reader"]


def one_start(path: Path, marker: bytes, home: str, limit: float) -> float | None:
    """Seconds until the marker is on the screen, None if it did not come within `limit`."""
    environment = dict(
        os.environ,
        TERM="xterm-256color",
        XDG_DATA_HOME=f"{home}/data",
        XDG_CONFIG_HOME=f"{home}/config",
        XDG_STATE_HOME=f"{home}/state",
    )
    started = time.perf_counter()
    pid, terminal = pty.fork()
    if pid == 0:
        arguments = [*command(), "--fresh", str(path)]
        os.execvpe(arguments[0], arguments, environment)
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    written, seen = b"", None
    while seen is None and time.perf_counter() - started < limit:
        if not select.select([terminal], [], [], 0.01)[0]:
            continue
        try:
            written += os.read(terminal, 1 << 16)
        except OSError:  # the reader ended
            break
        if marker in ESCAPES.sub(b"", written):
            seen = time.perf_counter() - started
    os.kill(pid, signal.SIGTERM)
    try:
        while select.select([terminal], [], [], 2)[0] and os.read(terminal, 1 << 16):
            pass  # until it has quit
    except OSError:
        pass
    os.waitpid(pid, 0)
    os.close(terminal)
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit", type=float, default=30.0, help="seconds to wait a run")
    arguments = parser.parse_args()
    marker = first_headline(arguments.corpus).encode()
    times = []
    with tempfile.TemporaryDirectory() as home:
        for run in range(arguments.runs):
            seen = one_start(arguments.corpus, marker, home, arguments.limit)
            print(f"run {run + 1}: " + (f"{seen:.3f} s" if seen else "not seen"), flush=True)
            if seen:
                times.append(seen)
    if times:
        print(
            f"first paper on the screen: median {statistics.median(times):.3f} s, "
            f"best {min(times):.3f} s, {len(times)} of {arguments.runs} runs"
        )


if __name__ == "__main__":
    main()
