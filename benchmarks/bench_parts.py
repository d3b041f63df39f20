"""A day's papers beside a kept collection, and appended to it: timed through `tui-reader
search`, each run in a process of its own, the cache warm.

    python benchmarks/make_corpus.py 1000 /tmp/day.jsonl.gz --seed 7
    python benchmarks/make_corpus.py 1000 /tmp/day2.jsonl.gz --seed 8
    tui-reader search x /tmp/corpus-1m.jsonl.gz             # cold: the kept collection
    python benchmarks/bench_parts.py /tmp/corpus-1m.jsonl.gz /tmp/day.jsonl.gz /tmp/day2.jsonl.gz

Three searches are timed: the kept file alone (warm, nothing new); the day's file opened
beside it (a part made of the day's papers); the second day's papers appended to the kept
file, as a gzip member (a part made of what was appended). The kept file is appended to:
use a copy. With --fresh, each result is compared with a search over a cache of its own,
built whole (minutes at a million papers).
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUERIES = ("diffusion", "graph neural network", "regret bandit", "difusion")


def search(query: str, *paths: Path, cache: str | None = None) -> tuple[float, str]:
    """Seconds a `tui-reader search` took, and what it printed."""
    environment = dict(os.environ)
    if cache is not None:
        environment["TUI_READER_CACHE"] = cache
    command = [sys.executable, "-m", "tui_reader", "search", "--limit", "50", query]
    started = time.perf_counter()
    done = subprocess.run(
        [*command, *map(str, paths)], capture_output=True, text=True, env=environment, check=True
    )
    return time.perf_counter() - started, done.stdout


def timed(label: str, *paths: Path, fresh: bool) -> None:
    seconds = search(QUERIES[0], *paths)[0]
    again = [search(query, *paths)[0] for query in QUERIES]
    print(f"{label}: {seconds:.2f} s (then {min(again):.2f}-{max(again):.2f} s a search)")
    if fresh:
        with tempfile.TemporaryDirectory(prefix="bench-parts-") as cache:
            outputs = [search(query, *paths, cache=cache)[1] for query in QUERIES]
        same = all(search(q, *paths)[1] == out for q, out in zip(QUERIES, outputs, strict=True))
        print(f"  the same 50 papers, in the same order, as a fresh build: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kept", type=Path, help="a collection kept in the cache (gzip)")
    parser.add_argument("day", type=Path, help="a day's papers, opened beside it")
    parser.add_argument("appended", type=Path, help="papers appended to the kept file (gzip)")
    parser.add_argument("--fresh", action="store_true", help="compare with fresh builds")
    arguments = parser.parse_args()
    timed("the kept file alone", arguments.kept, fresh=False)
    timed("a day's file opened beside it", arguments.kept, arguments.day, fresh=arguments.fresh)
    with arguments.kept.open("ab") as kept:
        kept.write(arguments.appended.read_bytes())
    timed("papers appended to it", arguments.kept, fresh=arguments.fresh)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"CPU of the searches: {used.ru_utime + used.ru_stime:.1f} s")


if __name__ == "__main__":
    main()
