"""Seed text (core.seeds): a collection name, then an abstract a paragraph. Read as it goes,
whole paragraphs at a time, like JSON Lines: a file of any size, its first papers at once,
a big one cut into pieces read on every core."""

import codecs
import io
import re
from collections.abc import Iterator
from functools import partial

from tui_reader.core.formats.records import Problem, Record
from tui_reader.core.seeds import seed_abstracts, seed_header

MB = 1_000_000
MAX_PARAGRAPH_BYTES = 10 * MB
_CHUNK_BYTES = MB
# A paragraph break as core.seeds reads one (line ends made LF first), in UTF-8.
_BLANK = rb"(?:[ \t\f\v]|\xc2\xa0)"
_BREAK = re.compile(rb"\n" + _BLANK + rb"*\n")
_BLANKS = re.compile(_BLANK + rb"*")


def _last_break(data: bytes, since: int) -> int:
    """Where the last paragraph break of `data` ends, of those whose last line end is at or
    after `since`; 0 when none is. Walks back a line at a time: an abstract is a line or a
    few."""
    end = data.rfind(b"\n")
    while end >= since:
        before = data.rfind(b"\n", 0, end)
        if before < 0:
            return 0
        if _BLANKS.fullmatch(data, before + 1, end):
            return end + 1
        end = before
    return 0


def _line_ends(data: bytes) -> bytes:
    """CRLF and CR as LF, as core.seeds reads line ends."""
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def _break_start(data: bytes) -> int:
    """Where a paragraph break that bytes after `data` end may begin: its last line end, when
    only blanks follow it; else its end."""
    end = data.rfind(b"\n")
    return end if end >= 0 and _BLANKS.fullmatch(data, end + 1) else len(data)


def paragraph_chunks(
    file: io.BufferedIOBase, size: int = _CHUNK_BYTES
) -> Iterator[tuple[bytes, int] | Problem]:
    """A file's text in whole paragraphs, read `size` bytes at a time: pieces, each with the
    number of its first line, and a Problem for a paragraph longer than MAX_PARAGRAPH_BYTES,
    which is dropped as it is read. Line ends are LF in the pieces, as core.seeds reads
    them. The pieces can be read apart (`seed_reader`), on other cores."""
    number, carry, dropping, started = 1, b"", False, False
    held = b""  # a CR that ended the last chunk: the LF of a CRLF may come next
    while chunk := file.read(size):
        chunk, held = held + chunk, b""
        if chunk.endswith(b"\r"):
            chunk, held = chunk[:-1], b"\r"
        chunk = _line_ends(chunk)
        data, fresh = carry + chunk, len(carry)
        if dropping:
            found = _BREAK.search(data)
            if found is None:
                keep = _break_start(data)
                number += data.count(b"\n", 0, keep)
                carry = data[keep:]
                continue
            number += data.count(b"\n", 0, found.end())
            data, fresh, dropping = data[found.end() :], 0, False
        cut = _last_break(data, fresh)
        if cut and not started and data[:cut].decode("utf-8-sig", errors="ignore").isspace():
            cut = 0  # the first piece holds the first paragraph: it may be the collection's name
        if cut:
            yield data[:cut], number
            started = True
            number += data.count(b"\n", 0, cut)
        carry = data[cut:]
        if len(carry) > MAX_PARAGRAPH_BYTES:
            yield Problem(
                number, f"longer than the {MAX_PARAGRAPH_BYTES / MB:g} MB a paragraph may take"
            )
            keep = _break_start(carry)
            number += carry.count(b"\n", 0, keep)
            carry, dropping = carry[keep:], True
    carry += b"\n" if held else b""
    if carry and not dropping:
        yield carry, number


def count_paragraphs(data: bytes) -> int:
    """About how many abstracts a sample of seed text holds."""
    return len(_BREAK.findall(_line_ends(data)))


def seed_reader(start: str) -> "partial[Iterator[Record | Problem]]":
    """The reader of a seed text file's pieces, given the start of its text (which tells the
    collection's name: the pieces after the first do not have it)."""
    header = seed_header(start)
    return partial(read_seed_piece, header=header is not None, collection=header or "")


def read_seed_piece(
    data: bytes, number: int, *, header: bool, collection: str
) -> Iterator[Record | Problem]:
    """The records of whole paragraphs of seed text, the first of them on line `number` (1:
    the file's start, whose first paragraph is the collection's name when `header`); a
    paragraph that is not UTF-8 is a Problem, the others are read."""
    first = number == 1
    if first:
        data = data.removeprefix(codecs.BOM_UTF8)
    try:
        abstracts = seed_abstracts(data.decode("utf-8"), after_header=first and header)
    except UnicodeDecodeError:
        yield from _read_damaged(data, number, first and header, collection)
        return
    for abstract in abstracts:
        yield Record(abstract, collection=collection)


def _read_damaged(
    data: bytes, number: int, header: bool, collection: str
) -> Iterator[Record | Problem]:
    """What `read_seed_piece` reads of a piece with bytes that are not UTF-8 in it, a
    paragraph at a time."""
    start = 0
    for found in [*_BREAK.finditer(data), None]:
        end = found.start() if found else len(data)
        paragraph = data[start:end]
        if paragraph.decode("utf-8", errors="replace").strip():  # as core.seeds tells a blank one
            leading = len(paragraph) - len(paragraph.lstrip())
            line = number + data.count(b"\n", 0, start + leading)
            try:
                text = paragraph.decode("utf-8")
            except UnicodeDecodeError as error:
                byte = paragraph[error.start]
                yield Problem(line, f"not UTF-8 text (byte 0x{byte:02x})")
            else:
                for abstract in seed_abstracts(text, after_header=header):
                    yield Record(abstract, collection=collection)
            header = False
        if found:
            start = found.end()


def read_seed_text(file: io.BufferedIOBase) -> Iterator[Record | Problem]:
    """A seed text file's records, read as it goes."""
    read = None
    for piece in paragraph_chunks(file):
        if isinstance(piece, Problem):
            yield piece
            continue
        if read is None:  # the start of the file, as a big file's reader is given it
            data, number = piece
            read = seed_reader(data[:4096].decode("utf-8", errors="ignore") if number == 1 else "")
        yield from read(*piece)
