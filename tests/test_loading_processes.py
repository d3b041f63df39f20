"""A big JSON Lines file is read by a pool of processes, a piece at a time: what it loads is
what one process loads. The pieces are made small here so that a small file has many."""

import gzip
import json
import os
import zlib
from pathlib import Path

import pytest

from tui_reader.core import expected_papers as estimate
from tui_reader.core import loading
from tui_reader.core.loading import LoadFilter, load_paths, stream_papers
from tui_reader.core.paper import Paper
from tui_reader.core.segments import ranges
from tui_reader.core.store import PaperStore, papers_of


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


def _read(paths: list[Path], keep: LoadFilter = loading.NO_FILTER) -> tuple[list[Paper], list[str]]:
    """What the stream gives: each paper in order (batches flattened), and each problem in
    order (a piece's come after its papers)."""
    papers: list[Paper] = []
    problems: list[str] = []
    for item in stream_papers(paths, load_filter=keep):
        if isinstance(item, str):
            problems.append(item)
        else:
            papers += papers_of(item)
    return papers, problems


@pytest.mark.parametrize("name", ["papers.jsonl", "papers.jsonl.gz"])
def test_a_file_read_in_pieces_loads_as_in_one_process(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / name
    text = ("\ufeff" + "\n".join(_lines()) + "\n").encode()
    path.write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    at_once, stream = load_paths([path]), _read([path])
    keep = LoadFilter(("cs.AI",), "2020")
    filtered = _read([path], keep)
    _pieces(monkeypatch)
    in_pieces = load_paths([path])
    assert len(at_once.papers) == 395 and at_once.duplicates == 2  # the test sees a change
    assert list(in_pieces.papers) == list(at_once.papers)
    assert (
        in_pieces.problems
        == at_once.problems
        == [
            f"{path}:18: not valid JSON (Expecting ',' delimiter)",
            f"{path}:121: no abstract",
        ]
    )
    assert in_pieces.duplicates == at_once.duplicates
    assert _read([path]) == stream
    assert _read([path], keep) == filtered and 0 < len(filtered) < 100
    as_store = load_paths([path])
    assert isinstance(as_store.papers, PaperStore)
    assert list(as_store.papers) == list(at_once.papers)


def test_a_line_that_is_not_utf8_is_skipped_and_the_file_read_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A byte damaged in a big file stopped it there: the papers after it were not read,
    unsaid ("Skipped 1 record"), and the rest was kept in the cache as if it were all."""
    path = tmp_path / "papers.jsonl"
    lines = [line.encode() for line in _lines()]
    path.write_bytes(b"\n".join(lines) + b"\n")
    whole, _ = _read([path])
    lines[250] = b'{"abstract": "Caf\xe9"}'
    path.write_bytes(b"\n".join(lines) + b"\n")
    at_once = _read([path])
    _pieces(monkeypatch)
    assert _read([path]) == at_once
    papers, problems = at_once
    assert problems[-1] == f"{path}:254: not UTF-8 text (byte 0xe9)"
    assert len(papers) == len(whole) - 1


def test_the_arxiv_snapshot_is_read_in_pieces_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _pieces(monkeypatch)
    path = tmp_path / "arxiv-metadata-oai-snapshot.json"
    lines = [
        json.dumps(
            {
                "id": f"0704.{n:04d}",
                "submitter": "A",
                "authors": "A. Author",
                "title": f"Snapshot paper {n}",
                "categories": "cs.LG stat.ML",
                "abstract": f"Abstract of snapshot paper {n}.",
                "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}],
                "update_date": "2008-11-13",
            }
        )
        for n in range(1, 101)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    papers = load_paths([path]).papers
    assert [p.id for p in papers] == [f"0704.{n:04d}" for n in range(1, 101)]
    assert papers[99].published == "2007-04-02"


@pytest.mark.parametrize("name", ["papers.txt", "papers.txt.gz"])
def test_seed_text_is_read_in_pieces_too(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    abstracts = [f"Paper {n} studies [/b] graphs\nand \x1b]52;c;x\x07 bandits." for n in range(300)]
    abstracts[40] = "Caf\xe9 au lait."  # not UTF-8: told with its line, the rest read
    abstracts[250] = abstracts[3]  # met again: shown once
    text = b"\xef\xbb\xbfA collection\r\n\r\n" + b"\r\n \r\n".join(
        a.encode("latin-1" if n == 40 else "utf-8").replace(b"\n", b"\r\n")
        for n, a in enumerate(abstracts)
    )
    path = tmp_path / name
    path.write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    at_once = load_paths([path])
    _pieces(monkeypatch)
    in_pieces = load_paths([path])
    assert len(at_once.papers) == 298 and at_once.duplicates == 1  # the test sees a change
    assert list(in_pieces.papers) == list(at_once.papers)
    assert {paper.collection for paper in in_pieces.papers} == {"A collection"}
    assert in_pieces.problems == at_once.problems == [f"{path}:123: not UTF-8 text (byte 0xe9)"]


@pytest.mark.parametrize("apart", [True, False])
def test_a_gzip_file_cut_short_gives_every_whole_record_before_the_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, apart: bool
) -> None:
    """The papers of the last few dozen lines before the cut were lost (those the decompressor
    had not given out), and the cut was said in the decompressor's words."""
    path = tmp_path / "papers.jsonl.gz"
    whole = gzip.compress(("\n".join(_lines()) + "\n").encode())
    cut = whole[: len(whole) * 3 // 4]
    path.write_bytes(cut)
    readable = tmp_path / "readable.jsonl"  # the whole lines before the cut, as zcat gives
    text = zlib.decompressobj(31).decompress(cut)
    readable.write_bytes(text[: text.rfind(b"\n") + 1])
    before_cut, problems_before = _read([readable])
    if apart:
        _pieces(monkeypatch)
    read, problems = _read([path])
    line = text.count(b"\n") + 1
    told = [*problems_before, f"{path}:{line}: the file ends early here: it was cut short"]
    assert [paper.id for paper in read] == [paper.id for paper in before_cut]
    assert [problem.replace(str(readable), str(path)) for problem in told] == problems
    assert len(load_paths([path]).papers) == len(before_cut)  # a command reads them too


@pytest.mark.parametrize("name", ["papers.jsonl", "papers.jsonl.gz"])
def test_how_many_papers_a_file_holds_is_told_from_its_first_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(estimate, "SAMPLED_BYTES", 1_000_000)  # a fifth of the file
    records = ({"abstract": os.urandom(150).hex(), "title": str(n)} for n in range(15_000))
    text = "".join(json.dumps(record) + "\n" for record in records).encode()
    path = tmp_path / name
    path.write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    expected = estimate.expected_papers([path, path])
    # A gzip file's sample is known to the reader's buffer (128 kB of the file): a bit less.
    assert expected is not None and 24_000 <= expected <= 31_000
    table = tmp_path / "table.csv"
    table.write_text("abstract\nOne abstract.\n")
    assert estimate.expected_papers([path, table]) is None  # read whole: counted once read
    seed = tmp_path / "seed.txt"  # an abstract a paragraph, a line and a blank one each
    seed.write_text("A collection\n\n" + "".join(f"Abstract {n}.\n\n" for n in range(5000)))
    assert estimate.expected_papers([seed]) in range(4900, 5100)


def test_many_files_are_told_by_size_past_the_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(estimate, "SAMPLED_BYTES", 300_000)  # the first of the ten files
    parts = tmp_path / "parts"
    parts.mkdir()
    for part in range(10):
        records = ({"abstract": os.urandom(150).hex()} for _ in range(1_000))
        text = "".join(json.dumps(record) + "\n" for record in records)
        (parts / f"part{part}.jsonl").write_text(text)
    read, start = [], estimate.file_start
    monkeypatch.setattr(estimate, "file_start", lambda path: read.append(path) or start(path))
    expected = estimate.expected_papers(sorted(parts.iterdir()))
    assert expected is not None and 9_000 <= expected <= 11_000
    assert len(read) < 10


class _PoolThatCannotStart:
    """A pool whose processes cannot start (no room for another process, say)."""

    def submit(self, *_: object) -> None:
        raise OSError("cannot start a process")

    def shutdown(self, **_: object) -> None:
        pass


@pytest.mark.parametrize("failing", ["making the pool", "starting its processes"])
def test_a_big_file_is_read_here_when_no_pool_can_read_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    """The index's pool fell back to this process; the loading one raised a traceback."""
    path = tmp_path / "papers.jsonl"
    path.write_text("\n".join(_lines()) + "\n", encoding="utf-8")
    at_once = load_paths([path])

    def no_pool(processes: int) -> object:
        if failing == "making the pool":
            raise OSError("no semaphores")
        return _PoolThatCannotStart()

    _pieces(monkeypatch)
    monkeypatch.setattr(loading, "process_pool", no_pool)
    read_here = load_paths([path])
    assert list(read_here.papers) == list(at_once.papers) and len(at_once.papers) == 395
    assert read_here.problems == at_once.problems and read_here.duplicates == 2


@pytest.mark.parametrize("name", ["papers.jsonl", "papers.jsonl.gz"])
def test_a_file_read_in_pieces_keeps_its_range_as_read_whole_would(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its entry's range (CRC-32 of its bytes, lines, last bytes of text) is taken as the load
    reads it, not read again; a file changed since is read again."""
    path = tmp_path / name
    halves = ["\n".join(_lines()[:200]) + "\n", "\n".join(_lines()[200:])]  # no last line end
    data = b"".join(gzip.compress(half.encode()) for half in halves)  # two members
    path.write_bytes(data if name.endswith(".gz") else "".join(halves).encode())
    status = path.stat()
    whole = ranges.scanned(path.resolve(), 0, status.st_size)
    assert (whole.lines, whole.tail) == (402, b'"}'.hex())  # the test sees them
    _pieces(monkeypatch)
    load_paths([path])

    def read_again(*_: object) -> None:
        raise AssertionError("read again")

    with monkeypatch.context() as patched:
        patched.setattr(ranges, "scanned", read_again)
        assert ranges.read_whole(path, status.st_size, status.st_mtime_ns) == whole
    with path.open("ab") as grown:
        grown.write(gzip.compress(b"\n") if name.endswith(".gz") else b"\n")
    status = path.stat()
    found = ranges.read_whole(path, status.st_size, status.st_mtime_ns)
    assert found == ranges.scanned(path.resolve(), 0, status.st_size) != whole
    assert (found.lines, found.tail) == (403, b"}\n".hex())
