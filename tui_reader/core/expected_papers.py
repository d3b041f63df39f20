"""About how many papers files hold, told before they are read: the reader sizes the index it
grows while they load by it (core.flat.build.GrowingIndex), and says how many a kept entry
takes in (`papers_in_ranges`)."""

import gzip
import zlib
from collections.abc import Iterable
from pathlib import Path

from tui_reader.core.file_bytes import file_start, gzip_members, is_gzip
from tui_reader.core.formats import InputFormat, input_format
from tui_reader.core.loading import MB

SAMPLED_BYTES = 4 * MB  # of files of each kind, read to tell a record's length


def expected_papers(files: Iterable[Path]) -> int | None:
    """About how many papers the files hold: their sizes over the bytes a record takes in
    the first SAMPLED_BYTES of the files of their kind (format, and gzip or not: read by the
    standard library's gzip, whose read-ahead is 128 kB, not isal's 512); None when one of
    them is not read in pieces (or cannot be read), as a file read whole is counted only
    once it is read. Many small files are not all read: those past the sample are told by
    size."""
    # (format, gzip or not): [records read, bytes of the files read]
    sampled: dict[tuple[str, bool], list[int]] = {}
    formats: dict[str, InputFormat] = {}  # by a name's suffixes
    total = 0.0
    for path in files:
        suffixes, gzipped = "".join(path.suffixes).lower(), is_gzip(path)
        kind = formats.get(suffixes)
        if kind is None or sampled.get((kind.name, gzipped), [0, 0])[1] < SAMPLED_BYTES:
            kind = formats[suffixes] = input_format(path.name, file_start(path))
        if kind.pieces is None:
            return None
        records, taken = sampled.setdefault((kind.name, gzipped), [0, 0])
        try:
            size = path.stat().st_size
            if taken < SAMPLED_BYTES:
                with path.open("rb") as raw:
                    text = gzip.GzipFile(fileobj=raw) if gzipped else raw
                    records += kind.pieces.records(text.read(SAMPLED_BYTES - taken))
                    taken += raw.tell()  # of the file: compressed, for a gzip file
                sampled[kind.name, gzipped] = [records, taken]
        except (OSError, EOFError, zlib.error):
            return None
        total += size * records / max(taken, 1)
    return round(total)


def papers_in_ranges(ranges: Iterable[tuple[Path, int, int]]) -> int:
    """About how many papers these ranges of files hold (from a byte to a byte; for a gzip
    file, whole members): the records of each range's first SAMPLED_BYTES counted, the rest
    told by size. A day's papers appended are counted by their own length, not the kept
    papers'. A range that cannot be read counts none."""
    total = 0.0
    for path, start, end in ranges:
        try:
            kind = input_format(path.name, file_start(path))
            if kind.pieces is None or end <= start:
                continue
            with path.open("rb") as raw:
                raw.seek(start)
                data = raw.read(min(end - start, SAMPLED_BYTES))
            text = gzip_members(data) if is_gzip(path) else data
        except (OSError, EOFError, zlib.error):
            continue
        total += kind.pieces.records(text) * (end - start) / max(len(data), 1)
    return round(total)
