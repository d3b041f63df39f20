from pathlib import Path

import numpy as np
import pytest

from tui_reader.core import paper_columns
from tui_reader.core import store as store_module
from tui_reader.core.filtering import passing
from tui_reader.core.metadata_filter import date_of, in_category
from tui_reader.core.paper import Paper
from tui_reader.core.paper_columns import columns_of
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.query import Query
from tui_reader.core.sorting import sort_order
from tui_reader.core.store import PaperStore, papers_of

HOSTILE = "[/b] [CLS] \x1b]52;c;aGk=\x07 $x$ \u202e"


def paper(number: int, **fields: object) -> Paper:
    values: dict[str, object] = {
        "id": f"{number:012x}",
        "abstract": f"Abstract {number}.",
        "collection": "c",
        "source": Path("/papers/a.jsonl"),
        "headline": f"Headline {number}",
    }
    return Paper(**(values | fields))  # type: ignore[arg-type]


FULL = paper(
    7,
    abstract=f"All fields {HOSTILE} see https://x.org/a",
    collection="ICML",
    source=Path("/elsewhere/b.json"),
    headline="Sparse models",
    links=("https://x.org/a",),
    title="Sparse models",
    authors=("Ada Lovelace", "Émile Noether"),
    url="https://x.org/7",
    venue="ICML 2026",
    year=2026,
    published="2026-01-02",
    updated="2026-02-03",
    arxiv_id="2601.00007",
    arxiv_version=3,
    doi="10.1/x",
    categories=("cs.LG", "stat.ML"),
    openreview_forum="abc",
    decision="Accept",
    keywords=("sparsity",),
    kind_links=(("pdf", "https://x.org/7.pdf"), ("code", "https://git.x/7")),
)
ODD = [
    FULL,
    paper(1),  # every optional field at its default
    paper(2, title="A title", headline="Not the title", year=0),
    paper(3, authors=("Has \x1f a separator", ""), categories=("",)),
    paper(4, title="", headline=""),
    paper(5, url="https://x.org/\udc80", abstract="A lone surrogate: \ud800."),
]


def fits(query: Query, paper: Paper) -> bool:
    """Whether the paper passes the query's metadata filters, read from the paper itself:
    what the columns must agree with."""
    for test in query.metadata:
        if test.scope == "cat":
            found = in_category(paper.categories, test.value)
        elif test.scope == "year":
            first, last = test.years
            found = paper.year is not None and first <= paper.year <= last
        else:
            found = test.fits_date(date_of(paper.published, paper.year))
        if found == test.negated:
            return False
    return True


def reopened(kept: PaperStore) -> PaperStore:
    """The store opened again from its arrays, as the cache opens them."""
    named, names = kept.arrays()
    arrays = {
        name: value
        if isinstance(value, np.ndarray)
        else np.frombuffer(b"".join(bytes(chunk) for chunk in value), dtype=np.uint8)
        for name, value in named.items()
    }
    return PaperStore.from_arrays(arrays, kept.collections, names)


def test_a_paper_comes_back_with_every_field_as_it_went_in() -> None:
    kept = PaperStore(ODD, ["ICML", "c"])
    assert [kept[n] for n in range(len(ODD))] == ODD
    assert list(kept) == ODD and kept[-1] == ODD[-1] and kept[1:3] == ODD[1:3]
    assert kept.title == "2 collections" and kept.get(FULL.id) == FULL
    with pytest.raises(IndexError):
        kept[len(ODD)]


def test_papers_are_added_once_by_id_in_order() -> None:
    kept = PaperStore()
    assert kept.extend(columns_of([paper(1), paper(2), paper(1)])) == 2
    assert kept.extend(columns_of([paper(2), paper(3, abstract="other")])) == 1
    assert [p.id for p in kept] == [paper(n).id for n in (1, 2, 3)]
    assert kept.position_of(paper(3).id) == 2 and paper(3).id in kept
    assert kept.position_of("nothing") is None and kept.get("nothing") is None
    assert 3 not in kept


@pytest.mark.parametrize("same_key", [False, True])
def test_ids_are_found_across_merges_and_shared_keys(
    monkeypatch: pytest.MonkeyPatch, same_key: bool
) -> None:
    monkeypatch.setattr(store_module, "_MERGE_AT", 3)
    if same_key:  # every id one key: found by comparing the ids themselves
        monkeypatch.setattr(store_module, "id_key", lambda _: 42)
        monkeypatch.setattr(paper_columns, "id_key", lambda _: 42)
    kept = PaperStore()
    for first in range(0, 40, 7):
        kept.extend(columns_of([paper(n) for n in range(first, first + 7)]))
    assert kept.extend(columns_of([paper(5), paper(39)])) == 0
    assert [kept.position_of(paper(n).id) for n in range(42)] == list(range(42))
    assert kept.position_of(paper(99).id) is None and len(kept) == 42
    assert kept.extend(columns_of([paper(42), paper(43)])) == 2
    assert same_key or kept._lookup[2], "42 and 43 not merged into the sorted keys yet"
    asked = [paper(n).id for n in (43, 99, 3, 40, 0, 42)]
    assert kept.positions_of(asked).tolist() == [43, -1, 3, 40, 0, 42]
    assert kept.in_order(asked) == [paper(n).id for n in (0, 3, 40, 42, 43)]
    assert kept.positions_of([]).tolist() == [] and PaperStore().in_order(asked) == []


