"""Headlines against the papers' real titles: ROUGE-1 F on a seeded sample, and time per paper.

python benchmarks/bench_headlines.py [CORPUS] [--sample 500] [--seed 15] [--before REV]

Three headlines of each sampled abstract are scored against its title: today's headline_for,
headline_for as it was at REV (read with git show into a temporary module), and the first
sentence compressed the way a headline is (the baseline). ROUGE-1 F is Google's rouge-score
(`pip install rouge-score`): lower-cased alphanumeric tokens, stop words kept, no stemming.
The time per paper is the best of three runs of each headline_for over the whole corpus,
taken in turns.
"""

import argparse
import gzip
import importlib.util
import json
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from rouge_score import rouge_scorer

from tui_reader.core import headline

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
# The last commit before headlines named what the authors do.
BEFORE = "14ed3410693b88360938e54080b31f12f0d9c4e7"


def load(corpus: Path) -> list[dict[str, str]]:
    with gzip.open(corpus, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def module_at(revision: str) -> ModuleType:
    """headline.py as it was at a git revision, imported from a temporary file."""
    source = subprocess.run(
        ["git", "show", f"{revision}:tui_reader/core/headline.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as file:
        file.write(source)
    spec = importlib.util.spec_from_file_location("headline_before", file.name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    Path(file.name).unlink()
    return module


def first_sentence(abstract: str) -> str:
    """The baseline: the abstract's first sentence, compressed as a headline is."""
    parts = headline.sentences(headline.plain(abstract))
    return headline.compress(parts[0]) if parts else ""


def seconds_per_paper(makers: list[Callable[[str], str]], abstracts: list[str]) -> list[float]:
    """The best of three runs of each over all the abstracts, taken in turns (the machine is
    shared, so a busy moment falls on both)."""
    best = [float("inf")] * len(makers)
    for _ in range(3):
        for index, make in enumerate(makers):
            start = time.perf_counter()
            for abstract in abstracts:
                make(abstract)
            best[index] = min(best[index], time.perf_counter() - start)
    return [seconds / len(abstracts) for seconds in best]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, nargs="?", default=CORPUS)
    parser.add_argument("--sample", type=int, default=500, help="papers scored (default 500)")
    parser.add_argument("--seed", type=int, default=15, help="of the sample (default 15)")
    parser.add_argument("--before", default=BEFORE, help="git revision compared against")
    parser.add_argument("--show", type=int, default=0, help="print the first N headlines")
    parser.add_argument("--no-timing", action="store_true", help="skip the timing runs")
    arguments = parser.parse_args()

    papers = load(arguments.corpus)
    titled = [paper for paper in papers if paper.get("title", "").strip()]
    sample = random.Random(arguments.seed).sample(titled, arguments.sample)
    before = module_at(arguments.before)
    systems: dict[str, Callable[[str], str]] = {
        "headline now": headline.headline_for,
        f"headline at {arguments.before[:7]}": before.headline_for,
        "first sentence": first_sentence,
    }
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    print(f"{len(sample)} of {len(titled):,} titled papers (seed {arguments.seed})")
    print("ROUGE-1 against the title (mean over the sample):")
    print(f"  {'':24} {'F':>6} {'P':>6} {'R':>6}")
    for name, make in systems.items():
        scores = [scorer.score(p["title"], make(p["abstract"]))["rouge1"] for p in sample]
        f, p, r = (statistics.fmean(score[part] for score in scores) for part in (2, 0, 1))
        print(f"  {name:24} {f:6.3f} {p:6.3f} {r:6.3f}")
    for paper in sample[: arguments.show]:
        print(f"\n  title:  {paper['title']}")
        for name, make in systems.items():
            print(f"  {name:24}{make(paper['abstract'])}")
    if arguments.no_timing:
        return
    abstracts = [paper["abstract"] for paper in papers]
    print(f"Time per paper over all {len(abstracts):,} abstracts (best of 3, taken in turns):")
    names = list(systems)[:2]
    now, then = seconds_per_paper([systems[name] for name in names], abstracts)
    for name, seconds in zip(names, (now, then), strict=True):
        print(f"  {name:24} {1e6 * seconds:6.0f} µs")
    print(f"  now / before: {now / then:.2f}")


if __name__ == "__main__":
    main()
