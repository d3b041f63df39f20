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
_BREAK = re.compile(rb"\n[ \t\f\v\r]*\n")  # a break where a piece may end (CR read as LF)
_BLANKS = re.compile(rb"[ \t\f\v\r]*")


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


def _cr_only(start: bytes) -> bool | None:
    """Whether text ends its lines with CR alone, told by its first line end (None: not
    yet known, the start ends in CR)."""
    cr = start.find(b"\r")
    if cr < 0 or start.find(b"\n", 0, cr) >= 0:
        return False
    return None if cr + 1 == len(start) else start[cr + 1] != ord("\n")


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
    which is dropped as it is read. A file whose first line ends in CR alone is read with
    LF for CR. The pieces can be read apart (`seed_reader`), on other cores."""
    number, carry, dropping, started = 1, b"", False, False
    cr_only: bool | None = None
    while chunk := file.read(size):
        if cr_only is None:  # nothing is carried but the start of the file
            chunk, carry = carry + chunk, b""
            cr_only = _cr_only(chunk)
            if cr_only is None:
                carry = chunk
                continue
        if cr_only:
            chunk = chunk.replace(b"\r", b"\n")
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
    if carry and not dropping:
        yield carry, number


def count_paragraphs(data: bytes) -> int:
    """About how many abstracts a sample of seed text holds."""
    return len(_BREAK.findall(data))


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
        if paragraph.strip():
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
