"""A linear model of what the reader keeps: a linear SVM (squared hinge loss) on the papers'
TF-IDF rows, as arxiv-sanity-lite trains one.

Positives are the papers kept, negatives those read and not kept, and, as arxiv-sanity-lite
takes every other paper as a negative, a sample of WEAK papers (the same for every set of
decisions over these papers, less the decided ones) as weak negatives. The papers kept weigh
KEPT_SHARE of the loss together, the weak negatives WEAK_SHARE together, and a paper read and
not kept NEGATIVE_WEIGHT of a kept one, whatever the number of papers: a skip counts as much
in a million papers as in thirty thousand. The loss, with an L2 penalty, is minimised by
Nesterov's accelerated gradient, the bias and the weights each with its own step: the loss
curves most along the bias (every paper's score moves with it), by a known bound, and the
weights' largest curvature, some thirty times less, is measured by a few power iterations
(a nonnegative matrix's first eigenvector is nonnegative, so a uniform start finds it). A
model trained again after a decision starts from the last one's weights and needs a
few steps (UPDATE_STEPS) where a model from nothing takes STEPS, and measures the curvature
by one iteration from the direction the last measure found.

Some weak negatives are papers the reader would keep: the DOUBTED share of them a model from
nothing scores highest are set aside (weigh nothing) and it is trained DOUBT_STEPS more
without them. Trained again after a decision, it keeps the same ones aside: setting aside
others as it goes, a skip could bring the papers like it forward.

A model is kept as data: its weights as a `.npy` array of float32, one per word of the
vocabulary, the papers' scores by it as another (a warm `recommend` reads them, not every
paper's row), and a JSON manifest with the format, VERSION, the bias, a digest of the
decisions and rows it was trained on and of each array; one that is not exactly that is
rejected and trained again, never executed.
"""

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from tui_reader.core.recommend.features import (
    Features,
    Floats,
    Rejected,
    own_file,
    read_manifest,
)
from tui_reader.core.store import Numbers

FORMAT = "tui-reader recommend model"
VERSION = 4  # 4: each side's weight set apart from the number of papers sampled
WEAK = 5_000  # papers sampled as weak negatives
# The loss's weights (benchmarks/RESULTS.md, "For you"): the kept papers together, the weak
# negatives together, and a paper read and not kept, in kept ones. On the simulated readers
# (12 seeds), against each side half and an explicit negative 64 weak ones (most of the
# negative half), language models, below arxiv-sanity-lite's precision on every set of seeds,
# rose from 0.99 to 1.01 of it; the worst interest's mean is 1.00 (uncertainty).
KEPT_SHARE = 0.5
WEAK_SHARE = 0.3
NEGATIVE_WEIGHT = 0.1
# The L2 penalty: arxiv-sanity-lite's C = 0.01 over the 31,867 papers of the benchmark's corpus
# (1 / (C n) for the loss's weights summing to 1; its readers' 30 kept and 300 skipped: 1.3).
PENALTY = 3e-3
STEPS = 60  # from nothing
# Set aside (benchmarks/RESULTS.md, "For you"): a share of 0.01 raised the mean ratio to
# arxiv-sanity-lite's precision over the nine interests from 1.032 to 1.038 (seeds 101-103, an
# explicit negative weighing 4); 0.005 against 0.01 raised the worst interest, uncertainty,
# from 0.94 to 0.95 (seeds 41, 104, 105, 201, 202; 0.02: 0.93).
DOUBTED = 0.005
DOUBT_STEPS = 30  # from nothing, once the doubted are set aside
# From the last model, after one more decision: simulated readers deciding 40 papers each on
# the real corpus keep their precision with 6 as with 10 (benchmarks/RESULTS.md, "For you").
UPDATE_STEPS = 6
CURVATURE_STEPS = 4  # power iterations measuring the loss's curvature over the weights
UPDATE_CURVATURE_STEPS = 1  # from the direction measured last, after one more decision
CURVATURE_MARGIN = 1.25  # what a few power iterations may miss of it


