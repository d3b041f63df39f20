"""Known-item search for papers without a title mixed among titled ones: does a paper lose
only for lacking a title, and do titled papers lose to them?

    python benchmarks/untitled_items.py [--papers 300] [--share 0.3] [--seed 7]

Of the real corpus beside the project (31,867 titled papers), a share drawn with the seed is
loaded without its titles (as seed abstracts are: the reader makes each a headline from its
abstract), the rest as they are. A sample of each kind is looked for by the words a reader
would remember of a paper: its real title's first four words that are not stop words. The same
queries are run with every paper titled, for comparison. Reports success@1 and MRR@10 (1/rank,
0 past rank 10).
"""

import argparse
import dataclasses
import gzip
import random
import re
from pathlib import Path

import orjson

from tui_reader.core.headline import headline_for
from tui_reader.core.library import Library
from tui_reader.core.paper import Paper
from tui_reader.core.search_service import build_index, search_papers
from tui_reader.core.store import PaperStore

REAL = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
STOP = set(
    [
        "a",
        "an",
        "the",
        "of",
        "for",
        "and",
        "or",
        "in",
        "on",
        "to",
        "with",
        "via",
        "by",
        "from",
        "at",
        "is",
        "are",
        "as",
        "its",
        "into",
        "towards",
        "toward",
        "using",
        "based",
        "we",
        "our",
        "new",
        "how",
        "what",
        "when",
        "why",
        "do",
        "does",
        "can",
    ]
)


def read() -> list[Paper]:
    papers: dict[str, Paper] = {}
    with gzip.open(REAL, "rb") as lines:
        for line in lines:
            record = orjson.loads(line)
            authors = record.get("authors") or ()
            paper = Paper.from_abstract(
                record["abstract"],
                "corpus",
                REAL,
                title=record.get("title", ""),
                authors=tuple(authors) if isinstance(authors, list) else (str(authors),),
                venue=record.get("venue", ""),
            )
            papers.setdefault(paper.id, paper)
    return list(papers.values())


def query_of(title: str) -> str:
    words = [w for w in re.findall(r"\w+", title.lower()) if w not in STOP]
    return " ".join(words[:4])


def ranks(papers: list[Paper], sample: list[int]) -> list[int | None]:
    store = PaperStore(papers)
    index = build_index(store)
    found = []
    for number in sample:
        query = query_of(titles[number])
        result = search_papers(index, query, Library(None), "relevance", store)
        order = result.numbers[:10].tolist()
        found.append(order.index(number) + 1 if number in order else None)
    return found


def summary(name: str, found: list[int | None]) -> str:
    top = sum(rank == 1 for rank in found) / len(found)
    mrr = sum(1 / rank for rank in found if rank) / len(found)
    return f"{name:34} success@1 {top:6.1%}   MRR@10 {mrr:.3f}"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=300, help="looked for, of each kind")
    parser.add_argument("--share", type=float, default=0.3, help="of the papers, untitled")
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()
    titled = read()
    titles = [paper.title for paper in titled]
    draw = random.Random(arguments.seed)
    hidden = set(draw.sample(range(len(titled)), int(arguments.share * len(titled))))
    untitled_sample = draw.sample(sorted(hidden), arguments.papers)
    titled_sample = draw.sample(sorted(set(range(len(titled))) - hidden), arguments.papers)
    mixed = list(titled)
    for number in hidden:
        paper = titled[number]
        mixed[number] = dataclasses.replace(paper, title="", headline=headline_for(paper.abstract))
    print(
        f"{len(titled):,} papers, {len(hidden):,} without their titles; "
        f"{arguments.papers} of each kind looked for by their titles' words"
    )
    print(summary("untitled ones, all titled", ranks(titled, untitled_sample)))
    print(summary("untitled ones, without titles", ranks(mixed, untitled_sample)))
    print(summary("titled ones, all titled", ranks(titled, titled_sample)))
    print(summary("titled ones, among untitled", ranks(mixed, titled_sample)))
