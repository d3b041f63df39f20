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

import os
import tempfile
import threading
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import chain, islice
from typing import IO, TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import zstandard

LEVEL = 3  # zstd's level: 75-150 MB/s a core with a dictionary
DICTIONARY = 112_640  # bytes of a dictionary (zstd's own default size)
SAMPLES = 10_000  # texts at most a dictionary is trained on
SAMPLED_BYTES = 8_000_000  # and their bytes at most
# Bytes of texts below which none is trained: it would hardly shorten them.
TRAINED_FROM = 100_000
THREADS = min(os.cpu_count() or 1, 4)  # threads that make frames
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


def compressor(dictionary: bytes) -> Callable[[bytes], bytes]:
    """What makes a frame of a text with this dictionary (empty: none)."""
    import zstandard as zstd

    made = zstd.ZstdCompressor(
        level=LEVEL, dict_data=_dictionary(dictionary), write_checksum=False, write_dict_id=False
    )
    compress: Callable[[bytes], bytes] = made.compress
    return compress


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


def strings_of(chunks: Iterable[Chunk], offsets: Array) -> Iterator[bytes]:
    """The strings of a column's chunks of UTF-8 laid one after the other, which `offsets`
    index (and the last, where they end)."""
    places = np.asarray(offsets, dtype=np.int64).tolist()
    number, base, carry = 0, 0, b""  # the next string; where `carry`, then the chunk, starts
    for chunk in chunks:
        data = memoryview(carry + bytes(chunk)) if carry else memoryview(chunk)
        end = base + len(data)
        while number < len(places) - 1 and places[number + 1] <= end:
            yield bytes(data[places[number] - base : places[number + 1] - base])
            number += 1
        start = places[number] if number < len(places) - 1 else end
        carry, base = bytes(data[start - base :]), start
    yield from (b"" for _ in range(number, len(places) - 1))  # empty: past the last chunk


def framed(chunks: Iterable[Chunk], offsets: Array) -> tuple[IO[bytes], Array, bytes]:
    """A column of strings as kept: a file of each string's frame, where each frame starts
    (and the last, where they end), and the dictionary, trained on the first strings."""
    strings = strings_of(chunks, offsets)
    first: list[bytes] = []
    size = 0
    for string in strings:
        first.append(string)
        size += len(string)
        if len(first) >= SAMPLES or size >= SAMPLED_BYTES:
            break
    dictionary = trained(first)
    frames = tempfile.TemporaryFile()  # noqa: SIM115 (the caller reads and closes it)
    lengths = array("q", [0])
    for made in compressed(chain([first], batched(strings, SAMPLES)), dictionary):
        lengths.extend(map(len, made))
        frames.write(b"".join(made))
    frames.flush()
    return frames, np.cumsum(np.frombuffer(lengths, dtype=np.int64)), dictionary


def compressed(batches: Iterator[list[bytes]], dictionary: bytes) -> Iterator[list[bytes]]:
    """Each batch of texts as frames made with this dictionary, in order, made by a thread a
    core (zstd lets the others run meanwhile: at a million papers, the seconds of writing an
    entry halved)."""
    waiting: deque[Future[list[bytes]]] = deque()
    with ThreadPoolExecutor(THREADS) as threads:
        for batch in batches:
            waiting.append(threads.submit(_made, batch, dictionary))
            if len(waiting) > THREADS:
                yield waiting.popleft().result()
        while waiting:
            yield waiting.popleft().result()


def _made(texts: list[bytes], dictionary: bytes) -> list[bytes]:
    compress = compressor(dictionary)  # a compressor a thread
    return [compress(text) for text in texts]


def batched(items: Iterator[bytes], size: int) -> Iterator[list[bytes]]:
    """The items, `size` at a time."""
    while batch := list(islice(items, size)):
        yield batch
