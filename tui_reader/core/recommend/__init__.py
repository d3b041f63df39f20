"""For you: the papers not yet decided, in the order a model of the reader's decisions gives.

The decisions are the library's (`decisions`). The papers' rows (`features`) are kept in the
cache for these papers (made from the rows kept of nearly all of them, a day's papers added:
only theirs made), and the model (`model`) beside them for these decisions: both are data,
read back only when sound, else built again. A `Recommender` follows each new decision
(`decide`): the model trained again from the last one's weights on the same rows, every paper
scored again as one sparse product; decisions undone back to those of one of the last EARLIER
models take that model again, so an undo gives back the order before. Under NEEDED decisions
of either kind there is no model: `cold_start` says how many more it needs, and `recommender`
raises ColdStart; the rows are then not read (nor built: tens of seconds at 100,000 papers)
until the decisions are enough.
"""

import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

import numpy as np

from tui_reader.core.for_you import ForYouOrder
from tui_reader.core.paper_state import PaperState
from tui_reader.core.recommend import features, model
from tui_reader.core.recommend.decisions import (
    NEEDED,
    Decisions,
    cold_start,
    decisions,
    verdict,
)
from tui_reader.core.recommend.features import Features, Floats, Rejected
from tui_reader.core.recommend.model import Model, Training
from tui_reader.core.recommend.shown import shown
from tui_reader.core.references import headline_text
from tui_reader.core.store import Numbers, PaperStore
from tui_reader.core.writing import writing_prefix

__all__ = ["NEEDED", "ColdStart", "Recommender", "open_recommender", "recommender"]

PREFIX = "recommend-v"
KEPT = 3  # the papers' rows kept for this many sets of papers, the most recently used
EARLIER = 8  # the last models kept with their scores (4 MB each at a million papers)
WHY_WORDS = 3
HEADLINE = 60  # characters of the kept paper's headline in the why line


class ColdStart(Exception):
    """Too few decisions for a model; the message says how many more it needs."""


