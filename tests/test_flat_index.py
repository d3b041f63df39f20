"""The flat engine (core.flat): what it finds beyond the old one, and its arrays on disk."""

import json
import os
import pickle
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reader.core.flat import build, disk, folded_text, kept_text, vocabulary
from tui_reader.core.flat import index as index_module
from tui_reader.core.flat.build import build_arrays
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.flat.kept_text import KEPT
from tui_reader.core.flat.ranking import RANKED_EXACTLY, best_first, by_value, smallest_window
from tui_reader.core.paper import Paper, paper_id
from tui_reader.core.query import parse_query
from tui_reader.core.store import PaperStore


def found(index: FlatIndex, papers: list[Paper], query: str) -> list[str]:
    """Headlines of the papers matching every term, best first."""
    ranking = index.run(parse_query(query))
    return [papers[number].headline for number in ranking.numbers[: ranking.full]]


def corpus(*texts: str) -> list[Paper]:
    return [Paper.from_abstract(text, "C", Path("x.jsonl")) for text in texts]


@pytest.mark.parametrize(
    ("query", "word"),
    [
        ("homoph graph", "homophily"),
        ("satisf bandit", "satisficing"),
        ("homoph graph domain", "homophily"),
        ("satisf bandt regre", "satisficing"),
    ],
)
def test_every_word_matches_as_a_prefix_with_typos(
    seed_store: PaperStore, query: str, word: str
) -> None:
    papers = list(seed_store)
    headlines = found(FlatIndex.of(PaperStore(papers)), papers, query)
    assert headlines and word in headlines[0].lower(), headlines[:3]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("sati", ["Satisficing in bandits"]),  # not "stati…": one letter put in
        ("band", ["Satisficing in bandits"]),  # not "and": one letter left out
        ("difus", ["Diffusion of graphs and trees"]),  # five letters: one typo forgiven
        ("gaph", []),
        ("graps", ["Diffusion of graphs and trees"]),
    ],
)
def test_a_typo_is_forgiven_from_five_letters(query: str, expected: list[str]) -> None:
    """A word of four letters matching every word a typo away counted 332,433 of a million
    papers for `sati` against 52,560 for `sat` (the count jumped as it was typed).
    From five letters, one typo, as in other engines made for typing."""
    papers = corpus(
        "Satisficing in bandits.", "Diffusion of graphs and trees.", "Statistics of trees."
    )
    assert found(FlatIndex.of(PaperStore(papers)), papers, query) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("alpha divergence", 0),
        ("Schrodinger bridge", 1),
        ("schrödinger bridge", 1),
        ("O(1/T) rate", 2),
        ('"O(1/T) rate"', 2),
        ("naive bayes", 3),
    ],
)
def test_search_reads_typeset_math_and_accents(query: str, expected: int) -> None:
    papers = corpus(
        r"Bounds for the $\alpha$-divergence of two measures.",
        r"A Schr\"odinger bridge between two distributions.",
        r"SGD converges at the $\mathcal{O}(1/T)$ rate under convexity.",
        r"Na\"{\i}ve Bayes classifiers revisited.",
        "Unrelated text about graphs and other things.",
    )
    index = FlatIndex.of(PaperStore(papers))
    ranking = index.run(parse_query(query + " "))
    assert ranking.full >= 1 and int(ranking.numbers[0]) == expected


@pytest.mark.parametrize("query", ["O(1/T)", "O(1/T", "o(1/t)"])
def test_a_word_typed_with_punctuation_ranks_first_the_papers_holding_it_so(query: str) -> None:
    """`O(1/T)` matched its words o, 1 and t anywhere, each as a beginning (of "on", "the"):
    a million papers from another generator ranked an unrelated paper first, where 5,028 held
    it. The words the punctuation ends are whole; the papers where they stand as typed come
    first."""
    papers = corpus(
        "An O notation count: 1 step per T rounds, on the whole.",
        r"SGD converges at the $\mathcal{O}(1/T)$ rate.",
        "On the order of 1 over T, though.",  # o, t only as the beginnings of words
        "Other text.",
    )
    assert found(FlatIndex.of(PaperStore(papers)), papers, query) == [
        papers[1].headline,
        papers[0].headline,
    ]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("piriform", [0]),
        ('"piriform cortex"', [0]),
        ("linear", [1]),
        ("classification", [2]),
        ("efficient", [2, 3]),
        ("fixed", [3]),
        ("find", [3]),
    ],
)
def test_words_that_pdf_extraction_broke_are_found_whole(query: str, expected: list[int]) -> None:
    """As old NeurIPS abstracts have them: 1,530 of ml-abstracts-31k hold a soft hyphen
    written `(cid:173)`, 625 a ligature character, and some a ligature as its glyph's number.
    Each paper keeps the id of its text as written (what users tagged it by)."""
    texts = (
        "The modelling of piri(cid:173) form cortex in the rat.",
        "A lin(cid:173)ear model of cells.",
        "Speci(cid:12)c classi(cid:12)cation made e(cid:14)cient.",
        "We ﬁnd eﬃcient (cid:12)xed points.",
    )
    # Titled: the headline, mended when made from the abstract, finds nothing here.
    papers = [
        Paper.from_abstract(text, "C", Path("x.jsonl"), title=f"Paper {number}")
        for number, text in enumerate([*texts, "Others."])
    ]
    assert found(FlatIndex.of(PaperStore(papers)), papers, query) == [
        f"Paper {i}" for i in expected
    ]
    assert [paper.id for paper in papers[:4]] == [paper_id(text) for text in texts]
    assert [paper.abstract for paper in papers[:4]] == list(texts)


