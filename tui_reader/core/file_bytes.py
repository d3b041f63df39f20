"""A paper file's bytes as loading reads them: whole, or a range of them (a part's, core
.segments), through gzip when the file's name ends in .gz (by ISA-L: five times zlib's speed).

A range ends where its part's range ends, not at the end of the file: a part read again while
records appended after it are kept in parts of their own holds its own papers only.
"""

import io
import zlib
from pathlib import Path

from isal import igzip


def is_gzip(path: Path) -> bool:
    return path.name.lower().endswith(".gz")


class _Upto(io.RawIOBase):
    """A file's bytes up to a number of them."""

    def __init__(self, raw: io.BufferedReader, left: int) -> None:
        self.raw, self.left = raw, left

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: "memoryview | bytearray") -> int:  # type: ignore[override]
        wanted = min(len(buffer), self.left)
        if wanted <= 0:
            return 0
        got = self.raw.readinto(memoryview(buffer)[:wanted])
        self.left -= got
        return got

    def close(self) -> None:
        self.raw.close()
        super().close()


def opened(path: Path, start: int = 0, end: int | None = None) -> io.BufferedIOBase:
    """The file's bytes from byte `start` (for a gzip file, where a member starts) to byte
    `end` (where a member ends; None: to the end of the file)."""
    if is_gzip(path) and not start and end is None:
        return igzip.IGzipFile(path, "rb")  # type: ignore[no-untyped-call]
    raw: io.BufferedIOBase = path.open("rb")
    raw.seek(start)
    if end is not None:
        raw = io.BufferedReader(_Upto(raw, end - start))  # type: ignore[arg-type]
    if not is_gzip(path):
        return raw
    file = igzip.IGzipFile(fileobj=raw, mode="rb")  # type: ignore[no-untyped-call]
    file.myfileobj = raw  # type: ignore[assignment]  # closed with it, as one opened by name
    return file


def gzip_members(data: bytes) -> bytes:
    """The text of the gzip members these bytes hold, one after the other; of a last member cut
    short, as much as its bytes give."""
    texts = []
    while data:
        member = zlib.decompressobj(wbits=31)
        texts.append(member.decompress(data))
        if not member.eof:
            break
        data = member.unused_data
    return b"".join(texts)