class Recommender:
    """The model of the reader's decisions over the papers' rows, and each paper's score.
    One thread at a time: `decide` changes what the others read."""

    def __init__(
        self,
        papers: PaperStore,
        rows: Features | Callable[[], Features],  # or what reads them, once they are needed
        decided: Decisions,
        tag: str | None,
        digest: str,  # the papers'
    ) -> None:
        self.papers, self._rows, self.decided, self.tag = papers, rows, decided, tag
        self._digest = digest
        self._training: Training | None = None  # made when first needed
        self.model: Model | None = None
        self.scores: Floats = np.zeros(0, np.float32)
        self._earlier: dict[str, tuple[Model, Floats]] = {}  # by decisions, the latest last

    @property
    def rows(self) -> Features:
        """The papers' rows, read (or built) when first needed."""
        if callable(self._rows):
            self._rows = self._rows()
        return self._rows

    @property
    def cold_start(self) -> str | None:
        """Why there is no model yet, and how many more decisions it needs; None with one."""
        return None if self.model else cold_start(self.decided, self.tag)

    def trained_on(self) -> str:
        """The digest of the decisions a model learns from now."""
        kept, skipped = self.decided.kept.values(), self.decided.skipped.values()
        return model.decisions_digest(list(kept), list(skipped), self._digest)

    def train(self) -> None:
        """Learn the decisions: from the last model when there is one, else from nothing
        (or, under NEEDED decisions of either kind, have no model)."""
        if not self.decided.enough():
            self.model, self.scores = None, np.zeros(0, np.float32)
            return
        if (earlier := self._earlier.get(self.trained_on())) is not None:
            self.use(*earlier)
            return
        if self._training is None:
            self._training = Training(self.rows, model.weak_sample(len(self.papers), self._digest))
        self._training.learn(self.decided.positives, self.decided.negatives)
        width = len(self.rows.vocabulary)
        self.use(model.train(self._training, width, self.trained_on(), self.model))

    def use(self, fitted: Model, scores: Floats | None = None) -> None:
        """Score every paper by this model (these are its scores, when given)."""
        self.model = fitted
        self.scores = fitted.scores(self.rows) if scores is None else scores
        self._earlier.pop(fitted.trained_on, None)
        self._earlier[fitted.trained_on] = fitted, self.scores
        if len(self._earlier) > EARLIER:
            del self._earlier[next(iter(self._earlier))]

    def decide(self, numbers: Iterable[int], state: PaperState) -> None:
        """Follow what the reader now made of these papers (kept, skipped, set aside or
        undone, as `state` says; several in one step, or an undo of it): the model learns it
        once, and every paper is scored again."""
        changed = False
        for number in numbers:
            paper_id = self._id_of(number)
            changed |= self.decided.change(number, paper_id, verdict(state, paper_id, self.tag))
        if changed:
            self.train()

    def best(self, among: Numbers | None = None, limit: int | None = None) -> Numbers:
        """The undecided papers (of `among`, when given), best first (the first `limit`).
        ColdStart without a model."""
        if self.model is None:
            raise ColdStart(cold_start(self.decided, self.tag))
        candidates = np.flatnonzero(self.decided.undecided)
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
        """Where each paper of `numbers` goes, as positions in `numbers`, as the reader's
        for-you order puts them: the undecided best first, then the decided (kept, or read and
        not kept) best first; ties, and every paper without a model, keep their order."""
        return ForYouOrder(~self.decided.undecided, self.scores).positions(numbers, len(numbers))

    def why(self, number: int, words: int = WHY_WORDS) -> list[str]:
        """The words, pairs of words or authors of the paper that raise its score most, no
        two sharing a word (`_distinct`)."""
        if self.model is None:
            return []
        columns, values = self.rows.row(number)
        contributions = values * self.model.weights[columns]
        # More than asked: some are passed over (a word PDF extraction broke, `broken_halves`;
        # one the reader does not see, `shown`; a word named already).
        best = np.argsort(-contributions)[: 5 * words].tolist()
        chosen = [i for i in best if contributions[i] > 0]
        paper = self.papers[number]
        title = paper.title or paper.headline
        names = features.names_in(title, paper.abstract, paper.authors)
        hashed = [int(self.rows.vocabulary[columns[i]]) for i in chosen]
        authors = {author.strip() for author in paper.authors}
        candidates = [names[column] for column in hashed if column in names]
        seen = shown(set(candidates) - authors, title, paper.abstract) | {a: a for a in authors}
        candidates = [name for name in candidates if name in seen]
        said = {name: set() if name in authors else set(name.split()) for name in candidates}
        hidden = features.broken_halves(paper.abstract, self.rows.vocabulary)
        # A word written as an author's name ("OpenAI" by OpenAI) is named once.
        return list(
            dict.fromkeys(seen[name] for name in _distinct(candidates, said, hidden, words))
        )

    def like(self, number: int) -> int | None:
        """The kept paper most like this one (the largest cosine of their rows), if any."""
        kept = self.decided.positives
        kept = kept[kept != number]
        if not len(kept):
            return None
        entries = self.rows.entries(kept)
        mine = np.zeros(len(self.rows.vocabulary))
        columns, values = self.rows.row(number)
        mine[columns] = values
        similar = np.bincount(entries.owners, entries.values * mine[entries.columns], len(kept))
        best = int(np.argmax(similar))
        return int(kept[best]) if similar[best] > 0 else None

    def why_line(self, number: int) -> str:
        """Why the paper is recommended, in one line: the words and authors that weigh most,
        and the kept paper most like it."""
        if self.model is None:
            return cold_start(self.decided, self.tag)
        named = self.why(number)
        authors = {author.strip() for author in self.papers[number].authors}
        words = [name for name in named if name not in authors]
        by = [name for name in named if name in authors]
        parts = [f"for its words {', '.join(words)}"] if words else []
        parts += [f"by {', '.join(by)}"] if by else []
        if (like := self.like(number)) is not None:
            headline = headline_text(self.papers[like])
            cut = headline if len(headline) <= HEADLINE else headline[: HEADLINE - 1] + "…"
            parts.append(f"like {cut}")
        return "; ".join(parts) or "no word of it weighs for or against"

    def _id_of(self, number: int) -> str:
        return self.papers.id_of(number)