@pytest.mark.parametrize(
    "query", ["disease", "trust", "deep model", '"don\'t trust the"', "alzheimer's", "O'Neil"]
)
def test_a_backslash_before_an_apostrophe_or_a_quote_glues_no_words(query: str) -> None:
    """As the screen shows them: Alzheimer's, don't, O'Neil and "deep"."""
    papers = corpus(r"Alzheimer\'s disease: don\'t trust the \"deep\" model, O\'Neil.", "Others.")
    assert found(FlatIndex.of(PaperStore(papers)), papers, query) == [papers[0].headline]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('"erdos renyi"', [0, 1]),
        ('"erdos-renyi graphs"', [0, 1]),
        ('"co training"', [2]),
        ('"co-training"', [2]),
        ('"the deep"', []),  # other punctuation still stands in a phrase
    ],
)
def test_a_phrase_reads_a_dash_as_a_space(query: str, expected: list[int]) -> None:
    papers = corpus(
        r"Erd\H{o}s-R\'enyi graphs are random.",
        "Erdős–Rényi graphs again.",
        "Co-training with two views.",
        'Trust the "deep" model.',
    )
    found_numbers = FlatIndex.of(PaperStore(papers)).run(parse_query(query + " "))
    assert sorted(found_numbers.numbers[: found_numbers.full].tolist()) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("itemize", 0),
        ("vaswani", 0),
        ("remarkable", 0),  # a footnote\\footnote{...}: both words
        ("footnote", 0),
        ("'nested", 1),
        ("inner", 1),
        ("emphasised", 1),
        ("'unclosedbold", 1),
        ("introduction", 2),
        ("'BERT", 2),
        ("'linktext", 2),
        ('"BERT encoder"', 2),
        ("'frac", 3),  # another command's name is a word too
        ("'mass", 3),
        ("'volume", 3),
    ],
)
def test_the_words_of_a_latex_commands_arguments_are_words(query: str, expected: int) -> None:
    papers = corpus(
        r"We use \begin{itemize} lists, cite \cite{vaswani} and a footnote\footnote{remarkable}.",
        r"With \emph{nested {inner} emphasised} words and \textbf{unclosedbold words after.",
        r"The \section{Introduction} of the \textsc{BERT} encoder, \href{http://x.org}{linktext}.",
        r"A ratio $\frac{mass}{volume}$ of two numbers.",
        "Unrelated text about graphs and other things.",
    )
    ranking = FlatIndex.of(PaperStore(papers)).run(parse_query(query + " "))
    assert ranking.numbers[: ranking.full].tolist() == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("traning ", 0),  # a letter left out
        ("craining ", 0),  # the first letter replaced
        ("xdiffusion ", 1),  # a letter put before the first
        ("iffusion ", 1),  # the first letter left out
        ("hmophily ", 2),
        ("homphily ", 2),
        ("xiffus", 1),  # a word being typed: its beginning one edit away
        ("rainin", 0),  # its first letter left out
        ("diffsuion ", 1),  # two edits (a swap), the first letter kept
    ],
)
def test_a_typo_anywhere_in_a_word_finds_it(query: str, expected: int) -> None:
    papers = corpus(
        "Training robots by imitation.",
        "Diffusion models for proteins.",
        "Homophily in social graphs.",
        "Unrelated text about other things.",
    )
    ranking = FlatIndex.of(PaperStore(papers)).run(parse_query(query))
    assert ranking.full >= 1 and int(ranking.numbers[0]) == expected


