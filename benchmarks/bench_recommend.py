"""For you, measured: simulated readers on the real corpus, against arxiv-sanity-lite's method.

A reader's interest is a venue's topic (learning theory: COLT and ALT; robot learning: CoRL;
language models: COLM; uncertainty: UAI; and the general venues, each its own: AISTATS, ICLR,
ICML, ACML, NeurIPS; `--interests` names some of them). For each draw the reader keeps 30 of
the interest's papers and skips 300 papers of other venues; the precision of the first 100
recommendations is the share of them from the interest's venues. Three ways on the same draws:

- keep/skip: the 30 bookmarked and read, the 300 read; `recommend` with no tag;
- tag: the 30 tagged `interest` and read, the 300 read, and 30 papers of other venues
  bookmarked (kept for other reasons); `recommend --tag interest`;
- arxiv-sanity-lite: TF-IDF of title and abstract (1-2 grams, 20,000 features, sublinear tf,
  English stop words, min_df 5, max_df 0.1, as its compute.py), LinearSVC C=0.01 with balanced
  classes, the 30 against every other paper; ranked among the papers the reader did not decide.
  `--baseline-authors`: the authors' names added to the text of each paper, as the
  compute.py of arxiv-sanity-lite's repository does (the issue's baseline has none).

Every way is checked to recommend no paper already decided. Needs scikit-learn (for the
baseline only; tui-reader does not use it). `--seed` draws other readers; with several seeds,
a table for each, and the worst and the mean ratio of each interest over them.

`--follow` has instead each draw's reader (keep/skip) decide 40 more papers of the real
corpus, one at a time, each the best one not decided, kept when of the interest, each
followed by `Recommender.decide` (the model trained from the last one): the share kept of the
40, the precision of the first 100 after them, and that of a model trained from nothing on
the same decisions; no scikit-learn needed.

`--update CORPUS` times instead what the reader waits for after each decision over a bigger
corpus (`make_corpus.py`): a reader of 30 kept and 300 skipped papers decides 40 more, one at a
time, alternately keeping and skipping; each decision is followed (`Recommender.decide`: the
model trained from the last one, every paper scored again) and the best 100 taken.

    python benchmarks/bench_recommend.py [--draws 5] [--seed 0 ...] [--interests NAME ...]
                                         [--corpus PATH]
    python benchmarks/bench_recommend.py --follow [--draws 8] [--seed 5] [--interests NAME ...]
`--cold CORPUS` times instead what the reader's for-you order does at a cold start with too
few decisions for a model (one kept, none skipped; no rows kept in the cache): the recommender
opened (`open_recommender`, which says how many more decisions it needs), then the papers'
rows it reads once the decisions are enough (built, as a cold cache has none), in CPU time.

    python benchmarks/bench_recommend.py --update /tmp/corpus-100k.jsonl.gz
    python benchmarks/bench_recommend.py --cold /tmp/corpus-100k.jsonl.gz
"""

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from tui_reader.core import recommend
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.recommend.features import papers_digest
from tui_reader.core.store import Numbers, PaperStore

REAL = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
INTERESTS = {
    "learning theory": ("COLT", "ALT"),
    "robot learning": ("CoRL",),
    "language models": ("COLM",),
    "uncertainty (UAI)": ("UAI",),
    "AISTATS": ("AISTATS",),
    "ICLR": ("ICLR",),
    "ICML": ("ICML",),
    "ACML": ("ACML",),
    "NeurIPS": ("NeurIPS",),
}
KEPT, SKIPPED, OTHER_KEPT, TOP = 30, 300, 30, 100
FOLLOWED = 40  # decisions followed one at a time (--follow)
TAG = "interest"


def arxiv_sanity(papers: PaperStore, authors: bool = False) -> object:
    from sklearn.feature_extraction.text import TfidfVectorizer  # the baseline's alone

    texts = [
        f"{title} {abstract}"
        for title, abstract in zip(papers.texts("title"), papers.texts("abstract"), strict=True)
    ]
    if authors:
        named = papers.author_lists(0, len(papers))
        texts = [f"{text} {' '.join(names)}" for text, names in zip(texts, named, strict=True)]
    vectorizer = TfidfVectorizer(
        strip_accents="unicode",
        lowercase=True,
        analyzer="word",
        stop_words="english",
        token_pattern=r"(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b",
        ngram_range=(1, 2),
        max_features=20_000,
        norm="l2",
        use_idf=True,
        smooth_idf=True,
        sublinear_tf=True,
        max_df=0.1,
        min_df=5,
    )
    return vectorizer.fit_transform(texts)


def svm_ranking(matrix: object, positives: list[int], decided: set[int]) -> list[int]:
    from sklearn.svm import LinearSVC

    labels = np.zeros(matrix.shape[0])  # type: ignore[attr-defined]
    labels[positives] = 1
    svm = LinearSVC(class_weight="balanced", verbose=False, max_iter=10_000, tol=1e-6, C=0.01)
    svm.fit(matrix, labels)
    scores = svm.decision_function(matrix)
    order = np.argsort(-scores, kind="stable").tolist()
    return [n for n in order if n not in decided][:TOP]