@dataclass(frozen=True)
class Model:
    weights: Floats  # one per word of the rows' vocabulary
    bias: float
    trained_on: str  # the decisions' digest

    def scores(self, rows: Features) -> Floats:
        return rows.scores(self.weights, self.bias)


def decisions_digest(positives: Sequence[str], negatives: Sequence[str], features_of: str) -> str:
    """What a model is trained on: the decisions (ids kept and not) and the papers' rows."""
    text = "\n".join([*sorted(positives), "", *sorted(negatives), "", features_of])
    weights = f"{KEPT_SHARE} {WEAK_SHARE} {NEGATIVE_WEIGHT}"
    parameters = f"{VERSION} {WEAK} {weights} {PENALTY} {STEPS} {DOUBTED}"
    return hashlib.sha256(f"{parameters}\n{text}".encode()).hexdigest()


def weak_sample(count: int, papers_digest: str) -> Numbers:
    """The papers (of `count`) taken as weak negatives, the same for any decisions."""
    if count <= WEAK:
        return np.arange(count, dtype=np.int64)
    rng = np.random.default_rng(int(papers_digest[:16], 16))
    sample: Numbers = np.sort(rng.choice(count, WEAK, replace=False)).astype(np.int64)
    return sample


class Block:
    """The rows of some papers, by row and by column, to multiply by weights (a score for
    each row) and by a value for each row (a sum for each column) at the cost of a pass."""

    def __init__(self, rows: Features, numbers: Numbers) -> None:
        entries = rows.entries(numbers)
        self.count, self.width = len(numbers), len(rows.vocabulary)
        self.owners = entries.owners
        self.columns = entries.columns
        self.values = entries.values.astype(np.float32)
        lengths = np.bincount(self.owners, minlength=self.count)
        self._rows = np.flatnonzero(lengths)
        self._row_starts = (np.cumsum(lengths) - lengths)[self._rows]
        by_column = np.argsort(self.columns, kind="stable")
        self._column_owners = self.owners[by_column]
        self._column_values = self.values[by_column]
        widths = np.bincount(self.columns, minlength=self.width)
        self._columns = np.flatnonzero(widths)
        self._column_starts = (np.cumsum(widths) - widths)[self._columns]

    def times(self, weights: Floats) -> Floats:
        """Each row times the weights (one a column)."""
        sums = np.zeros(self.count, dtype=np.float32)
        if len(self._rows):
            products = self.values * weights[self.columns]
            sums[self._rows] = np.add.reduceat(products, self._row_starts)
        return sums

    def sums(self, factors: Floats) -> Floats:
        """Each column's values, each times its row's factor, summed."""
        sums = np.zeros(self.width, dtype=np.float32)
        if len(self._columns):
            products = self._column_values * factors[self._column_owners]
            sums[self._columns] = np.add.reduceat(products, self._column_starts)
        return sums


