"""The papers of this session, in load order and by id, kept as columns.

A paper's number is its place in the store (0 for the first loaded): searches, sorts and
related papers speak in numbers, and a `PaperView` shows the papers they name.

Papers are not kept as objects: each text field is one UTF-8 blob with int64 offsets, the
numbers are arrays, the collection and source file are codes into short lists, the
categories are codes into the list of those seen (a paper's one after the other, with where
each paper's start), and the rarely set fields are a small JSON object per paper. The
metadata filters read the years, the dates as numbers and the category codes (`passing`).
`store[n]` builds the `Paper` when it is asked for. A store grows a batch at a time while
papers load (each batch one immutable chunk, so threads reading it need no lock), or opens
whole from memory-mapped arrays (`from_arrays`, the index cache). Ids are found by a 64-bit
hash of the id, sorted, so a million ids cost no dict of a million strings.
"""

import hashlib
import json
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, overload

import numpy as np
import numpy.typing as npt
import orjson

from tui_reader.core.metadata_filter import NO_DATE, UNSURE, MetadataFilter, date_key, date_of
from tui_reader.core.paper import Paper

if TYPE_CHECKING:
    from tui_reader.core.paper_state import PaperState
    from tui_reader.core.query import Query

T = TypeVar("T")
Numbers: TypeAlias = npt.NDArray[np.int64]  # paper numbers: places in the store
Bools: TypeAlias = npt.NDArray[np.bool_]
Array: TypeAlias = npt.NDArray[Any]
Chunk: TypeAlias = bytes | memoryview
Column: TypeAlias = "array[int] | memoryview"  # grown in memory, or mapped from a file

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
_SEPARATOR_UTF8 = SEPARATOR.encode()
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
# Fields of a Paper kept as JSON in the `extra` column, when not their default.
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
    "venue_kind",
    "kind_links",
)
RECENT_PAPERS = 4096  # papers kept built, for the rows on screen
_MERGE_AT = 50_000  # ids looked up through a dict until this many, then merged into arrays