def ours(papers: PaperStore, library: Library, tag: str | None, root: Path) -> Numbers:
    return recommend.recommender(papers, library, tag, root).best(limit=TOP)


def follow(papers: PaperStore, interests: list[str], draws: int, seed: int, root: Path) -> None:
    venues = [venue.split(" ")[0] for venue in papers.texts("venue")]
    digest = papers_digest(papers)  # the weak negatives' sample, as the recommender draws it
    seconds: list[float] = []
    print(f"| interest | kept of {FOLLOWED} | first {TOP} | first {TOP}, a model from nothing |")
    print("|---|---|---|---|")
    for name in interests:
        interest = INTERESTS[name]
        inside = [n for n, venue in enumerate(venues) if venue in interest]
        outside = [n for n, venue in enumerate(venues) if venue not in interest]
        figures = []
        for draw in range(draws):
            rng = random.Random(f"{name} {seed} {draw}")
            kept, skipped = rng.sample(inside, KEPT), rng.sample(outside, SKIPPED)
            library, _ = Library.open(None)
            library.change([papers.id_of(n) for n in kept], "kept", bookmarked=True, read=True)
            library.change([papers.id_of(n) for n in skipped], "skipped", read=True)
            found = recommend.recommender(papers, library, None, root)
            hits = 0
            for _ in range(FOLLOWED):
                number = int(found.best(limit=1)[0])
                good = venues[number] in interest
                hits += good
                library.change([papers.id_of(number)], "decided", bookmarked=good, read=True)
                started = time.process_time()
                found.decide([number], library)
                seconds.append(time.process_time() - started)
            anew = recommend.Recommender(papers, found.rows, found.decided, None, digest)
            anew.train()
            precisions = [
                sum(venues[n] in interest for n in ranking.tolist()) / TOP
                for ranking in (found.best(limit=TOP), anew.best(limit=TOP))
            ]
            figures.append((hits / FOLLOWED, *precisions))
        means = [statistics.mean(column) for column in zip(*figures, strict=True)]
        print(f"| {name} | {' | '.join(f'{mean:.3f}' for mean in means)} |")
    print(f"\ndecide, CPU: median {1000 * statistics.median(seconds):.0f} ms")


def update(corpus: Path, root: Path) -> None:
    papers = load_paths([corpus]).papers
    chosen = random.Random(1).sample(range(len(papers)), 370)
    library, _ = Library.open(None)
    library.change([papers.id_of(n) for n in chosen[:30]], "kept", bookmarked=True, read=True)
    library.change([papers.id_of(n) for n in chosen[30:330]], "skipped", read=True)
    started = time.perf_counter()
    found = recommend.recommender(papers, library, None, root)
    took = time.perf_counter() - started
    print(f"{len(papers):,} papers: rows built and a model trained in {took:.1f} s")
    seconds = []
    for turn, number in enumerate(chosen[330:]):
        kept = turn % 2 == 0
        library.change([papers.id_of(number)], "decided", bookmarked=kept, read=True)
        started = time.perf_counter()
        found.decide([number], library)
        best = found.best(limit=TOP)
        seconds.append(time.perf_counter() - started)
        assert number not in best
    print(
        f"a decision followed ({len(seconds)} decisions): median"
        f" {1000 * statistics.median(seconds):.0f} ms, max {1000 * max(seconds):.0f} ms"
    )


def cold(corpus: Path, root: Path) -> None:
    papers = load_paths([corpus]).papers
    library, _ = Library.open(None)
    library.change([papers.id_of(0)], "kept", bookmarked=True, read=True)
    cpu, wall = time.process_time(), time.perf_counter()
    found = recommend.open_recommender(papers, library, None, root)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"{len(papers):,} papers, 1 decision: opened in {wall:.2f} s ({cpu:.2f} s CPU):")
    print(f"  {found.cold_start}")
    cpu, wall = time.process_time(), time.perf_counter()
    rows = len(found.rows)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"the rows of {rows:,} papers, built once needed: {wall:.1f} s ({cpu:.1f} s CPU)")


Precisions = tuple[list[float], list[float], list[float]]  # keep/skip, tag, arxiv-sanity-lite's


