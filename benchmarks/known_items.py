"""Known-item search quality and speed: our ranking against `fzf --filter` on the same papers.

Each line of known_items.tsv is a query a reader would type for a seed paper they remember.
The papers are the seeds mixed into the real corpus beside the project (31,905 in all).
Reports success@1 (the paper is ranked first) and MRR@10 (mean of 1/rank, 0 past rank 10),
and the time per query, for `tui-reader search`'s engine, for the command itself (one process
a query) and for fzf.

    python benchmarks/known_items.py [--no-fzf]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tui_reader.core.loading import load_paths
from tui_reader.core.query import parse_query
from tui_reader.core.search_service import build_index

HERE = Path(__file__).resolve().parent
REAL = HERE.parents[1] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
SEEDS = HERE.parent / "seeds"


def read_cases(name: str) -> list[tuple[str, str]]:
    cases = []
    for line in (HERE / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            query, paper_id = line.split("\t")
            cases.append((query, paper_id))
    return cases


def summary(name: str, ranks: list[int | None], seconds: list[float]) -> str:
    top = sum(rank == 1 for rank in ranks) / len(ranks)
    mrr = sum(1 / rank for rank in ranks if rank and rank <= 10) / len(ranks)
    return (
        f"{name:12} success@1 {top:6.1%}   MRR@10 {mrr:.3f}   "
        f"median {1000 * statistics.median(seconds):8.1f} ms   max {1000 * max(seconds):8.1f} ms"
    )


def command_ranks(cases: list[tuple[str, str]]) -> None:
    """The same queries through `tui-reader search`, one process each, as a script would run
    it: the first loads and indexes the papers and keeps them in a fresh cache folder."""
    ranks: list[int | None] = []
    seconds: list[float] = []
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "TUI_READER_CACHE": cache}
        for query, paper_id in cases:
            start = time.perf_counter()
            command = [sys.executable, "-m", "tui_reader", "search", query, str(REAL), str(SEEDS)]
            found = subprocess.run(
                [*command, "--limit", "10", "--format", "jsonl"],
                capture_output=True,
                text=True,
                env=environment,
                check=True,
            ).stdout.splitlines()
            seconds.append(time.perf_counter() - start)
            order = [json.loads(line)["id"] for line in found]
            ranks.append(order.index(paper_id) + 1 if paper_id in order else None)
    print(f"  the command's first run (loading, indexing, caching): {seconds[0]:.1f} s")
    print(summary("the command", ranks, seconds[1:] or seconds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-fzf", action="store_true", help="skip fzf (about 4 s a query)")
    parser.add_argument("--no-command", action="store_true", help="skip the command's runs")
    parser.add_argument("--cases", default="known_items.tsv", help="queries (default %(default)s)")
    arguments = parser.parse_args()
    papers = load_paths([REAL, SEEDS]).papers
    index = build_index(papers)
    index.warm()
    cases = read_cases(arguments.cases)
    print(f"{len(papers):,} papers, {len(cases)} known-item queries")

    ranks: list[int | None] = []
    seconds: list[float] = []
    for query, paper_id in cases:
        start = time.perf_counter()
        result = index.run(parse_query(query))  # as typed: the last word may be half done
        order = [papers[number].id for number in result.numbers[:10]]
        seconds.append(time.perf_counter() - start)
        ranks.append(order.index(paper_id) + 1 if paper_id in order else None)
        if ranks[-1] != 1:
            print(f"  ours {ranks[-1]!s:>4}  {query}")
    print(summary("tui-reader", ranks, seconds))
    if not arguments.no_command:
        command_ranks(cases)

    if arguments.no_fzf or not shutil.which("fzf"):
        return
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as lines:
        for paper in papers:  # id, then the text fzf matches: headline, title, abstract
            text = " ".join(f"{paper.headline} {paper.title} {paper.abstract}".split())
            lines.write(f"{paper.id}\t{text}\n")
    fzf_ranks: list[int | None] = []
    fzf_seconds: list[float] = []
    for query, paper_id in cases:
        start = time.perf_counter()
        with open(lines.name, encoding="utf-8") as feed:
            found = subprocess.run(
                ["fzf", "--filter", query, "--delimiter", "\t", "--nth", "2.."],
                stdin=feed,
                capture_output=True,
                text=True,
            ).stdout.splitlines()
        fzf_seconds.append(time.perf_counter() - start)
        order = [line.split("\t", 1)[0] for line in found[:10]]
        fzf_ranks.append(order.index(paper_id) + 1 if paper_id in order else None)
    Path(lines.name).unlink()
    print(summary("fzf --filter", fzf_ranks, fzf_seconds))


if __name__ == "__main__":
    main()
