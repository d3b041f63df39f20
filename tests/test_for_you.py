"""The for-you order of the list (core.for_you): best first, the decided after, the papers the
reader passed in place; the tag a filter names; a decision followed at once."""

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.test_recommend import _corpus, _library
from tui_reader.core import recommend
from tui_reader.core.for_you import ForYouOrder, liked_tag
from tui_reader.core.recommend import features

SCORES = np.array([0.1, 0.9, 0.5, 0.3, 0.8], dtype=np.float32)
DECIDED = np.array([False, False, True, False, False])


def places(order: ForYouOrder, numbers: list[int], full: int) -> list[int]:
    found = np.array(numbers, dtype=np.int64)
    ordered: list[int] = found[order.positions(found, full)].tolist()
    return ordered


def test_the_undecided_come_best_first_and_the_decided_after_them() -> None:
    order = ForYouOrder(DECIDED, SCORES)
    assert places(order, [0, 1, 2, 3, 4], 5) == [1, 4, 3, 0, 2]


def test_the_papers_passed_keep_their_places_at_the_top() -> None:
    order = ForYouOrder(DECIDED, SCORES, pinned=np.array([2, 0]))
    assert places(order, [0, 1, 2, 3, 4], 5) == [2, 0, 1, 4, 3]


def test_those_matching_every_term_stay_before_the_close_ones() -> None:
    order = ForYouOrder(DECIDED, SCORES)
    assert places(order, [0, 1, 2, 3, 4], 3) == [1, 0, 2, 4, 3]


def test_without_a_model_the_decided_still_go_last_and_papers_added_since_keep_their_order() -> (
    None
):
    assert places(ForYouOrder(DECIDED), [4, 2, 7, 0], 4) == [4, 7, 0, 2]
    assert places(ForYouOrder(DECIDED, SCORES), [6, 1, 5], 3) == [1, 6, 5]


def _reference(order: ForYouOrder, numbers: np.ndarray, full: int) -> list[int]:
    """The order `positions` gives, by sorting on every key in turn."""

    def key(position: int) -> tuple[bool, int, bool, float, int]:
        number = int(numbers[position])
        pinned = order.pinned.tolist()
        pin = pinned.index(number) if number in pinned else len(pinned)
        decided = number < len(order.decided) and bool(order.decided[number])
        score = float(order.scores[number]) if number < len(order.scores) else 0.0
        return position >= full, pin, decided, -score, position

    return sorted(range(len(numbers)), key=key)


@given(
    st.lists(st.sampled_from([0.0, -0.0, 1.5, -2.0, 3e-9, -1e30, 7.0]), max_size=30),
    st.lists(st.booleans(), max_size=30),
    st.lists(st.integers(0, 40), max_size=40),
    st.lists(st.integers(0, 40), max_size=6, unique=True),
    st.integers(0, 45),
)
@example([], [], [1, 0], [0, 1], 1)  # a paper pinned first, but close: after the other
def test_the_order_is_that_of_every_key_in_turn(
    scores: list[float], decided: list[bool], numbers: list[int], pinned: list[int], full: int
) -> None:
    """Ties of every kind (equal scores, zeros of both signs, papers without a score or
    added since), the pinned among the close ones too."""
    order = ForYouOrder(
        np.array(decided, dtype=bool),
        np.array(scores, dtype=np.float32),
        np.array(pinned, np.int64),
    )
    found = np.array(numbers, dtype=np.int64)
    assert order.positions(found, full).tolist() == _reference(order, found, full)


def test_the_tag_is_that_of_the_first_tag_filter_naming_a_tag_in_use() -> None:
    tags = {"rl", "theory"}
    assert liked_tag("#rl diffusion", tags) == "rl"
    assert liked_tag("!#theory #rl", tags) == "theory"
    assert liked_tag("#r", tags) is None  # being typed: not a tag yet
    assert liked_tag("diffusion is:unread", tags) is None


def test_a_paper_kept_since_the_model_was_trained_brings_its_like_up_at_once(
    tmp_path: Path,
) -> None:
    keep, skip = [1, 3, 5], [0, 2, 4]  # bandits kept, robots skipped
    papers = _corpus()
    library = _library(keep, skip)
    model = recommend.open_recommender(papers, library, None, tmp_path)
    trained = model.scores
    kept_before = float(np.median(trained[keep]))
    library.change(["p0010"], "kept", bookmarked=True, read=True)  # a robot paper
    model.decide([10], library)
    assert 10 not in model.best().tolist()  # decided now
    robots = np.arange(0, 200, 2)
    rise = model.scores[robots] - trained[robots]
    assert rise.mean() > 0
    assert model.scores[10] >= kept_before - 1e-4


def test_rows_are_scored_alike_however_many_values_are_scored_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A chunk of rows at a time; a row longer than a chunk alone; empty rows score the bias."""
    rng = np.random.default_rng(3)
    lengths = rng.integers(0, 6, 50)
    lengths[[0, 10, 49]], lengths[5] = 0, 20
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    width = features.VOCABULARY
    columns = rng.integers(0, width, starts[-1]).astype(np.uint16)
    values = rng.random(starts[-1]).astype(np.float32)
    weights = rng.standard_normal(width).astype(np.float32)
    rows = features.Features(starts, columns, values, np.arange(width, dtype=np.int32))
    spans = itertools.pairwise(starts.tolist())
    expected = [float(values[a:b] @ weights[columns[a:b]]) + 0.5 for a, b in spans]
    for at_once in (1, 3, 7, 1 << 18):
        monkeypatch.setattr(features, "SCORED_AT_ONCE", at_once)
        assert np.allclose(rows.scores(weights, 0.5), expected, atol=1e-5)