def measure(
    papers: PaperStore, matrix: object, name: str, seed: int, draws: int, root: Path
) -> Precisions:
    """The three ways' precisions on each draw of a reader of this interest (the recommender's
    cache in `root`)."""
    interest = INTERESTS[name]
    venues = [venue.split(" ")[0] for venue in papers.texts("venue")]
    ids = papers.texts("id")
    inside = [n for n, venue in enumerate(venues) if venue in interest]
    outside = [n for n, venue in enumerate(venues) if venue not in interest]
    found: Precisions = ([], [], [])
    for draw in range(draws):
        rng = random.Random(f"{name} {seed} {draw}")
        kept, skipped = rng.sample(inside, KEPT), rng.sample(outside, SKIPPED)
        others = rng.sample(sorted(set(outside) - set(skipped)), OTHER_KEPT)
        plain, _ = Library.open(None)
        plain.change([ids[n] for n in kept], "kept", bookmarked=True, read=True)
        plain.change([ids[n] for n in skipped], "skipped", read=True)
        tagged, _ = Library.open(None)
        tagged.change([ids[n] for n in kept], "tagged", add_tags=[TAG], read=True)
        tagged.change([ids[n] for n in skipped], "skipped", read=True)
        tagged.change([ids[n] for n in others], "kept", bookmarked=True, read=True)
        decided = set(kept) | set(skipped)
        rankings = (
            ours(papers, plain, None, root).tolist(),
            ours(papers, tagged, TAG, root).tolist(),
            svm_ranking(matrix, kept, decided | set(others)),
        )
        for ranking, precisions, also in zip(rankings, found, ([], others, others), strict=True):
            assert len(ranking) == TOP
            assert not set(ranking) & (decided | set(also)), "a decided paper recommended"
            precisions.append(sum(venues[n] in interest for n in ranking) / TOP)
    return found


def ratios(found: Precisions) -> tuple[float, float]:
    """Keep/skip's and the tag's mean precision over arxiv-sanity-lite's."""
    baseline = max(statistics.mean(found[2]), 1e-9)
    return statistics.mean(found[0]) / baseline, statistics.mean(found[1]) / baseline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=5)
    parser.add_argument("--seed", type=int, nargs="+", default=[0], help="draws other readers")
    parser.add_argument("--interests", nargs="+", choices=list(INTERESTS), default=list(INTERESTS))
    parser.add_argument("--corpus", type=Path, default=REAL)
    parser.add_argument("--update", type=Path, metavar="CORPUS", help="time decisions over it")
    parser.add_argument("--follow", action="store_true", help="decisions followed one by one")
    parser.add_argument("--cold", type=Path, metavar="CORPUS", help="time a cold start's open")
    parser.add_argument("--baseline-authors", action="store_true", help="authors in its TF-IDF")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-recommend-") as scratch:
        run(arguments, Path(scratch))


def run(arguments: argparse.Namespace, root: Path) -> None:
    """What the arguments ask for, the recommender's caches in `root` (removed after): one for
    each seed and interest, as a reader's own."""
    if arguments.update:
        update(arguments.update, root)
        return
    if arguments.cold:
        cold(arguments.cold, root)
        return
    papers = load_paths([arguments.corpus]).papers
    if arguments.follow:
        for seed in arguments.seed:
            follow(papers, arguments.interests, arguments.draws, seed, root / str(seed))
        return
    venues = [venue.split(" ")[0] for venue in papers.texts("venue")]
    started = time.perf_counter()
    matrix = arxiv_sanity(papers, arguments.baseline_authors)
    took = time.perf_counter() - started
    of = "title, abstract and authors" if arguments.baseline_authors else "title and abstract"
    print(f"{len(papers):,} papers; arxiv-sanity-lite's TF-IDF of {of} in {took:.1f} s")
    worst: dict[str, tuple[float, float]] = {}
    every: dict[str, list[tuple[float, float]]] = {}
    for seed in arguments.seed:
        each = f"{arguments.draws} draws each: mean, min-max"
        print(f"\n`--seed {seed}`: precision of the first {TOP} ({each})\n")
        print("| interest (papers) | keep/skip | tag | arxiv-sanity-lite | ÷ it: keep/skip, tag |")
        print("|---|---|---|---|---|")
        for name in arguments.interests:
            found = measure(papers, matrix, name, seed, arguments.draws, root / f"{seed} {name}")
            size = sum(venue in INTERESTS[name] for venue in venues)
            cells = [f"{statistics.mean(p):.3f} ({min(p):.2f}-{max(p):.2f})" for p in found]
            plain, tagged = ratios(found)
            was = worst.get(name, (plain, tagged))
            worst[name] = min(was[0], plain), min(was[1], tagged)
            every.setdefault(name, []).append((plain, tagged))
            row = f"| {name} ({size:,}) | {' | '.join(cells)} | {plain:.2f}, {tagged:.2f} |"
            print(row, flush=True)
    if len(arguments.seed) > 1:
        print("\neach interest's ratio over the seeds, keep/skip and tag: the worst; the mean\n")
        for name, (plain, tagged) in worst.items():
            means = [statistics.mean(way) for way in zip(*every[name], strict=True)]
            print(f"- {name}: {plain:.2f}, {tagged:.2f}; {means[0]:.3f}, {means[1]:.3f}")


if __name__ == "__main__":
    main()
