"""Make a benchmark corpus of N papers, reproducibly, from the real corpus beside the project.

Each paper recombines real material: the title of one real paper, the authors and venue of
another, and an abstract of sentences drawn from several. Nothing of it is committed.

`--shape arxiv` writes the same papers as records of arXiv's metadata snapshot (Kaggle's
`arxiv-metadata-oai-snapshot.json`): `id` first (one in twenty of the old form,
`math/0701042`), its keys in its order, the title and abstract broken into lines as arXiv
breaks them, `versions` and `authors_parsed`: a cold build of another shape of record.

    python benchmarks/make_corpus.py 100000 /tmp/corpus-100k.jsonl.gz [--seed 1]
    python benchmarks/make_corpus.py 1000000 /tmp/arxiv-1m.jsonl.gz --shape arxiv
"""

import argparse
import gzip
import json
import random
import re
import textwrap
from pathlib import Path

REAL = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("size", type=int)
    parser.add_argument("output", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, default=REAL)
    parser.add_argument("--shape", choices=["plain", "arxiv"], default="plain")
    arguments = parser.parse_args()
    with gzip.open(arguments.source, "rt", encoding="utf-8") as lines:
        real = [json.loads(line) for line in lines if line.strip()]
    sentences = [s for paper in real for s in _SENTENCE.split(paper["abstract"]) if len(s) > 40]
    rng = random.Random(arguments.seed)
    shape_rng = random.Random(f"{arguments.seed} shape")  # the same papers in either shape
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
            if arguments.shape == "arxiv":
                paper = arxiv_record(paper, number, shape_rng)
            out.write(json.dumps(paper, ensure_ascii=False) + "\n")
    print(f"wrote {arguments.size:,} papers to {arguments.output}")


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_ARCHIVES = ("math", "hep-th", "cs", "physics", "quant-ph", "cond-mat", "astro-ph", "nlin")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def arxiv_record(paper: dict[str, object], number: int, rng: random.Random) -> dict[str, object]:
    """The paper as a record of arXiv's snapshot, its keys in the snapshot's order."""
    year, month = 2007 + number % 228 // 12, 1 + number % 12  # each number its own id
    serial = number // 228
    if number % 20 == 0 and serial < 1000 * len(_ARCHIVES):
        archive = _ARCHIVES[serial // 1000]
        identifier = f"{archive}/{(year - 16) % 100:02d}{month:02d}{serial % 1000:03d}"
    else:
        identifier = f"{year % 100:02d}{month:02d}.{serial:05d}"
    authors = [str(name) for name in paper["authors"]]  # type: ignore[attr-defined]
    versions = [
        {
            "version": f"v{v + 1}",
            "created": f"{_DAYS[(number + v) % 7]}, {1 + (number + 3 * v) % 28}"
            f" {_MONTHS[month - 1]} {year} {rng.randrange(24):02d}:{rng.randrange(60):02d}:"
            f"{rng.randrange(60):02d} GMT",
        }
        for v in range(rng.choice([1, 1, 1, 2, 2, 3]))
    ]
    categories = rng.choice(["cs.LG", "cs.LG stat.ML", "cs.CL cs.AI cs.LG", "stat.ML math.ST"])
    return {
        "id": identifier,
        "submitter": authors[0] if authors else None,
        "authors": ", ".join(authors[:-1]) + (" and " if len(authors) > 1 else "") + authors[-1]
        if authors
        else "",
        "title": "\n  ".join(textwrap.wrap(str(paper["title"]), 70)),
        "comments": rng.choice([None, "12 pages, 4 figures", f"Accepted at {paper['venue']}"]),
        "journal-ref": None,
        "doi": None,
        "report-no": None,
        "categories": categories,
        "license": "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
        "abstract": "  " + "\n".join(textwrap.wrap(str(paper["abstract"]), 78)) + "\n",
        "versions": versions,
        "update_date": f"{year}-{month:02d}-{1 + number % 28:02d}",
        "authors_parsed": [[*reversed(name.rsplit(" ", 1)), ""] for name in authors],
    }


if __name__ == "__main__":
    main()
