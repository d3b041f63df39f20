"""Each kept array's digest is taken as its file is written, not read back after (the frames'
file too, whose header is written last), and is the CRC-32 of the file as written."""

import json
import os
import random
import zlib
from pathlib import Path

import numpy as np
import pytest

from tests.cli_helpers import run
from tui_reader.core import digest
from tui_reader.core.flat import disk, postings
from tui_reader.core.index_cache import check_kept


def test_two_crcs_joined_are_the_crc_of_the_two_one_after_the_other() -> None:
    draw = random.Random(3)
    for length in (0, 1, 2, 7, 64, 1000, 65_537):
        first, second = draw.randbytes(draw.randint(0, 200)), draw.randbytes(length)
        crc = digest.joined(zlib.crc32(first), zlib.crc32(second), len(second))
        assert crc == zlib.crc32(first + second)


def _papers(path: Path, count: int, seed: int) -> Path:
    draw = random.Random(seed)
    words = [f"w{n}" for n in range(400)] + ["diffusion", "naïve", "α"]
    with path.open("w", encoding="utf-8") as out:
        for n in range(count):
            abstract = " ".join(draw.choices(words, k=draw.randint(5, 60))) + f" paper {seed}-{n}."
            out.write(
                json.dumps({"title": " ".join(draw.choices(words, k=4)), "abstract": abstract})
            )
            out.write("\n")
    return path


def _manifests(root: Path) -> list[Path]:
    return sorted(root.rglob("manifest.json"))


def test_an_entry_s_digests_are_taken_as_it_is_written_and_are_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _papers(tmp_path / "first.jsonl", 400, 1)
    second = _papers(tmp_path / "second.jsonl", 300, 2)
    monkeypatch.setattr(postings, "WINDOW", 1000)  # the postings made in a file, mapped

    digest_of = disk.digest_of

    def read_back(path: Path) -> str:  # a command checks the entry it opens, once written
        assert ".writing-" not in str(path), f"{path} read back for its digest"
        return digest_of(path)

    with monkeypatch.context() as patched:
        patched.setattr(disk, "digest_of", read_back)
        assert run(capsys, "search", "diffusion", str(first), str(second))[0] == 0  # whole
        with second.open("a", encoding="utf-8") as more:  # a part of its own, and a view
            more.write(_papers(tmp_path / "more.jsonl", 50, 3).read_text(encoding="utf-8"))
        assert run(capsys, "search", "diffusion", str(first), str(second))[0] == 0
    (entry,) = (tmp_path / "cache").glob("papers-v*")
    checked = 0
    for manifest in _manifests(tmp_path / "cache"):
        digests = json.loads(manifest.read_text(encoding="utf-8")).get("digests", {})
        for name, kept in digests.items():
            assert disk.digest_of(manifest.parent / f"{name}.npy") == kept, (manifest, name)
            checked += 1
    assert checked > 60 and len(list((entry / "parts").iterdir())) == 3
    frames = [path for path in entry.rglob("abstract.npy") if os.path.getsize(path) > 1000]
    assert frames
    assert check_kept(entry) == ""


def test_an_array_is_written_as_numpy_writes_it(tmp_path: Path) -> None:
    for number, array in enumerate(
        [
            np.arange(100_000, dtype=np.int64),
            np.arange(7, dtype=np.int32)[::2],  # not contiguous
            np.frombuffer(b"bytes", dtype=np.uint8),
            np.zeros(0, dtype=np.float32),
            np.array([True, False]),
        ]
    ):
        ours, numpy_s = tmp_path / f"ours{number}.npy", tmp_path / f"numpy{number}.npy"
        kept = disk.save_array(ours, array)
        np.save(numpy_s, array, allow_pickle=False)
        assert ours.read_bytes() == numpy_s.read_bytes()
        assert kept == f"{zlib.crc32(ours.read_bytes()):08x}"
