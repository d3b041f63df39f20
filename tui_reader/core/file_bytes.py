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

from isal import igzip_lib, isal_zlib

# What a file that is no gzip file, or a damaged one, raises as it is inflated (isal's stubs
# type it as an instance, not a class).
GzipError: type[Exception] = igzip_lib.IsalError  # type: ignore[assignment]
CUT_SHORT = "ends early: it was cut short"
CUT_HERE = "the file ends early here: it was cut short"  # the records before it are read
_GZIP = 31  # zlib's window bits for a gzip stream
_GZIP_MAGIC = b"\x1f\x8b"
_READ = 1 << 17  # bytes of a gzip file inflated at once
_HELD_AT_MOST = 1 << 20  # text of a line held back until its end is read
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
    except (OSError, GzipError):
        return b""


def text_start(head: bytes) -> str:
    """The first few kilobytes of a file's text, to tell its format."""
    return head[:4096].decode("utf-8", errors="ignore")


def file_start(path: Path) -> str:
    return text_start(file_head(path))


def gzip_problem(path: Path, error: Exception) -> str:
    """What a gzip file's error (ISA-L's: "Error -1 Invalid deflate block found") says, in
    words: it is no gzip file, or it is damaged."""
    try:
        with path.open("rb") as file:
            if file.read(2) != b"\x1f\x8b":
                return "is not a gzip file"
    except OSError:
        pass
    what = re.sub(r"^Error -?\d+ | found$", "", str(error)).lower()
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


class _Inflated(io.RawIOBase):
    """A gzip file's text, member after member (by ISA-L; NUL bytes padding the file after one
    are passed over, as gzip does). A file that ends within a member was cut short (a download
    stopped, a full disk): its text is given up to the last line end before the cut, and
    `cut` is the number of the line the cut fell in (0 when it ended whole)."""

    def __init__(self, raw: io.BufferedIOBase) -> None:
        self.raw = raw
        self.member = isal_zlib.decompressobj(_GZIP)
        self.begun = False  # the file's first bytes read
        self.within = False  # a member begun and not ended
        self.fed = b""  # bytes read, not yet inflated
        self.out = memoryview(b"")  # text to give
        self.held = b""  # text after the last line end, given with the next or at the end
        self.lines = 0  # line ends given
        self.cut = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: "memoryview | bytearray") -> int:  # type: ignore[override]
        while not self.out:
            more = bool(self.fed) or self._fed()
            # At the file's end, the text the member holds yet (its output was bounded).
            text = self.member.decompress(self.fed, len(buffer)) if more or self.within else b""
            if not more and not text and not self.member.eof:
                if self.within:
                    self.cut, self.held = self.lines + 1, b""
                self.out, self.held = memoryview(self.held), b""
                if not self.out:
                    return 0
                break
            self.fed, self.within = self.member.unconsumed_tail, True
            if self.member.eof:
                self.fed, self.within = self.member.unused_data.lstrip(b"\x00"), False
                self.member = isal_zlib.decompressobj(_GZIP)
            self._give(text)
        given = min(len(buffer), len(self.out))
        buffer[:given] = self.out[:given]
        self.out = self.out[given:]
        return given

    def _fed(self) -> bool:
        """Whether there are more bytes to inflate (a run of NULs after a member skipped)."""
        if not self.begun:  # the file's first bytes: told before a header's 10 bytes are
            self.begun, data = True, self.raw.read(_READ)
            if data and not _GZIP_MAGIC.startswith(data[:2]):
                raise GzipError("not a gzip file")
            self.fed = data
            if data:
                return True
        while data := self.raw.read(_READ):
            self.fed = data if self.within else data.lstrip(b"\x00")
            if self.fed:
                return True
        return False

    def _give(self, text: bytes) -> None:
        """Give the text up to its last line end; hold the rest back (up to _HELD_AT_MOST: a
        longer line is given as it comes, and a cut in it is a cut in a record)."""
        text = self.held + text if self.held else text
        end = text.rfind(b"\n") + 1
        if len(text) - end > _HELD_AT_MOST:
            end = len(text)
        self.out, self.held = memoryview(text)[:end], text[end:]
        self.lines += text.count(b"\n", 0, end)

    def close(self) -> None:
        self.raw.close()
        super().close()


def inflated(raw: io.BufferedIOBase) -> io.BufferedReader:
    """The text of the gzip members a file's bytes hold (`cut_line` says whether it was cut)."""
    return io.BufferedReader(_Inflated(raw))


def cut_line(text: object) -> int:
    """The line a gzip file's text, read to its end, was cut short in; 0 when it ended whole
    (and for text that is not a gzip file's)."""
    raw = getattr(text, "raw", None)
    return raw.cut if isinstance(raw, _Inflated) else 0


def opened(path: Path, start: int = 0, end: int | None = None) -> io.BufferedIOBase:
    """The file's bytes from byte `start` (for a gzip file, where a member starts) to byte
    `end` (where a member ends; None: to the end of the file): a gzip file's text."""
    raw: io.BufferedIOBase = path.open("rb")
    raw.seek(start)
    if end is not None:
        raw = io.BufferedReader(_Upto(raw, end - start))  # type: ignore[arg-type]
    return inflated(raw) if is_gzip(path) else raw


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