def _distinct(
    names: list[str], said: dict[str, set[str]], hidden: frozenset[str], count: int
) -> list[str]:
    """The first `count` of these names (best first; `said`: the words of each) that hold no
    hidden word nor a word of another named, but for a pair whose two words were named alone
    before it, which takes their place ("granger causality", not "granger" and "causality")."""
    named: list[str] = []
    for name in names:
        words = said[name]
        if not hidden.isdisjoint(words):
            continue
        sharing = [other for other in named if said[other] & words]
        if not sharing and len(named) < count:
            named.append(name)
        elif len(sharing) == 2 and all(said[other] < words for other in sharing):  # its words
            named[named.index(sharing[0])] = name
            named.remove(sharing[1])
    return named


def open_recommender(
    papers: PaperStore, state: PaperState, tag: str | None, root: Path
) -> Recommender:
    """The model of these decisions over these papers (none, under NEEDED decisions of
    either kind: `cold_start` says why), from the cache folder `root` when it holds them,
    else built and kept there."""
    made = decisions(papers, state, tag)
    digest = features.papers_digest(papers)
    folder = root / f"{PREFIX}{features.VERSION}-{digest[:24]}"
    if not made.enough():  # no model: the rows wait for the decisions a model needs
        return Recommender(papers, partial(_rows, folder, papers, digest), made, tag, digest)
    rows = _rows(folder, papers, digest)
    found = Recommender(papers, rows, made, tag, digest)
    name = "model-" + hashlib.sha256((tag or "").encode()).hexdigest()[:16]
    try:
        found.use(*model.load(folder, name, found.trained_on(), len(rows.vocabulary), len(rows)))
    except Rejected:
        found.train()
        if folder.is_dir() and found.model:  # a cache is a convenience: the next run trains
            with contextlib.suppress(OSError):
                model.save(folder, name, found.model, found.scores)
    return found


def recommender(papers: PaperStore, state: PaperState, tag: str | None, root: Path) -> Recommender:
    """`open_recommender`'s model; ColdStart when the decisions are too few for one."""
    found = open_recommender(papers, state, tag, root)
    if found.cold_start is not None:
        raise ColdStart(found.cold_start)
    return found


def _rows(folder: Path, papers: PaperStore, digest: str) -> Features:
    """The papers' rows kept in `folder`, else made from the rows kept last (their papers'
    taken as they are, features.extended) or built, and kept there (whole or not at all)."""
    try:
        rows = features.open_kept(folder, digest, len(papers))
        with contextlib.suppress(OSError):  # a cache that cannot be written is read still
            os.utime(folder / features.MANIFEST, follow_symlinks=False)  # used: kept longest
        return rows
    except Rejected:
        pass
    made = _extended(folder.parent, papers)
    rows = features.build(papers) if made is None else made
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        writing = Path(tempfile.mkdtemp(prefix=writing_prefix(), dir=folder.parent))
    except OSError:  # a cache is a convenience: the next run builds them again
        return rows
    try:
        features.save(writing, rows, digest)
        shutil.rmtree(folder, ignore_errors=True)  # not sound: replaced with its models
        os.replace(writing, folder)
        _prune(folder.parent, folder)
    except BaseException as error:  # nothing half-written is left (Ctrl-C too)
        shutil.rmtree(writing, ignore_errors=True)
        if not isinstance(error, OSError):
            raise
    return rows


def _extended(root: Path, papers: PaperStore) -> Features | None:
    """The papers' rows made from rows kept (the most recently used first) of nearly all of
    them (features.extended); None when none are."""
    kept = []
    for path in root.glob(f"{PREFIX}{features.VERSION}-*"):
        with contextlib.suppress(OSError):
            kept.append(((path / features.MANIFEST).stat().st_mtime, path))
    for _, path in sorted(kept, reverse=True):
        last = features.open_last(path)
        if last is not None and (rows := features.extended(papers, last)) is not None:
            return rows
    return None


def _prune(root: Path, keep: Path) -> None:
    """Only the KEPT most recently used sets of rows stay."""
    kept = []
    for path in root.glob(f"{PREFIX}*"):
        manifest = path / features.MANIFEST
        used = manifest.stat().st_mtime if manifest.exists() else 0.0
        kept.append((path == keep, used, path))
    for _, _, path in sorted(kept, reverse=True)[KEPT:]:
        shutil.rmtree(path, ignore_errors=True)