class Training:
    """The papers a model learns from (the weak sample's rows kept from one set of decisions
    to the next), their labels (+1 kept, -1 not) and weights."""

    def __init__(self, rows: Features, weak: Numbers) -> None:
        self._rows, self._weak = rows, weak
        self.sample = Block(rows, weak)
        self.decided = Block(rows, np.zeros(0, dtype=np.int64))
        self.labels = np.zeros(0, dtype=np.float32)  # the decided papers', then the sample's
        self.costs = np.zeros(0, dtype=np.float32)
        self._trusted = self.costs  # the costs with none set aside
        self._doubted = np.zeros(0, dtype=np.int64)  # places in the sample set aside
        self._direction: Floats | None = None  # along which the loss curved most, last measured

    def learn(self, positives: Numbers, negatives: Numbers) -> None:
        """Learn from these decisions (the sample's papers among them taken out of it)."""
        decided = np.concatenate([positives, negatives])
        self.decided = Block(self._rows, decided)
        weak = ~np.isin(self._weak, decided)
        self.labels = np.concatenate(
            [np.ones(len(positives)), -np.ones(len(negatives) + len(weak))]
        ).astype(np.float32)
        kept = KEPT_SHARE / max(len(positives), 1)
        self.costs = np.concatenate(
            [
                np.full(len(positives), kept),
                np.full(len(negatives), NEGATIVE_WEIGHT * kept),
                weak * WEAK_SHARE / max(int(weak.sum()), 1),
            ]
        ).astype(np.float32)
        self._trusted = self.costs.copy()
        self.costs[self.decided.count + self._doubted] = 0.0

    @property
    def doubting(self) -> bool:
        return bool(len(self._doubted))

    def doubt(self, weights: Floats) -> None:
        """Set aside, from now on, the DOUBTED share of the weak negatives these weights
        score highest (instead of those set aside before)."""
        split = self.decided.count
        self.costs = self._trusted.copy()
        live = self.costs[split:] > 0
        doubted = int(DOUBTED * np.count_nonzero(live))
        scores = np.where(live, self.sample.times(weights), -np.inf)
        self._doubted = np.argpartition(-scores, doubted)[:doubted].astype(np.int64)
        self.costs[split + self._doubted] = 0.0

    def scores(self, weights: Floats) -> Floats:
        """Each paper's row times the weights (no bias), decided ones first."""
        return np.concatenate([self.decided.times(weights), self.sample.times(weights)])

    def gradient(self, slopes: Floats) -> Floats:
        """The loss's gradient over the weights, from its slope at each paper."""
        split = self.decided.count
        return self.decided.sums(slopes[:split]) + self.sample.sums(slopes[split:])

    def curvature(self, warm: bool = False) -> float:
        """The largest eigenvalue of the loss's second derivative over the weights, every
        paper inside the margin (the most it can curve), by power iteration: from a uniform
        start, or (`warm`, a decision after the last measure) from the direction found last,
        which one more decision hardly turns."""
        width = self.sample.width
        direction, steps = self._direction, UPDATE_CURVATURE_STEPS
        if not warm or direction is None:
            direction = np.full(width, 1 / math.sqrt(max(width, 1)), dtype=np.float32)
            steps = CURVATURE_STEPS
        largest = 0.0
        for _ in range(steps):
            image = self.gradient(np.float32(2.0) * self.costs * self.scores(direction))
            largest = math.sqrt(float(image @ image))
            if largest == 0.0:
                break
            direction = image / np.float32(largest)
        self._direction = direction if largest else None
        return largest


def train(training: Training, width: int, digest: str, start: Model | None = None) -> Model:
    """A model telling the training's positives from its negatives (as last `learn`t): from
    nothing in STEPS, then DOUBT_STEPS with the doubted weak negatives set aside; from
    `start` (trained on nearly the same decisions, the same set aside) in UPDATE_STEPS."""
    if start is not None:
        if not training.doubting:  # a model read back: its like set aside
            training.doubt(start.weights)
        weights, bias = _minimise(training, start.weights, start.bias, UPDATE_STEPS, True)
        return Model(weights, bias, digest)
    weights, bias = _minimise(training, np.zeros(width, dtype=np.float32), 0.0, STEPS)
    training.doubt(weights)
    weights, bias = _minimise(training, weights, bias, DOUBT_STEPS, True)
    return Model(weights, bias, digest)


