"""Texts kept on disk as zstd frames, one a text, made with a dictionary trained on the first
of them: the abstracts of the kept store (core.segments.part) and the folded text of the kept
index (core.flat.kept_text).

A text is read back alone, in a few microseconds, where texts compressed in blocks would
decompress their whole block: a phrase reads its candidates' texts, the reader shows one
paper at a time. A dictionary of 110 kB trained on a part's first papers makes a frame of an
abstract a third of its size (benchmarks/RESULTS.md, "The cache on disk"). zstandard is
imported once a kept entry is read or written (5 ms), not at every start.

A frame that cannot be read (a damaged cache) is never read as another text: its header may
claim no more than the longest text its column held when it was written, nor may it fail to
decompress. Where a text is shown it reads as U+FFFD and the file is noted (`damage_seen`, for
the reader and the commands to tell and have the part read again); where kept texts are
written again (a merge, an entry rewritten) it raises DamagedFrame, so that damage is never
kept as text.
"""

import io
import os
import threading
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from tui_reader.core.digest import Digesting, hex_digest, joined

if TYPE_CHECKING:
    import zstandard

LEVEL = 3  # zstd's level: 75-150 MB/s a core with a dictionary
DICTIONARY = 112_640  # bytes of a dictionary (zstd's own default size)
SAMPLES = 10_000  # texts at most a dictionary is trained on
SAMPLED_BYTES = 8_000_000  # and their bytes at most
# Bytes of texts below which none is trained: it would hardly shorten them.
TRAINED_FROM = 100_000
THREADS = min(os.cpu_count() or 1, 4)  # threads that make frames
GATHERED = 8_000_000  # bytes of texts given zstd's threads at once, at least
Array = npt.NDArray[Any]
Chunk = bytes | memoryview  # as core.columns keeps them
DAMAGED = "\N{REPLACEMENT CHARACTER}".encode()  # a frame that cannot be read, read back
# The longest text a frame may claim where its column's longest was not recorded (a part kept
# by an earlier version): the most text a file read whole holds (core.loading.MAX_TEXT_BYTES).
LARGEST = 250_000_000
_seen: set[str] = set()  # the files of the frames found damaged in this process


def trained(texts: Sequence[bytes | bytearray | memoryview]) -> bytes:
    """A dictionary for texts like these; empty when they are too few or too alike to train
    one (their frames are made without)."""
    import zstandard as zstd

    # zstd's training ends the process (a segmentation fault) on samples mostly empty, as a
    # column of titles of untitled papers is: it is given the texts that are not.
    samples: list[bytes | bytearray | memoryview] = [bytes(t) for t in texts if len(t)]
    if sum(map(len, samples)) < TRAINED_FROM:
        return b""
    try:
        # Its parameters given: searched for, they took five times as long for the same sizes.
        made = zstd.train_dictionary(DICTIONARY, samples, k=200, d=8)
        return bytes(made.as_bytes())
    except zstd.ZstdError:
        return b""


def _dictionary(data: bytes) -> "zstandard.ZstdCompressionDict | None":
    import zstandard as zstd

    # A full dictionary (as trained), never raw content: damaged bytes are refused, not read
    # as a dictionary that makes frames read back other texts.
    return zstd.ZstdCompressionDict(data, dict_type=zstd.DICT_TYPE_FULLDICT) if data else None


def usable(dictionary: bytes | memoryview | npt.NDArray[Any]) -> bool:
    """Whether a kept dictionary is one zstd can read frames with (empty: none)."""
    import zstandard as zstd

    try:
        zstd.ZstdDecompressor(dict_data=_dictionary(bytes(dictionary)))
    except zstd.ZstdError:
        return False
    return True


class Sink(Protocol):
    """Where frames are written: a file, or one taking its digest (`Digesting`)."""

    def write(self, data: bytes, /) -> int: ...


class DamagedFrame(OSError):
    """A frame of a kept text that cannot be read: damaged bytes, a header claiming more than
    its column's longest text, a frame made with another dictionary."""


