"""How a store holds a field of many papers: a column that grows a batch at a time while
papers load (each batch one immutable chunk, so threads reading it need no lock), or opens
whole over memory-mapped arrays (the index cache).

A column of strings is chunks of UTF-8 with one int64 offset per string (kept on disk, a
long text's is chunks of zstd frames, a string each, with each chunk's dictionary:
core.frames). A growing column's batches past its first SPILL_FROM bytes are written to a
temporary file of its own and read back by `pread` (`Spilled`): a million papers' texts are
1.2 GB, which the system's cache holds and may drop, where the process's memory would
hold them for good; a column of a few names a paper (categories) is the names' codes, all papers'
one after the other, with where each paper's start, and the list of the names the codes
stand for.
"""

import os
import weakref
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate, pairwise
from typing import IO, Any, TypeAlias

import numpy as np
import numpy.typing as npt

from tui_reader.core.frames import FrameReader
from tui_reader.core.scratch import scratch_file, write_at

Chunk: TypeAlias = bytes | memoryview
Column: TypeAlias = "array[int] | memoryview"  # grown in memory, or mapped from a file
UTF8 = ("utf-8", "surrogatepass")  # as the columns are written
SPILL_FROM = 16 << 20  # bytes of a growing column held in memory; the rest in its file


class Spilled:
    """A batch of a column's strings written to the column's temporary file: `length` bytes
    from `start`, read back (sliced) by `pread`, which any thread may do as batches are
    written after it."""

    def __init__(self, file: IO[bytes], start: int, length: int) -> None:
        self.file, self.start, self.length = file, start, length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, cut: slice) -> bytes:
        begin, end, _ = cut.indices(self.length)
        return read_at(self.file, self.start + begin, max(end - begin, 0))


def read_at(file: IO[bytes], start: int, size: int) -> bytes:
    """`size` bytes of a file from `start` (a read may give fewer than asked)."""
    parts = []
    while size > 0:
        part = os.pread(file.fileno(), size, start)
        if not part:
            raise OSError(f"{file.name}: cut short at {start}")
        parts.append(part)
        start, size = start + len(part), size - len(part)
    return b"".join(parts)


class StringColumn:
    """A column of strings: chunks of UTF-8 with one int64 offset per string (and a 0)."""

    def __init__(
        self,
        chunks: Sequence[npt.NDArray[Any]] = (),
        offsets: npt.NDArray[Any] | None = None,
        readers: Sequence[FrameReader] | None = None,
    ) -> None:
        # Mapped arrays are read through memoryviews: 20x faster to slice than numpy's.
        self.chunks: list[Chunk | Spilled] = [view(chunk) for chunk in chunks]  # each starts:
        self.starts: list[int] = list(accumulate(map(len, self.chunks), initial=0))[:-1]
        self.offsets: Column = array("q", [0]) if offsets is None else view(offsets)
        # A column kept as frames (core.frames): what reads each chunk's, by its dictionary.
        self._readers = None if readers is None else list(readers)
        # The batches past SPILL_FROM bytes: the column's own file, closed by `close`, or
        # once the column is dropped (a store that adopts another's columns drops its own).
        self._file: IO[bytes] | None = None
        self._spilled = 0  # bytes written to it

    def append(self, joined: bytes, lengths: "array[int]") -> None:
        """Strings as `encoded` gives them: their UTF-8 one after the other, and each one's
        length in it."""
        end = int(self.offsets[-1])
        self.offsets = growable(self.offsets, "q")
        if joined:
            self.chunks.append(self._spill(joined) if end >= SPILL_FROM else joined)
            self.starts.append(end)
        ends = np.cumsum(np.frombuffer(lengths, dtype=np.int64)) + end
        self.offsets.frombytes(ends.tobytes())

    def _spill(self, joined: bytes) -> Chunk | Spilled:
        """The batch as written to the column's file (where files can be so read: as it is)."""
        if not hasattr(os, "pwrite"):  # Windows
            return joined
        if self._file is None:
            self._file = scratch_file()
            weakref.finalize(self, self._file.close)
        write_at(self._file, self._spilled, joined)
        self._spilled += len(joined)
        return Spilled(self._file, self._spilled - len(joined), len(joined))

    def close(self) -> None:
        """Close the column's temporary file: the strings written there cannot be read after."""
        if self._file is not None:
            self._file.close()

    def get(self, number: int) -> str:
        offsets = self.offsets
        start, end = offsets[number], offsets[number + 1]
        if self._readers is not None:
            return decoded(self._framed(start, end))
        if start == end:
            return ""
        starts = self.starts
        if len(starts) == 1:  # one chunk: a column opened from a file
            return decoded(self.chunks[0][start:end])
        chunk = bisect_right(starts, start) - 1
        base = starts[chunk]
        return decoded(self.chunks[chunk][start - base : end - base])

    def _framed(self, start: int, end: int, strict: bool = False) -> bytes:
        """The string of the frame from `start` to `end` (`strict`: DamagedFrame when it
        cannot be read, core.frames)."""
        assert self._readers is not None
        chunk = bisect_right(self.starts, start) - 1
        base = self.starts[chunk]
        read = self._readers[chunk]
        frame = bytes(self.chunks[chunk][start - base : end - base])
        return read.strict(frame) if strict else read(frame)

    def encoded(self, start: int, stop: int, strict: bool = False) -> list[bytes]:
        """Strings `start` to `stop` as their UTF-8, sliced from the chunks at once (of a
        column kept as frames, with `strict`: DamagedFrame for a frame that cannot be read)."""
        bounds = self.offsets[start : stop + 1].tolist()
        if self._readers is not None:
            return [self._framed(a, b, strict) for a, b in pairwise(bounds)]
        first, end = bounds[0], bounds[-1]
        chunk = max(bisect_right(self.starts, first) - 1, 0)
        parts = []
        # Not strict: papers may be added meanwhile (the index reads the store as it loads),
        # a chunk before its start; the strings asked for are in those taken.
        for base, data in zip(self.starts[chunk:], self.chunks[chunk:], strict=False):
            if base >= end:
                break
            parts.append(bytes(data[max(first - base, 0) : end - base]))
        blob = b"".join(parts)
        return [blob[a - first : b - first] for a, b in pairwise(bounds)]

    def arrays(self, count: int) -> tuple[Iterator[Chunk], npt.NDArray[np.int64]]:
        """The bytes of the first `count` strings, as chunks, and their offsets (of a column
        kept as frames, the strings read back: DamagedFrame for a frame that cannot be, so
        that a text damaged is never written as text)."""
        if self._readers is not None:
            strings = self.encoded(0, count, strict=True)
            lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
            return iter([b"".join(strings)]), np.concatenate(([0], np.cumsum(lengths)))
        offsets = np.array(self.offsets[: count + 1], dtype=np.int64)
        end = int(offsets[-1])
        chunks = list(zip(self.starts, self.chunks, strict=True))
        return (data[: end - start] for start, data in chunks if start < end), offsets


