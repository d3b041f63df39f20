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

A key is timed as the reader's list gets its results: where finding them all takes long (a
quoted phrase's first letters among many papers) the first FIRST_SHOWN papers, said as
counting; all of them are then found at once (the reader finds them in the background, given
up by the next key) and timed apart ("then all"). With `--first-only` they are not: as in the
reader typed on, the next key coming before all are found.
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
from tui_reader.ui.filtering import FIRST_SHOWN

Figures = tuple[str, float, float, int, float | None, float | None, int]


def opened(corpus: Path, kept: bool) -> tuple[PaperStore, SearchEngine]:
    if not kept:
        store = load_paths([corpus]).papers
        return store, build_index(store)
    opening = open_papers([corpus], check_paths([corpus]), stream_from=0)
    if opening.way is not Way.CACHED or opening.index is None:
        raise SystemExit(f"nothing kept for {corpus}: run `tui-reader search x {corpus}` first")
    return opening.store, opening.index


def timed(corpus: Path, kept: bool, typed: list[str], whole: bool = True) -> list[Figures]:
    """Each partial query's wall and CPU milliseconds and the papers it found first; where
    these were the first only, the wall and CPU milliseconds finding all, and how many."""
    store, index = opened(corpus, kept)
    warm = getattr(index, "warm", None)
    if warm is not None:
        warm()
    state = Library(None)
    figures: list[Figures] = []
    for query in typed:
        wall, cpu = time.perf_counter(), time.process_time()
        found = search_papers(index, query, state, "relevance", store, first=FIRST_SHOWN)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        first = len(found.numbers)
        whole_wall = whole_cpu = None
        if found.counting and whole:
            whole_wall, whole_cpu = time.perf_counter(), time.process_time()
            found = search_papers(index, query, state, "relevance", store)
            whole_cpu = 1000 * (time.process_time() - whole_cpu)
            whole_wall = 1000 * (time.perf_counter() - whole_wall)
        figures.append(
            (query, 1000 * wall, 1000 * cpu, first, whole_wall, whole_cpu, len(found.numbers))
        )
    return figures


def least(values: list[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return min(known) if known else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--kept", action="store_true", help="open the entry the cache keeps")
    parser.add_argument("--each", action="store_true", help="print every partial query's times")
    parser.add_argument("--runs", type=int, default=1, help="time so many runs, keep the least")
    parser.add_argument(
        "--first-only", action="store_true", help="never find all where the first are counting"
    )
    arguments = parser.parse_args()
    typed = [query[:end] for query in QUERIES for end in range(1, len(query) + 1)]
    if arguments.kept:
        timed(arguments.corpus, True, typed)
    whole = not arguments.first_only
    runs = [timed(arguments.corpus, arguments.kept, typed, whole) for _ in range(arguments.runs)]
    figures: list[Figures] = [
        (
            query,
            min(run[at][1] for run in runs),
            min(run[at][2] for run in runs),
            first,
            least([run[at][4] for run in runs]),
            least([run[at][5] for run in runs]),
            found,
        )
        for at, (query, _, _, first, _, _, found) in enumerate(runs[0])
    ]
    if arguments.each:
        for query, wall, cpu, first, whole_wall, whole_cpu, found in figures:
            line = f"{wall:8.1f} {cpu:8.1f} ms {first:>9,}  {query}"
            if whole_wall is not None and whole_cpu is not None:
                line += f"  (counting; then all: {whole_wall:.1f} {whole_cpu:.1f} ms {found:,})"
            print(line)
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
