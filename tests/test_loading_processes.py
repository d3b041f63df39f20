"""A big JSON Lines file is read by a pool of processes, a piece at a time: what it loads is
what one process loads. The pieces are made small here so that a small file has many."""

import gzip
import json
import os
import zlib
from pathlib import Path

import pytest

from tui_reader.core import loading
from tui_reader.core.loading import LoadFilter, load_paths, load_store, stream_papers
from tui_reader.core.paper import Paper
from tui_reader.core.store import PaperStore


def _record(number: int) -> dict[str, object]:
    return {
        "abstract": f"Paper {number} studies [/b] graphs and \x1b]52;c;x\x07 bandits.",
        "title": f"Title {number}" if number % 3 else "",
        "authors": [f"Author {number}", "B. Other"],
        "categories": ["cs.LG"] if number % 2 else ["math.OC", "cs.AI"],
        "published": f"{2015 + number % 10}-03-01",
        "arxiv_id": f"2101.{number:05d}" if number % 5 == 0 else "",
    }


def _lines() -> list[str]:
    lines = [json.dumps(_record(n)) for n in range(400)]
    lines[17] = '{"abstract": "Broken"'  # a problem with its line number
    lines[120] = '{"title": "no abstract here"}'
    lines[200] = "\n\n   \n"  # blank lines: the numbers after them still right
    lines[300] = json.dumps(_record(3))  # met again far later: shown once
    lines[301] = json.dumps(_record(250))  # met again before its first place...
    lines[390] = json.dumps(_record(301))  # ...and after
    return lines


def _pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "PROCESSES_FROM", 0)
    monkeypatch.setattr(loading, "_PIECE_BYTES", 2000)  # about ten lines a piece
    monkeypatch.setattr(os, "cpu_count", lambda: 2)


def _read(paths: list[Path], keep: LoadFilter = loading.NO_FILTER) -> list[object]:
    """What the stream gives: each paper, each problem, in order (batches flattened)."""
    items: list[object] = []
    for item in stream_papers(paths, keep=keep):
        items += [item] if isinstance(item, str) else item
    return items


@pytest.mark.parametrize("name", ["papers.jsonl", "papers.jsonl.gz"])
def test_how_many_papers_a_file_holds_is_told_from_its_first_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(loading, "SAMPLED_BYTES", 1_000_000)  # a fifth of the file
    records = ({"abstract": os.urandom(150).hex(), "title": str(n)} for n in range(15_000))
    text = "".join(json.dumps(record) + "\n" for record in records).encode()
    path = tmp_path / name
    path.write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    expected = loading.expected_papers([path, path])
    # A gzip file's sample is known to the reader's buffer (128 kB of the file): a bit less.
    assert expected is not None and 24_000 <= expected <= 31_000
    seed = tmp_path / "seed.txt"
    seed.write_text("A collection\n\nOne abstract.\n")
    assert loading.expected_papers([path, seed]) is None  # read whole: counted once read