def test_a_store_opens_again_from_its_arrays() -> None:
    opened = reopened(PaperStore(ODD, ["ICML", "c"]))
    assert list(opened) == ODD and opened.get(ODD[3].id) == ODD[3]
    assert opened.extend(columns_of([paper(9), ODD[0]])) == 1  # grows in memory from there
    assert list(opened) == [*ODD, paper(9)] and opened.position_of(paper(9).id) == len(ODD)


def test_sorting_by_headline_reads_the_column_as_papers_would_sort() -> None:
    headlines = ["beta", "Alpha", "alpha", "Gamma", "beta", "ALPHA zero"]
    papers = [paper(n, headline=h) for n, h in enumerate(headlines)]
    kept = PaperStore(papers)
    numbers = np.array([4, 3, 2, 1, 0, 5], dtype=np.int64)
    by_column = sort_order(numbers, 4, "headline", kept, NO_STATE)
    assert by_column.tolist() == [2, 3, 0, 1, 5, 4]
    kept.extend(columns_of([paper(6, headline="aardvark")]))  # the ranks follow the papers added
    assert sort_order(np.array([0, 6]), 2, "headline", kept, NO_STATE).tolist() == [1, 0]


def test_a_view_shows_papers_by_number() -> None:
    kept = PaperStore([paper(n) for n in range(4)])
    view = kept.view(np.array([3, 0], dtype=np.int64))
    assert len(view) == 2 and view[0] == kept[3] and view[1:] == [kept[0]]
    assert view.position_of(kept[0].id) == 1 and view.position_of(kept[2].id) is None
    ids = [kept[n].id for n in range(4)]
    assert view.among([*ids, "not-a-paper"]) == {ids[0], ids[3]}
    assert kept.view().among([ids[1], "not-a-paper"]) == {ids[1]}


@pytest.mark.parametrize("opened", [False, True])
def test_a_field_of_many_papers_is_read_without_building_them(opened: bool) -> None:
    kept = PaperStore()
    for first in range(0, len(ODD), 2):  # several chunks
        kept.extend(columns_of(ODD[first : first + 2]))
    if opened:
        kept = reopened(kept)
    for name in ("id", "abstract", "headline", "title", "venue", "published", "collection"):
        assert kept.texts(name) == [getattr(p, name) for p in ODD]
        assert kept.texts(name, 1, 4) == [getattr(p, name) for p in ODD[1:4]]
    for name in ("authors", "categories"):
        assert kept.texts(name, 2) == [" ".join(getattr(p, name)) for p in ODD[2:]]
    assert kept.texts("title", 3, 3) == [] and kept.texts("id", 4, 99) == [p.id for p in ODD[4:]]


def test_a_field_is_read_while_papers_are_added() -> None:
    """The index reads the store as papers load: a batch added between its looks at a
    column's chunks and their starts (one longer than the other) stopped the indexing."""
    kept = PaperStore([paper(0), paper(1)])
    abstracts = kept._texts["abstract"]

    class AddedMeanwhile(list[int]):
        def __getitem__(self, index: object) -> object:
            if isinstance(index, slice):  # as if the UI thread appended a batch just now
                abstracts.chunks.append(b"Abstract 2.")
            return super().__getitem__(index)  # type: ignore[index]

    abstracts.starts = AddedMeanwhile(abstracts.starts)
    assert kept.texts("abstract") == ["Abstract 0.", "Abstract 1."]


@pytest.mark.parametrize("opened", [False, True])
def test_filters_read_the_columns_as_they_read_papers(opened: bool) -> None:
    from tui_reader.core.query import parse_query

    class Tagged:
        def __getattr__(self, name: str) -> object:
            return getattr(NO_STATE, name)

        def tags(self, paper_id: str) -> tuple[str, ...]:
            return ("mine",) if paper_id in self.paper_ids() else ()

        def paper_ids(self) -> tuple[str, ...]:
            return (ODD[0].id, ODD[3].id)

    papers = [
        *ODD,
        paper(10, year=2025, published="2025-06-03", categories=("cs.LG",)),
        paper(11, year=2024, categories=("math.ST", "cs.LG")),
        paper(12, categories=("with space", "a\x1fb")),
        paper(13, categories=("with space",)),
        paper(14, published="2025-06-03T10:00:00Z", categories=("CS.lg", "")),
        paper(15, published="June 2025", year=2025),  # read as text
        paper(16, published="2025-00", categories=("ẞ.x",)),
        paper(17, year=0, published="0000-01"),
        paper(18, year=2025),
    ]
    kept = PaperStore()
    for first in range(0, len(papers), 4):  # grown a batch at a time, as papers load
        kept.extend(columns_of(papers[first : first + 4]))
    if opened:
        kept = reopened(kept)
    numbers = np.array([8, 0, 3, 6, 9, 7, 1, 5, 10, 11, 12, 13, 14, 2, 4])
    for text in (
        "cat:cs",
        "cat:cs.LG",
        "!cat:stat.ML",
        "cat:space",
        "cat:b",
        "year:2026",
        "year:2024..2025",
        "!year:2025..",
        "year:..2024",
        "after:2025-06",
        "before:2025",
        "after:2025",
        "after:2025-06-03",
        "!before:2025-06-04",
        "after:2025-00",
        "before:2025-06",
        "cat:ß",
        "#mine",
        "!#mine year:2024",
    ):
        query = parse_query(text)
        expected = [fits(query, p) and query.allows(Tagged(), p.id) for p in kept.view(numbers)]
        for chosen in (numbers, numbers[:2]):  # most papers, then a few
            found = passing(query, Tagged(), chosen, kept).tolist()  # type: ignore[arg-type]
            assert found == expected[: len(chosen)], text


