"""Where a part's papers come from: a byte range of a file, and how to tell that the file
still holds those bytes, or holds them and more after them.

A range is read whole once, when its part is made (`scanned`): the CRC-32 of its bytes (as
they are on disk: compressed, for a gzip file), how many lines its text holds (to number the
lines of records appended after it) and its last bytes of text (records appended after text
that does not end a line would join its last line). Opening a kept entry compares each file's
size and modification time with those kept; only a file that changed is read again, to check
the CRC-32 of each of its ranges (ISA-L's: 9 GB/s, a tenth of a second for a million papers).
"""

import io
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from isal import isal_zlib

from tui_reader.core.file_bytes import CUT_SHORT, GzipError, cut_line, gzip_problem, inflated

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

READ = 8_000_000  # bytes read at once
TAIL = 2  # bytes of text kept from a range's end
GZIP = 31  # zlib's window bits for a gzip stream


class Rejected(Exception):
    """A kept entry or part that is not a sound copy of these files' papers."""


class OtherVersion(Rejected):
    """A part of a file its format reads otherwise now than when it was kept: an upgrade,
    read again, not a fault to tell as one."""


class CutShort(ValueError):
    """A gzip file whose bytes end within a member: no range of it is kept (its papers, read
    up to the cut, said it)."""


@dataclass(frozen=True)
class FileRange:
    """Bytes `start` to `end` of a file, whose text starts on line `line` and holds `lines`
    line ends and ends with `tail` (hex); `crc` is the CRC-32 of the bytes."""

    path: str
    start: int
    end: int
    crc: int
    line: int
    lines: int
    tail: str

    def as_json(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: object) -> "FileRange":
        """The range a manifest names; Rejected when it is not one."""
        fields = {"path": str, "start": int, "end": int, "crc": int, "line": int, "lines": int}
        if not isinstance(value, dict) or set(value) != {*fields, "tail"}:
            raise Rejected(f"not a range of a file: {value!r:.200}")
        kinds_right = all(type(value[name]) is kind for name, kind in fields.items())
        if not kinds_right or not isinstance(value["tail"], str):
            raise Rejected(f"not a range of a file: {value!r:.200}")
        try:
            bytes.fromhex(value["tail"])
        except ValueError:
            raise Rejected(f"not a range of a file: {value!r:.200}") from None
        made = cls(**value)
        if not 0 <= made.start <= made.end or made.line < 1 or made.lines < 0:
            raise Rejected(f"not a range of a file: {value!r:.200}")
        return made

    @property
    def ends_a_line(self) -> bool:
        """Whether its text is empty or ends a line: what is appended after it starts one."""
        return self.start == self.end or self.tail.endswith("0a")


def scanned(path: Path, start: int, end: int, line: int = 1) -> FileRange:
    """The range of a file from `start` to `end`, read now. OSError when it cannot be read,
    ValueError when a gzip file's bytes there are damaged, CutShort when they are not whole
    members."""
    crc, lines, tail = 0, 0, b""
    gzipped = path.name.lower().endswith(".gz")
    inflate = isal_zlib.decompressobj(GZIP) if gzipped else None
    within = False  # a member begun and not ended
    with path.open("rb") as file:
        file.seek(start)
        left = end - start
        while left > 0:
            data = file.read(min(READ, left))
            if not data:
                raise OSError(f"{path} ended at byte {end - left}, not {end}")
            left -= len(data)
            crc = isal_zlib.crc32(data, crc)
            if inflate is None:
                lines += data.count(b"\n")
                tail = (tail + data)[-TAIL:]
            while inflate is not None and data:
                try:
                    text, data, within = inflate.decompress(data), b"", True
                except GzipError as error:
                    raise ValueError(f"{path}: {gzip_problem(path, error)}") from None
                if inflate.eof:  # a member ends: another may follow (or NULs padding the file)
                    data, within = inflate.unused_data.lstrip(b"\x00"), False
                    inflate = isal_zlib.decompressobj(GZIP)
                lines += text.count(b"\n")
                tail = (tail + text)[-TAIL:]
    if within:
        raise CutShort(f"{path}: {CUT_SHORT}")
    return FileRange(str(path), start, end, crc, line, lines, tail.hex())