class FrameReader:
    """What reads a frame made with a dictionary back into its text, in any thread. Each
    thread has its own decompressor: two threads reading with one (a search while rows are
    shown) read frames as corrupt, or ended the process."""

    def __init__(
        self,
        dictionary: bytes | memoryview | npt.NDArray[Any],
        largest: int = LARGEST,
        where: str = "",
    ) -> None:
        self._dictionary = bytes(dictionary)
        self.largest = largest  # the longest text a frame may claim
        self.where = where  # the file of the frames, told when one cannot be read
        self._threads = threading.local()

    def strict(self, frame: bytes) -> bytes:
        """A frame's text; DamagedFrame when it cannot be read (its file noted:
        `damage_seen`)."""
        try:
            return self._read(frame)
        except DamagedFrame:
            _seen.add(self.where)
            raise

    def _read(self, frame: bytes) -> bytes:
        import zstandard as zstd

        try:
            # Checked before zstd allocates what the header claims: a damaged one claimed
            # gigabytes, which were asked for.
            claimed = zstd.frame_content_size(frame)
            if not 0 <= claimed <= self.largest:
                raise DamagedFrame(f"{self.where}: a frame claims {claimed} bytes")
            decompress: Callable[[bytes], bytes] | None = getattr(self._threads, "decompress", None)
            if decompress is None:
                made = zstd.ZstdDecompressor(dict_data=_dictionary(self._dictionary))
                decompress = self._threads.decompress = made.decompress
            return decompress(frame)
        except (zstd.ZstdError, MemoryError) as error:
            raise DamagedFrame(f"{self.where}: a frame cannot be read ({error})") from None

    def __call__(self, frame: bytes) -> bytes:
        """A frame's text, or DAMAGED when it cannot be read (as damaged UTF-8 is shown,
        core.columns.decoded), its file noted (`damage_seen`)."""
        try:
            return self.strict(frame)
        except DamagedFrame:
            return DAMAGED


def reader(
    dictionary: bytes | memoryview | npt.NDArray[Any], largest: int = LARGEST, where: str = ""
) -> FrameReader:
    """What reads frames made with this dictionary (empty: none), of texts of at most
    `largest` bytes, kept in the file `where`."""
    return FrameReader(dictionary, largest, where)


def damage_seen() -> list[str]:
    """The files whose frames could not be read, in this process (each told once: those
    given are forgotten)."""
    found = sorted(_seen)
    _seen.difference_update(found)
    return found


def longest(offsets: Array) -> int:
    """The length of the longest of the strings the offsets index (0 for none)."""
    places = np.asarray(offsets, dtype=np.int64)
    return int(np.diff(places).max()) if len(places) > 1 else 0


def framed(chunks: Iterable[Chunk], offsets: Array, into: Sink) -> tuple[Array, bytes]:
    """A column of strings (its chunks of UTF-8 laid one after the other, which `offsets`
    index, and the last, where they end) as kept: each string's frame written to `into`,
    where each frame starts (and the last, where they end), and the dictionary, trained on
    the first strings (SAMPLES of them, or those that reach SAMPLED_BYTES)."""
    places = np.asarray(offsets, dtype=np.int64)
    reached = np.flatnonzero(places[1:] - places[0] >= SAMPLED_BYTES)
    sampled = min(len(places) - 1, SAMPLES, int(reached[0]) + 1 if len(reached) else SAMPLES)
    blocks = texts_in(chunks, places)
    first: list[Block] = []  # the blocks that hold the sampled strings, kept until trained
    for block in blocks:
        first.append(block)
        if block.stop >= sampled:
            break
    texts = (
        block.data[start : start + length]
        for block in first
        for start, length in zip(block.starts.tolist(), block.lengths.tolist(), strict=True)
    )
    dictionary = trained(list(islice(texts, sampled)))
    return write_frames(chain(first, blocks), dictionary, into), dictionary


@dataclass(frozen=True)
class Block:
    """Texts laid in one buffer: where each starts in it, and its length; `stop`, the
    number of the text after its last."""

    data: Chunk
    starts: Array
    lengths: Array
    stop: int


def texts_in(chunks: Iterable[Chunk], places: Array, ended: int = 0) -> Iterator[Block]:
    """The texts of chunks laid one after the other, which `places` index (and the last,
    where they end), in blocks of whole texts, a chunk's at a time; each text without its
    last `ended` bytes (a NUL that ends it)."""
    number, base, carry = 0, 0, b""  # the next text; where `carry`, then the chunk, starts
    count = len(places) - 1
    for chunk in chunks:
        data: Chunk = carry + bytes(chunk) if carry else chunk
        end = base + len(data)
        stop = int(np.searchsorted(places, end, side="right")) - 1  # texts read whole
        if stop > number:
            starts = places[number:stop] - base
            yield Block(data, starts, places[number + 1 : stop + 1] - base - starts - ended, stop)
        begin = int(places[stop]) if stop < count else end
        carry, base, number = bytes(data[begin - base :]), begin, max(stop, number)
    if number < count:  # empty texts past the last chunk
        none = np.zeros(count - number, dtype=np.int64)
        yield Block(b"", none, none, count)


