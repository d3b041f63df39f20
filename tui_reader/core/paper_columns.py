"""Papers as a store holds them: each text field one UTF-8 string a paper, the numbers as
arrays, the collection, source and categories as names (the store holds codes of them), and
the rarely set fields as a small JSON object per paper.

Loading gives papers so (`PaperColumns`), made where they are read (a process of the
loading pool), and the store adds them as they are, without a `Paper` built for each.
"""

import hashlib
import json
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, TypeVar

import numpy as np
import orjson

from tui_reader.core.columns import UTF8
from tui_reader.core.metadata_filter import date_key, date_of
from tui_reader.core.paper import Paper

T = TypeVar("T")
TEXTS = (
    "id",
    "abstract",
    "headline",
    "title",
    "authors",
    "venue",
    "published",
    "extra",
)
NO_YEAR = -(2**63)
SEPARATOR = "\x1f"  # between authors; clean text never holds it
HEADLINE_IS_TITLE = 1  # a flag: the headline column is empty, the title stands for it
AUTHORS_AS_JSON = 2  # a flag: the authors are in the extra column
# Columns of one number a paper: the array module's type code and numpy's type.
NUMBERS: dict[str, tuple[str, type[np.signedinteger[Any]]]] = {
    "years": ("q", np.int64),
    "flags": ("b", np.int8),
    "collections": ("i", np.int32),
    "sources": ("i", np.int32),
    "keys": ("q", np.int64),  # id_key of each paper's id
    "dates": ("i", np.int32),  # date_key of each paper's date
}
# Fields of a Paper held as JSON in the `extra` column, when not their default.
_EXTRA = (
    "links",
    "url",
    "updated",
    "arxiv_id",
    "arxiv_version",
    "doi",
    "openreview_forum",
    "decision",
    "keywords",
    "comments",
    "volume",
    "issue",
    "pages",
    "venue_kind",
    "kind_links",
    "written_abstract",
)


def id_key(paper_id: str) -> int:
    """A paper id's 64-bit key (stable across runs: the cache holds them)."""
    # A lone surrogate (a byte of an argument not UTF-8, a JSON escape) is no id: it keys
    # as written, never raising.
    digest = hashlib.blake2b(paper_id.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


@dataclass(frozen=True)
class PaperColumns:
    """A batch of papers as a store holds them. Each text field is its papers' UTF-8 one
    after the other, with each one's length; collections, sources and categories are names,
    which the store turns into its codes."""

    ids: list[str]
    keys: "array[int]"  # id_key of each id
    texts: dict[str, tuple[bytes, "array[int]"]]  # by TEXTS
    numbers: dict[str, "array[int]"]  # years, flags, dates
    collections: list[str]
    sources: list[str]
    categories: list[tuple[str, ...]]

    def __len__(self) -> int:
        return len(self.ids)

    def taking(self, indices: Sequence[int]) -> "PaperColumns":
        """The papers at these indices of the batch, in this order."""

        def texts(joined: bytes, lengths: "array[int]") -> tuple[bytes, "array[int]"]:
            ends = list(accumulate(lengths, initial=0))
            parts = [joined[ends[index] : ends[index + 1]] for index in indices]
            return b"".join(parts), array("q", map(len, parts))

        def pick(values: Sequence[T]) -> list[T]:
            return [values[index] for index in indices]

        return PaperColumns(
            pick(self.ids),
            array("q", pick(self.keys)),
            {name: texts(*value) for name, value in self.texts.items()},
            {name: array(value.typecode, pick(value)) for name, value in self.numbers.items()},
            pick(self.collections),
            pick(self.sources),
            pick(self.categories),
        )


def columns_of(papers: Sequence[Paper]) -> PaperColumns:
    """The papers as columns, as a store holds them."""
    titled = [bool(p.title) and p.headline == p.title for p in papers]
    authors = [_joined(p.authors) for p in papers]
    ids = [p.id for p in papers]
    texts = {
        "id": ids,
        "abstract": [p.abstract for p in papers],
        "headline": [
            "" if is_title else p.headline for p, is_title in zip(papers, titled, strict=True)
        ],
        "title": [p.title for p in papers],
        "authors": [joined or "" for joined in authors],
        "venue": [p.venue for p in papers],
        "published": [p.published for p in papers],
        "extra": [_extra(p, a is None) for p, a in zip(papers, authors, strict=True)],
    }
    numbers = {
        "years": [NO_YEAR if p.year is None else p.year for p in papers],
        "flags": [
            (HEADLINE_IS_TITLE if is_title else 0) | (AUTHORS_AS_JSON if a is None else 0)
            for is_title, a in zip(titled, authors, strict=True)
        ],
        "dates": [date_key(date_of(p.published, p.year)) for p in papers],
    }
    return PaperColumns(
        ids,
        array(NUMBERS["keys"][0], map(id_key, ids)),
        {name: _encoded(values) for name, values in texts.items()},
        {name: array(NUMBERS[name][0], values) for name, values in numbers.items()},
        [p.collection for p in papers],
        [str(p.source) for p in papers],
        [p.categories for p in papers],
    )


def extra_fields(text: str) -> dict[str, Any]:
    """The fields of a paper the `extra` column holds, as a Paper holds them."""
    return {name: _tuples(value) for name, value in _unjson(text).items()} if text else {}


def authors_of(text: str) -> tuple[str, ...]:
    """The authors as the `authors` column holds them."""
    return tuple(text.split(SEPARATOR)) if text else ()


def _encoded(values: Sequence[str]) -> tuple[bytes, "array[int]"]:
    encoded = [value.encode(*UTF8) for value in values]
    return b"".join(encoded), array("q", map(len, encoded))


def _extra(paper: Paper, with_authors: bool) -> str:
    """The paper's rarely set fields, as JSON ("" for none); `with_authors`: its authors too
    (a separator inside them: the column cannot hold them)."""
    extra = {name: value for name in _EXTRA if (value := getattr(paper, name))}
    if with_authors:
        extra.update(authors=paper.authors)
    return _json(extra) if extra else ""


def _json(fields: dict[str, Any]) -> str:
    try:
        return orjson.dumps(fields).decode()
    except orjson.JSONEncodeError:  # a lone surrogate, which only json writes
        return json.dumps(fields, ensure_ascii=False)


def _unjson(text: str) -> dict[str, Any]:
    try:
        fields: dict[str, Any] = orjson.loads(text)
    except orjson.JSONDecodeError:  # a lone surrogate, which only json reads
        fields = json.loads(text)
    return fields


def _joined(values: tuple[str, ...]) -> str | None:
    """The values in one string, or None when they cannot be split again."""
    joined = SEPARATOR.join(values)
    if not all(values) or joined.count(SEPARATOR) != max(len(values) - 1, 0):
        return None
    return joined


def _tuples(value: object) -> object:
    """JSON lists back as the tuples a Paper holds."""
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value
