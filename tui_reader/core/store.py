"""The papers of this session, in load order and by id, held as columns.

A paper's number is its place in the store (0 for the first loaded): searches, sorts and
related papers speak in numbers, and a `PaperView` shows the papers they name.

Papers are not held as objects: each text field is a column of UTF-8 strings, the numbers
are arrays, the collection and source file are codes into short lists, the categories are
codes into the list of those seen, and the rarely set fields are a small JSON object per
paper (core.columns, core.paper_columns). Searching reads the columns, never the papers
(core.filtering, core.sorting, core.flat). `store[n]` builds the `Paper` when it is asked
for. A store grows a batch of `PaperColumns` at a time while papers load, or opens whole
from memory-mapped arrays (`from_arrays`, the index cache). Ids are found by a 64-bit hash
of the id, sorted, so a million ids cost no dict of a million strings.
"""

from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeAlias, overload

import numpy as np
import numpy.typing as npt

from tui_reader.core.columns import (
    UTF8,
    Chunk,
    Column,
    NameColumn,
    StringColumn,
    code_of,
    codes_of,
    decoded,
    growable,
    view,
)
from tui_reader.core.frames import FrameReader
from tui_reader.core.paper import Paper
from tui_reader.core.paper_columns import (
    AUTHORS_AS_JSON,
    HEADLINE_IS_TITLE,
    NO_YEAR,
    NUMBERS,
    SEPARATOR,
    TEXTS,
    PaperColumns,
    authors_of,
    columns_of,
    extra_fields,
    id_key,
)

Numbers: TypeAlias = npt.NDArray[np.int64]  # paper numbers: places in the store
Bools: TypeAlias = npt.NDArray[np.bool_]
Array: TypeAlias = npt.NDArray[Any]
_SEPARATOR_UTF8 = SEPARATOR.encode()
BUILT_PAPERS = 4096  # papers held built, for the rows on screen
_MERGE_AT = 50_000  # ids looked up through a dict until this many, then merged into arrays
_RANKED_AT_ONCE = 100_000  # headlines read at once to be ranked