def _gathered(blocks: Iterable[Block]) -> Iterator[Block]:
    """The blocks, those in a row joined into one of GATHERED bytes or more: each call of
    zstd's threads starts them and loads the dictionary in each (a store's chunks of 1,000
    papers so took longer than threads of Python)."""
    waiting: list[Block] = []
    size = 0
    for block in blocks:
        waiting.append(block)
        size += len(block.data)
        if size >= GATHERED:
            yield _joined(waiting)
            waiting, size = [], 0
    if waiting:
        yield _joined(waiting)


def _joined(blocks: list[Block]) -> Block:
    """Blocks in a row as one."""
    if len(blocks) == 1:
        return blocks[0]
    bases = np.cumsum([0, *(len(block.data) for block in blocks[:-1])])
    placed = zip(blocks, bases.tolist(), strict=True)
    starts = np.concatenate([block.starts + base for block, base in placed])
    lengths = np.concatenate([block.lengths for block in blocks])
    return Block(b"".join(block.data for block in blocks), starts, lengths, blocks[-1].stop)


@contextmanager
def bytes_file(path: Path) -> Iterator[Digesting]:
    """A .npy file of bytes written as they come, their count not known before (frames,
    written where they are kept: not into a temporary file copied after, a gigabyte more
    written and read at a million papers); its header, of the one length numpy gives an
    array of bytes of any count, written once they are. Its digest is taken as they are
    written, the header's joined to it at the end (`Digesting.digest`)."""
    with path.open("wb") as stream:
        stream.write(_header(0))
        into = Digesting(stream)
        yield into
        header = _header(into.size)
        if len(header) != len(_header(0)):
            raise ValueError(f"{path}: too many bytes for a header of {len(_header(0))}")
        stream.seek(0)
        stream.write(header)
        into.digest = hex_digest(joined(zlib.crc32(header), into.crc, into.size))


def _header(count: int) -> bytes:
    """The header numpy writes for `count` bytes (`|u1`)."""
    header = io.BytesIO()
    described = {"descr": "|u1", "fortran_order": False, "shape": (count,)}
    np.lib.format.write_array_header_1_0(header, described)
    return header.getvalue()


def write_frames(blocks: Iterable[Block], dictionary: bytes, into: Sink) -> Array:
    """Each block's texts as frames made with this dictionary, written one after the other
    into `into` (made by zstd's own threads, a core each, out of Python's lock: a thread a
    core in Python made a million papers' frames no faster than one); where each frame
    starts (and the last, where they end)."""
    import zstandard as zstd

    made = zstd.ZstdCompressor(
        level=LEVEL, dict_data=_dictionary(dictionary), write_checksum=False, write_dict_id=False
    )
    lengths = array("q", [0])
    empty = made.compress(b"")
    for block in _gathered(blocks):
        # Empty texts are not given: a thread given none but empty ones gives back nothing,
        # and the frames after them would stand in their place.
        full = np.flatnonzero(block.lengths)
        listed: list[Any] = []
        if len(full):
            segments = np.stack((block.starts[full], block.lengths[full]), axis=1)
            texts = zstd.BufferWithSegments(block.data, segments.astype(np.uint64).tobytes())
            frames = made.multi_compress_to_buffer(texts, threads=min(THREADS, len(full)))
            if len(frames) != len(full):
                raise ValueError(f"zstd made {len(frames)} frames of {len(full)} texts")
            # Each frame joined where zstd made it, not copied first (a microsecond a frame,
            # five frames a paper).
            listed = list(map(frames.__getitem__, range(len(frames))))
        if len(full) < len(block.lengths):
            framed, listed = listed, [empty] * len(block.lengths)
            for place, frame in zip(full.tolist(), framed, strict=True):
                listed[place] = frame
        lengths.extend(map(len, listed))
        into.write(b"".join(listed))
    return np.cumsum(np.frombuffer(lengths, dtype=np.int64))
