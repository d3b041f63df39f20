"""Every paper's folded text (core.flat.build), read from its file as it is needed.

Typing a phrase reads the text of every paper holding its words: `"sparse a` reads a tenth of
them, and the system maps 16 pages around each page read, so that one phrase left the whole
text in the reader's memory (112 MB at 100,000 papers, 1.2 GB at a million). The text is read
through a memory map (a `find` in place: reading it with `pread` took half as long again), and
the pages read are given back every STEP bytes: reading them again costs 30 to 45% more
(benchmarks/RESULTS.md).
"""

import itertools
import mmap
import os
import re
from collections.abc import Callable
from contextlib import suppress
from typing import IO, cast

import numpy as np
import numpy.typing as npt

from tui_reader.core.engine import Stop, Stopped
from tui_reader.core.frames import FrameReader

STEP = 8_000_000  # bytes of text read before their pages are given back
AROUND = 65536  # the system maps the pages of such a block around a page read
# Bytes of a word: ASCII letters and digits, and all of UTF-8's (the text is folded: few).
_WORD = frozenset(byte for byte in range(256) if byte >= 128 or chr(byte).isalnum() or byte == 95)
# What may stand between a phrase's words in the folded text: a run of spaces (a LaTeX `--`
# or `---` between words leaves two or three), an apostrophe straight or curly (U+2019),
# either for either.
_BETWEEN = re.compile(rb"( +|'|\xe2\x80\x99)")
_SPACES, _APOSTROPHE = rb" +", rb"(?:'|\xe2\x80\x99)"
_RUN = b"  "
Text = bytes | mmap.mmap
Ints = npt.NDArray[np.int64]


class Needle:
    """A phrase's folded text as the papers' folded text may hold it: as words (not inside
    one, nor, when `whole`, followed by more of one: "networks" does not hold "network"), one
    or more spaces between them, and an apostrophe as either ("hypergraph" does not hold
    "graph"; `erdos  renyi`, of `Erd\\H{o}s--R\\'enyi`, holds "erdos renyi").

    It is found single-spaced by a `find`, and by a pattern's search (twice as long) only in
    the texts where that finds it nowhere and that hold a run of spaces (4,028 of 31,836
    papers: LaTeX's dashes, words PDF extraction broke) next to one of its words; a phrase
    with an apostrophe always by the pattern (benchmarks/RESULTS.md)."""

    def __init__(self, needle: bytes, whole: bool = True) -> None:
        self.needle = re.sub(rb" +", b" ", needle)
        self.lead = bool(needle) and needle[0] in _WORD
        self.trail = whole and bool(needle) and needle[-1] in _WORD
        pieces = _BETWEEN.split(needle)  # words, and what stands between them, by turns
        self._pattern: re.Pattern[bytes] | None = None
        if len(pieces) > 1:
            self._pattern = re.compile(
                b"".join(
                    _SPACES if piece[:1] == b" " else _APOSTROPHE if between else re.escape(piece)
                    for between, piece in zip(itertools.cycle((False, True)), pieces)
                )
            )
        self._always = any(between[:1] != b" " for between in pieces[1::2])
        # A match the needle single-spaced is not holds one of these: a run of spaces before
        # a word of it or after the one before, the longer (the quicker found).
        self._runs = [
            max(b"  " + after, before + b"  ", key=len)
            for before, between, after in zip(
                pieces[:-2:2], pieces[1::2], pieces[2::2], strict=True
            )
            if between[:1] == b" "
        ]

    def found(
        self, text: Text, begin: list[int], end: list[int], spaced: Callable[[Ints], list[int]]
    ) -> list[bool]:
        """Whether each of these texts (from `begin` to `end`) holds the needle; `spaced`
        gives, of some of their places in these lists, those of the texts with a run of
        spaces."""
        pattern, stands, find = self._pattern, self._stands, text.find
        first = pattern if self._always else None  # an apostrophe: the pattern at once
        if first is not None:
            search = first.search
            places = [
                -1 if (match := search(text, b, e)) is None else match.start()
                for b, e in zip(begin, end, strict=True)
            ]
        else:
            needle = self.needle
            places = [find(needle, b, e) for b, e in zip(begin, end, strict=True)]
        found = [
            at >= 0 and stands(text, at, b, e, first)
            for at, b, e in zip(places, begin, end, strict=True)
        ]
        if pattern is not None and first is None:
            missed = spaced(np.flatnonzero(~np.fromiter(found, dtype=bool, count=len(found))))
            for place in {
                place
                for run in self._runs
                for place in missed
                if find(run, begin[place], end[place]) >= 0
            }:
                found[place] = self._in(text, begin[place], end[place], pattern)
        return found

    def held(self, text: bytes) -> bool:
        """Whether a paper's text holds the needle."""
        if self._always:
            return self._in(text, 0, len(text), self._pattern)
        return self._in(text, 0, len(text), None) or (
            any(run in text for run in self._runs) and self._in(text, 0, len(text), self._pattern)
        )

    def _in(self, text: Text, begin: int, end: int, pattern: re.Pattern[bytes] | None) -> bool:
        """Whether a paper's text (from `begin` to `end`) holds the needle, looked for by the
        pattern or, where None, single-spaced by a `find`."""
        at = _place(text, begin, end, self.needle, pattern)
        return at >= 0 and self._stands(text, at, begin, end, pattern)

    def _stands(
        self, text: Text, at: int, begin: int, end: int, pattern: re.Pattern[bytes] | None
    ) -> bool:
        """Whether the needle stands as words in a paper's text where it was found (-1:
        nowhere), or further on."""
        while at >= 0:
            stop = at + len(self.needle)
            if pattern is not None:  # where the pattern found it: a match
                stop = cast("re.Match[bytes]", pattern.match(text, at, end)).end()
            if (not self.lead or at == begin or text[at - 1] not in _WORD) and (
                not self.trail or stop >= end or text[stop] not in _WORD
            ):
                return True
            at = _place(text, at + 1, end, self.needle, pattern)
        return False


