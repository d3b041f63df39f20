"""Every paper's folded text (core.flat.build), read from its file as it is needed.

Typing a phrase reads the text of every paper holding its words: `"sparse a` reads a tenth of
them, and the system maps 16 pages around each page read, so that one phrase left the whole
text in the reader's memory (112 MB at 100,000 papers, 1.2 GB at a million). The text is read
through a memory map (a `find` in place: reading it with `pread` took half as long again), and
the pages read are given back every STEP bytes: reading them again costs 30 to 45% more
(benchmarks/RESULTS.md).
"""

import mmap
import os
from collections.abc import Callable
from contextlib import suppress
from typing import IO

import numpy as np
import numpy.typing as npt

from tui_reader.core.engine import Stop, Stopped
from tui_reader.core.frames import FrameReader

STEP = 8_000_000  # bytes of text read before their pages are given back
AROUND = 65536  # the system maps the pages of such a block around a page read
# Bytes of a word: ASCII letters and digits, and all of UTF-8's (the text is folded: few).
_WORD = frozenset(byte for byte in range(256) if byte >= 128 or chr(byte).isalnum() or byte == 95)


class FoldedText:
    """The papers' texts, each ended by a NUL, in `file` from byte `start`; `offsets` says
    where each paper's text starts (and the last, where the text ends)."""

    def __init__(self, file: IO[bytes], start: int, offsets: npt.NDArray[np.int64]) -> None:
        self._file = file  # kept open as long as the text is read
        size = os.fstat(file.fileno()).st_size
        self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) if size else None
        self._start = start
        self._offsets = offsets

    def of(self, number: int) -> str:
        """Paper `number`'s text (read, not mapped: a few papers at a time, for a long time)."""
        return self.folded(number).decode()

    def folded(self, number: int) -> bytes:
        """Paper `number`'s text as UTF-8."""
        start, end = self._offsets[number : number + 2].tolist()
        return self._read(self._start + start, self._start + end - 1)

    def _read(self, start: int, end: int) -> bytes:
        if not hasattr(os, "pread") and self._map is not None:  # Windows
            return self._map[start:end]
        return os.pread(self._file.fileno(), end - start, start)

    def holding(
        self,
        numbers: npt.NDArray[np.int64],
        needle: bytes,
        whole: bool = True,
        stop: Stop | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Whether each of these papers (in increasing order) holds the needle as words: not
        inside a word ("hypergraph" does not hold "graph"), nor, when `whole`, followed by
        more of one ("networks" does not hold "network"; it does while the word is typed).
        `stop` is asked every STEP bytes: Stopped when it says so."""
        found = np.zeros(len(numbers), dtype=bool)
        if self._map is None or not len(numbers) or not needle:
            return found
        starts = self._offsets[numbers] + self._start
        ends = self._offsets[numbers + 1] + self._start
        cuts = np.searchsorted(starts, np.arange(int(starts[0]) + STEP, int(ends[-1]), STEP))
        for first, last in zip([0, *cuts.tolist()], [*cuts.tolist(), len(numbers)], strict=True):
            if first == last:
                continue
            if stop is not None and stop():
                raise Stopped
            begin, end = starts[first:last].tolist(), ends[first:last].tolist()
            found[first:last] = self._found(begin, end, needle, whole)
            self._give_back(begin[0], end[-1])
        return found

    def _found(self, begin: list[int], end: list[int], needle: bytes, whole: bool) -> list[bool]:
        """Whether the texts from each `begin` to `end` hold the needle as words."""
        assert self._map is not None
        find, stands = self._map.find, self._standing(needle, whole)
        places = [find(needle, b, e) for b, e in zip(begin, end, strict=True)]
        return [at >= 0 and stands(at, b, e) for at, b, e in zip(places, begin, end, strict=True)]

    def _standing(self, needle: bytes, whole: bool) -> Callable[[int, int, int], bool]:
        """Whether the needle found at a place in a paper's text (from `begin` to `end`), or
        further on, stands as words there."""
        text, size = self._map, len(needle)
        assert text is not None
        lead, trail = needle[0] in _WORD, whole and needle[-1] in _WORD

        def stands(at: int, begin: int, end: int) -> bool:
            while at >= 0:
                if (not lead or at == begin or text[at - 1] not in _WORD) and (
                    not trail or at + size >= end or text[at + size] not in _WORD
                ):
                    return True
                at = text.find(needle, at + 1, end)
            return False

        return stands

    def _give_back(self, begin: int, end: int) -> None:
        if self._map is not None:
            give_back(self._map, begin, end)


def mapping_of(array: npt.NDArray[np.generic]) -> mmap.mmap | None:
    """The map an array was made over whole (`np.frombuffer` of a map), else None."""
    view = array.base
    return view.obj if isinstance(view, memoryview) and isinstance(view.obj, mmap.mmap) else None


def give_back(mapped: mmap.mmap, begin: int, end: int) -> None:
    """Unmap the pages of these bytes of a read-only map from the reader's memory, and those
    the system mapped around them (it keeps them in its cache: reading them again reads no
    disk). Where `madvise` cannot, nothing."""
    if not hasattr(mmap, "MADV_DONTNEED"):
        return
    around = max(AROUND, mmap.PAGESIZE)
    begin -= begin % around
    end = min(end + around - end % around, len(mapped))
    with suppress(OSError):  # the pages stay: memory, not a failed search
        mapped.madvise(mmap.MADV_DONTNEED, begin, end - begin)


class KeptText(FoldedText):
    """The papers' texts as an index keeps them (core.flat.kept_text): each a zstd frame, read
    by `read`, in `file` from byte `start`, where `offsets` say."""

    def __init__(
        self, file: IO[bytes], start: int, offsets: npt.NDArray[np.int64], read: FrameReader
    ) -> None:
        super().__init__(file, start, offsets)
        self._decompress = read

    def folded(self, number: int) -> bytes:
        start, end = self._offsets[number : number + 2].tolist()
        return self._decompress(self._read(self._start + start, self._start + end))

    def _found(self, begin: list[int], end: list[int], needle: bytes, whole: bool) -> list[bool]:
        assert self._map is not None
        text, decompress = self._map, self._decompress
        lead, trail = needle[0] in _WORD, whole and needle[-1] in _WORD
        return [
            _holds(decompress(text[b:e]), needle, lead, trail)
            for b, e in zip(begin, end, strict=True)
        ]


def holds(text: bytes, needle: bytes, whole: bool = True) -> bool:
    """Whether a paper's text holds the needle as words, as `FoldedText.holding` reads it."""
    return bool(needle) and _holds(text, needle, needle[0] in _WORD, whole and needle[-1] in _WORD)


def _holds(text: bytes, needle: bytes, lead: bool, trail: bool) -> bool:
    """Whether a text holds the needle as words: not inside one when `lead`, nor followed by
    more of one when `trail`."""
    size, at = len(needle), text.find(needle)
    while at >= 0:
        if (not lead or not at or text[at - 1] not in _WORD) and (
            not trail or at + size >= len(text) or text[at + size] not in _WORD
        ):
            return True
        at = text.find(needle, at + 1)
    return False