class Scanning:
    """What `scanned` reads of a whole file, taken as something else reads it through (the
    load of a big file, which inflates it anyway: read again for its entry, a million
    papers' file took seconds): the bytes summed as they are read, the lines counted in
    the text they give. Once the reader has read `text` to its end, `done` keeps the
    range for `read_whole`, under the file's identity when it was opened."""

    def __init__(self, path: Path, file: io.BufferedReader, gzipped: bool) -> None:
        self.path, self.file, self.gzipped = path.resolve(), file, gzipped
        status = os.fstat(file.fileno())
        self.size, self.mtime_ns = status.st_size, status.st_mtime_ns
        self.crc, self.read, self.lines, self.tail = 0, 0, 0, b""
        self.source: io.IOBase | None = None

    def text(self) -> io.BufferedIOBase:
        """The file's text (inflated, for a gzip file), to be read to its end (`cut_line` of
        it: where a gzip file was cut short)."""
        raw = _Raw(self)
        self.source = inflated(raw) if self.gzipped else raw  # type: ignore[arg-type]
        return _Text(self, self.source)

    def cut(self) -> int:
        """The line the gzip file read was cut short in (0: it was not)."""
        return cut_line(self.source)

    def done(self) -> None:
        """Keep the range read, unless the file changed as it was read or was cut short."""
        if self.cut():
            return
        if self.read == self.size and os.fstat(self.file.fileno()).st_size == self.size:
            tail = self.tail.hex()
            kept = FileRange(str(self.path), 0, self.size, self.crc, 1, self.lines, tail)
            _READ_WHOLE[str(self.path), self.size, self.mtime_ns] = kept


class _Raw(io.RawIOBase):
    """A file's bytes, each summed as it is read."""

    def __init__(self, scanning: Scanning) -> None:
        self.scanning = scanning

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: "WriteableBuffer") -> int:
        scanning = self.scanning
        size = scanning.file.readinto(buffer)
        scanning.crc = isal_zlib.crc32(memoryview(buffer)[:size], scanning.crc)
        scanning.read += size
        return size


class _Text(io.BufferedIOBase):
    """A file's text, its lines counted and its last bytes kept as it is read."""

    def __init__(self, scanning: Scanning, source: io.IOBase) -> None:
        self.scanning, self.source = scanning, source

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        text: bytes = self.source.read(size)
        self.scanning.lines += text.count(b"\n")
        self.scanning.tail = (self.scanning.tail + text[-TAIL:])[-TAIL:]
        return text


# The files read whole by this process (`Scanning`), by path, size and modification time.
_READ_WHOLE: dict[tuple[str, int, int], FileRange] = {}


def read_whole(path: Path, size: int, mtime_ns: int) -> FileRange:
    """The range of a whole file (as `scanned` gives it): as it was read through, when it was
    so and is as it was then, else read now."""
    path = path.resolve()
    kept = _READ_WHOLE.get((str(path), size, mtime_ns))
    return kept if kept is not None else scanned(path, 0, size)


def unchanged(kept: FileRange) -> bool:
    """Whether the file still holds the range's bytes (its CRC-32 read again)."""
    crc, left = 0, kept.end - kept.start
    try:
        with open(kept.path, "rb") as file:
            file.seek(kept.start)
            while left > 0:
                data = file.read(min(READ, left))
                if not data:
                    return False
                left -= len(data)
                crc = isal_zlib.crc32(data, crc)
    except OSError:
        return False
    return crc == kept.crc


class Change(Enum):
    """What became of a file since its ranges were read."""

    SAME = "the same"
    GREW = "grown"  # its ranges' bytes, and more after them
    CHANGED = "changed"  # shrunk, or changed within its ranges


def change(ranges: Sequence[FileRange]) -> Change:
    """What became of the file of these ranges (consecutive, the first from its start)."""
    try:
        size = os.stat(ranges[0].path).st_size
    except OSError:
        return Change.CHANGED
    end = ranges[-1].end
    if size < end or not all(unchanged(kept) for kept in ranges):
        return Change.CHANGED
    if size == end:
        return Change.SAME
    return Change.GREW if ranges[-1].ends_a_line else Change.CHANGED


def identity(path: Path) -> dict[str, object]:
    """What tells a file has not changed without reading it: where it is, its size and its
    modification time."""
    status = path.stat()
    return {"path": str(path.resolve()), "size": status.st_size, "mtime_ns": status.st_mtime_ns}