class PaperStore(Sequence[Paper]):
    """An ordered, read-only collection of papers, also indexed by paper id."""

    def __init__(self, papers: Iterable[Paper] = (), collections: Sequence[str] = ()) -> None:
        self.collections = list(collections)
        self._texts = {name: StringColumn() for name in TEXTS}
        self._categories = NameColumn()
        self._numbers: dict[str, Column] = {
            name: array(code) for name, (code, _) in NUMBERS.items()
        }
        self._collection_names: list[str] = []
        self._source_names: list[str] = []
        self._codes: tuple[dict[str, int], dict[str, int]] = ({}, {})  # name: its code
        self._source_paths: list[Path] = []
        # Sorted keys with their paper numbers, and a dict of the keys added since.
        empty = np.zeros(0, dtype=np.int64)
        self._lookup: tuple[Array, Array, dict[int, int]] = (empty, empty, {})
        self._count = 0
        self._headline_ranks: Array | None = None
        self._built: dict[int, Paper] = {}
        self._revised: dict[int, Paper] = {}  # papers shown otherwise than loaded (revise)
        # Of each source, the papers not added for a paper of another source that holds their
        # id; None when not known (a store over arrays).
        self.met_elsewhere: dict[str, int] | None = {}
        self.extend(columns_of(list(papers)))

    @classmethod
    def from_arrays(
        cls,
        arrays: Mapping[str, Array],
        collections: Sequence[str],
        names: Mapping[str, list[str]],
        texts: Mapping[str, Sequence[Array]] | None = None,
        readers: Mapping[str, Sequence[FrameReader]] | None = None,
    ) -> "PaperStore":
        """A store over arrays `arrays()` gave (memory-mapped, usually); `names` holds the
        collection and source names the codes stand for. With `texts`, each text's bytes are
        these arrays one after the other (kept in parts), which its offsets index. A text
        kept as frames (core.frames) is read by `readers`, one an array of its bytes."""
        store = cls((), collections)
        store._count = len(arrays["keys"])
        framed = {} if readers is None else readers
        for name in TEXTS:
            chunks = [arrays[name]] if texts is None else texts[name]
            offsets = arrays[f"{name}_offsets"]
            store._texts[name] = StringColumn(chunks, offsets, framed.get(name))
        store._numbers = {name: view(arrays[name]) for name in NUMBERS}
        store._categories = NameColumn(
            arrays["category_codes"], arrays["category_starts"], names["categories"]
        )
        store._collection_names, store._source_names = names["collections"], names["sources"]
        store._codes = (codes_of(store._collection_names), codes_of(store._source_names))
        plain = {name: np.asarray(arrays[name]) for name in ("sorted_keys", "sorted_numbers")}
        store._lookup = (plain["sorted_keys"], plain["sorted_numbers"], {})
        store._headline_ranks = np.asarray(arrays["headline_ranks"])
        store.met_elsewhere = None
        return store

    def adopt(self, other: "PaperStore") -> None:
        """Read the papers from `other`'s columns from now on: the same papers in the same
        order, cached on disk and mapped back, so that the memory this store's own columns
        take is given back. Papers revised stay revised. ValueError when `other` holds others."""
        count = len(self)
        mine, theirs = self._numbers["keys"], other._numbers["keys"]
        if len(other) != count or not np.array_equal(mine[:count], theirs[:count]):
            raise ValueError("not the same papers")
        self._texts, self._numbers = other._texts, other._numbers
        self._categories = other._categories
        self._collection_names, self._source_names = other._collection_names, other._source_names
        self._codes, self._source_paths = other._codes, other._source_paths
        self._lookup, self._headline_ranks = other._lookup, other._headline_ranks
        self._built = {}

    def close(self) -> None:
        """Close the temporary files of its columns: the texts written there cannot be read
        after. A store that adopts another's columns drops its own, whose files are closed
        once no thread reads them."""
        for column in self._texts.values():
            column.close()

    @contextmanager
    def closed_if_failing(self) -> Iterator[None]:
        """Close the store when what is done within raises (a load that failed)."""
        try:
            yield
        except BaseException:
            self.close()
            raise

    def revise(self, papers: Iterable[Paper]) -> None:
        """Give the papers of these ids (those here) as these from now on: a paper that
        resolve found, with its title and links. Searching still reads them as loaded."""
        for paper in papers:
            if (number := self.position_of(paper.id)) is not None:
                self._revised[number] = paper
                self._built.pop(number, None)

    def extend(self, columns: PaperColumns) -> int:
        """Add papers not already here (by id), in order; how many were new."""
        new = self._new_indices(columns.ids, columns.keys, columns.sources)
        if len(new) < len(columns):
            columns = columns.taking(new)
        for collection in dict.fromkeys(columns.collections):
            if collection not in self.collections:
                self.collections.append(collection)
        if new:
            self._append(columns)
        return len(new)

    def _new_indices(self, ids: list[str], keys: "array[int]", sources: list[str]) -> list[int]:
        """The indices of the ids not here, nor met before them in `ids` (of these sources)."""
        sorted_keys, _, unmerged = self._lookup
        found = np.frombuffer(keys, dtype=np.int64)
        # One search for the batch; only the keys found there are looked at one by one.
        in_sorted = [False] * len(ids)
        if len(sorted_keys) and ids:
            at = np.minimum(np.searchsorted(sorted_keys, found), len(sorted_keys) - 1)
            in_sorted = (sorted_keys[at] == found).tolist()
        # Mostly every paper is new: keys met nowhere, each once (a microsecond a paper).
        if (
            not any(in_sorted)
            and len(np.unique(found)) == len(ids)
            and unmerged.keys().isdisjoint(keys)
        ):
            return list(range(len(ids)))
        new: list[int] = []
        batch: set[str] = set()
        for index, (paper_id, key, maybe) in enumerate(zip(ids, keys, in_sorted, strict=True)):
            if paper_id in batch:
                continue
            if (number := self._find(paper_id, key, maybe)) is not None:
                self._met(number, sources[index])
                continue
            batch.add(paper_id)
            new.append(index)
        return new

    def _met(self, number: int, source: str) -> None:
        """Count a paper of `source` not added for paper `number`, when of another source."""
        met = self.met_elsewhere
        if met is not None and self._source_names[self._numbers["sources"][number]] != source:
            met[source] = met.get(source, 0) + 1

    def _append(self, columns: PaperColumns) -> None:
        collections = _coded(self._collection_names, self._codes[0], columns.collections)
        sources = _coded(self._source_names, self._codes[1], columns.sources)
        for name in TEXTS:
            self._texts[name].append(*columns.texts[name])
        self._categories.append(columns.categories)
        added = columns.numbers | {
            "collections": collections,
            "sources": sources,
            "keys": columns.keys,
        }
        for name, (code, _) in NUMBERS.items():
            grown = self._numbers[name] = growable(self._numbers[name], code)
            grown.extend(added[name])
        sorted_keys, _, unmerged = self._lookup
        keys = columns.keys
        for offset, key in enumerate(keys):
            if key in unmerged:  # two ids of one key (rare): only the arrays can hold both
                unmerged = {}
                self._lookup = (*self._merged(self._count + len(keys)), unmerged)
                break
            unmerged[key] = self._count + offset
        self._count += len(keys)  # last: what a reader sees is complete
        if len(unmerged) > max(_MERGE_AT, len(sorted_keys) // 4):
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
        paper = self._built.get(number)
        if paper is None:
            if len(self._built) >= BUILT_PAPERS:
                self._built = {}
            paper = self._built[number] = self._paper(number)
        return paper

    def _paper(self, number: int) -> Paper:
        if (revised := self._revised.get(number)) is not None:
            return revised
        text = self._texts
        title = text["title"].get(number)
        numbers = self._numbers
        fields: dict[str, Any] = {
            "authors": authors_of(text["authors"].get(number)),
            "categories": self._categories.get(number),
        } | extra_fields(text["extra"].get(number))
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
            year=self.year_of(number),
            published=text["published"].get(number),
            **fields,
        )

    def year_of(self, number: int) -> int | None:
        """The year of paper `number`, without building the paper."""
        year = int(self._numbers["years"][number])
        return None if year == NO_YEAR else year

    def source_files(self) -> list[Path]:
        """The files the papers were read from."""
        return [self._source_path(code) for code in range(len(self._source_names))]

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

    def positions_of(self, paper_ids: Sequence[str]) -> Numbers:
        """Each paper's place in load order, -1 where it is not in the store: many at once
        (one at a time, a hundred thousand took 1.7 s)."""
        sorted_keys, numbers, unmerged = self._lookup
        keys = np.fromiter(map(id_key, paper_ids), dtype=np.int64, count=len(paper_ids))
        found = np.full(len(keys), -1, dtype=np.int64)
        if len(sorted_keys):
            at = np.searchsorted(sorted_keys, keys).clip(max=len(sorted_keys) - 1)
            hit = sorted_keys[at] == keys
            found[hit] = numbers[at[hit]]
        ids = self._texts["id"]
        for index, (paper_id, key, number) in enumerate(
            zip(paper_ids, keys.tolist(), found.tolist(), strict=True)
        ):
            number = unmerged.get(key, number)
            if number < 0 or ids.get(number) != paper_id:  # not there, or a key two ids share
                number = self._find(paper_id, key)
                found[index] = -1 if number is None else number
            else:
                found[index] = number
        return found

    def in_order(self, paper_ids: Iterable[str]) -> list[str]:
        """Those of these papers that are in the store, in load order."""
        listed = list(paper_ids)
        places = self.positions_of(listed)
        order = np.argsort(places, kind="stable")
        return [listed[i] for i in order[places[order] >= 0].tolist()]

    def _find(self, paper_id: str, key: int, maybe_sorted: bool = True) -> int | None:
        sorted_keys, numbers, unmerged = self._lookup
        ids = self._texts["id"]
        found = unmerged.get(key)
        if found is not None and ids.get(found) == paper_id:
            return found
        if not maybe_sorted:
            return None
        start = int(np.searchsorted(sorted_keys, key, "left"))
        for at in range(start, len(sorted_keys)):
            if sorted_keys[at] != key:
                break
            if ids.get(number := int(numbers[at])) == paper_id:
                return number
        return None

    def number_column(self, name: str, count: int) -> Array:
        """A column of numbers ("years", "dates"...) of the first `count` papers, read in
        place (copied while it may grow)."""
        return np.frombuffer(self._numbers[name][:count], dtype=NUMBERS[name][1])

    def having_category(
        self, passing: Callable[[str], bool], numbers: Numbers, count: int
    ) -> Bools:
        """Which of these papers (of the first `count`) have a category that passes, each
        distinct category tried once."""
        return self._categories.any(passing, numbers, count)

    def has_categories(self, count: int) -> bool:
        """Whether any of the first `count` papers has a category."""
        return int(self._categories.starts[count]) > 0

    def id_of(self, number: int) -> str:
        """The id of paper `number`, without building the paper."""
        return self._texts["id"].get(number)

    def published_of(self, number: int) -> str:
        """When paper `number` was published, as loaded, without building the paper."""
        return self._texts["published"].get(number)

    def headline_of(self, number: int) -> str:
        """The headline of paper `number`, without building the paper: a list's rows need
        no more, and building each paper read its abstract's pages of a cached store."""
        if (revised := self._revised.get(number)) is not None:
            return revised.headline
        flags = self._numbers["flags"][number]
        return self._texts["title" if flags & HEADLINE_IS_TITLE else "headline"].get(number)

    def headline_ranks(self) -> Array:
        """Each paper's place among the headlines in case-blind alphabetical order (equal
        headlines share one), to sort by headline without reading them."""
        ranks = self._headline_ranks
        if ranks is None or len(ranks) != self._count:
            count, keys = self._count, []
            for start in range(0, count, _RANKED_AT_ONCE):  # not every headline twice at once
                stop = min(start + _RANKED_AT_ONCE, count)
                keys += [headline.casefold() for headline in self.texts("headline", start, stop)]
            ranks = self._headline_ranks = _ranks(keys)
        return ranks

    def texts(self, name: str, start: int = 0, stop: int | None = None) -> list[str]:
        """A field of papers `start` to `stop`, decoded at once without building the papers
        (ten times faster): id, abstract, headline, title, venue, published or collection;
        authors and categories as Paper holds them, joined by spaces."""
        values = self.utf8(name, start, stop)
        try:
            return [value.decode(*UTF8) for value in values]
        except UnicodeDecodeError:  # bytes damaged in a cached file
            return [decoded(value) for value in values]

    def utf8(self, name: str, start: int = 0, stop: int | None = None) -> list[bytes]:
        """What `texts` gives, as the UTF-8 the columns hold (the index reads it so: it was
        decoded to be encoded again, a tenth of the reader's own work cold)."""
        stop = self._count if stop is None else min(stop, self._count)
        if start >= stop:
            return []
        if name == "collection":
            codes = self._numbers["collections"][start:stop].tolist()
            names = [collection.encode(*UTF8) for collection in self._collection_names]
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
                " ".join(self._categories.get(number)).encode(*UTF8)
                for number in range(start, stop)
            ]
        values = self._texts[name].encoded(start, stop)
        if name == "authors":
            values = [value.replace(_SEPARATOR_UTF8, b" ") for value in values]
            for number in self._authors_as_json(start, stop):
                values[number - start] = " ".join(self._paper(number).authors).encode(*UTF8)
        return values

    def author_lists(self, start: int = 0, stop: int | None = None) -> list[tuple[str, ...]]:
        """Each paper's authors, papers `start` to `stop`, as Paper holds them, without
        building the papers (`texts` joins them by spaces)."""
        stop = self._count if stop is None else min(stop, self._count)
        if start >= stop:
            return []
        values = self._texts["authors"].encoded(start, stop)
        lists = [authors_of(decoded(value)) for value in values]
        for number in self._authors_as_json(start, stop):
            lists[number - start] = self._paper(number).authors
        return lists

    def _authors_as_json(self, start: int, stop: int) -> list[int]:
        """The papers `start` to `stop` whose authors the column cannot hold."""
        flagged = np.flatnonzero(self.number_column("flags", stop)[start:] & AUTHORS_AS_JSON)
        numbers: list[int] = (flagged + start).tolist()
        return numbers

    def arrays(self) -> tuple[dict[str, Iterator[Chunk] | Array], dict[str, list[str]]]:
        """The store as named arrays (a text's bytes as chunks, to be written one after the
        other), and the names the codes stand for; `from_arrays` opens them again."""
        count = self._count
        named: dict[str, Iterator[Chunk] | Array] = {}
        for name in self._texts:
            named[name], named[f"{name}_offsets"] = self.text_arrays(name)
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

    def text_arrays(self, name: str) -> tuple[Iterator[Chunk], Array]:
        """A text column as `arrays` gives it: its bytes as chunks, and its offsets."""
        return self._texts[name].arrays(self._count)

    def view(self, numbers: Numbers | None = None) -> "PaperView":
        """The papers these numbers name, in their order; without numbers, every paper in
        load order, as many as there are when it is read."""
        return PaperView(self, numbers)

    @property
    def title(self) -> str:
        """How the header names what is open: the collection, or how many there are."""
        if len(self.collections) == 1:
            return self.collections[0]
        return f"{len(self.collections)} collections" if self.collections else "No papers"