def _place(
    text: Text, start: int, end: int, needle: bytes, pattern: re.Pattern[bytes] | None
) -> int:
    if pattern is None:
        return text.find(needle, start, end)
    found = pattern.search(text, start, end)
    return -1 if found is None else found.start()


class FoldedText:
    """The papers' texts, each ended by a NUL, in `file` from byte `start`; `offsets` says
    where each paper's text starts (and the last, where the text ends)."""

    def __init__(self, file: IO[bytes], start: int, offsets: npt.NDArray[np.int64]) -> None:
        self._file = file  # kept open as long as the text is read
        size = os.fstat(file.fileno()).st_size
        self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) if size else None
        self._start = start
        self._offsets = offsets
        # Whether each paper's text holds a run of spaces (-1: not known yet), looked for once.
        self._runs: npt.NDArray[np.int8] | None = None

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
        """Whether each of these papers (in increasing order) holds the needle as words
        (`Needle`; a `whole` one not followed by more of a word, as it is while it is typed).
        `stop` is asked every STEP bytes: Stopped when it says so."""
        found = np.zeros(len(numbers), dtype=bool)
        if self._map is None or not len(numbers) or not needle:
            return found
        starts = self._offsets[numbers] + self._start
        ends = self._offsets[numbers + 1] + self._start
        cuts = np.searchsorted(starts, np.arange(int(starts[0]) + STEP, int(ends[-1]), STEP))
        phrase = Needle(needle, whole)
        for first, last in zip([0, *cuts.tolist()], [*cuts.tolist(), len(numbers)], strict=True):
            if first == last:
                continue
            if stop is not None and stop():
                raise Stopped
            begin, end = starts[first:last].tolist(), ends[first:last].tolist()
            found[first:last] = self._found(numbers[first:last], begin, end, phrase)
            self._give_back(begin[0], end[-1])
        return found

    def _found(self, numbers: Ints, begin: list[int], end: list[int], needle: Needle) -> list[bool]:
        """Whether these papers' texts, from each `begin` to `end`, hold the needle."""
        text = self._map
        assert text is not None

        def spaced(places: Ints) -> list[int]:
            if self._runs is None:
                self._runs = np.full(len(self._offsets) - 1, -1, dtype=np.int8)
            papers = numbers[places]
            runs = self._runs[papers]
            for at in np.flatnonzero(runs < 0).tolist():
                place = int(places[at])
                runs[at] = text.find(_RUN, begin[place], end[place]) >= 0
            self._runs[papers] = runs
            return cast("list[int]", places[runs == 1].tolist())

        return needle.found(text, begin, end, spaced)

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

    def _found(self, numbers: Ints, begin: list[int], end: list[int], needle: Needle) -> list[bool]:
        assert self._map is not None
        text, decompress = self._map, self._decompress
        return [needle.held(decompress(text[b:e])) for b, e in zip(begin, end, strict=True)]


def holds(texts: list[bytes], needle: bytes, whole: bool = True) -> list[bool]:
    """Whether each of these papers' texts holds the needle, as `FoldedText.holding` reads
    them."""
    phrase = Needle(needle, whole)
    return [bool(needle) and phrase.held(text) for text in texts]
