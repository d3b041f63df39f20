"""Seed text read as the reader reads a file of it."""

import io

from tui_reader.core.formats import Record
from tui_reader.core.formats.seed_text import read_seed_text
from tui_reader.core.seeds import seed_header


def parse_seed_text(text: str) -> tuple[str | None, list[str]]:
    """Seed text's collection name (None when absent) and its abstracts."""
    records = list(read_seed_text(io.BytesIO(text.encode("utf-8"))))
    assert all(isinstance(record, Record) for record in records)
    return seed_header(text), [record.abstract for record in records]  # type: ignore[union-attr]