def test_a_word_typed_whole_still_ranks_its_exact_papers_first() -> None:
    papers = corpus("Graphene sheets conduct.", "A graph of papers.", "Graphs everywhere.")
    index = FlatIndex.of(PaperStore(papers))
    ranking = index.run(parse_query("graph "))
    assert int(ranking.numbers[0]) == 1 and ranking.full == 3


def test_a_rare_word_as_typed_does_not_outrank_the_common_words_it_begins() -> None:
    """Typed "robu moti", a reader means robust motion, not a paper holding the stray words
    "robu" and "moti" (known items over a million papers: 41 of 199 found first,
    then 56)."""
    papers = corpus(
        "Estimators in practice. Stray words robu and moti stand in its text.",
        "Robust motion tracking.",
        *(f"Motion planning {n}." for n in range(40)),
        *(f"Robust statistics {n}." for n in range(40)),
        *(f"Unrelated topic {n}." for n in range(2000)),
    )
    index = FlatIndex.of(PaperStore(papers))
    assert found(index, papers, "robu moti")[:2] == [
        "Robust motion tracking",
        "Estimators in practice",
    ]
    assert found(index, papers, "'robu 'moti") == ["Estimators in practice"]  # as typed, only


def test_text_that_is_not_utf8_is_indexed_around_it() -> None:
    papers = corpus("Graph \ud800 networks.", "Plain words.")  # a lone surrogate, not cleaned
    for read in (papers, PaperStore(papers)):
        index = FlatIndex.of(PaperStore(read))
        assert found(index, papers, "graph networks") == [papers[0].headline]
        assert found(index, papers, "plain") == [papers[1].headline]


def test_hostile_text_is_only_text() -> None:
    papers = corpus("[/b] [CLS] \x1b]52;c;aGk=\x07 tokens\x00inside", "Plain words.")
    index = FlatIndex.of(PaperStore(papers))
    assert found(index, papers, "cls tokens") == [papers[0].headline]
    assert found(index, papers, "plain") == [papers[1].headline]


@pytest.fixture
def kept(tmp_path: Path) -> tuple[Path, list[dict[str, object]], list[Paper]]:
    """An index of three papers saved in a cache folder, with the sources it stands for."""
    source = tmp_path / "papers.jsonl"
    source.write_text("{}\n", encoding="utf-8")
    papers = corpus("Graph neural networks.", r"A Schr\"odinger bridge.", "Sparse attention.")
    sources = disk.sources_of([source])
    disk.save(tmp_path / "cache", sources, build_arrays(PaperStore(papers))[0])
    return tmp_path / "cache", sources, papers


def test_a_kept_index_opens_by_memory_map_and_finds_the_same(
    kept: tuple[Path, list[dict[str, object]], list[Paper]],
) -> None:
    root, sources, papers = kept
    opened = disk.open_index(root, sources)
    built = FlatIndex.of(PaperStore(papers))
    for query in ("graph", "schrodinger bridge ", '"sparse attention"', "atention"):
        assert list(opened.run(parse_query(query)).numbers) == list(
            built.run(parse_query(query)).numbers
        )
    assert list(opened.related(0, 2)) == list(built.related(0, 2))


class _Planted:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, ("true",)


def _plant_pickle(folder: Path) -> None:
    """A pickle that runs a command when unpickled, in place of an array (as the old cache
    would have read it)."""
    (folder / "all_papers.npy").write_bytes(pickle.dumps(_Planted()))


def _plant_object_array(folder: Path) -> None:
    # Many objects: pickled, smaller than the pointers the header counts (once "cut short").
    planted = np.array([print] + [None] * 1000, dtype=object)
    np.save(folder / "all_papers.npy", planted, allow_pickle=True)


def _truncate(folder: Path) -> None:
    path = folder / "all_papers.npy"
    path.write_bytes(path.read_bytes()[:-5])


def _other_version(folder: Path) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({**manifest, "version": 999}))


def _bad_offsets(folder: Path) -> None:
    offsets = np.load(folder / "all_offsets.npy")
    offsets[1] = offsets[-1] + 10
    np.save(folder / "all_offsets.npy", offsets)


