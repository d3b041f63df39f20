"""The papers alone, without an index: loading them cold, keeping them, opening them warm.

    python benchmarks/bench_store.py store CORPUS  # load_paths: columns; then kept in the cache
    python benchmarks/bench_store.py warm CORPUS   # the kept columns opened by memory map
    python benchmarks/bench_store.py stream CORPUS # stream_papers, as the reader loads: first batch

One mode a process, so that peak RSS is that mode's (the pool reading a big file is counted
apart: its CPU and the peak of its largest process). The cache folder is $TUI_READER_CACHE
(set it to a scratch folder). `warm` also times what the reader does with the papers: the
first screenful, a sort of all of them by headline, a hundred ids looked up.
"""

import argparse
import os
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reader.core.engine import Ranking
from tui_reader.core.index_cache import IndexedPapers, cached_papers, write_entry
from tui_reader.core.loading import check_paths, load_paths, stream_papers
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.query import Query
from tui_reader.core.search_service import search_papers
from tui_reader.core.store import Numbers, PaperStore


class NoIndex:
    """Stands for an index of `count` papers: the papers alone are measured."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __len__(self) -> int:
        return self.count

    def run(self, query: Query) -> Ranking:
        raise NotImplementedError

    def related(self, number: int, count: int = 5) -> Numbers:
        raise NotImplementedError

    def warm(self) -> None:
        pass


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(what: str, start: float) -> float:
    took = time.perf_counter() - start
    print(f"{what}: {took:.2f} s (RSS now {rss_mb():,.0f} MB, peak {peak_mb():,.0f} MB)")
    return took


def cpu() -> None:
    """CPU time so far, of this process and of the processes it waited for (the pool)."""
    here = resource.getrusage(resource.RUSAGE_SELF)
    pool = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"CPU: {here.ru_utime + here.ru_stime:.1f} s here, {pool.ru_utime + pool.ru_stime:.1f} s"
        f" in the pool (its largest process peaked at {pool.ru_maxrss / 1024:,.0f} MB)"
    )


def stream(files: list[Path]) -> None:
    start = time.perf_counter()
    store, first = PaperStore(), None
    for item in stream_papers(files):
        if not isinstance(item, str):
            first = first or timed(f"the first batch ({len(item)} papers)", start)
            store.extend(item)
    timed(f"all {len(store):,} streamed into a store", start)
    cpu()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("store", "warm", "stream"))
    parser.add_argument("corpus", type=Path)
    arguments = parser.parse_args()
    files = check_paths([arguments.corpus])
    print(f"{arguments.mode} {arguments.corpus}, RSS at start {rss_mb():.0f} MB")
    start = time.perf_counter()
    if arguments.mode == "stream":
        stream(files)
        return
    if arguments.mode == "store":
        loaded = load_paths(files)
        timed(f"loaded {len(loaded.papers):,} papers as columns", start)
        cpu()
        store = loaded.papers
        start = time.perf_counter()
        kept = write_entry(files, IndexedPapers(loaded, NoIndex(len(store)), store))
        timed(f"kept in {os.environ.get('TUI_READER_CACHE')} ({kept})", start)
        papers = store
    else:
        opened = cached_papers(files)
        assert opened is not None, "nothing kept: run the store mode first"
        timed(f"opened {len(opened[0]):,} kept papers", start)
        papers = opened[0]
    start = time.perf_counter()
    screen = [papers[n].headline for n in range(40)]
    timed(f"a screenful ({len(screen)} papers)", start)
    start = time.perf_counter()
    ordered = search_papers(None, "", NO_STATE, "headline", papers)
    timed(f"all {len(ordered.numbers):,} sorted by headline", start)
    start = time.perf_counter()
    again = search_papers(None, "", NO_STATE, "headline", papers)
    timed("sorted by headline again", start)
    assert (again.numbers == ordered.numbers).all()
    ids = [papers[n].id for n in random.Random(1).sample(range(len(papers)), 100)]
    start = time.perf_counter()
    found = [papers.position_of(paper_id) for paper_id in ids]
    timed(f"{len(found)} ids looked up", start)
    print(f"peak RSS {peak_mb():,.0f} MB")


if __name__ == "__main__":
    main()