class NameColumn:
    """A column of a few names a paper (categories): the names' codes, all papers' one after
    the other, where each paper's start (and the end), and the names the codes stand for."""

    def __init__(
        self,
        codes: npt.NDArray[Any] | None = None,
        starts: npt.NDArray[Any] | None = None,
        names: Sequence[str] = (),
    ) -> None:
        self.codes: Column = array("i") if codes is None else view(codes)
        self.starts: Column = array("q", [0]) if starts is None else view(starts)
        self.names = list(names)
        self._codes = codes_of(self.names)

    def append(self, values: Sequence[tuple[str, ...]]) -> None:
        names, known = self.names, self._codes
        codes = [code_of(names, known, name) for value in values for name in value]
        ends = np.cumsum(np.fromiter(map(len, values), dtype=np.int64, count=len(values)))
        end = int(self.starts[-1])
        # The codes first: a reader that sees a paper's end finds its codes.
        self.codes = growable(self.codes, "i")
        self.codes.extend(codes)
        self.starts = growable(self.starts, "q")
        self.starts.frombytes((ends + end).tobytes())

    def get(self, number: int) -> tuple[str, ...]:
        names, start, end = self.names, self.starts[number], self.starts[number + 1]
        return tuple(names[code] for code in self.codes[start:end])

    def any(
        self, passing: Callable[[str], bool], numbers: npt.NDArray[np.int64], count: int
    ) -> npt.NDArray[np.bool_]:
        """Which of these papers (of the first `count`) have a name that passes: each
        distinct name is tried once."""
        starts = np.frombuffer(self.starts[: count + 1], dtype=np.int64)
        codes = np.frombuffer(self.codes[: int(starts[-1])], dtype=np.int32)
        table = np.fromiter(map(passing, self.names), dtype=bool, count=len(self.names))
        # How many of the names before each place pass: a paper has one when its end counts more.
        before = np.concatenate(([0], np.cumsum(table[codes])))
        found: npt.NDArray[np.bool_] = before[starts[numbers + 1]] > before[starts[numbers]]
        return found

    def arrays(self, count: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
        """The codes of the first `count` papers, and where each paper's start (and the end)."""
        starts = np.array(self.starts[: count + 1], dtype=np.int64)
        return np.array(self.codes[: int(starts[-1])], dtype=np.int32), starts


def decoded(raw: bytes | memoryview) -> str:
    """A text of a column; bytes damaged in a cached file are shown as U+FFFD, not raised."""
    try:
        return str(raw, *UTF8)
    except UnicodeDecodeError:
        return str(raw, "utf-8", "replace")


def code_of(names: list[str], codes: dict[str, int], name: str) -> int:
    """The code of a name in a list of names (its place there), added when new."""
    code = codes.get(name)
    if code is None:
        code = codes[name] = len(names)
        names.append(name)
    return code


def codes_of(names: list[str]) -> dict[str, int]:
    """Each name's code in a list of names."""
    return {name: code for code, name in enumerate(names)}


def view(column: npt.NDArray[Any]) -> memoryview:
    """A mapped array as a memoryview: its items are Python ints, read at once."""
    return np.ascontiguousarray(column).data


def growable(column: Column, code: str) -> "array[int]":
    """The column as an array that can grow (a mapped one is copied into memory once)."""
    return column if isinstance(column, array) else array(code, column.tobytes())
