"""Time the search alone (no app): each query of bench_app typed key by key over a corpus.

python benchmarks/bench_search.py /tmp/corpus-100k.jsonl.gz
"""

import argparse
import statistics
import time
from pathlib import Path

from bench_app import QUERIES

from tui_reader.core.loading import load_paths
from tui_reader.core.query import parse_query
from tui_reader.core.search_service import build_index


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    arguments = parser.parse_args()
    index = build_index(load_paths([arguments.corpus]).papers)
    index.warm()
    typed = [query[:end] for query in QUERIES for end in range(1, len(query) + 1)]
    times = []
    for query in typed:
        start = time.perf_counter()
        index.run(parse_query(query))
        times.append(1000 * (time.perf_counter() - start))
    times.sort()
    print(f"{len(typed)} partial queries over {len(index):,} papers")
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms")


if __name__ == "__main__":
    main()
