"""Texts kept as zstd frames (core.frames) in a damaged cache: a dictionary that is not one
makes its entry rejected and the papers loaded anew; a frame that cannot be read reads as
U+FFFD, never an exception; and threads read frames with one reader side by side."""

import gzip
import io
import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from tui_reader.cli import program
from tui_reader.core.frames import DAMAGED, framed, reader

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"


def _frames(texts: list[bytes]) -> tuple[list[bytes], bytes]:
    offsets = np.cumsum([0, *map(len, texts)], dtype=np.int64)
    frames = io.BytesIO()
    places, dictionary = framed([b"".join(texts)], offsets, frames)
    data = frames.getvalue()
    return [data[a:b] for a, b in pairwise(places.tolist())], dictionary


def _texts(count: int, length: int = 60) -> list[bytes]:
    words = [f"word{number}".encode() for number in range(500)]
    rng = np.random.default_rng(1)
    return [b" ".join(words[i] for i in rng.integers(0, 500, length)) for _ in range(count)]


def test_a_frame_that_cannot_be_read_reads_as_the_replacement_character() -> None:
    texts = _texts(2000)
    frames, dictionary = _frames(texts)
    read = reader(dictionary)
    flipped = bytes(byte ^ 0xA5 for byte in frames[3])
    # A header claiming a text of 2**40 bytes: zstandard asked for them (MemoryError).
    header = bytearray(frames[4])
    header[4] = 0xE0 | (header[4] & 0x1F)
    header[5:13] = (2**40).to_bytes(8, "little")
    assert read(frames[2]) == texts[2]
    assert read(flipped) == DAMAGED
    assert read(bytes(header)) == DAMAGED
    assert reader(dictionary[::-1])(frames[2]) == DAMAGED


def test_threads_read_frames_with_one_reader_side_by_side() -> None:
    """Two threads reading with one decompressor read frames as corrupt, or ended the
    process (a segmentation fault): tested in a process of its own."""
    program_text = (
        "import threading\n"
        "from tests.test_damaged_frames import _frames, _texts\n"
        "from tui_reader.core.frames import reader\n"
        "texts = _texts(3000, 200)\n"
        "frames, dictionary = _frames(texts)\n"
        "read = reader(dictionary)\n"
        "wrong = []\n"
        "def work():\n"
        "    try:\n"
        "        for _ in range(4):\n"
        "            wrong.extend(n for n, f in enumerate(frames) if read(f) != texts[n])\n"
        "    except Exception as error:\n"
        "        wrong.append(error)\n"
        "threads = [threading.Thread(target=work) for _ in range(3)]\n"
        "[thread.start() for thread in threads]\n"
        "[thread.join() for thread in threads]\n"
        "assert not wrong, wrong[:3]\n"
    )
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", program_text], capture_output=True, timeout=300, cwd=root
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-500:]


@pytest.mark.parametrize(
    ("folder", "name"),
    [
        ("parts/*", "abstract_dictionary"),
        ("parts/*", "title_dictionary"),
        ("parts/*/flat-v*", "text_dictionary"),
    ],
)
@pytest.mark.parametrize("damage", ["zero", "random"])
def test_a_kept_entry_whose_dictionary_is_damaged_is_not_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str, name: str, damage: str
) -> None:
    if not CORPUS.exists():
        pytest.skip("the real corpus is not beside the project")
    with gzip.open(CORPUS, "rt", encoding="utf-8") as stream:
        papers = tmp_path / "papers.jsonl"
        papers.write_text("".join(next(stream) for _ in range(3000)), encoding="utf-8")
    asked = ["search", '"neural network"', str(papers), "--format", "jsonl"]
    assert program.main(asked) == 0
    expected = capsys.readouterr().out
    (path,) = (tmp_path / "cache").glob(f"papers-v*/{folder}/{name}.npy")
    kept = np.load(path)
    assert len(kept)  # a dictionary was trained
    rng = np.random.default_rng(2)
    kept[:] = 0 if damage == "zero" else rng.integers(0, 256, len(kept), dtype=np.uint8)
    np.save(path, kept)
    assert program.main(asked) == 0
    out, err = capsys.readouterr()
    assert "could not be used" in err
    assert [json.loads(line)["abstract"] for line in out.splitlines()] == [
        json.loads(line)["abstract"] for line in expected.splitlines()
    ]