def test_sorting_by_change_reads_ids_from_the_columns() -> None:
    class Changed:
        def __getattr__(self, name: str) -> object:
            return getattr(NO_STATE, name)

        stamps = {paper(4).id: "2026-03", paper(1).id: "2026-03", paper(2).id: "2026-01"}

        def changed_at(self, paper_id: str) -> str:
            return self.stamps.get(paper_id, "")

        def paper_ids(self) -> list[str]:
            return [*self.stamps, "not in the store"]

    papers = [paper(n) for n in range(20)]
    numbers = np.array([5, 4, 3, 2, 1, 0], dtype=np.int64)
    expected = [4, 1, 3, 5, 2, 0]  # latest first, equal times by number, never changed last
    for kept in (PaperStore(papers[:6]), PaperStore(papers)):
        assert sort_order(numbers, 6, "changed", kept, Changed()).tolist() == expected  # type: ignore[arg-type]
    kept = PaperStore(papers)
    assert sort_order(numbers, 4, "changed", kept, Changed()).tolist() == [1, 3, 2, 0, 4, 5]  # type: ignore[arg-type]


def test_sorting_a_store_by_change_asks_only_of_the_papers_the_user_touched() -> None:
    """A million papers were asked one at a time: 4 s a sort."""

    class Touched:
        def __getattr__(self, name: str) -> object:
            return getattr(NO_STATE, name)

        def changed_at(self, paper_id: str) -> str:
            assert paper_id == paper(7).id, "asked of a paper nobody touched"
            return "2026-01"

        def paper_ids(self) -> list[str]:
            return [paper(7).id]

    store = PaperStore([paper(n) for n in range(10)])
    numbers = np.arange(10, dtype=np.int64)
    assert sort_order(numbers, 10, "changed", store, Touched()).tolist()[:2] == [7, 0]  # type: ignore[arg-type]


def test_sorting_by_change_leaves_out_the_papers_being_added() -> None:
    """A search thread sorts while the screen's thread adds papers, whose ids are found before
    they are counted: sorting raised IndexError (in 16 of 250 sorts)."""

    class Adding(PaperStore):
        counted: int | None = None  # papers added but not counted yet

        def __len__(self) -> int:
            return super().__len__() if self.counted is None else self.counted

    class Touched:
        def __getattr__(self, name: str) -> object:
            return getattr(NO_STATE, name)

        def changed_at(self, paper_id: str) -> str:
            return "2026-01"

        def paper_ids(self) -> list[str]:
            return [paper(7).id, paper(3).id]

    store = Adding([paper(n) for n in range(10)])
    store.counted = 5
    numbers = np.arange(5, dtype=np.int64)
    assert sort_order(numbers, 5, "changed", store, Touched()).tolist() == [3, 0, 1, 2, 4]  # type: ignore[arg-type]


def test_ids_and_headlines_are_read_without_building_the_papers() -> None:
    papers = [paper(0), FULL, paper(2, title="A title", headline="A headline")]
    store = PaperStore(papers)
    view = store.view(np.asarray([2, 0, 1]))
    for number, original in enumerate(papers):
        assert store.id_of(number) == original.id
        assert store.headline_of(number) == original.headline
    assert [view.id_of(i) for i in range(3)] == [papers[2].id, papers[0].id, FULL.id]
    assert view.headline_of(0) == "A headline"
    store.revise([paper(0, headline="Revised")])
    assert store.headline_of(0) == view.headline_of(1) == "Revised"


def test_papers_read_as_columns_are_added_as_papers_are() -> None:
    """The loading pool sends a piece's papers as the store's columns: the store takes them
    without a paper built, and drops those it has, or that come twice, as it does papers."""
    before = [paper(10), ODD[1]]
    given = [ODD[1], *ODD, paper(11), ODD[0]]  # one it has, one twice
    by_papers, by_columns = PaperStore([*before, *given]), PaperStore(before)
    assert by_columns.extend(columns_of(given)) == len(ODD)
    assert list(by_columns) == list(by_papers) == [*before, *ODD[:1], *ODD[2:], paper(11)]
    assert by_columns.collections == by_papers.collections == ["c", "ICML"]
    assert papers_of(columns_of(given)) == given
