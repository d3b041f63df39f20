"""The folded text as an index keeps it on disk: each paper's a zstd frame of its own, made
with a dictionary trained on the part's first papers (core.frames; core.flat.disk writes it,
core.flat.merge reads it back).

Kept as it is built (UTF-8, each paper ended by a NUL) the folded text was the biggest
thing in the cache (1.18 of its 3.1 GB at a million papers); a frame a paper takes a third of
that, and a phrase reads only its candidates' frames: 111,000 of them decompressed in a
quarter of a second at a million papers (benchmarks/RESULTS.md, "The cache on disk").
Compressed in blocks of papers, a phrase decompressed nearly every block (1.5 s more).
"""

import mmap
from collections.abc import Iterator
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.folded_text import STEP, give_back, mapping_of
from tui_reader.core.flat.words import Array
from tui_reader.core.frames import (
    LARGEST,
    SAMPLES,
    Sink,
    reader,
    texts_in,
    trained,
    write_frames,
)

Ints = npt.NDArray[np.int64]
KEPT = "text_dictionary"  # an index's array when its text is kept so: the frames' dictionary


def compressed(text: Array, offsets: Array, into: Sink) -> tuple[Ints, bytes]:
    """The folded text as built (each paper's ended by a NUL, where `offsets` say) as kept:
    each paper's frame written to `into`, where each frame starts (and the last, where they
    end), and the dictionary they were made with. A text that maps a file (an index just
    built) is read STEP bytes at a time, each given back once read."""
    places = np.asarray(offsets, dtype=np.int64)
    count = len(places) - 1
    mapped = mapping_of(text)
    # The papers of the first STEP bytes (at most SAMPLES): the dictionary is trained on them.
    sampled = min(max(int(np.searchsorted(places, STEP, side="right")) - 1, 1), SAMPLES, count)
    ends = places[: sampled + 1].tolist()
    first_bytes = bytes(text[: ends[-1]])
    dictionary = trained([first_bytes[a : b - 1] for a, b in pairwise(ends)])
    if mapped is not None:
        give_back(mapped, 0, ends[-1])
    blocks = texts_in(_steps(text, int(places[-1]), mapped), places, ended=1)
    return write_frames(blocks, dictionary, into), dictionary


def _steps(text: Array, size: int, mapped: mmap.mmap | None) -> Iterator[bytes]:
    """The text STEP bytes at a time, the pages of a mapped text given back as they are read."""
    for begin in range(0, size, STEP):
        end = min(begin + STEP, size)
        yield bytes(text[begin:end])
        if mapped is not None:
            give_back(mapped, begin, end)


def built(
    frames: Array, offsets: Array, dictionary: Array, largest: int = LARGEST, where: str = ""
) -> tuple[Array, Ints]:
    """The folded text of kept frames (none claiming more than `largest` bytes) as built:
    each paper's ended by a NUL, and where each starts (and the last, where it ends).
    DamagedFrame for a frame that cannot be read: a damaged text is never kept again."""
    decompress = reader(dictionary, largest, where).strict
    places = np.asarray(offsets, dtype=np.int64).tolist()
    texts = [decompress(bytes(frames[a:b])) + b"\x00" for a, b in pairwise(places)]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    joined = np.frombuffer(b"".join(texts), dtype=np.uint8)
    return joined, np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
