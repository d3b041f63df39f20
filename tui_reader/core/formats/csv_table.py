"""CSV with a header row that names an abstract column, read as it goes: a file of any size,
its first papers at once."""

import csv
import io
import re
from collections.abc import Iterator

from tui_reader.core.formats.records import FormatError, Problem, Record, record_from

MAX_FIELD_CHARACTERS = 10_000_000
# A byte that is not UTF-8, as the `surrogateescape` error handler reads it.
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def read_csv(file: io.BufferedIOBase) -> Iterator[Record | Problem]:
    """The records of a CSV file, each bad row (or one that is not UTF-8) told with the line
    it starts on."""
    csv.field_size_limit(MAX_FIELD_CHARACTERS)
    text = io.TextIOWrapper(
        file,  # type: ignore[type-var]  # typeshed's protocol asks for more than it reads
        encoding="utf-8-sig",
        errors="surrogateescape",
        newline="",
    )
    rows = csv.reader(text)
    header: list[str] | None = None
    while True:
        start = rows.line_num + 1
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as error:
            # csv reads on from the next line, inside the field: rows made of its lines.
            if str(error).startswith("field larger than field limit"):
                too_long = f"a field holds over {MAX_FIELD_CHARACTERS:,} characters"
                raise FormatError(start, too_long) from None
            yield Problem(start, f"not valid CSV ({error})")
            continue
        if not row:
            continue
        joined = "".join(row)
        if not joined.isascii() and (escaped := _ESCAPED_BYTE.search(joined)):
            yield Problem(start, f"not UTF-8 text (byte 0x{ord(escaped[0]) - 0xDC00:02x})")
            continue
        if header is None:
            header = row
            if "abstract" not in [name.strip().lower() for name in header]:
                yield Problem(start, "the header row has no abstract column")
                return
            continue
        yield record_from(dict(zip(header, row, strict=False)), start)
