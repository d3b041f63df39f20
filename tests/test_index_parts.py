"""An index kept in parts (core.flat.parts) ranks as one index of all its papers would."""

import gzip
import json
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from tui_reader.core.flat.build import build_arrays
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.flat.lexicon import Lexicon, joined
from tui_reader.core.flat.merge import merged
from tui_reader.core.flat.parts import IndexPart, Lexicons
from tui_reader.core.flat.words import Words, strings
from tui_reader.core.paper import Paper
from tui_reader.core.query import parse_query
from tui_reader.core.store import PaperStore

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
QUERIES = [
    "diffusion",
    "graph neural",
    "regret bandit",
    "difusion",  # a typo, read as a word of many papers
    "adverserial",  # a misspelling a few papers hold
    "satisf",
    "co",
    "q",
    "O(1/T)",
    '"neural network"',
    '"sparse a',
    "transformer attention",
    "Adam",  # written with a capital
    "GAN",
    "reinforcement learning policy",
    "bayesian optimisation kernel",
    "deep -learning",
    "lstm | gru",
    "title:convex",
    "author:bengio",
    "homophily",
    "zzzzzzzz",
    "pol-icy",
]


def _papers(count: int) -> list[Paper]:
    """The corpus's first `count` papers, each once (a store holds a paper once)."""
    papers: list[Paper] = []
    seen: set[str] = set()
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record["abstract"] in seen:
                continue
            seen.add(record["abstract"])
            authors = record["authors"] if isinstance(record["authors"], list) else []
            title = record["title"] if len(papers) % 7 else ""  # some untitled
            papers.append(
                Paper.from_abstract(
                    record["abstract"],
                    "C",
                    Path("x.jsonl"),
                    title=title,
                    authors=tuple(authors),
                    venue=record["venue"],
                )
            )
            if len(papers) == count:
                return papers
    return papers


def _in_parts(papers: list[Paper], cuts: list[int]) -> FlatIndex:
    parts = [
        IndexPart(*build_arrays(PaperStore(papers[first:stop]), processes=1))
        for first, stop in pairwise(cuts)
    ]
    lexicons = Lexicons(
        *(
            joined([(part.arrays[name], part.arrays[f"{name}_offsets"]) for part in parts])
            for name in ("words", "cased_words")
        )
    )
    return FlatIndex.joined(parts, lexicons)


@pytest.fixture(scope="module")
def real_papers() -> list[Paper]:
    if not CORPUS.exists():
        pytest.skip("the real corpus is not beside the project")
    return _papers(6000)


@pytest.mark.parametrize(
    "cuts",
    [
        [0, 4200, 5400, 5950, 6000],  # a big part, then smaller ones
        [0, 30, 6000],  # a small part first
        [0, 3000, 3001, 6000],  # a part of one paper
    ],
)
def test_parts_rank_every_query_as_one_index_of_all_their_papers(
    real_papers: list[Paper], cuts: list[int]
) -> None:
    whole = FlatIndex.of(PaperStore(real_papers))
    parted = _in_parts(real_papers, cuts)
    assert len(parted) == len(whole) == len(real_papers)
    for query in QUERIES:
        one, many = whole.run(parse_query(query)), parted.run(parse_query(query))
        assert many.full == one.full, query
        assert np.array_equal(many.numbers, one.numbers), query
        assert np.array_equal(many.scores, one.scores), query
        assert (many.matched, many.corrected) == (one.matched, one.corrected), query
    for number in (0, 1, 4199, 4200, 5999):
        assert np.array_equal(parted.related(number), whole.related(number))


def test_warmed_parts_rank_as_before(real_papers: list[Paper]) -> None:
    parted = _in_parts(real_papers, [0, 5000, 6000])
    before = [parted.run(parse_query(query)).numbers for query in QUERIES]
    parted.warm()
    after = [parted.run(parse_query(query)).numbers for query in QUERIES]
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


def _lexicon(*words: str) -> Lexicon:
    arrays = strings("w", sorted(words))
    return Lexicon.of_part(arrays["w"], arrays["w_offsets"])


def _words(lexicon: Lexicon) -> list[str]:
    return Words(lexicon.data, lexicon.offsets)[:]


