"""The cache on disk: the bytes of a kept entry by what they hold, beside the papers' text,
and the searches over it, warm.

    tui-reader search x /tmp/corpus-100k.jsonl.gz     # keeps the entry (cold)
    python benchmarks/bench_cache.py /tmp/corpus-100k.jsonl.gz

The papers' text is the UTF-8 of their text fields as the store holds them: id, title,
abstract, authors, venue, date, the rarely set fields (as JSON), and the headline where it
is not the title. Searches are timed twice: `tui-reader search`
a process each, and the index's own `run` in this process (over an index opened anew each
time). Run it from outside the work tree to time another copy of the package.
"""

import argparse
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from tui_reader.core.index_cache import load_cached
from tui_reader.core.locations import cache_folder
from tui_reader.core.paper_columns import TEXTS
from tui_reader.core.query import parse_query
from tui_reader.core.segments.entry import folder_for

QUERIES = (
    "diffusion",
    "graph neural network",
    "reinf",
    "diffusion m",
    "difusion",
    "reinforcment learning",
    '"sparse attention"',
    '"graph neural network"',
    '"sparse a',
    "O(1/T)",
)
POSTINGS = ("_papers.npy", "_offsets.npy")
RUNS = 3


def component(path: Path) -> str:
    """What a file of an entry holds."""
    name = path.name
    if not any(part.startswith("flat-v") for part in path.parts):
        if name.removesuffix(".npy") in TEXTS:
            return "store: texts"
        return "store: offsets, numbers, ids"
    if name.startswith("text"):
        return "index: folded text"
    if name.endswith(POSTINGS) and not name.startswith(("words", "cased_words", "compound")):
        return "index: postings"
    return "index: words, per paper"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="a file whose entry is kept")
    arguments = parser.parse_args()
    folder = folder_for(cache_folder(), [arguments.file])
    sizes: defaultdict[str, int] = defaultdict(int)
    for path in folder.rglob("*"):
        if path.is_file():
            sizes[component(path)] += path.stat().st_size
    started = time.perf_counter()
    kept = load_cached([arguments.file], rebuild=False)
    opened = time.perf_counter() - started
    assert kept is not None, "no entry kept for this file"
    store = kept.store
    text = sum(len(value) for name in TEXTS if name != "headline" for value in store.utf8(name))
    titles = zip(store.utf8("headline"), store.utf8("title"), strict=True)
    text += sum(len(headline) for headline, title in titles if headline != title)
    total = sum(sizes.values())
    for name, size in sorted(sizes.items()):
        print(f"{name}: {size / 1e6:,.1f} MB")
    print(f"entry: {total / 1e6:,.1f} MB; the papers' text {text / 1e6:,.1f} MB")
    print(f"the entry is {total / text:.2f}x the text")
    print(f"opened in {opened:.2f} s")
    for query in QUERIES:
        times = []  # each over an index opened anew: what it keeps for the next keys is not
        for _ in range(RUNS):
            index = load_cached([arguments.file], rebuild=False).index  # type: ignore[union-attr]
            started = time.perf_counter()
            ranking = index.run(parse_query(query))
            times.append(1000 * (time.perf_counter() - started))
        command = [sys.executable, "-m", "tui_reader", "search", "--limit", "20", query]
        searches = []
        for _ in range(RUNS):
            started = time.perf_counter()
            subprocess.run([*command, str(arguments.file)], capture_output=True, check=True)
            searches.append(time.perf_counter() - started)
        print(
            f"{query!r}: {len(ranking.numbers):,} papers; run {statistics.median(times):.1f} ms;"
            f" `search` {statistics.median(searches):.2f} s (medians of {RUNS})"
        )


if __name__ == "__main__":
    main()
