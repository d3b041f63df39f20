"""Seed text (core.seeds): a collection name, then an abstract a paragraph."""

from collections.abc import Iterator

from tui_reader.core.formats.records import Record
from tui_reader.core.seeds import iter_seed_text


def read_seed_text(text: str) -> Iterator[Record]:
    header, abstracts = iter_seed_text(text)
    for abstract in abstracts:
        yield Record(abstract, collection=header or "")