def _garbage_manifest(folder: Path) -> None:
    (folder / "manifest.json").write_bytes(b"\x80\x04garbage")


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (_plant_pickle, "all_papers is not an array of plain values"),
        (_plant_object_array, "all_papers is not an array of plain values"),
        (_truncate, "all_papers is cut short"),
        (_other_version, "version"),
        (_bad_offsets, "offsets"),
        (_garbage_manifest, "manifest"),
    ],
)
def test_a_damaged_or_foreign_index_is_rejected_and_runs_no_code(
    kept: tuple[Path, list[dict[str, object]], list[Paper]],
    damage: Callable[[Path], None],
    said: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root, sources, _ = kept
    damage(disk.folder_for(root, sources))
    monkeypatch.setattr(os, "system", lambda command: pytest.fail("code ran"))
    with pytest.raises(disk.Rejected, match=said):
        disk.open_index(root, sources)


def test_an_index_of_other_files_is_not_opened(
    kept: tuple[Path, list[dict[str, object]], list[Paper]],
) -> None:
    root, sources, _ = kept
    changed = [{**sources[0], "size": 999}]
    with pytest.raises(disk.Rejected):
        disk.open_index(root, changed)


# Words a chunk's reader makes much of: a compound, math, an accent, capitals.
MIXED = (
    r"Co-training with $\alpha$-divergence.",
    "Graph neural networks on SAM.",
    r"A Schr\"odinger bridge, naïve.",
    "Sparse attention and co-training.",
    "Graphs, SAM and the same words again.",
)


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of two papers, read by a pool however few the papers."""
    monkeypatch.setattr(build, "CHUNK", 2)
    monkeypatch.setattr(build, "POOLED_FROM", 0)


def assert_same(made: build.Arrays, expected: build.Arrays) -> None:
    assert made.keys() == expected.keys()
    for name, array in expected.items():
        assert np.array_equal(array, made[name]), name


@given(
    st.lists(st.sampled_from([b"ab", b"a", b" ", b"  ", b"\x00", b"\x01", b"\xc3\xa9", b"\xff"]))
)
def test_arrow_numbers_a_texts_tokens_as_a_dict_does(parts: list[bytes]) -> None:
    text = b"".join(parts)
    distinct, places = build._numbered(text)
    by_arrow, arrow_places = build._numbered_by_arrow(text)
    assert by_arrow == distinct and arrow_places.tolist() == places.tolist()


def test_a_chunk_read_here_is_read_as_a_pools_process_reads_it_with_arrow() -> None:
    joined, count = next(build._chunks(PaperStore(corpus(*MIXED)), 0, len(MIXED)))[1:]
    with_arrow = build._Reader(by_arrow=True).read(joined, count)
    here = build._Reader(by_arrow=False).read(joined, count)
    assert (here.new_words, here.new_cased) == (with_arrow.new_words, with_arrow.new_cased)
    assert here.pairs.keys() == with_arrow.pairs.keys()
    for name, (words, papers) in with_arrow.pairs.items():
        assert np.array_equal(here.pairs[name][0], words), name
        assert np.array_equal(here.pairs[name][1], papers), name


@pytest.mark.usefixtures("small_chunks")
def test_a_pool_of_processes_builds_the_same_index() -> None:
    papers = corpus(*MIXED)
    assert_same(
        build.build_arrays(PaperStore(papers), 2)[0],
        build.build_arrays(PaperStore(papers), processes=1)[0],
    )


@pytest.mark.usefixtures("small_chunks")
def test_an_index_grown_a_few_papers_at_a_time_is_the_index_built_at_once() -> None:
    papers = corpus(*MIXED)
    with build.GrowingIndex(2) as growing:
        growing.read(
            PaperStore(papers), 3, more_coming=True
        )  # the third waits to be read with the next
        assert growing.count == 2
        early, _ = growing.arrays()
        growing.read(PaperStore(papers), 5)
        grown, _ = growing.arrays()
    assert growing.count == 5
    assert_same(early, build_arrays(PaperStore(papers[:2]), 1)[0])
    assert_same(grown, build_arrays(PaperStore(papers), 1)[0])


@pytest.mark.usefixtures("small_chunks")
def test_a_growing_index_stops_reading_when_told() -> None:
    papers, told = corpus(*MIXED), iter([False, True])  # a chunk read, then a quit
    with build.GrowingIndex(1) as growing:
        assert not growing.read(PaperStore(papers), 5, stopping=lambda: next(told))
        assert growing.count == 2


@pytest.mark.usefixtures("small_chunks")
def test_a_pool_that_breaks_midway_leaves_its_chunks_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    class BreakingPool:
        def __init__(self, *arguments: object, **keywords: object) -> None:
            self.submitted = 0

        def submit(self, work: Callable[..., object], *arguments: object) -> Future[object]:
            self.submitted += 1
            future: Future[object] = Future()
            if self.submitted == 1:
                future.set_result(work(*arguments))
            else:
                future.set_exception(BrokenProcessPool("a process died"))
            return future

        def shutdown(self, **keywords: object) -> None:
            pass

    pools: list[BreakingPool] = []

    def breaking_pool(count: int) -> BreakingPool:
        pools.append(BreakingPool())
        return pools[-1]

    monkeypatch.setattr(build, "process_pool", breaking_pool)
    monkeypatch.setattr(build, "_READER", None)  # the pool's reader, here in this process
    papers = corpus(*MIXED)
    assert_same(
        build.build_arrays(PaperStore(papers), 2)[0], build.build_arrays(PaperStore(papers), 1)[0]
    )
    assert len(pools) == 1 and pools[0].submitted >= 2  # the pool was used, and broke


def test_many_papers_found_are_ranked_best_first_the_best_exactly() -> None:
    keys = np.random.default_rng(1).integers(0, 3000, size=20_000).astype(np.float64) / 7
    order = best_first(keys)
    assert sorted(order.tolist()) == list(range(len(keys)))  # every paper once
    exact = np.argsort(-keys, kind="stable")
    assert order[:RANKED_EXACTLY].tolist() == exact[:RANKED_EXACTLY].tolist()
    assert np.all(np.diff(keys[order]) <= 1e-9 * keys.max() + (keys.max() / 65535))
    ties = order[keys[order] == keys[order][-1]]
    assert ties.tolist() == sorted(ties.tolist())  # equal keys in load order


def test_related_papers_share_what_the_paper_is_about_not_its_venue() -> None:
    papers = [
        Paper.from_abstract(text, "C", Path("x.jsonl"), title=title, venue=venue)
        for title, text, venue in (
            ("Diffusion for ligands", "Diffusion models generate ligands.", "Zeta Omega Kappa Mu"),
            ("Operators", "Neural operators on irregular geometry.", "Zeta Omega Kappa Mu"),
            ("Pockets", "Ligands in pockets, by diffusion.", "Other"),
            ("Graphs", "Graph neural networks with homophily.", "Other"),
            ("Bandits", "Regret of bandits.", "Other"),
        )
    ]
    index = FlatIndex.of(PaperStore(papers))
    assert index.related(0, 1).tolist() == [2]
    assert 0 not in index.related(0, 4).tolist()


@pytest.mark.usefixtures("small_chunks")
def test_where_no_pool_can_start_one_process_builds_the_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_pool(*arguments: object, **keywords: object) -> None:
        raise OSError("no semaphores here")

    monkeypatch.setattr(build, "ProcessPoolExecutor", no_pool)
    papers = corpus(*MIXED)
    assert_same(
        build.build_arrays(PaperStore(papers), 2)[0], build.build_arrays(PaperStore(papers), 1)[0]
    )


def test_the_smallest_window_holding_every_term() -> None:
    terms_of = {"policy": [0], "gradient": [1], "policies": [0]}
    tokens = ["policy", "x", "y", "gradient", "z", "policies", "gradient"]
    assert smallest_window(tokens, terms_of, 2) == 2
    assert smallest_window(["policy", "x", "y", "z"], terms_of, 2) == 0


def test_close_papers_follow_only_while_few_match_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    papers = corpus(
        *(f"Graph neural networks, study {n}." for n in range(5)),
        *(f"A graph of citations, study {n}." for n in range(3)),
    )
    index = FlatIndex.of(PaperStore(papers))
    monkeypatch.setattr(index_module, "CLOSE_UNDER", 10)
    ranking = index.run(parse_query("graph neural"))
    assert (ranking.full, len(ranking.numbers)) == (5, 8)  # the 3 close ones after
    monkeypatch.setattr(index_module, "CLOSE_UNDER", 5)
    ranking = index.run(parse_query("graph neural "))  # another query: not from the cache
    assert (ranking.full, len(ranking.numbers)) == (5, 5)


def test_a_phrase_typed_on_finds_what_it_finds_when_typed_at_once() -> None:
    """Papers found lacking a phrase are not read again for a longer phrase beginning with
    it ("sparse a", then "sparse at"), and only for such a phrase."""
    papers = corpus(
        "We study sparse attention in transformers.",
        "Sparse autoencoders read sparse attention maps.",
        "A sparse and attentive reader.",
        "Dense attention, not sparse at all.",
        "Sparse atlases of the brain.",
        "Sparse attention at scale.",  # the word "at", but not after "sparse"
    )
    typed = FlatIndex.of(PaperStore(papers))
    queries = ['"sparse', '"sparse ', '"sparse a', '"sparse at', '"sparse att', '"sparse a']
    queries += ['"sparse attention"', '"sparse an', '"dense a', '"sparse at']
    queries += ['"sparse at"', '"sparse atte', '"sparse at"']  # "at" whole, then a prefix
    for query in queries:
        assert found(typed, papers, query) == found(
            FlatIndex.of(PaperStore(papers)), papers, query
        ), query
    assert len(found(typed, papers, '"sparse at')) == 5  # "not sparse at all" too


def test_a_quoted_phrase_stands_as_words_in_the_text() -> None:
    """A phrase is found where its words stand together, whole: "graph neural network" was
    found in "graph neural networks" (with "network" elsewhere) and in "hypergraph neural
    network". While its last word is typed, that word is a prefix."""
    papers = corpus(
        "Graph neural networks are used; a network too.",
        "A hypergraph neural network here, and a graph.",
        "The graph neural network.",
        r"Rates of O(1/T), and $\mathcal{O}(1/T)$.",
    )
    index = FlatIndex.of(PaperStore(papers))

    def numbers(query: str) -> list[int]:
        ranking = index.run(parse_query(query))
        return sorted(ranking.numbers[: ranking.full].tolist())

    assert numbers('"graph neural network"') == [2]
    assert numbers('"graph neural network') == [0, 2]
    assert numbers('"neural network"') == [1, 2]
    assert numbers('"(1/T)"') == numbers('"o(1/t)"') == [3]


def test_a_word_typed_whole_on_the_way_to_a_phrase_is_that_word() -> None:
    """`"sparse ` (the space typed next) finds every paper with the word, "sparse," and
    "sparse." too; spaces typed twice in a phrase count once."""
    papers = corpus(
        "Sparse, and then dense.",
        "We study sparse attention.",
        "Everything is sparse.",
        "Sparsely read.",
    )
    index = FlatIndex.of(PaperStore(papers))
    assert sorted(found(index, papers, '"sparse ')) == sorted(
        paper.headline for paper in papers[:3]
    )
    assert found(index, papers, '"sparse  attention"') == [papers[1].headline]
    assert found(index, papers, '"sparse attention "') == [papers[1].headline]


STEP = 1 << 18


def _resident_kb(inode: str) -> int:
    """What the reader has in memory of the maps of the file of this inode."""
    resident, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        if header := re.match(r"[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)", line):
            inside = header[1] == inode
        elif inside and line.startswith("Rss:"):
            resident += int(line.split()[1])
    return resident


def _index_of_much_text(monkeypatch: pytest.MonkeyPatch) -> tuple[FlatIndex, list[Paper], str]:
    """An index of 11 MB of text, the file of its text, read and given back STEP at a time."""
    if not Path("/proc/self/smaps").exists():
        pytest.skip("reads what is mapped from /proc")
    monkeypatch.setattr(folded_text, "STEP", STEP)
    monkeypatch.setattr(kept_text, "STEP", STEP)
    filler = " ".join(f"word{n}" for n in range(300))
    papers = corpus(*(f"Paper {n}: sparse attention, {filler}." for n in range(5000)))
    index = FlatIndex.of(PaperStore(papers))
    return index, papers, str(os.fstat(index._text._texts[0]._file.fileno()).st_ino)


def test_a_phrase_gives_back_the_pages_of_the_text_it_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The text a phrase reads does not stay in the reader's memory: the pages mapped to
    read it are given back every STEP bytes, and at the end."""
    index, papers, inode = _index_of_much_text(monkeypatch)
    resident_before: list[int] = []
    give_back = folded_text.FoldedText._give_back

    def measured(text: folded_text.FoldedText, begin: int, end: int) -> None:
        resident_before.append(_resident_kb(inode))
        give_back(text, begin, end)

    monkeypatch.setattr(folded_text.FoldedText, "_give_back", measured)
    assert len(found(index, papers, '"sparse attention"')) == 5000
    text_kb = len(index._text._texts[0]._map or b"") // 1024
    assert len(resident_before) > 10
    # The system may map up to 2 MB around a page read (a large page of its cache).
    assert 0 < max(resident_before) <= text_kb / 3
    assert _resident_kb(inode) <= text_kb / 3


def test_an_index_just_built_is_kept_without_all_its_text_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text of an index just built maps a file: kept whole, all of its pages were in
    the reader's memory together (1.2 GB at a million papers)."""
    index, papers, inode = _index_of_much_text(monkeypatch)
    resident_before: list[int] = []

    def measured(mapped: object, begin: int, end: int) -> None:
        resident_before.append(_resident_kb(inode))
        folded_text.give_back(mapped, begin, end)  # type: ignore[arg-type]

    monkeypatch.setattr(kept_text, "give_back", measured)
    sources: list[dict[str, object]] = [{"path": "x.jsonl", "size": 1, "mtime_ns": 1}]
    folder = disk.save(tmp_path / "cache", sources, index.arrays)
    text = index.arrays["text"]
    assert len(resident_before) > 10
    assert 0 < max(resident_before) <= len(text) / 1024 / 3
    names = ("text", "text_offsets", KEPT)
    kept_arrays = [np.load(folder / f"{name}.npy", mmap_mode="r") for name in names]
    assert np.array_equal(kept_text.built(*kept_arrays)[0], text)
    kept = disk.open_index(folder.parent, sources)
    assert found(kept, papers, '"paper 7:"') == found(index, papers, '"paper 7:"')


def test_the_lowest_keys_stay_last_when_rounding_lifts_them() -> None:
    """float32 rounds the lowest key's place (65535) up a little: cast to 16 bits it wrapped
    round to 0, and papers of the lowest score were ranked among the best."""
    values = [1000.76935768, 1001.02581024, 1001.53871536, 1002.05162048]
    keys = np.random.default_rng(0).permutation(np.repeat(values, [3000, 2000, 2000, 300]))
    order = best_first(keys)
    assert np.all(np.diff(keys[order]) <= 0)


def test_few_scores_are_ranked_as_many_are() -> None:
    papers = corpus(
        *(f"Paper {n} on {'reinforcement' if n % 3 else 'reinforce'} learning." for n in range(60))
    )
    index = FlatIndex.of(PaperStore(papers))
    for query in ("reinf", "reinforcment", "learn", "le"):
        few = index.run(parse_query(query))
        index_module.FEW_VALUES, kept = 0, index_module.FEW_VALUES
        try:
            many = FlatIndex.of(PaperStore(papers)).run(parse_query(query))
        finally:
            index_module.FEW_VALUES = kept
        assert few.numbers.tolist() == many.numbers.tolist(), query
        assert few.scores.tolist() == many.scores.tolist(), query


@pytest.mark.parametrize("largest", [7, 2**31 - 1])  # keys of 32 bits, then of 64
def test_a_chunks_pairs_are_made_unique_and_ordered(largest: int) -> None:
    words = np.asarray([largest, 3, largest, 3, 0, 3], dtype=np.int32)
    papers = np.asarray([4999, 0, 4999, 2, 1, 0], dtype=np.int32)
    found, numbers = build._unique_pairs(words, papers, 5000)
    pairs = list(zip(found.tolist(), numbers.tolist(), strict=True))
    assert pairs == [(0, 1), (3, 0), (3, 2), (largest, 4999)]


UNION_QUERIES = ["c", "co", "con", "p", "re", "graph n", "title:ba", "S", '"sparse a', "d !m"]


def test_rarer_words_read_as_one_bitmap_rank_as_their_postings_do(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rarer words a value is given to, read together as one bitmap (made as asked, or
    ahead by `warm` for short prefixes), find and rank what their postings written one by
    one do."""
    papers = list(seed_store)

    def rankings(dense_from: int, warmed: bool) -> list[tuple[list[int], int, list[float]]]:
        monkeypatch.setattr(vocabulary, "DENSE_FROM", dense_from)
        monkeypatch.setattr(vocabulary, "UNION_SHARE", 10**9)  # every rarer word: a union
        index = FlatIndex.of(PaperStore(papers))
        if warmed:
            index.warm()
        found = [index.run(parse_query(query)) for query in UNION_QUERIES]
        return [(r.numbers.tolist(), r.full, r.scores.tolist()) for r in found]

    written = rankings(10**9, warmed=False)  # no bitmap at all
    assert all(numbers for numbers, _, _ in written)
    assert rankings(1, warmed=False) == written
    assert rankings(1, warmed=True) == written


def test_warm_makes_the_bitmaps_a_short_prefix_reads(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vocabulary, "DENSE_FROM", 1)
    monkeypatch.setattr(vocabulary, "UNION_SHARE", 10**9)
    index = FlatIndex.of(seed_store)
    index.warm()
    words = index._words
    assert words._unions_warmed
    for query in ["c", "co", "con", "n"]:
        index.run(parse_query(query))
    assert not words._unions  # none made as asked: each was made ahead
    index.run(parse_query("conv"))  # four letters: made as asked (anywhere, in titles), kept
    assert {field for field, _ in words._unions} == {"all", "title"}


def test_scores_of_few_values_rank_as_a_stable_sort_does() -> None:
    generator = np.random.default_rng(7)
    values = np.array([0.0, 0.75, 1.5, 2.25, 1.8], dtype=np.float32)
    scores = values[generator.integers(0, len(values), 5000)]
    order, keys = by_value(scores, frozenset(float(value) for value in values[1:]))
    expected = np.argsort(-scores, kind="stable")[: np.count_nonzero(scores)]
    assert order.tolist() == expected.tolist()
    assert keys.tolist() == scores[expected].astype(np.float64).tolist()


def test_a_phrase_typed_on_over_a_kept_index_reads_its_kept_texts(tmp_path: Path) -> None:
    """A phrase typed key by key over an index kept on disk (its text a frame a paper) finds
    what it finds typed at once: the texts kept from one key for the next are the papers'."""
    papers = corpus(
        "We study sparse attention in transformers.",
        "Sparse attention at scale, not sparse at all.",
        "Sparse atlases of the brain, sparse attentive maps.",
        "A sparse and dense attention.",
    )
    sources: list[dict[str, object]] = [{"path": "x.jsonl", "size": 1, "mtime_ns": 1}]
    folder = disk.save(tmp_path / "cache", sources, FlatIndex.of(PaperStore(papers)).arrays)
    kept = disk.open_index(folder.parent, sources)
    for query in [
        '"sparse a',
        '"sparse at',
        '"sparse att',
        '"sparse at"',
        '"sparse atl',
        '"sparse a',
    ]:
        assert found(kept, papers, query) == found(
            FlatIndex.of(PaperStore(papers)), papers, query
        ), query
    assert len(found(kept, papers, '"sparse at"')) == 1


def test_terms_standing_close_rank_first_as_a_query_is_typed_on() -> None:
    """The best papers are ranked again by how close their terms stand, from their words,
    kept from one key for the next: typed on, the order is the one typed at once."""
    papers = corpus(
        "Study one. We use a graph, then many other words, and a neural model.",
        "Study two. A graph with some words and a neural model.",
        "Study three. A neural model of a graph.",
        "Study four. A graph neural model.",
    )
    typed = FlatIndex.of(PaperStore(papers))
    for query in ["graph", "graph n", "graph neural", "graph neural m", "neural graph", "graph ne"]:
        at_once = found(FlatIndex.of(PaperStore(papers)), papers, query)
        assert found(typed, papers, query) == at_once, query
    closest_first = [papers[number].headline for number in (3, 2, 1, 0)]
    assert found(typed, papers, "graph neural") == closest_first


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("since", ["Bandits since 1933"]),
        ("2026", ["Forecasts for 2026"]),
        ("papers", ["Few papers agree"]),
        ("LG", ["LG displays"]),
        ('"lg since"', []),
        ("venue:since", ["Bandits since 1933", "Forecasts for 2026"]),
        ("venue:ICML", ["Few papers agree", "LG displays", "Graphs"]),
        ("venue:papers", ["Few papers agree", "LG displays", "Graphs"]),
        ('venue:"ICML 2026"', ["Few papers agree", "LG displays", "Graphs"]),
        ('venue:"cs lg since"', ["Bandits since 1933", "Forecasts for 2026"]),
    ],
)
def test_the_collections_name_is_found_in_the_venue_field_only(
    query: str, expected: list[str]
) -> None:
    papers = [
        Paper.from_abstract(text, collection, Path(path), title=title)
        for title, text, collection, path in (
            ("Bandits since 1933", "Regret bounds.", "arxiv cs.LG since 2026-12-01", "a.jsonl"),
            ("Forecasts for 2026", "Weather.", "arxiv cs.LG since 2026-12-01", "a.jsonl"),
            ("Few papers agree", "Meta-analysis.", "ICML 2026 Papers", "s.txt"),
            ("LG displays", "Screens.", "ICML 2026 Papers", "s.txt"),
            ("Graphs", "Homophily.", "ICML 2026 Papers", "s.txt"),
        )
    ]
    index = FlatIndex.of(PaperStore(papers))
    assert sorted(found(index, papers, query)) == sorted(expected)
