"""Compare search engines on one corpus: build time, peak memory, query latency.

    python benchmarks/bench_engines.py /tmp/corpus-100k.jsonl.gz flat
    python benchmarks/bench_engines.py /tmp/corpus-100k.jsonl.gz tantivy

Run one engine a process, so that peak RSS is that engine's. Papers are read from JSON Lines
with orjson into Paper objects (the headline is the title: the headline's own cost is the
loader's, not the engine's). Each query of bench_app, and a few more (every word a prefix,
typos), is typed key by key; every partial query is run once and timed. The engine returns
every matching paper, ranked, as the app needs (tantivy: a search with a limit of all papers).
"""

import argparse
import gzip
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson
from bench_app import QUERIES

from tui_reader.core.paper import Paper
from tui_reader.core.query import parse_query

MORE = ["homoph graph", "satisf bandit", "transfrmer atention", "alpha divergence"]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def read(corpus: Path) -> list[Paper]:
    papers = []
    with gzip.open(corpus, "rb") as lines:
        for number, line in enumerate(lines):
            record = orjson.loads(line)
            authors = record.get("authors") or ()
            papers.append(
                Paper(
                    id=f"{number:012x}",
                    abstract=record["abstract"],
                    collection=corpus.name,
                    source=corpus,
                    headline=record.get("title", ""),
                    title=record.get("title", ""),
                    authors=tuple(authors) if isinstance(authors, list) else (str(authors),),
                    venue=record.get("venue", ""),
                )
            )
    return papers


def typed() -> list[str]:
    return [query[:end] for query in QUERIES + MORE for end in range(1, len(query) + 1)]


def ours(papers: list[Paper]) -> list[float]:
    from tui_reader.core.search_service import build_index

    started, cpu = time.perf_counter(), time.process_time()
    index = build_index(papers)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"build {time.perf_counter() - started:.1f} s (CPU: this process "
        f"{time.process_time() - cpu:.1f} s, its pool {children.ru_utime + children.ru_stime:.1f}"
        f" s), peak RSS {peak_mb():,.0f} MB"
    )
    started = time.perf_counter()
    index.warm()
    print(f"warm {time.perf_counter() - started:.1f} s")
    times, cpu_times = [], []
    for query in typed():
        started, cpu = time.perf_counter(), time.process_time()
        index.run(parse_query(query))
        times.append(1000 * (time.perf_counter() - started))
        cpu_times.append(1000 * (time.process_time() - cpu))
    cpu_times.sort()
    print(
        f"queries' CPU time: median {statistics.median(cpu_times):.1f} ms, "
        f"p95 {cpu_times[int(0.95 * (len(cpu_times) - 1))]:.1f} ms, max {cpu_times[-1]:.1f} ms"
    )
    related = []
    for number in range(0, len(papers), max(1, len(papers) // 50)):
        started = time.perf_counter()
        index.related(number)
        related.append(1000 * (time.perf_counter() - started))
    print(f"related papers: median {statistics.median(related):.1f} ms, max {max(related):.1f} ms")
    return times


def tantivy_engine(papers: list[Paper]) -> list[float]:
    import tantivy

    builder = tantivy.SchemaBuilder()
    for name in ("title", "abstract", "author", "venue"):
        builder.add_text_field(name, stored=False)
    builder.add_integer_field("number", stored=False, fast=True)
    schema = builder.build()
    folder = tempfile.TemporaryDirectory(prefix="bench-tantivy-")
    index = tantivy.Index(schema, path=folder.name)
    started = time.perf_counter()
    writer = index.writer(heap_size=400_000_000, num_threads=2)
    for number, paper in enumerate(papers):
        writer.add_document(
            tantivy.Document(
                title=f"{paper.headline} {paper.title}",
                abstract=paper.abstract,
                author=" ".join(paper.authors),
                venue=paper.venue,
                number=number,
            )
        )
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    print(f"build {time.perf_counter() - started:.1f} s, peak RSS {peak_mb():,.0f} MB")
    searcher = index.searcher()
    times = []
    for query in typed():
        started = time.perf_counter()
        parsed = parse_query(query)
        musts = []
        for term in parsed.terms:
            shoulds = []
            for alternative in term.alternatives:
                for word in alternative.words:
                    distance = 0 if len(word) < 4 else 1 if len(word) < 9 else 2
                    for field, boost in (("title", 2.0), ("abstract", 1.0)):
                        fuzzy = tantivy.Query.fuzzy_term_query(
                            schema, field, word, distance=distance, prefix=True
                        )
                        shoulds.append(
                            (tantivy.Occur.Should, tantivy.Query.boost_query(fuzzy, boost))
                        )
            occur = tantivy.Occur.MustNot if term.negated else tantivy.Occur.Must
            musts.append((occur, tantivy.Query.boolean_query(shoulds)))
        if musts:
            hits = searcher.search(tantivy.Query.boolean_query(musts), limit=len(papers)).hits
            [address.doc for _, address in hits]  # what the app would turn into numbers
        times.append(1000 * (time.perf_counter() - started))
    folder.cleanup()
    return times


def main() -> None:
    started = time.perf_counter()
    sum(range(10**7))  # how loaded the machine is: about 0.2 s when idle
    print(f"sum(range(10**7)) took {time.perf_counter() - started:.2f} s; load {os.getloadavg()}")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("engine", choices=("flat", "tantivy"))
    arguments = parser.parse_args()
    started = time.perf_counter()
    papers = read(arguments.corpus)
    print(
        f"{arguments.engine}: {len(papers):,} papers read in {time.perf_counter() - started:.1f} s"
    )
    print(f"peak RSS with the papers alone {peak_mb():,.0f} MB")
    times = tantivy_engine(papers) if arguments.engine == "tantivy" else ours(papers)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(
        f"{len(times)} partial queries: median {statistics.median(times):.1f} ms, "
        f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms; peak RSS {peak_mb():,.0f} MB"
    )


if __name__ == "__main__":
    sys.exit(main())
