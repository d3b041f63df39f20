"""Time the search alone (no app): each query of bench_app typed key by key over a corpus.

python benchmarks/bench_search.py /tmp/corpus-100k.jsonl.gz          # indexed now
python benchmarks/bench_search.py --kept /tmp/corpus-1m.jsonl.gz     # the entry kept
python benchmarks/bench_search.py --kept --each --runs 5 /tmp/corpus-1m.jsonl.gz

Each partial query goes through `search_papers` as the reader's filter sends it, in the
order typed (so what one key keeps for the next counts, as in the reader), after `warm()`.
With `--kept` the papers and index are the cache folder's (`tui-reader search x FILE`
first), opened once more first to bring the entry's pages into the system's cache. With
`--runs N` the papers are opened N times and each partial query's times are its least of the
runs (the machine shared, the least is the work's own).
"""

import argparse
import statistics
import time
from pathlib import Path

from bench_app import QUERIES

from tui_reader.core.engine import SearchEngine
from tui_reader.core.library import Library
from tui_reader.core.loading import check_paths, load_paths
from tui_reader.core.opening import Way, open_papers
from tui_reader.core.search_service import build_index, search_papers
from tui_reader.core.store import PaperStore


def opened(corpus: Path, kept: bool) -> tuple[PaperStore, SearchEngine]:
    if not kept:
        store = load_paths([corpus]).papers
        return store, build_index(store)
    opening = open_papers([corpus], check_paths([corpus]), stream_from=0)
    if opening.way is not Way.CACHED or opening.index is None:
        raise SystemExit(f"nothing kept for {corpus}: run `tui-reader search x {corpus}` first")
    return opening.store, opening.index


def timed(corpus: Path, kept: bool, typed: list[str]) -> list[tuple[str, float, float, int]]:
    """Each partial query's wall and CPU milliseconds, and the papers it found."""
    store, index = opened(corpus, kept)
    warm = getattr(index, "warm", None)
    if warm is not None:
        warm()
    state = Library(None)
    figures = []
    for query in typed:
        wall, cpu = time.perf_counter(), time.process_time()
        found = search_papers(index, query, state, "relevance", store)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        figures.append((query, 1000 * wall, 1000 * cpu, len(found.numbers)))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--kept", action="store_true", help="open the entry the cache keeps")
    parser.add_argument("--each", action="store_true", help="print every partial query's times")
    parser.add_argument("--runs", type=int, default=1, help="time so many runs, keep the least")
    arguments = parser.parse_args()
    typed = [query[:end] for query in QUERIES for end in range(1, len(query) + 1)]
    if arguments.kept:
        timed(arguments.corpus, True, typed)
    runs = [timed(arguments.corpus, arguments.kept, typed) for _ in range(arguments.runs)]
    figures = [
        (query, min(run[at][1] for run in runs), min(run[at][2] for run in runs), found)
        for at, (query, _, _, found) in enumerate(runs[0])
    ]
    if arguments.each:
        for query, wall, cpu, found in figures:
            print(f"{wall:8.1f} {cpu:8.1f} ms {found:>9,}  {query}")
    print(f"{len(typed)} partial queries, the least of {arguments.runs} run(s)")
    for name, column in (("wall", 1), ("CPU", 2)):
        times = sorted(figure[column] for figure in figures)
        p95 = times[int(0.95 * (len(times) - 1))]
        print(
            f"{name}: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms,"
            f" max {times[-1]:.1f} ms, total {sum(times):.0f} ms"
        )


if __name__ == "__main__":
    main()
