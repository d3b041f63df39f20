"""CSV with a header row that names an abstract column."""

import csv
import io
from collections.abc import Iterator

from tui_reader.core.formats.records import Problem, Record, record_from


def read_csv(text: str) -> Iterator[Record | Problem]:
    """The records of a CSV file, each bad row told with the line it starts on."""
    # A field can be no longer than the text, and the text is bounded where it is read.
    csv.field_size_limit(max(csv.field_size_limit(), len(text)))
    rows = csv.reader(io.StringIO(text))
    header: list[str] | None = None
    while True:
        start = rows.line_num + 1
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as error:
            yield Problem(start, f"not valid CSV ({error})")
            continue
        if not row:
            continue
        if header is None:
            header = row
            if "abstract" not in [name.strip().lower() for name in header]:
                yield Problem(start, "the header row has no abstract column")
                return
            continue
        yield record_from(dict(zip(header, row, strict=False)), start)