def papers_of(columns: PaperColumns) -> list[Paper]:
    """The papers of a batch, built, each one given (a store's `extend` drops an id met
    again), for a caller that needs them one by one."""
    store = PaperStore()
    store._append(columns)
    return list(store)


def _coded(names: list[str], codes: dict[str, int], named: Sequence[str]) -> "array[int]":
    """The codes of these names (a batch's collection or source each paper: mostly one),
    each new one added."""
    each = {name: code_of(names, codes, name) for name in dict.fromkeys(named)}
    return array("i", map(each.__getitem__, named))


def _ranks(keys: list[str]) -> Array:
    """Each key's place among them, in order (equal keys share one)."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ranks = np.empty(len(keys), dtype=np.int64)
    rank, previous = -1, None
    for number in order:
        if keys[number] != previous:
            rank, previous = rank + 1, keys[number]
        ranks[number] = rank
    return ranks


class PaperView(Sequence[Paper]):
    """Papers of a store in the order of their numbers (a search's results), not copied;
    without numbers, every paper of the store in load order."""

    def __init__(self, store: PaperStore, numbers: Numbers | None = None) -> None:
        self._store, self._numbers = store, numbers

    def __len__(self) -> int:
        return len(self._store) if self._numbers is None else len(self._numbers)

    @overload
    def __getitem__(self, index: int) -> Paper: ...

    @overload
    def __getitem__(self, index: slice) -> list[Paper]: ...

    def __getitem__(self, index: int | slice) -> Paper | list[Paper]:
        if isinstance(index, slice):
            return [self._store[number] for number in self._numbers_at(index)]
        return self._store[self.number_at(index)]

    @property
    def store(self) -> PaperStore:
        return self._store

    def numbers(self, stop: int | None = None) -> Numbers:
        """The numbers in the store of the papers in this view (the first `stop`), in its
        order: a copy."""
        count = len(self) if stop is None else min(stop, len(self))
        if self._numbers is None:
            return np.arange(count, dtype=np.int64)
        return np.array(self._numbers[:count], dtype=np.int64)

    def first(self, count: int) -> "PaperView":
        """The first `count` papers of this view."""
        return PaperView(self._store, self.numbers(count))

    def number_at(self, index: int) -> int:
        """The number in the store of the paper at `index` in this view."""
        return index if self._numbers is None else int(self._numbers[index])

    def _numbers_at(self, index: slice) -> list[int]:
        if self._numbers is None:
            return list(range(*index.indices(len(self._store))))
        numbers: list[int] = self._numbers[index].tolist()
        return numbers

    def id_of(self, index: int) -> str:
        """The id of the paper at `index` in this view, without building the paper."""
        return self._store.id_of(self.number_at(index))

    def headline_of(self, index: int) -> str:
        """The headline of the paper at `index` in this view, without building the paper."""
        return self._store.headline_of(self.number_at(index))

    def position_of(self, paper_id: str) -> int | None:
        """Where the paper is in this view, or None; without walking the papers."""
        number = self._store.position_of(paper_id)
        if number is None or self._numbers is None:
            return number
        found = np.flatnonzero(self._numbers == number)
        return int(found[0]) if len(found) else None

    def among(self, paper_ids: Iterable[str]) -> set[str]:
        """Those of these papers that are in this view, found all at once."""
        ids = list(paper_ids)
        numbers = self._store.positions_of(ids)
        here = numbers >= 0 if self._numbers is None else np.isin(numbers, self._numbers)
        return {paper_id for paper_id, found in zip(ids, here.tolist(), strict=True) if found}
