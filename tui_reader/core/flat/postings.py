"""Each word's papers, made from chunks of (word, paper) pairs by a counting sort: the words'
counts first, then each pair put in its place.

An index's postings are int32 a pair: 0.7 GB at a million papers, 2 GB at arXiv's size. Up
to WINDOW of them are made in memory. More are made in a temporary file, a WINDOW of them at
a time: each pair's place is staged with its paper in the file of the window it falls in,
then each window is made in memory from its staged pairs and written to the postings' file,
which the index maps. The system's cache holds those pages, and may drop them, where the
process's own memory would hold them all until the index is written.
"""

import mmap
from collections.abc import Callable, Iterator

import numpy as np
import numpy.typing as npt

from tui_reader.core.columns import read_at
from tui_reader.core.flat.words import Arrays
from tui_reader.core.scratch import scratch_file, write_at

Ids = npt.NDArray[np.int32]
Chunk = tuple[int, Ids, npt.NDArray[np.uint16]]  # first paper, word ids, papers within
WINDOW = 1 << 24  # postings made in memory at once (64 MB)


def postings(
    name: str, chunks: Callable[[], Iterator[Chunk]], counts: npt.NDArray[np.int64]
) -> Arrays:
    """Each word's papers, in paper order, from chunks in paper order whose pairs are grouped
    by word (each group in paper order), given how many papers each word has (counted as
    the chunks were read: `chunks` is read once)."""
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    total = int(offsets[-1])
    if total <= WINDOW:
        papers = np.empty(total, dtype=np.int32)
        for places, numbers in _placed(chunks, offsets):
            papers[places] = numbers
    else:
        papers = _made_in_file(chunks, offsets, total)
    return {f"{name}_offsets": offsets, f"{name}_papers": papers}


def _placed(
    chunks: Callable[[], Iterator[Chunk]], offsets: npt.NDArray[np.int64]
) -> Iterator[tuple[npt.NDArray[np.int64], Ids]]:
    """Each chunk's pairs as the place of each in the postings, and its paper."""
    cursor = offsets[:-1].copy()
    for first, ids, numbers in chunks():
        if not len(ids):
            continue
        starts = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
        lengths = np.diff(np.append(starts, len(ids)))
        runs = ids[starts]
        within = np.arange(len(ids), dtype=np.int64) - np.repeat(starts, lengths)
        yield np.repeat(cursor[runs], lengths) + within, numbers.astype(np.int32) + first
        cursor[runs] += lengths


def _made_in_file(
    chunks: Callable[[], Iterator[Chunk]], offsets: npt.NDArray[np.int64], total: int
) -> Ids:
    """The postings made in a temporary file, a WINDOW at a time (the module's docstring),
    mapped."""
    windows = -(-total // WINDOW)
    sizes = np.full(windows, WINDOW, dtype=np.int64)
    sizes[-1] = total - (windows - 1) * WINDOW
    # Window w's pairs are staged at 8 * w * WINDOW: their places within it, then their papers.
    staged = np.zeros(windows, dtype=np.int64)
    with scratch_file() as staging, scratch_file() as made:
        for places, numbers in _placed(chunks, offsets):
            window = (places // WINDOW).astype(np.uint16)  # 16 bits: sorted by radix
            order = np.argsort(window, kind="stable")
            counts = np.bincount(window, minlength=windows)
            ends = np.cumsum(counts)
            for w in np.flatnonzero(counts).tolist():
                taken = order[ends[w] - counts[w] : ends[w]]
                base = 8 * w * WINDOW
                at = 4 * int(staged[w])
                write_at(staging, base + at, (places[taken] - w * WINDOW).astype(np.int32).data)
                write_at(staging, base + 4 * int(sizes[w]) + at, numbers[taken].data)
                staged[w] += counts[w]
        for w, size in enumerate(sizes.tolist()):
            read = read_at(staging, 8 * w * WINDOW, 8 * size)
            window_papers = np.empty(size, dtype=np.int32)
            window_papers[np.frombuffer(read, np.int32, size)] = np.frombuffer(
                read, np.int32, size, 4 * size
            )
            write_at(made, 4 * w * WINDOW, window_papers.data)
        mapped = mmap.mmap(made.fileno(), 0, access=mmap.ACCESS_READ)  # holds the file open
    return np.frombuffer(mapped, dtype=np.int32)
