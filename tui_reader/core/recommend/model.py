"""A linear model of what the reader keeps: logistic regression on the papers' TF-IDF rows.

Positives are the papers kept, negatives those read and not kept, and, as arxiv-sanity-lite
takes every other paper as a negative, a sample of the undecided papers as weak negatives.
Each side weighs half; an explicit negative weighs NEGATIVE_WEIGHT weak ones. The loss, with
an L2 penalty, is minimised by Nesterov's accelerated gradient with a fixed step: the rows have
length 1, so the gradient's Lipschitz constant is known.

A model is kept as data: its weights as a `.npy` array of FEATURES float32 and a JSON manifest
with the format, VERSION, the bias, the features it was trained on and a digest of the
decisions; one that is not exactly that is rejected and trained again, never executed.
"""

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tui_reader.core.recommend.features import FEATURES, Features, Floats, Rejected, read_manifest
from tui_reader.core.store import Numbers

FORMAT = "tui-reader recommend model"
VERSION = 1
WEAK = 20_000  # undecided papers sampled as weak negatives
NEGATIVE_WEIGHT = 4.0  # an explicit negative (read, not kept), in weak negatives
PENALTY = 1e-3  # chosen on bench_recommend.py (benchmarks/RESULTS.md)
STEPS = 150


@dataclass(frozen=True)
class Model:
    weights: Floats
    bias: float
    trained_on: str  # the decisions' digest

    def scores(self, rows: Features) -> Floats:
        return rows.scores(self.weights, self.bias)


def decisions_digest(positives: Sequence[str], negatives: Sequence[str], features_of: str) -> str:
    """What a model is trained on: the decisions (ids kept and not) and the papers' rows."""
    text = "\n".join([*sorted(positives), "", *sorted(negatives), "", features_of])
    parameters = f"{VERSION} {WEAK} {NEGATIVE_WEIGHT} {PENALTY} {STEPS}"
    return hashlib.sha256(f"{parameters}\n{text}".encode()).hexdigest()


def train(
    rows: Features, positives: Numbers, negatives: Numbers, undecided: Numbers, digest: str
) -> Model:
    """A model telling the positives from the negatives and a sample of the undecided."""
    seed = int(digest[:16], 16)
    weak = undecided
    if len(weak) > WEAK:
        weak = np.sort(np.random.default_rng(seed).choice(undecided, WEAK, replace=False))
    chosen = np.concatenate([positives, negatives, weak])
    labels = np.concatenate([np.ones(len(positives)), -np.ones(len(negatives) + len(weak))])
    negative_total = NEGATIVE_WEIGHT * len(negatives) + len(weak)
    costs = np.concatenate(
        [
            np.full(len(positives), 0.5 / len(positives)),
            np.full(len(negatives), 0.5 * NEGATIVE_WEIGHT / negative_total),
            np.full(len(weak), 0.5 / negative_total),
        ]
    )
    # The chosen papers' rows, over only the columns they have.
    starts = rows.starts[chosen]
    lengths = rows.starts[chosen + 1] - starts
    spans = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
    owner = np.repeat(np.arange(len(chosen)), lengths)
    used, local = np.unique(np.asarray(rows.columns[spans]), return_inverse=True)
    values = np.asarray(rows.values[spans], dtype=np.float64)
    weights, bias = _minimise(owner, local, values, labels, costs, len(used))
    every = np.zeros(FEATURES, dtype=np.float32)
    every[used] = weights
    return Model(every, bias, digest)


def _minimise(
    owner: npt.NDArray[np.int64],
    local: npt.NDArray[np.int64],
    values: npt.NDArray[np.float64],
    labels: npt.NDArray[np.float64],
    costs: npt.NDArray[np.float64],
    columns: int,
) -> tuple[npt.NDArray[np.float64], float]:
    """Weights and bias minimising the weighted logistic loss plus PENALTY/2 |w|^2."""
    count = len(labels)
    step = 1.0 / (0.5 + PENALTY)  # rows of length 1, and the bias: |x|^2 <= 2; costs sum to 1
    w = np.zeros(columns)
    b = 0.0
    w_ahead, b_ahead = w.copy(), b
    momentum = 1.0
    for _ in range(STEPS):
        margins = labels * (np.bincount(owner, values * w_ahead[local], minlength=count) + b_ahead)
        slopes = -costs * labels / (1.0 + np.exp(np.clip(margins, -50, 50)))
        gradient = np.bincount(local, values * slopes[owner], minlength=columns)
        gradient += PENALTY * w_ahead
        w_next = w_ahead - step * gradient
        b_next = b_ahead - step * float(slopes.sum())
        following = (1 + math.sqrt(1 + 4 * momentum * momentum)) / 2
        carry = (momentum - 1) / following
        w_ahead = w_next + carry * (w_next - w)
        b_ahead = b_next + carry * (b_next - b)
        w, b, momentum = w_next, b_next, following
    return w, b


def _paths(folder: Path, name: str) -> tuple[Path, Path]:
    return folder / f"{name}.json", folder / f"{name}.npy"


def save(folder: Path, name: str, model: Model) -> None:
    """Keep the model in `folder` under `name`: its weights, then its manifest, each written
    whole (a temporary file renamed); the manifest last, so a half-kept model is rejected."""
    manifest_path, weights_path = _paths(folder, name)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "features": FEATURES,
        "bias": model.bias,
        "trained_on": model.trained_on,
    }
    handle, temporary = tempfile.mkstemp(prefix=".writing-", suffix=".npy", dir=folder)
    with os.fdopen(handle, "wb") as file:
        np.save(file, model.weights, allow_pickle=False)
    os.replace(temporary, weights_path)
    handle, temporary = tempfile.mkstemp(prefix=".writing-", suffix=".json", dir=folder)
    with os.fdopen(handle, "w") as file:
        file.write(json.dumps(manifest))
    os.replace(temporary, manifest_path)


def load(folder: Path, name: str, digest: str) -> Model:
    """The model kept under `name` for these decisions. Rejected when there is none, or it is
    of another format, version or decisions, or its weights are not FEATURES finite float32."""
    manifest_path, weights_path = _paths(folder, name)
    manifest = read_manifest(manifest_path)
    expected = {"format": FORMAT, "version": VERSION, "features": FEATURES}
    if any(manifest.get(key) != value for key, value in expected.items()):
        raise Rejected(f"{manifest_path}: not a model of this version")
    if manifest.get("trained_on") != digest:
        raise Rejected(f"{manifest_path}: trained on other decisions")
    bias = manifest.get("bias")
    if not isinstance(bias, float) or not math.isfinite(bias):
        raise Rejected(f"{manifest_path}: no bias")
    try:
        weights = np.load(weights_path, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise Rejected(f"{weights_path}: cannot be read ({error})") from None
    if weights.dtype.str != "<f4" or weights.shape != (FEATURES,):
        raise Rejected(f"{weights_path}: not {FEATURES} weights")
    if not np.all(np.isfinite(weights)):
        raise Rejected(f"{weights_path}: weights that are not numbers")
    return Model(weights, bias, digest)