def test_a_lexicon_puts_a_new_parts_words_in_their_places() -> None:
    lexicon = _lexicon("bandit", "graph", "regret")
    added = strings("w", ["aardvark", "graph", "graphs", "zebra"])
    grown = lexicon.adding(added["w"], added["w_offsets"])
    assert _words(grown) == ["aardvark", "bandit", "graph", "graphs", "regret", "zebra"]
    assert [ids.tolist() for ids in grown.ids] == [[1, 2, 4], [0, 2, 3, 5]]


def test_a_lexicon_without_a_part_loses_the_words_only_it_held() -> None:
    first = strings("w", ["bandit", "graph"])
    second = strings("w", ["graph", "régret"])
    lexicon = joined([(first["w"], first["w_offsets"]), (second["w"], second["w_offsets"])])
    assert _words(lexicon) == ["bandit", "graph", "régret"]
    left = lexicon.without([0])
    assert _words(left) == ["graph", "régret"] and [ids.tolist() for ids in left.ids] == [[0, 1]]
    assert lexicon.without([1]).ids[0].tolist() == [0, 1]


def test_words_of_a_lexicon_sort_as_their_text_does() -> None:
    """UTF-8 compared as bytes sorts as the words do: a word put in by bytes lands where
    bisecting the words would put it."""
    mine = ["alpha", "zeta", "ωmega"]
    theirs = ["beta", "é", "ω", "日本"]
    lexicon = _lexicon(*mine)
    added = strings("w", sorted(theirs))
    assert _words(lexicon.adding(added["w"], added["w_offsets"])) == sorted(mine + theirs)


def test_parts_merged_into_one_rank_as_one_index_of_their_papers(
    real_papers: list[Paper], tmp_path: Path
) -> None:
    papers = real_papers[:3000]
    parts = [
        IndexPart(*build_arrays(PaperStore(papers[first:stop]), processes=1))
        for first, stop in pairwise([0, 1000, 1001, 2500, 3000])
    ]
    arrays = merged(parts)
    text = tmp_path / "text"
    text.write_bytes(np.asarray(arrays["text"]).tobytes())
    with text.open("rb") as file:
        one = FlatIndex(arrays, file)
        whole = FlatIndex.of(PaperStore(papers))
        for query in QUERIES:
            got, expected = one.run(parse_query(query)), whole.run(parse_query(query))
            assert np.array_equal(got.numbers, expected.numbers), query
            assert np.array_equal(got.scores, expected.scores), query
            assert (got.full, got.matched) == (expected.full, expected.matched), query
        assert np.array_equal(one.related(2999), whole.related(2999))


def _collections() -> list[Paper]:
    return [
        Paper.from_abstract(f"{text} (paper {number}).", collection, Path(path), title=title)
        for number, (title, text, collection, path) in enumerate(
            [
                ("Graph bounds", "Regret of a bandit.", "Zorblx Proceedings", "z.txt"),
                ("Graph screens", "Displays.", "Zorblx Proceedings", "z.txt"),
                ("Graph papers", "Zorblz, a misspelt name.", "ICML 2026 Papers", "s.txt"),
            ]
            + [("Graphs", "Homophily.", "ICML 2026 Papers", "s.txt")] * 5
        )
    ]


@pytest.mark.parametrize("cuts", [[0, 8], [0, 1, 3, 8]])  # whole, and in parts
@pytest.mark.parametrize(
    ("query", "found", "read_as"),
    [
        ("venue:zorbxl", [0, 1], (("zorbxl", "zorblx"),)),  # only in the collection's name
        ("venue:zorblz", [0, 1], (("zorblz", "zorblx"),)),  # a word of papers, not of venues
        ("venue:zorblx", [0, 1], ()),
        ("venue:icm", list(range(2, 8)), ()),  # a beginning, not a typo
        ("zorblz", [2], ()),  # the papers' words: as typed
    ],
)
def test_a_venues_typos_are_read_among_the_venues_words(
    cuts: list[int], query: str, found: list[int], read_as: tuple[tuple[str, str], ...]
) -> None:
    ranking = _in_parts(_collections(), cuts).run(parse_query(query + " "))
    assert sorted(ranking.numbers[: ranking.full].tolist()) == found
    assert ranking.corrected == read_as