def _minimise(
    training: Training, w: Floats, b: float, steps: int, warm: bool = False
) -> tuple[Floats, float]:
    """Weights and bias minimising the weighted squared hinge loss plus PENALTY/2 |w|^2."""
    labels, costs = training.labels, training.costs
    # Each block's step: 1 over twice its curvature, as the two blocks' bounds add up. The
    # bias's: 2 (the squared hinge's) times the loss's weights, all papers inside the margin.
    weights_step = 2 * CURVATURE_MARGIN * training.curvature(warm) + PENALTY
    bias_step = 2 * 2 * float(costs.sum())
    ratio = math.sqrt(PENALTY / weights_step)
    momentum = np.float32((1 - ratio) / (1 + ratio))
    w_ahead, b_ahead = w.copy(), b
    for _ in range(steps):
        margins = labels * (training.scores(w_ahead) + np.float32(b_ahead))
        slopes = np.float32(-2.0) * costs * labels * np.maximum(np.float32(0.0), 1 - margins)
        gradient = training.gradient(slopes) + np.float32(PENALTY) * w_ahead
        w_next = w_ahead - gradient / np.float32(weights_step)
        b_next = b_ahead - float(slopes.sum()) / bias_step
        w_ahead = w_next + momentum * (w_next - w)
        b_ahead = b_next + float(momentum) * (b_next - b)
        w, b = w_next, b_next
    return w, b


def _paths(folder: Path, name: str) -> tuple[Path, Path, Path]:
    return folder / f"{name}.json", folder / f"{name}.npy", folder / f"{name}.scores.npy"


def _digest(array: Floats) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def _write(folder: Path, path: Path, write: Callable[[IO[bytes]], object]) -> None:
    """Write a file whole: a temporary file renamed."""
    handle, temporary = tempfile.mkstemp(prefix=".writing-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as file:
            write(file)
        os.replace(temporary, path)
    except BaseException:  # nothing half-written is left (Ctrl-C too)
        Path(temporary).unlink(missing_ok=True)
        raise


def save(folder: Path, name: str, model: Model, scores: Floats) -> None:
    """Keep the model in `folder` under `name`: its weights and the papers' scores by it, then
    its manifest with a digest of each, so that a model half kept, or files of two models
    mixed, are rejected."""
    manifest_path, weights_path, scores_path = _paths(folder, name)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "weights": len(model.weights),
        "scores": len(scores),
        "bias": model.bias,
        "trained_on": model.trained_on,
        "digests": [_digest(model.weights), _digest(scores)],
    }
    _write(folder, weights_path, lambda file: np.save(file, model.weights, allow_pickle=False))
    _write(folder, scores_path, lambda file: np.save(file, scores, allow_pickle=False))
    _write(folder, manifest_path, lambda file: file.write(json.dumps(manifest).encode()))


def load(folder: Path, name: str, digest: str, width: int, count: int) -> tuple[Model, Floats]:
    """The model kept under `name` for these decisions, and the `count` papers' scores by it.
    Rejected when there is none, or it is of another format, version or decisions, or its
    weights or scores are not `width` and `count` finite float32 of the digests kept."""
    manifest_path, weights_path, scores_path = _paths(folder, name)
    manifest = read_manifest(manifest_path)
    expected = {"format": FORMAT, "version": VERSION, "weights": width, "scores": count}
    if any(manifest.get(key) != value for key, value in expected.items()):
        raise Rejected(f"{manifest_path}: not a model of this version")
    if manifest.get("trained_on") != digest:
        raise Rejected(f"{manifest_path}: trained on other decisions")
    bias = manifest.get("bias")
    if not isinstance(bias, float) or not math.isfinite(bias):
        raise Rejected(f"{manifest_path}: no bias")
    weights, scores = _floats(weights_path, width), _floats(scores_path, count)
    if manifest.get("digests") != [_digest(weights), _digest(scores)]:
        raise Rejected(f"{manifest_path}: its weights or scores are not those kept with it")
    return Model(weights, bias, digest), scores


def _floats(path: Path, count: int) -> Floats:
    """`count` finite float32 kept in `path`; Rejected otherwise."""
    own_file(path)
    try:
        floats = np.load(path, allow_pickle=False)
    except (OSError, EOFError, ValueError) as error:  # EOFError: an empty file
        raise Rejected(f"{path}: cannot be read ({error})") from None
    if floats.dtype.str != "<f4" or floats.shape != (count,):
        raise Rejected(f"{path}: not {count} float32")
    if not np.all(np.isfinite(floats)):
        raise Rejected(f"{path}: values that are not numbers")
    result: Floats = floats
    return result
