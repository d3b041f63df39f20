"""A cold build's big pieces kept out of the process's memory: a growing column's texts past
its first bytes in a temporary file (core.columns), a big index's postings made in one
(core.flat.postings). Made either way, the store, the index and the entry are the same."""

import contextlib
import gc
import json
import os
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

from tui_reader.core import columns
from tui_reader.core.flat import disk, postings
from tui_reader.core.flat.build import GrowingIndex, build_arrays
from tui_reader.core.flat.folded_text import mapping_of
from tui_reader.core.loading import check_paths
from tui_reader.core.opening import open_papers
from tui_reader.core.paper import Paper
from tui_reader.core.paper_columns import TEXTS, columns_of
from tui_reader.core.query import parse_query
from tui_reader.core.search_service import index_so_far
from tui_reader.core.store import PaperStore

WORDS = [f"w{n}" for n in range(300)] + ["Diffusion", "naïve", "co-training", "SAM", "α"]


def _papers(count: int) -> list[Paper]:
    draw = random.Random(7)
    return [
        Paper.from_abstract(
            " ".join(draw.choices(WORDS, k=draw.randint(5, 40))) + f" paper{n}.",
            "Made",
            Path("made.jsonl"),
            title=" ".join(draw.choices(WORDS, k=4)),
            authors=(f"Author {draw.randint(0, 50)}",),
        )
        for n in range(count)
    ]


def _same_arrays(a: dict[str, object], b: dict[str, object]) -> None:
    assert set(a) == set(b)
    for name in a:
        assert np.array_equal(np.asarray(a[name]), np.asarray(b[name])), name


def test_postings_made_in_a_file_are_those_made_in_memory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    papers = PaperStore(_papers(2500))
    in_memory, _ = build_arrays(papers, processes=1)
    assert mapping_of(in_memory["all_papers"]) is None
    monkeypatch.setattr(postings, "WINDOW", 1000)  # several windows, the last one short
    in_file, _ = build_arrays(papers, processes=1)
    assert len(in_file["all_papers"]) > 5 * postings.WINDOW
    assert mapping_of(in_file["all_papers"]) is not None
    _same_arrays(in_memory, in_file)
    # Written from the map, the files are np.save's.
    disk.save(tmp_path / "memory", [], in_memory)
    disk.save(tmp_path / "file", [], in_file)
    (memory,), (file,) = (list((tmp_path / kind).glob("flat-*")) for kind in ("memory", "file"))
    for array in sorted(memory.glob("*.npy")):
        assert array.read_bytes() == (file / array.name).read_bytes(), array.name


def test_a_column_past_its_first_bytes_reads_from_its_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = _papers(700)
    held = PaperStore(made)
    monkeypatch.setattr(columns, "SPILL_FROM", 500)
    spilled = PaperStore()
    for start in range(0, len(made), 100):  # batches, as papers load
        spilled.extend(columns_of(made[start : start + 100]))
    abstracts = spilled._texts["abstract"]
    assert any(isinstance(chunk, columns.Spilled) for chunk in abstracts.chunks)
    assert not isinstance(abstracts.chunks[0], columns.Spilled)
    assert list(spilled) == list(held) == made
    for name in (*TEXTS, "authors", "categories", "collection"):
        assert spilled.utf8(name, 95, 305) == held.utf8(name, 95, 305)
    named, names = spilled.arrays()
    expected, expected_names = held.arrays()
    assert names == expected_names
    for name, value in named.items():
        if isinstance(value, np.ndarray):
            assert np.array_equal(value, np.asarray(expected[name])), name
        else:
            other = expected[name]
            assert not isinstance(other, np.ndarray)
            assert b"".join(map(bytes, value)) == b"".join(map(bytes, other)), name


def _entry_arrays(root: Path) -> dict[str, bytes]:
    """Every array of the one entry kept under root, by its path within its part."""
    (entry,) = root.glob("papers-v*")
    return {
        "/".join(path.relative_to(entry).parts[2:]): path.read_bytes()
        for path in entry.glob("parts/*/**/*.npy")
    }


