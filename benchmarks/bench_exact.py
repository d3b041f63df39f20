"""Whether a filter's count means what it says: precision and recall of plain words and of
misspellings over the real corpus beside the project (31,867 papers).

    python benchmarks/bench_exact.py [--show]

A plain word should find the papers holding a word that starts with it (the truth: every word
of a paper's title, abstract, authors and venue, folded as search folds them, `\\w+` apart).
A misspelling that no paper holds should find the papers of the word meant. The papers a
query finds are those it matches in full: what the header counts, feeds and `digest` count,
and `list` and `export` give.
"""

import argparse
import re
import time
from pathlib import Path

from tui_reader.core.flat.fold import fold
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.search_service import build_index, search_papers

REAL = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"

# Common words of the field, of four letters or more (a word typed whole).
WORDS = [
    "convex",
    "regret",
    "transformer",
    "sparse",
    "bandit",
    "reinforcement",
    "gradient",
    "kernel",
    "bayesian",
    "graph",
    "attention",
    "adversarial",
    "generative",
    "diffusion",
    "causal",
    "robust",
    "privacy",
    "federated",
    "optimization",
    "neural",
    "policy",
    "inference",
    "variational",
    "clustering",
    "embedding",
    "manifold",
    "quantum",
    "fairness",
    "language",
    "image",
    "segmentation",
    "sample",
    "stochastic",
    "matrix",
    "tensor",
    "spectral",
    "entropy",
    "regression",
    "classification",
    "submodular",
    "markov",
    "recurrent",
    "convolutional",
    "hierarchical",
    "probabilistic",
    "distillation",
    "contrastive",
    "meta",
    "pruning",
    "quantization",
]
# A misspelling, and the word meant.
MISSPELT = {
    "satisficng": "satisficing",
    "tranformer": "transformer",
    "reinforcment": "reinforcement",
    "convolutinal": "convolutional",
    "bayesain": "bayesian",
    "adverserial": "adversarial",
    "optimzation": "optimization",
    "embeding": "embedding",
    "regresion": "regression",
    "hierarchcal": "hierarchical",
    "probabilstic": "probabilistic",
    "generalizaton": "generalization",
    "varational": "variational",
    "gausian": "gaussian",
    "clasification": "classification",
    "distilation": "distillation",
    "submodlar": "submodular",
    "stochastc": "stochastic",
    "contrastve": "contrastive",
    "segmantation": "segmentation",
}
_WORD = re.compile(r"\w+")


def truth(papers: list, stem: str) -> set[int]:
    return {
        number
        for number, paper in enumerate(papers)
        if any(word.startswith(stem) for word in _words(paper))
    }


_WORDS_OF: dict[int, set[str]] = {}


def _words(paper: object) -> set[str]:
    key = id(paper)
    if key not in _WORDS_OF:
        text = " ".join([paper.title, paper.abstract, " ".join(paper.authors), paper.venue])
        _WORDS_OF[key] = set(_WORD.findall(fold(text)))
    return _WORDS_OF[key]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="a line per word")
    arguments = parser.parse_args()
    papers = load_paths([REAL]).papers
    built = list(papers)  # built once: `_words` knows a paper by its object
    index = build_index(papers)
    state = Library(None)
    rows: dict[str, list[tuple[str, float, float, int, int]]] = {"word": [], "misspelt": []}
    seconds = []
    for kind, cases in (("word", {w: w for w in WORDS}), ("misspelt", MISSPELT)):
        for typed, meant in cases.items():
            start = time.perf_counter()
            found = search_papers(index, typed, state, "relevance", papers)
            seconds.append(time.perf_counter() - start)
            listed = set(found.numbers[: found.full].tolist())
            real = truth(built, meant)
            hits = len(listed & real)
            precision = hits / len(listed) if listed else 1.0
            recall = hits / len(real) if real else 1.0
            rows[kind].append((typed, precision, recall, len(listed), len(real)))
            if arguments.show:
                print(f"{typed:16} {precision:6.3f} {recall:6.3f} {len(listed):6} {len(real):6}")
    for kind, title in (("word", "common words"), ("misspelt", "misspellings")):
        precision = sum(row[1] for row in rows[kind]) / len(rows[kind])
        recall = sum(row[2] for row in rows[kind]) / len(rows[kind])
        worst_p = min(rows[kind], key=lambda row: row[1])
        worst_r = min(rows[kind], key=lambda row: row[2])
        print(
            f"{title} ({len(rows[kind])}): precision {precision:.3f} (lowest {worst_p[1]:.3f}, "
            f"{worst_p[0]}), recall {recall:.3f} (lowest {worst_r[2]:.3f}, {worst_r[0]})"
        )
    print(f"search, median {1000 * sorted(seconds)[len(seconds) // 2]:.1f} ms")


if __name__ == "__main__":
    main()
