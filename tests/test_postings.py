"""Postings as a kept index holds them (core.flat.postings): 2 bytes a posting, read back as
the paper numbers they were."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reader.core.flat import disk, postings
from tui_reader.core.flat.build import build_arrays
from tui_reader.core.flat.postings import Postings, kept
from tui_reader.core.paper import Paper
from tui_reader.core.store import PaperStore


def _read_back(lists: list[list[int]]) -> Postings:
    offsets = np.cumsum([0, *map(len, lists)], dtype=np.int64)
    numbers = np.asarray([n for papers in lists for n in papers], dtype=np.int32)
    return Postings({"f_offsets": offsets} | kept(offsets, numbers, "f"), "f")


@given(
    st.lists(st.sets(st.integers(0, 3 * 65536 + 5), max_size=40).map(sorted), max_size=12),
    st.sampled_from([1, 3, 1 << 24]),
)
def test_kept_postings_read_back_as_the_paper_numbers_they_were(
    lists: list[list[int]], at_once: int
) -> None:
    """Whatever the paper numbers (their high bits rising by one, by two, at a word's first
    posting or not) and however many postings are made at once."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(postings, "SLICE", at_once)
        read = _read_back(lists)
    found = read.of(np.arange(len(lists), dtype=np.int64))
    assert [papers.tolist() for papers in found] == lists
    assert read.all().tolist() == [n for papers in lists for n in papers]


def test_a_kept_index_holds_a_posting_in_two_bytes(tmp_path: Path) -> None:
    papers = [
        Paper.from_abstract(f"Paper {n} on graphs and {n % 7} bandits.", "C", Path("x.jsonl"))
        for n in range(300)
    ]
    arrays = build_arrays(PaperStore(papers), processes=1)[0]
    folder = disk.save(tmp_path, [{"path": "x"}], arrays)
    kept_papers = np.load(folder / "all_papers.npy")
    assert kept_papers.dtype == np.uint16 and len(kept_papers) == len(arrays["all_papers"])
    opened = disk.open_index(tmp_path, [{"path": "x"}])
    (part,) = opened.parts
    assert Postings(part.arrays, "all").all().tolist() == arrays["all_papers"].tolist()
