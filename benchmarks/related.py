"""Related papers: how well the engine finds them, on pairs judged by reading both abstracts.

related_judged.tsv names pairs a reader would call related (or not). For each paper, the
engine's related papers are compared with them: a "yes" pair is found when the other paper is
among the 5 most related, a "no" pair when it is not; the held-out pairs are counted on their
own. `--baseline` scores the same pairs with the first engine's method (the paper's 30 rarest
words, a cosine of binary TF-IDF vectors), for comparison. Also times `related` over a corpus
given with `--timing CORPUS`, the index warmed first as the reader warms it: wall-clock and CPU
time (on a shared machine the CPU time is the steadier).

    python benchmarks/related.py [--baseline] [--timing /tmp/corpus-1m.jsonl.gz]
"""

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.loading import load_paths
from tui_reader.core.search_service import build_index
from tui_reader.core.store import Numbers

HERE = Path(__file__).resolve().parent
REAL = HERE.parents[1] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
SEEDS = HERE.parent / "seeds"
TOP = 5


def rarest_words_cosine(index: FlatIndex, number: int, count: int) -> Numbers:
    """The first engine's related papers: the paper's 30 rarest words (headline and
    abstract), each weighing its rarity squared, over each paper's words' square root."""
    words = index._words
    text = index._text.of(number).split("\n")
    found = dict.fromkeys(word for line in (text[0], text[2]) for word in line.split())
    ids = [i for i in map(words.id_of, (w.strip(".,;:()[]") for w in found)) if i is not None]
    shared = [i for i in ids if words.frequency[i] > 1]
    shared.sort(key=lambda i: -index._weight[i])
    scores = np.zeros(len(index), dtype=np.float32)
    for word_id in shared[:30]:
        scores[words.papers("all", [word_id])] += index._weight[word_id] ** 2
    scores /= index._paper_words()
    scores[number] = 0
    best = np.argsort(-scores, kind="stable")[:count]
    return best[scores[best] > 0]


def judge(baseline: bool) -> None:
    pairs = [
        line.split("\t")
        for line in (HERE / "related_judged.tsv").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for corpora, sections in (([SEEDS], ("seeds",)), ([REAL, SEEDS], ("corpus", "held-out"))):
        papers = load_paths(corpora).papers
        index = build_index(papers)
        related: Callable[[int, int], Numbers] = index.related
        if baseline:
            related = partial(rarest_words_cosine, index)
        place = {paper.id: number for number, paper in enumerate(papers)}
        for within in sections:
            right = {"yes": [0, 0], "no": [0, 0]}  # a verdict: pairs right, pairs
            for _, paper, verdict, other, why in (pair for pair in pairs if pair[0] == within):
                found = [papers[int(n)].id for n in related(place[paper], TOP)]
                ok = (other in found) == (verdict == "yes")
                right[verdict][0] += ok
                right[verdict][1] += 1
                rank = found.index(other) + 1 if other in found else "-"
                print(f"  {'ok ' if ok else 'BAD'} {verdict:3} rank {rank!s:>2}  {why[:70]}")
            (yes, of_yes), (no, of_no) = right["yes"], right["no"]
            print(
                f"{within}: {yes + no} of {of_yes + of_no} judged pairs right"
                f" ({yes} of {of_yes} yes, {no} of {of_no} no)"
            )


def timing(corpus: Path) -> None:
    papers = load_paths([corpus]).papers
    index = build_index(papers)
    index.warm()  # as the reader does in the background once the index is built or opened
    numbers = np.random.default_rng(1).integers(0, len(papers), 50).tolist()
    seconds, cpu = [], []
    for number in numbers:
        started, started_cpu = time.perf_counter(), time.process_time()
        index.related(number)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    print(
        f"related over {len(papers):,} papers: median {1000 * statistics.median(seconds):.0f} ms,"
        f" max {1000 * max(seconds):.0f} ms; CPU median {1000 * statistics.median(cpu):.0f} ms,"
        f" max {1000 * max(cpu):.0f} ms ({len(seconds)} papers)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", action="store_true", help="the first engine's method")
    parser.add_argument("--timing", type=Path, help="time related papers over this corpus")
    arguments = parser.parse_args()
    judge(arguments.baseline)
    if arguments.timing:
        timing(arguments.timing)


if __name__ == "__main__":
    main()
