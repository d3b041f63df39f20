"""A paper file's bytes as loading reads them: whole, or a range of them (a part's, core
.segments), through gzip when the file's name ends in .gz (by ISA-L: five times zlib's speed);
whether they are text at all; and a gzip file's errors said in words.

A range ends where its part's range ends, not at the end of the file: a part read again while
records appended after it are kept in parts of their own holds its own papers only.
"""

import io
import re
import zlib
from pathlib import Path

from isal import igzip, igzip_lib

# A damaged gzip stream's error (isal's stubs type it as an instance, not a class).
_ISAL_ERROR: type[Exception] = igzip_lib.IsalError  # type: ignore[assignment]
GZIP_ERRORS = (igzip.BadGzipFile, EOFError, _ISAL_ERROR)  # a gzip file none, damaged or cut short
HEAD_BYTES = 8192  # of a file's text, looked at to tell whether it is text
# How files that are never text begin: PDF, zip (docx, epub...), PNG, JPEG, GIF, gzip, zstd,
# xz, 7z, SQLite, ELF; a tar archive says "ustar" at byte 257.
_BINARY_STARTS = (
    b"%PDF-",
    b"PK\x03\x04",
    b"PK\x05\x06",
    b"\x89PNG",
    b"\xff\xd8\xff",
    b"GIF87a",
    b"GIF89a",
    b"\x1f\x8b",
    b"\x28\xb5\x2f\xfd",
    b"\xfd7zXZ\x00",
    b"7z\xbc\xaf\x27\x1c",
    b"SQLite format 3\x00",
    b"\x7fELF",
)
# Control characters that text does not hold (tab, line ends, form feed and ESC it may), a run
# of NUL bytes counted as one: what a crash leaves in a file is a run.
_NOT_TEXT = re.compile(rb"\x00+|[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f]")


def looks_binary(head: bytes) -> bool:
    """Whether a file whose text begins with `head` (its first HEAD_BYTES) is binary, not text
    with a stray NUL or control character in a record: it begins as a binary format does, or
    more than one byte in 32 of it is a control character text does not hold (about one in
    nine of compressed or random bytes; UTF-16, half)."""
    if head.startswith(_BINARY_STARTS) or head[257:262] == b"ustar":
        return True
    return len(_NOT_TEXT.findall(head)) * 32 > len(head)


def file_head(path: Path) -> bytes:
    """The first HEAD_BYTES of a file's text (b"" when they cannot be read)."""
    try:
        with opened(path) as file:
            return file.read(HEAD_BYTES)
    except (OSError, EOFError, _ISAL_ERROR):
        return b""


def gzip_problem(path: Path, error: Exception) -> str:
    """What a gzip file's error (gzip's, ISA-L's: "Error -1 Invalid deflate block found") says,
    in words: it is no gzip file, it is damaged, or it ends early."""
    if isinstance(error, EOFError):
        return "ends early: it was cut short"
    try:
        with path.open("rb") as file:
            if file.read(2) != b"\x1f\x8b":
                return "is not a gzip file"
    except OSError:
        pass
    what = re.sub(r"^Error -?\d+ | \(b.*\)$| found$", "", str(error)).lower()
    return f"is damaged (gzip: {what or type(error).__name__})"


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
