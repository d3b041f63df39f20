"""The index's token step with Arrow and without: each chunk of a corpus read by one reader,
as a pool's process reads it, in this process.

    python benchmarks/bench_tokens.py ../shared/corpora/ml-abstracts-31k.jsonl.gz

Prints, for each way, the CPU time a paper (the best of three rounds, each with a new reader,
whose table of tokens starts empty as a pool's process's does).
"""

import argparse
import time
from pathlib import Path

from tui_reader.core.flat import build
from tui_reader.core.loading import load_paths


def seconds(chunks: list[tuple[int, bytes, int]], by_arrow: bool) -> float:
    reader = build._Reader(by_arrow=by_arrow)
    started = time.process_time()
    for _, joined, count in chunks:
        reader.read(joined, count)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", type=Path)
    papers = load_paths([parser.parse_args().corpus]).papers
    chunks = list(build._chunks(papers, 0, len(papers)))
    build._numbered_by_arrow(b"warm up")  # Arrow's import is not the step's
    for name, by_arrow in (("Arrow", True), ("bytes.split and a dict", False)):
        best = min(seconds(chunks, by_arrow) for _ in range(3))
        print(f"{name}: {best:.2f} s CPU, {best / len(papers) * 1e6:.1f} µs a paper")


if __name__ == "__main__":
    main()
