"""What training a frames' dictionary on fewer texts saves, and what it costs in frames' bytes.

    python benchmarks/bench_dictionary.py [CORPUS] [--samples 10000 5000 2000 1000]

A dictionary is trained (`core.frames.trained`'s parameters) on the corpus's first N abstracts,
as a part's first papers train one, and the next 8,000 abstracts are made into frames with it;
the training's CPU time (the least of 3) and the frames' bytes over the texts' are printed.
"""

import argparse
import gzip
import json
import time
from pathlib import Path

import zstandard as zstd

from tui_reader.core.frames import DICTIONARY, LEVEL, SAMPLES

REAL = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
HELD = 8_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", type=Path, nargs="?", default=REAL)
    parser.add_argument("--samples", type=int, nargs="+", default=[SAMPLES, 5000, 2000, 1000])
    args = parser.parse_args()
    most = max(args.samples)
    with gzip.open(args.corpus, "rt", encoding="utf-8") as lines:
        texts = [
            json.loads(line)["abstract"].encode()
            for _, line in zip(range(most + HELD), lines, strict=False)
        ]
    trained_on, held = texts[:most], texts[most:]
    print(f"{len(held):,} abstracts made into frames, {sum(map(len, held)) / 1e6:.1f} MB")
    for count in args.samples:
        samples, seconds = trained_on[:count], []
        for _ in range(3):
            start = time.process_time()
            made = zstd.train_dictionary(DICTIONARY, samples, k=200, d=8)
            seconds.append(time.process_time() - start)
        compressor = zstd.ZstdCompressor(level=LEVEL, dict_data=made)
        framed = sum(len(compressor.compress(text)) for text in held)
        print(
            f"trained on {count:>6,} ({sum(map(len, samples)) / 1e6:4.1f} MB): "
            f"{min(seconds):.3f} s of CPU, frames {framed / sum(map(len, held)):.3f} of the text"
        )


if __name__ == "__main__":
    main()