def id_key(paper_id: str) -> int:
    """A paper id's 64-bit key (stable across runs: kept on disk)."""
    digest = hashlib.blake2b(paper_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


class _Strings:
    """A column of strings: chunks of UTF-8 with one int64 offset per string (and a 0)."""

    def __init__(self, chunks: Sequence[Array] = (), offsets: Array | None = None) -> None:
        # Mapped arrays are read through memoryviews: 20x faster to slice than numpy's.
        self.chunks: list[Chunk] = [_view(chunk) for chunk in chunks]  # where each starts:
        self.starts: list[int] = list(accumulate(map(len, self.chunks), initial=0))[:-1]
        self.offsets: Column = array("q", [0]) if offsets is None else _view(offsets)

    def append(self, joined: bytes, lengths: "array[int]") -> None:
        """Strings as `encoded` gives them: their UTF-8 one after the other, and each one's
        length in it."""
        end = int(self.offsets[-1])
        self.offsets = _growable(self.offsets, "q")
        if joined:
            self.chunks.append(joined)
            self.starts.append(end)
        ends = np.cumsum(np.frombuffer(lengths, dtype=np.int64)) + end
        self.offsets.frombytes(ends.tobytes())

    def get(self, number: int) -> str:
        offsets = self.offsets
        start, end = offsets[number], offsets[number + 1]
        if start == end:
            return ""
        starts = self.starts
        if len(starts) == 1:  # one chunk: a column opened from a file
            return _decoded(self.chunks[0][start:end])
        place = bisect_right(starts, start) - 1
        base = starts[place]
        return _decoded(self.chunks[place][start - base : end - base])

    def encoded(self, start: int, stop: int) -> list[bytes]:
        """Strings `start` to `stop` as their UTF-8, sliced from the chunks at once."""
        bounds = self.offsets[start : stop + 1].tolist()
        first, end = bounds[0], bounds[-1]
        place = max(bisect_right(self.starts, first) - 1, 0)
        parts = []
        # Not strict: papers may be added meanwhile (the index reads the store as it loads),
        # a chunk before its start; the strings asked for are in those taken.
        for base, chunk in zip(self.starts[place:], self.chunks[place:], strict=False):
            if base >= end:
                break
            parts.append(bytes(chunk[max(first - base, 0) : end - base]))
        blob = b"".join(parts)
        return [blob[a - first : b - first] for a, b in pairwise(bounds)]

    def arrays(self, count: int) -> tuple[Iterator[Chunk], Array]:
        """The bytes of the first `count` strings, as chunks, and their offsets."""
        offsets = np.array(self.offsets[: count + 1], dtype=np.int64)
        end = int(offsets[-1])
        chunks = list(zip(self.starts, self.chunks, strict=True))
        return (chunk[: end - start] for start, chunk in chunks if start < end), offsets


class _Names:
    """A column of a few names a paper (categories): the names' codes, all papers' one after
    the other, where each paper's start (and the end), and the names the codes stand for."""

    def __init__(
        self, codes: Array | None = None, starts: Array | None = None, names: Sequence[str] = ()
    ) -> None:
        self.codes: Column = array("i") if codes is None else _view(codes)
        self.starts: Column = array("q", [0]) if starts is None else _view(starts)
        self.names = list(names)
        self._places = _places(self.names)

    def append(self, values: Sequence[tuple[str, ...]]) -> None:
        names, places = self.names, self._places
        codes = [_code(names, places, name) for value in values for name in value]
        ends = np.cumsum(np.fromiter(map(len, values), dtype=np.int64, count=len(values)))
        end = int(self.starts[-1])
        # The codes first: a reader that sees a paper's end finds its codes.
        self.codes = _growable(self.codes, "i")
        self.codes.extend(codes)
        self.starts = _growable(self.starts, "q")
        self.starts.frombytes((ends + end).tobytes())

    def get(self, number: int) -> tuple[str, ...]:
        names, start, end = self.names, self.starts[number], self.starts[number + 1]
        return tuple(names[code] for code in self.codes[start:end])

    def any(self, passing: Callable[[str], bool], numbers: Numbers, count: int) -> Bools:
        """Which of these papers (of the first `count`) have a name that passes: each
        distinct name is tried once."""
        starts = np.frombuffer(self.starts[: count + 1], dtype=np.int64)
        codes = np.frombuffer(self.codes[: int(starts[-1])], dtype=np.int32)
        table = np.fromiter(map(passing, self.names), dtype=bool, count=len(self.names))
        # How many of the names before each place pass: a paper has one when its end counts more.
        before = np.concatenate(([0], np.cumsum(table[codes])))
        return before[starts[numbers + 1]] > before[starts[numbers]]

    def arrays(self, count: int) -> tuple[Array, Array]:
        """The codes of the first `count` papers, and where each paper's start (and the end)."""
        starts = np.array(self.starts[: count + 1], dtype=np.int64)
        return np.array(self.codes[: int(starts[-1])], dtype=np.int32), starts


@dataclass(frozen=True)
class PaperColumns:
    """Papers as a store keeps them, made where they are read (a process of the loading
    pool): the store adds them as they are, without a Paper built for each. Each text
    field is its papers' UTF-8 one after the other, with each one's length; collections,
    sources and categories are names, which the store turns into its codes."""

    ids: list[str]
    keys: "array[int]"  # id_key of each id
    texts: dict[str, tuple[bytes, "array[int]"]]  # by TEXTS
    numbers: dict[str, "array[int]"]  # years, flags, dates
    collections: list[str]
    sources: list[str]
    categories: list[tuple[str, ...]]

    def __len__(self) -> int:
        return len(self.ids)

    def taking(self, places: list[int]) -> "PaperColumns":
        """The papers at these places, in this order."""

        def texts(joined: bytes, lengths: "array[int]") -> tuple[bytes, "array[int]"]:
            ends = list(accumulate(lengths, initial=0))
            parts = [joined[ends[place] : ends[place + 1]] for place in places]
            return b"".join(parts), array("q", map(len, parts))

        def pick(values: Sequence[T]) -> list[T]:
            return [values[place] for place in places]

        return PaperColumns(
            pick(self.ids),
            array("q", pick(self.keys)),
            {name: texts(*value) for name, value in self.texts.items()},
            {name: array(value.typecode, pick(value)) for name, value in self.numbers.items()},
            pick(self.collections),
            pick(self.sources),
            pick(self.categories),
        )

    def papers(self) -> list[Paper]:
        """The papers, built (for a caller that needs them one by one), each one given."""
        store = PaperStore()
        store._append(self)  # every one: a store's `extend` drops an id met again
        return list(store)


PaperBatch: TypeAlias = list[Paper] | PaperColumns  # papers as loading gives them


def collections_of(batch: PaperBatch) -> list[str]:
    """The collection of each paper of a batch."""
    if isinstance(batch, PaperColumns):
        return batch.collections
    return [paper.collection for paper in batch]


def ids_of(batch: PaperBatch) -> list[str]:
    """The id of each paper of a batch."""
    return batch.ids if isinstance(batch, PaperColumns) else [paper.id for paper in batch]


def columns_of(papers: Sequence[Paper]) -> PaperColumns:
    """The papers as columns, as a store keeps them."""
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


def _encoded(values: Sequence[str]) -> tuple[bytes, "array[int]"]:
    encoded = [value.encode(*_UTF8) for value in values]
    return b"".join(encoded), array("q", map(len, encoded))


class PaperStore(Sequence[Paper]):
    """An ordered, read-only collection of papers, also indexed by paper id."""

    def __init__(self, papers: Iterable[Paper] = (), collections: Sequence[str] = ()) -> None:
        self.collections = list(collections)
        self._texts = {name: _Strings() for name in TEXTS}
        self._categories = _Names()
        self._numbers: dict[str, Column] = {
            name: array(code) for name, (code, _) in NUMBERS.items()
        }
        self._collection_names: list[str] = []
        self._source_names: list[str] = []
        self._codes: tuple[dict[str, int], dict[str, int]] = ({}, {})  # name: its place
        self._source_paths: list[Path] = []
        # Sorted keys with their paper numbers, and a dict of the keys added since.
        empty = np.zeros(0, dtype=np.int64)
        self._lookup: tuple[Array, Array, dict[int, int]] = (empty, empty, {})
        self._count = 0
        self._headline_ranks: Array | None = None
        self._recent: dict[int, Paper] = {}
        self._revised: dict[int, Paper] = {}  # papers shown otherwise than loaded (revise)
        self.extend(papers)

    @classmethod
    def from_arrays(
        cls,
        arrays: Mapping[str, Array],
        collections: Sequence[str],
        names: Mapping[str, list[str]],
        texts: Mapping[str, Sequence[Array]] | None = None,
    ) -> "PaperStore":
        """A store over arrays `arrays()` gave (memory-mapped, usually); `names` holds the
        collection and source names the codes stand for. With `texts`, each text's bytes are
        these arrays one after the other (kept in parts), which its offsets index."""
        store = cls((), collections)
        store._count = len(arrays["keys"])
        for name in TEXTS:
            chunks = [arrays[name]] if texts is None else texts[name]
            store._texts[name] = _Strings(chunks, arrays[f"{name}_offsets"])
        store._numbers = {name: _view(arrays[name]) for name in NUMBERS}
        store._categories = _Names(
            arrays["category_codes"], arrays["category_starts"], names["categories"]
        )
        store._collection_names, store._source_names = names["collections"], names["sources"]
        store._codes = (_places(store._collection_names), _places(store._source_names))
        plain = {name: np.asarray(arrays[name]) for name in ("sorted_keys", "sorted_numbers")}
        store._lookup = (plain["sorted_keys"], plain["sorted_numbers"], {})
        store._headline_ranks = np.asarray(arrays["headline_ranks"])
        return store

    def adopt(self, other: "PaperStore") -> None:
        """Read the papers from `other`'s columns from now on: the same papers in the same
        order, kept on disk and mapped back, so that the memory this store's own columns take
        is given back. Papers revised stay revised. ValueError when `other` holds others."""
        count = len(self)
        mine, theirs = self._numbers["keys"], other._numbers["keys"]
        if len(other) != count or not np.array_equal(mine[:count], theirs[:count]):
            raise ValueError("not the same papers")
        self._texts, self._numbers = other._texts, other._numbers
        self._categories = other._categories
        self._collection_names, self._source_names = other._collection_names, other._source_names
        self._codes, self._source_paths = other._codes, other._source_paths
        self._lookup, self._headline_ranks = other._lookup, other._headline_ranks
        self._recent = {}

    def revise(self, papers: Iterable[Paper]) -> None:
        """Give the papers of these ids (those here) as these from now on: a paper that
        resolve found, with its title and links. Searching still reads them as loaded."""
        for paper in papers:
            if (number := self.position_of(paper.id)) is not None:
                self._revised[number] = paper
                self._recent.pop(number, None)

    def extend(self, papers: Iterable[Paper] | PaperColumns) -> int:
        """Add papers not already here (by id), in order; how many were new."""
        if isinstance(papers, PaperColumns):
            columns = papers
            new = self._new_places(columns.ids, columns.keys)
            if len(new) < len(columns):
                columns = columns.taking(new)
        else:  # only the new ones made into columns: inputs that overlap add few
            given = list(papers)
            ids = [paper.id for paper in given]
            new = self._new_places(ids, array(NUMBERS["keys"][0], map(id_key, ids)))
            columns = columns_of([given[place] for place in new])
        for collection in dict.fromkeys(columns.collections):
            if collection not in self.collections:
                self.collections.append(collection)
        if new:
            self._append(columns)
        return len(new)

    def _new_places(self, ids: list[str], keys: "array[int]") -> list[int]:
        """The places of the ids not here, nor met before them in `ids`."""
        sorted_keys = self._lookup[0]
        # One search for the batch; only the keys found there are looked at one by one.
        in_sorted = [False] * len(ids)
        if len(sorted_keys) and ids:
            found = np.frombuffer(keys, dtype=np.int64)
            places = np.minimum(np.searchsorted(sorted_keys, found), len(sorted_keys) - 1)
            in_sorted = (sorted_keys[places] == found).tolist()
        new: list[int] = []
        batch: set[str] = set()
        for place, (paper_id, key, maybe) in enumerate(zip(ids, keys, in_sorted, strict=True)):
            if paper_id in batch or self._find(paper_id, key, maybe) is not None:
                continue
            batch.add(paper_id)
            new.append(place)
        return new

    def _append(self, columns: PaperColumns) -> None:
        names, codes = self._collection_names, self._codes[0]
        collections = [_code(names, codes, name) for name in columns.collections]
        names, codes = self._source_names, self._codes[1]
        sources = [_code(names, codes, name) for name in columns.sources]
        for name in TEXTS:
            self._texts[name].append(*columns.texts[name])
        self._categories.append(columns.categories)
        added = columns.numbers | {
            "collections": array("i", collections),
            "sources": array("i", sources),
            "keys": columns.keys,
        }
        for name, (code, _) in NUMBERS.items():
            grown = self._numbers[name] = _growable(self._numbers[name], code)
            grown.extend(added[name])
        sorted_keys, _, recent = self._lookup
        keys = columns.keys
        for offset, key in enumerate(keys):
            if key in recent:  # two ids of one key (rare): only the arrays can hold both
                recent = {}
                self._lookup = (*self._merged(self._count + len(keys)), recent)
                break
            recent[key] = self._count + offset
        self._count += len(keys)  # last: what a reader sees is complete
        if len(recent) > max(_MERGE_AT, len(sorted_keys) // 4):
            self._lookup = (*self._merged(self._count), {})

    def _merged(self, count: int) -> tuple[Array, Array]:
        keys = np.array(self._numbers["keys"][:count], dtype=np.int64)
        numbers = np.argsort(keys, kind="stable").astype(np.int64)
        return keys[numbers], numbers

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Paper: ...

    @overload
    def __getitem__(self, index: slice) -> list[Paper]: ...

    def __getitem__(self, index: int | slice) -> Paper | list[Paper]:
        if isinstance(index, slice):
            return [self._paper(number) for number in range(*index.indices(self._count))]
        number = index + self._count if index < 0 else index
        if not 0 <= number < self._count:
            raise IndexError(f"paper number {index} of {self._count}")
        # The papers on screen are asked for again at every frame: built once.
        paper = self._recent.get(number)
        if paper is None:
            if len(self._recent) >= RECENT_PAPERS:
                self._recent = {}
            paper = self._recent[number] = self._paper(number)
        return paper

    def _paper(self, number: int) -> Paper:
        if (revised := self._revised.get(number)) is not None:
            return revised
        text = self._texts
        extra: dict[str, Any] = {}
        if packed := text["extra"].get(number):
            extra = {name: _tuples(value) for name, value in _unjson(packed).items()}
        title = text["title"].get(number)
        numbers = self._numbers
        fields: dict[str, Any] = {
            "authors": _split(text["authors"].get(number)),
            "categories": self._categories.get(number),
        } | extra
        return Paper(
            id=text["id"].get(number),
            abstract=text["abstract"].get(number),
            collection=self._collection_names[numbers["collections"][number]],
            source=self._source_path(numbers["sources"][number]),
            venue=text["venue"].get(number),
            headline=title
            if numbers["flags"][number] & HEADLINE_IS_TITLE
            else text["headline"].get(number),
            title=title,
            year=self._year(number),
            published=text["published"].get(number),
            **fields,
        )

    def _year(self, number: int) -> int | None:
        year = int(self._numbers["years"][number])
        return None if year == NO_YEAR else year

    def _source_path(self, code: int) -> Path:
        paths = self._source_paths
        if len(paths) <= code:  # made anew, not grown: two threads would grow it twice
            self._source_paths = paths = [Path(name) for name in self._source_names]
        return paths[code]

    def __iter__(self) -> Iterator[Paper]:
        return (self._paper(number) for number in range(self._count))

    def __contains__(self, paper_id: object) -> bool:
        return isinstance(paper_id, str) and self.position_of(paper_id) is not None

    def get(self, paper_id: str) -> Paper | None:
        position = self.position_of(paper_id)
        return None if position is None else self[position]

    def position_of(self, paper_id: str) -> int | None:
        """The paper's place in load order (its number), or None when it is not in the store."""
        return self._find(paper_id, id_key(paper_id))

    def positions_of(self, paper_ids: Sequence[str]) -> npt.NDArray[np.int64]:
        """Each paper's place in load order, -1 where it is not in the store: many at once
        (one at a time, a hundred thousand took 1.7 s)."""
        sorted_keys, numbers, recent = self._lookup
        keys = np.fromiter(map(id_key, paper_ids), dtype=np.int64, count=len(paper_ids))
        found = np.full(len(keys), -1, dtype=np.int64)
        if len(sorted_keys):
            places = np.searchsorted(sorted_keys, keys).clip(max=len(sorted_keys) - 1)
            hit = sorted_keys[places] == keys
            found[hit] = numbers[places[hit]]
        ids = self._texts["id"]
        for place, (paper_id, key, number) in enumerate(
            zip(paper_ids, keys.tolist(), found.tolist(), strict=True)
        ):
            number = recent.get(key, number)
            if number < 0 or ids.get(number) != paper_id:  # not there, or a key two ids share
                number = self._find(paper_id, key)
                found[place] = -1 if number is None else number
            else:
                found[place] = number
        return found

    def in_order(self, paper_ids: Iterable[str]) -> list[str]:
        """Those of these papers that are in the store, in load order."""
        listed = list(paper_ids)
        places = self.positions_of(listed)
        order = np.argsort(places, kind="stable")
        return [listed[i] for i in order[places[order] >= 0].tolist()]

    def _find(self, paper_id: str, key: int, maybe_sorted: bool = True) -> int | None:
        sorted_keys, numbers, recent = self._lookup
        ids = self._texts["id"]
        found = recent.get(key)
        if found is not None and ids.get(found) == paper_id:
            return found
        if not maybe_sorted:
            return None
        start = int(np.searchsorted(sorted_keys, key, "left"))
        for place in range(start, len(sorted_keys)):
            if sorted_keys[place] != key:
                break
            if ids.get(number := int(numbers[place])) == paper_id:
                return number
        return None

    def passing(self, query: "Query", state: "PaperState", numbers: Numbers) -> Bools:
        """Which of these papers pass the query's state and metadata filters (`#tag`,
        `cat:`, `year:`...), read from the columns at once, without building the papers."""
        count = self._count
        passing = np.ones(len(numbers), dtype=bool)
        for test in query.metadata:
            passing &= self._fitting(test, numbers, count) != test.negated
        if query.states:
            passing &= self._keeping(query, state)[numbers]
        return passing

    def _fitting(self, test: MetadataFilter, numbers: Numbers, count: int) -> Bools:
        """Which of these papers pass a metadata filter, negation aside."""
        if test.scope == "cat":
            return self._categories.any(test.fits_category, numbers, count)
        if test.scope == "year":
            years = self._column("years", count)[numbers]
            first, last = test.years
            within: Bools = (years >= first) & (years <= last)
            return within
        keys = self._column("dates", count)[numbers]
        passing = test.fits_dates(keys)
        for place in np.flatnonzero(keys == UNSURE).tolist():  # a date in another form
            number = int(numbers[place])
            published = self._texts["published"].get(number)
            passing[place] = test.fits_date(date_of(published, self._year(number)))
        return passing

    def any_has_field(self, test: MetadataFilter) -> bool:
        """Whether any paper has the field the filter reads, from the columns."""
        count = self._count
        if test.scope == "cat":
            return int(self._categories.starts[count]) > 0
        if test.scope == "year":
            return bool(np.any(self._column("years", count) != NO_YEAR))
        return bool(np.any(self._column("dates", count) != NO_DATE))

    def _keeping(self, query: "Query", state: "PaperState") -> Bools:
        """Which papers pass the query's state filters (`#tag`, `is:read`...). The papers the
        user made nothing of pass or fail together: the filters are tried on each of the
        others only (a test of every paper took 0.8 s at 100,000 papers)."""
        passing = np.full(self._count, query.keeps(state, ""), dtype=bool)  # "": no paper's id
        paper_ids = state.paper_ids()
        for paper_id, number in zip(paper_ids, self.positions_of(paper_ids).tolist(), strict=True):
            if 0 <= number < len(passing):
                passing[number] = query.keeps(state, paper_id)
        return passing

    def _column(self, name: str, count: int) -> Array:
        """A column of numbers, of the first `count` papers (copied when it may grow)."""
        return np.frombuffer(self._numbers[name][:count], dtype=NUMBERS[name][1])

    def id_of(self, number: int) -> str:
        """The id of paper `number`, without building the paper."""
        return self._texts["id"].get(number)

    def headline_of(self, number: int) -> str:
        """The headline of paper `number`, without building the paper: a list's rows need
        no more, and building each paper read its abstract's pages of a kept store."""
        if (revised := self._revised.get(number)) is not None:
            return revised.headline
        flags = self._numbers["flags"][number]
        return self._texts["title" if flags & HEADLINE_IS_TITLE else "headline"].get(number)

    def headline_ranks(self) -> Array:
        """Each paper's place among the headlines in case-blind alphabetical order (equal
        headlines share one), to sort by headline without reading them."""
        ranks = self._headline_ranks
        if ranks is None or len(ranks) != self._count:
            ranks = self._headline_ranks = _ranks(self._headlines())
        return ranks

    def _headlines(self) -> list[str]:
        return self.texts("headline")

    def texts(self, name: str, start: int = 0, stop: int | None = None) -> list[str]:
        """A field of papers `start` to `stop`, decoded at once without building the papers
        (ten times faster): id, abstract, headline, title, venue, published or collection;
        authors and categories as Paper holds them, joined by spaces."""
        values = self.utf8(name, start, stop)
        try:
            return [value.decode(*_UTF8) for value in values]
        except UnicodeDecodeError:  # bytes damaged in a kept file
            return [_decoded(value) for value in values]

    def utf8(self, name: str, start: int = 0, stop: int | None = None) -> list[bytes]:
        """What `texts` gives, as the UTF-8 the columns hold (the index reads it so: it was
        decoded to be encoded again, a tenth of the reader's own work cold)."""
        stop = self._count if stop is None else min(stop, self._count)
        if start >= stop:
            return []
        if name == "collection":
            codes = self._numbers["collections"][start:stop].tolist()
            names = [collection.encode(*_UTF8) for collection in self._collection_names]
            return [names[code] for code in codes]
        if name == "headline":
            titles = self._texts["title"].encoded(start, stop)
            headlines = self._texts["headline"].encoded(start, stop)
            flags = self._numbers["flags"][start:stop].tolist()
            return [
                t if f & HEADLINE_IS_TITLE else h
                for t, h, f in zip(titles, headlines, flags, strict=True)
            ]
        if name == "categories":
            return [
                " ".join(self._categories.get(number)).encode(*_UTF8)
                for number in range(start, stop)
            ]
        values = self._texts[name].encoded(start, stop)
        if name == "authors":
            values = [value.replace(_SEPARATOR_UTF8, b" ") for value in values]
            flagged = np.flatnonzero(self._column("flags", stop)[start:] & AUTHORS_AS_JSON)
            for number in (flagged + start).tolist():
                values[number - start] = " ".join(self._paper(number).authors).encode(*_UTF8)
        return values

    def author_lists(self, start: int = 0, stop: int | None = None) -> list[tuple[str, ...]]:
        """Each paper's authors, papers `start` to `stop`, as Paper holds them, without
        building the papers (`texts` joins them by spaces)."""
        stop = self._count if stop is None else min(stop, self._count)
        if start >= stop:
            return []
        values = self._texts["authors"].encoded(start, stop)
        lists = [tuple(_decoded(v).split(SEPARATOR)) if v else () for v in values]
        flagged = np.flatnonzero(self._column("flags", stop)[start:] & AUTHORS_AS_JSON)
        for number in (flagged + start).tolist():
            lists[number - start] = self._paper(number).authors
        return lists

    def arrays(self) -> tuple[dict[str, Iterator[Chunk] | Array], dict[str, list[str]]]:
        """The store as named arrays (a text's bytes as chunks, to be written one after the
        other), and the names the codes stand for; `from_arrays` opens them again."""
        count = self._count
        named: dict[str, Iterator[Chunk] | Array] = {}
        for name, strings in self._texts.items():
            named[name], named[f"{name}_offsets"] = strings.arrays(count)
        for name, (_, dtype) in NUMBERS.items():
            named[name] = np.array(self._numbers[name][:count], dtype=dtype)
        named["category_codes"], named["category_starts"] = self._categories.arrays(count)
        named["sorted_keys"], named["sorted_numbers"] = self._merged(count)
        named["headline_ranks"] = self.headline_ranks()[:count].astype(np.int64)
        names = {
            "collections": list(self._collection_names),
            "sources": list(self._source_names),
            "categories": list(self._categories.names),
        }
        return named, names

    def view(self, numbers: Numbers) -> "PaperView":
        """The papers these numbers name, in their order."""
        return PaperView(self, numbers)

    @property
    def title(self) -> str:
        """How the header names what is open: the collection, or how many there are."""
        if len(self.collections) == 1:
            return self.collections[0]
        return f"{len(self.collections)} collections" if self.collections else "No papers"


_UTF8 = ("utf-8", "surrogatepass")  # as the columns are written


def _decoded(raw: bytes | memoryview) -> str:
    """A text of a column; bytes damaged in a kept file are shown as U+FFFD, not raised."""
    try:
        return str(raw, *_UTF8)
    except UnicodeDecodeError:
        return str(raw, "utf-8", "replace")


def _code(names: list[str], codes: dict[str, int], name: str) -> int:
    """The place of a name in a list of names, added when new."""
    code = codes.get(name)
    if code is None:
        code = codes[name] = len(names)
        names.append(name)
    return code


def _view(column: Array) -> memoryview:
    """A mapped array as a memoryview: its items are Python ints, read at once."""
    return np.ascontiguousarray(column).data


def _growable(column: Column, code: str) -> "array[int]":
    """The column as an array that can grow (a mapped one is copied into memory once)."""
    return column if isinstance(column, array) else array(code, column.tobytes())


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


def _places(names: list[str]) -> dict[str, int]:
    return {name: code for code, name in enumerate(names)}


def _joined(values: tuple[str, ...]) -> str | None:
    """The values in one string, or None when they cannot be split again."""
    joined = SEPARATOR.join(values)
    if not all(values) or joined.count(SEPARATOR) != max(len(values) - 1, 0):
        return None
    return joined


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split(SEPARATOR)) if text else ()


def _tuples(value: object) -> object:
    """JSON lists back as the tuples a Paper holds."""
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def _ranks(headlines: list[str]) -> Array:
    keys = [headline.casefold() for headline in headlines]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ranks = np.empty(len(keys), dtype=np.int64)
    rank, previous = -1, None
    for number in order:
        if keys[number] != previous:
            rank, previous = rank + 1, keys[number]
        ranks[number] = rank
    return ranks


class PaperView(Sequence[Paper]):
    """Papers of a store in the order of their numbers (a search's results), not copied."""

    def __init__(self, store: PaperStore, numbers: Numbers) -> None:
        self._store, self.numbers = store, numbers

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> Paper: ...

    @overload
    def __getitem__(self, index: slice) -> list[Paper]: ...

    def __getitem__(self, index: int | slice) -> Paper | list[Paper]:
        if isinstance(index, slice):
            return [self._store[int(number)] for number in self.numbers[index]]
        return self._store[int(self.numbers[index])]

    def id_of(self, index: int) -> str:
        """The id of the paper at `index` in this view, without building the paper."""
        return self._store.id_of(int(self.numbers[index]))

    def headline_of(self, index: int) -> str:
        """The headline of the paper at `index` in this view, without building the paper."""
        return self._store.headline_of(int(self.numbers[index]))

    def position_of(self, paper_id: str) -> int | None:
        """Where the paper is in this view, or None; without walking the papers."""
        number = self._store.position_of(paper_id)
        if number is None:
            return None
        found = np.flatnonzero(self.numbers == number)
        return int(found[0]) if len(found) else None


def id_at(papers: Sequence[Paper], number: int) -> str:
    """The id of the paper at `number`; from a store's columns without building the paper
    (which reads its abstract)."""
    if isinstance(papers, PaperStore | PaperView):
        return papers.id_of(number)
    return papers[number].id


def headline_at(papers: Sequence[Paper], number: int) -> str:
    """The headline of the paper at `number`, as `id_at` reads it."""
    if isinstance(papers, PaperStore | PaperView):
        return papers.headline_of(number)
    return papers[number].headline
