"""For you: the papers not yet decided, in the order a model of the reader's decisions gives.

The decisions are the library's: a paper kept (bookmarked, or carrying a tag other than
`later`; with a tag asked for, carrying that tag) is a positive, a paper read and not kept a
negative, the rest undecided (`decisions`). Under NEEDED of either there is no model, and
ColdStart says how many more it needs. The papers' rows (`features`) are kept in the cache for
these papers, and the model (`model`) beside them for these decisions: both are data, read
back only when sound, else built again.
"""

import contextlib
import functools
import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tui_reader.core.paper_state import PaperState
from tui_reader.core.recommend import features, model
from tui_reader.core.recommend.features import Features, Floats, Rejected
from tui_reader.core.recommend.model import Model
from tui_reader.core.store import Numbers, PaperStore
from tui_reader.core.wording import count

NEEDED = 3  # positives and negatives a model needs, each
PREFIX = "recommend-v"
KEPT = 3  # the papers' rows kept for this many sets of papers, the most recently used
LATER = "later"  # triage's "later" tag: no decision


class ColdStart(Exception):
    """Too few decisions for a model; the message says how many more it needs."""


@dataclass(frozen=True)
class Decisions:
    """The papers' numbers, by what the reader made of them."""

    positives: Numbers
    negatives: Numbers
    undecided: Numbers
    positive_ids: list[str]
    negative_ids: list[str]


def decisions(papers: PaperStore, state: PaperState, tag: str | None = None) -> Decisions:
    """Kept, read and not kept, and undecided papers (not read, not bookmarked, not carrying
    the tag, or without one not kept)."""
    ids = list(state.paper_ids())
    places = papers.positions_of(ids)
    positive, negative, decided = [], [], []
    for paper_id, place in zip(ids, places.tolist(), strict=True):
        if place < 0:
            continue
        tags = state.tags(paper_id)
        bookmarked = state.is_bookmarked(paper_id)
        kept = tag in tags if tag else bookmarked or any(t != LATER for t in tags)
        if kept:
            positive.append((place, paper_id))
        elif state.is_read(paper_id):
            negative.append((place, paper_id))
        if kept or bookmarked or state.is_read(paper_id):
            decided.append(place)
    undecided = np.ones(len(papers), dtype=bool)
    undecided[decided] = False
    return Decisions(
        np.array(sorted(p for p, _ in positive), dtype=np.int64),
        np.array(sorted(p for p, _ in negative), dtype=np.int64),
        np.flatnonzero(undecided),
        [i for _, i in positive],
        [i for _, i in negative],
    )


def _cold_start(made: Decisions, tag: str | None) -> str:
    """How many decisions there are, and how many more a model needs."""
    kept = f"tagged #{tag}" if tag else "kept"
    have = len(made.positives), len(made.negatives)
    needs = [
        f"{NEEDED - number:,} more {what}"
        for number, what in zip(have, (kept, "read and not kept"), strict=True)
        if number < NEEDED
    ]
    how = (
        f"t to tag #{tag}, or a quick tag in triage"
        if tag
        else "in triage (I): Enter keeps, x skips"
    )
    return (
        f"no model of your interests yet: {count(have[0], 'paper')} {kept} and "
        f"{have[1]:,} read and not kept; it needs {' and '.join(needs)} ({how})"
    )


@dataclass(frozen=True)
class Recommender:
    """The model of the reader's decisions over the papers' rows."""

    papers: PaperStore
    rows: Features
    model: Model
    decided: Decisions

    @functools.cached_property
    def scores(self) -> Floats:
        """Each paper's score: the higher, the likelier kept."""
        return self.model.scores(self.rows)

    def best(self, among: Numbers | None = None, limit: int | None = None) -> Numbers:
        """The undecided papers (of `among`, when given), best first (the first `limit`)."""
        candidates = self.decided.undecided
        if among is not None:
            candidates = np.intersect1d(candidates, among)
        scores = self.scores[candidates]
        if limit is not None and limit < len(candidates):
            top = np.argpartition(-scores, limit)[:limit]
            candidates, scores = candidates[top], scores[top]
        order = np.lexsort((candidates, -scores))
        best: Numbers = candidates[order]
        return best

    def order(self, numbers: Numbers) -> Numbers:
        """Where each paper of `numbers` goes, best first, as positions in `numbers`; ties
        keep their order."""
        ranks: Numbers = np.lexsort((np.arange(len(numbers)), -self.scores[numbers]))
        return ranks

    def why(self, number: int, words: int = 3) -> list[str]:
        """The words, pairs of words or authors of the paper that raise its score most."""
        columns, values = self.rows.row(number)
        contributions = values * self.model.weights[columns]
        chosen = [i for i in np.argsort(-contributions)[:words].tolist() if contributions[i] > 0]
        paper = self.papers[number]
        names = features.names_in(paper.title or paper.headline, paper.abstract, paper.authors)
        return [names[int(columns[i])] for i in chosen if int(columns[i]) in names]


def recommender(papers: PaperStore, state: PaperState, tag: str | None, root: Path) -> Recommender:
    """The model of these decisions over these papers, from the cache folder `root` when it
    holds them, else built and kept there. ColdStart when the decisions are too few."""
    made = decisions(papers, state, tag)
    if len(made.positives) < NEEDED or len(made.negatives) < NEEDED:
        raise ColdStart(_cold_start(made, tag))
    digest = features.papers_digest(papers)
    folder = root / f"{PREFIX}{features.VERSION}-{digest[:24]}"
    rows = _rows(folder, papers, digest)
    trained_on = model.decisions_digest(made.positive_ids, made.negative_ids, digest)
    name = "model-" + hashlib.sha256((tag or "").encode()).hexdigest()[:16]
    try:
        fitted = model.load(folder, name, trained_on)
    except Rejected:
        fitted = model.train(rows, made.positives, made.negatives, made.undecided, trained_on)
        if folder.is_dir():  # a cache is a convenience: the next run trains again
            with contextlib.suppress(OSError):
                model.save(folder, name, fitted)
    return Recommender(papers, rows, fitted, made)


def _rows(folder: Path, papers: PaperStore, digest: str) -> Features:
    """The papers' rows kept in `folder`, else built and kept there (whole or not at all)."""
    try:
        rows = features.open_kept(folder, digest, len(papers))
        os.utime(folder / features.MANIFEST)  # recently used: kept longest
        return rows
    except Rejected:
        pass
    rows = features.build(papers)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        writing = Path(tempfile.mkdtemp(prefix=".writing-", dir=folder.parent))
    except OSError:  # a cache is a convenience: the next run builds them again
        return rows
    try:
        features.save(writing, rows, digest)
        shutil.rmtree(folder, ignore_errors=True)  # not sound: replaced with its models
        os.replace(writing, folder)
        _prune(folder.parent, folder)
    except OSError:
        shutil.rmtree(writing, ignore_errors=True)
    return rows


def _prune(root: Path, keep: Path) -> None:
    """Only the KEPT most recently used sets of rows stay."""
    kept = []
    for path in root.glob(f"{PREFIX}*"):
        manifest = path / features.MANIFEST
        used = manifest.stat().st_mtime if manifest.exists() else 0.0
        kept.append((path == keep, used, path))
    for _, _, path in sorted(kept, reverse=True)[KEPT:]:
        shutil.rmtree(path, ignore_errors=True)
