"""Time looking for a phrase in every paper's folded text, as built (a map of a file in the
system's cache), as `FoldedText.holding` reads it for a phrase's candidates.

    python benchmarks/bench_phrase.py [--runs 5] [CORPUS]

Each phrase is typed as the reader's filter sends it while it is typed (its last word not
yet whole), its needle folded as the index folds it. Its CPU time is given for its first run
(the text read knows which papers hold a run of spaces from then on) and as its least of the
runs (the machine shared, the least is the work's own).
"""

import argparse
import time
from pathlib import Path

import numpy as np

from tui_reader.core.flat.build import build_arrays
from tui_reader.core.flat.fold import fold, phrase_text
from tui_reader.core.flat.folded_text import FoldedText
from tui_reader.core.loading import load_paths

REAL = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
PHRASES = ["sparse a", "of the", "neural network", "network", "erdos renyi", "network's"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", type=Path, nargs="?", default=REAL)
    parser.add_argument("--runs", type=int, default=5, help="time so many runs, keep the least")
    args = parser.parse_args()
    store = load_paths([args.corpus]).papers
    arrays, file = build_arrays(store)
    with file:
        text = FoldedText(file, 0, np.asarray(arrays["text_offsets"], dtype=np.int64))
        every = np.arange(len(store), dtype=np.int64)
        print(f"{len(store):,} papers, {len(arrays['text']) / 1e6:.1f} MB of folded text")
        for phrase in PHRASES:
            needle = phrase_text(fold(phrase)).encode()
            times, held = [], 0
            for _ in range(args.runs):
                start = time.process_time()
                held = int(np.count_nonzero(text.holding(every, needle, whole=False)))
                times.append(1000 * (time.process_time() - start))
            print(
                f'"{phrase:<16} first {times[0]:6.1f}, least {min(times):6.1f} ms  {held:,} papers'
            )


if __name__ == "__main__":
    main()
