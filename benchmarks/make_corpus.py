"""Make a benchmark corpus of N papers, reproducibly, from the real corpus beside the project.

Each paper recombines real material: the title of one real paper, the authors and venue of
another, and an abstract of sentences drawn from several. Nothing of it is committed.

    python benchmarks/make_corpus.py 100000 /tmp/corpus-100k.jsonl.gz [--seed 1]
"""

import argparse
import gzip
import json
import random
import re
from pathlib import Path

REAL = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("size", type=int)
    parser.add_argument("output", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, default=REAL)
    arguments = parser.parse_args()
    with gzip.open(arguments.source, "rt", encoding="utf-8") as lines:
        real = [json.loads(line) for line in lines if line.strip()]
    sentences = [s for paper in real for s in _SENTENCE.split(paper["abstract"]) if len(s) > 40]
    rng = random.Random(arguments.seed)
    with gzip.open(arguments.output, "wt", encoding="utf-8") as out:
        for number in range(arguments.size):
            title_from, people_from = rng.choice(real), rng.choice(real)
            abstract = " ".join(rng.sample(sentences, rng.randint(4, 9)))
            paper = {
                "title": title_from["title"],
                "abstract": abstract,
                "authors": people_from["authors"],
                "url": f"https://papers.example.org/{arguments.seed}/{number}",
                "venue": people_from["venue"],
            }
            out.write(json.dumps(paper, ensure_ascii=False) + "\n")
    print(f"wrote {arguments.size:,} papers to {arguments.output}")


if __name__ == "__main__":
    main()