def test_an_entry_made_out_of_memory_is_the_one_made_in_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    corpus = tmp_path / "made.jsonl"
    with corpus.open("w", encoding="utf-8") as out:
        for paper in _papers(3000):
            record = {"title": paper.title, "abstract": paper.abstract, "authors": paper.authors}
            out.write(json.dumps(record) + "\n")
    files = check_paths([corpus])
    monkeypatch.setenv("TUI_READER_CACHE", str(tmp_path / "in-memory"))
    open_papers([corpus], files, indexed=True)
    monkeypatch.setenv("TUI_READER_CACHE", str(tmp_path / "out-of-memory"))
    monkeypatch.setattr(columns, "SPILL_FROM", 4096)
    monkeypatch.setattr(postings, "WINDOW", 5000)
    found = open_papers([corpus], files, indexed=True)
    assert isinstance(found.store._texts["abstract"].chunks[-1], columns.Spilled)
    in_memory, out_of_memory = (_entry_arrays(tmp_path / k) for k in ("in-memory", "out-of-memory"))
    assert len(in_memory) > 40 and in_memory == out_of_memory


def test_headlines_ranked_a_batch_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from tui_reader.core import store as store_module

    made = _papers(40) + [Paper.from_abstract("Same words.", "Made", Path("x"), title="ÉTÉ")] * 2
    made.append(Paper.from_abstract("Other words.", "Made", Path("x"), title="été"))
    monkeypatch.setattr(store_module, "_RANKED_AT_ONCE", 3)
    ranks = PaperStore(made).headline_ranks()
    keys = [paper.headline.casefold() for paper in PaperStore(made)]
    distinct = sorted(set(keys))
    assert ranks.tolist() == [distinct.index(key) for key in keys]


def _spilled_store(made: list[Paper]) -> PaperStore:
    store = PaperStore()
    for start in range(0, len(made), 100):  # batches, as papers load
        store.extend(columns_of(made[start : start + 100]))
    return store


def _open_files() -> set[str]:
    """What this process's descriptors point at."""
    fds = Path("/proc/self/fd")
    found = set()
    for fd in fds.iterdir():
        with contextlib.suppress(OSError):
            found.add(os.readlink(fd))
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="no /proc")
def test_a_spilled_column_closes_its_file_once_the_store_is_done_with_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A store that lives long (the reader's, its papers read back from the cache once kept)
    keeps no descriptor of the files it no longer reads; closed, never left to the collector
    (ResourceWarning)."""
    made = _papers(700)
    before = _open_files()
    monkeypatch.setattr(columns, "SPILL_FROM", 500)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        store = _spilled_store(made)
        spilled = _open_files() - before
        assert len(spilled) >= 3  # a file each column past its first bytes, unnamed
        store.adopt(PaperStore(made))  # as the reader adopts the entry it kept
        assert list(store) == made
        assert not _open_files() & spilled
        other = _spilled_store(made)
        assert len(_open_files() - before) == len(spilled)
        other.close()
        assert not _open_files() - before
        gc.collect()


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="no /proc")
def test_the_folded_text_of_an_index_is_closed_with_its_build_and_with_each_index_made() -> None:
    """The build's temporary file of the papers' folded text is closed as the build ends, and
    each index made of it (the papers read so far, as the reader's grow, and all of them)
    closes its own once done with; never left to the collector (ResourceWarning)."""
    made = PaperStore(_papers(300))
    before = _open_files()
    gc.disable()  # the descriptors closed by what owns them, not found by a collection
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            with GrowingIndex(processes=1) as growing:
                growing.read(made, 100)
                early = index_so_far(growing)
                growing.read(made, len(made))
                index = index_so_far(growing)
            del early
            found = index.run(parse_query('"paper299"'))
            assert found.numbers.tolist() == [299]  # it reads its text, the build ended
            assert _open_files() - before
            del index, found
        assert not _open_files() - before
        assert [str(warning.message) for warning in caught] == []
    finally:
        gc.enable()
