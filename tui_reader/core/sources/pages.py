"""What a source yields as it pages through a listing, and how it reports a page it could not
read. A cursor is a small JSON-ready mapping that says where the next page starts, kept in
the resume state so that a fetch can go on where it stopped."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tui_reader.core.sources.record import SourceRecord

Cursor = dict[str, str | int]
Pages = Callable[[Cursor | None], Iterator["Page"]]  # the listing's pages from a cursor on


@dataclass
class Page:
    """One answer of a listing: its papers; where the next page starts (None: the listing is
    complete); how far through the listing this page reaches and how long the listing is, when
    the service says; and how many of its entries could not be read."""

    records: list[SourceRecord]
    next_cursor: Cursor | None
    position: int | None = None
    total: int | None = None
    unreadable: int = 0


class MalformedPage(Exception):
    """A page that could not be read to its end: the message says why, `records` are the
    papers read from it before the problem."""

    def __init__(self, message: str, records: list[SourceRecord] | None = None) -> None:
        super().__init__(message)
        self.records = records or []
