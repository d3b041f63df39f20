"""The CPU a paper of each step of a cold build, every step run in this one process, so that
the pools' work is counted with the reader's (on a shared or loaded machine CPU time moves far
less than wall time).

    python benchmarks/bench_cold.py CORPUS                   # CPU a paper of each step
    python benchmarks/bench_cold.py CORPUS --profile read    # and cProfile's costliest calls

The steps, as a cold start runs them (core.loading, core.flat.build): `cut` the file into
pieces (the loading process), `read` each piece into papers as the store's columns, pickled
(a pool's process), `add` them to the store (the loading process); then the index: `join` a
chunk's searched fields (the reader's process), `index` it (a pool's process), `send` what
that gives (pickled there, read back here), `merge` it (the reader's process), and make the
`arrays` once every chunk is merged (after the last paper: the serial part). On 2 cores both
processes stay busy to the end of a cold start, so its wall time is about the CPU total over
2, plus `arrays`.
"""

import argparse
import cProfile
import io
import pickle
import pstats
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reader.core.file_bytes import file_start
from tui_reader.core.flat import build
from tui_reader.core.formats import Record, input_format
from tui_reader.core.loading import NO_FILTER, _pieces, _read_piece
from tui_reader.core.paper import Paper
from tui_reader.core.store import PaperStore

STEPS = ("cut", "read", "add", "join", "index", "send", "merge", "arrays")


class Steps:
    """The CPU time of each step, and a profile of those asked for."""

    def __init__(self, profiled: list[str]) -> None:
        self.seconds = dict.fromkeys(STEPS, 0.0)
        self.profiles = {step: cProfile.Profile() for step in profiled}

    def run(self, step: str, work: Callable[..., Any], *arguments: Any) -> Any:
        profile = self.profiles.get(step)
        if profile is not None:
            profile.enable()
        start = time.process_time()
        result = work(*arguments)
        self.seconds[step] += time.process_time() - start
        if profile is not None:
            profile.disable()
        return result


def load(path: Path, steps: Steps) -> PaperStore:
    """The papers of a file of a record a line or a paragraph, as a pool reads them."""
    start = file_start(path)
    cutting = input_format(path.name, start).pieces
    if cutting is None:
        raise SystemExit(f"{path}: not a format read by a pool (JSON Lines, seed text, arXiv's)")
    read = cutting.reader(start)
    pieces = _pieces(path, cutting)
    store = PaperStore()
    recent: OrderedDict[Record, Paper] = OrderedDict()
    while (piece := steps.run("cut", next, pieces, None)) is not None:
        if isinstance(piece, tuple):
            sent = steps.run("read", _read_piece, read, *piece, path, NO_FILTER, recent)
            steps.run("add", lambda sent=sent: store.extend(pickle.loads(sent[0])[0]))
    return store


def index(store: PaperStore, steps: Steps) -> None:
    """The index of the store's papers, a chunk at a time, as a pool reads them."""
    count = len(store)
    growing = build.GrowingIndex(1)
    reader = build._Reader(by_arrow=True)
    for first, joined, size in steps.run("join", lambda: list(build._chunks(store, 0, count))):
        growing._untitled += steps.run("join", build._untitled, store, first, first + size)
        read = steps.run("index", reader.read, joined, size)
        sent = steps.run("send", pickle.dumps, read, pickle.HIGHEST_PROTOCOL)
        steps.run("merge", growing._merged.add, steps.run("send", pickle.loads, sent), first)
    growing.count = count
    steps.run("arrays", growing.arrays)
    growing.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--profile", action="append", choices=STEPS, default=[])
    parser.add_argument("--top", type=int, default=25, help="calls a profile lists")
    arguments = parser.parse_args()
    steps = Steps(arguments.profile)
    store = load(arguments.corpus, steps)
    index(store, steps)
    count = len(store)
    print(f"{arguments.corpus.name}: {count:,} papers, CPU a paper")
    for step, seconds in steps.seconds.items():
        print(f"  {step:8} {seconds * 1e6 / count:7.1f} µs")
    print(f"  {'total':8} {sum(steps.seconds.values()) * 1e6 / count:7.1f} µs")
    for step, profile in steps.profiles.items():
        listed = io.StringIO()
        pstats.Stats(profile, stream=listed).sort_stats("tottime").print_stats(arguments.top)
        print(f"--- {step}\n{listed.getvalue()}")


if __name__ == "__main__":
    main()
