"""The folded text as a kept index holds it (core.flat.kept_text): a zstd frame a paper,
smaller than the text, and read back to the same results."""

import io
import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
import zstandard

from tui_reader.cli.program import main
from tui_reader.core import frames
from tui_reader.core.flat import disk, kept_text
from tui_reader.core.flat.build import build_arrays
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.flat.merge import merged
from tui_reader.core.flat.parts import IndexPart
from tui_reader.core.frames import framed, reader
from tui_reader.core.loading import load_paths
from tui_reader.core.paper import Paper
from tui_reader.core.query import parse_query
from tui_reader.core.store import PaperStore

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
# Accents in TeX and in Unicode, ligatures, PDF debris, a dash: phrases read them folded.
SPECIAL = [
    r"The Erd\H{o}s-R\'enyi graph and a Schr\"odinger bridge for sparse attention.",
    "Erdős–Rényi graphs meet the Schrödinger equation in sparse attention.",
    "An eﬃcient classi(cid:12)cation of piri(cid:173) form cortex with co-training.",
    "Efficient classification of the piriform cortex, trained by co training.",
    "Sparse attentions are not a sparse attention.",
]
PHRASES = [
    '"erdos renyi"',
    '"schrodinger bridge"',
    '"sparse attention"',
    '"efficient classification"',
    '"piriform cortex"',
    '"co training"',
    '"sparse attention',
    '"sparse a',
    "O(1/T)",
    "co-training",
]


HALF = 1000  # real papers before the special ones, and after them


def _papers() -> list[Paper]:
    if not CORPUS.exists():
        pytest.skip("the real corpus is not beside the project")
    loaded = list(load_paths([CORPUS]).papers)[: 2 * HALF]
    specials = [Paper.from_abstract(text, "C", Path("x.jsonl")) for text in SPECIAL]
    return loaded[:HALF] + specials + loaded[HALF:]


def _kept(root: Path, papers: list[Paper], name: str) -> FlatIndex:
    """The index of these papers written to a cache folder and opened from it."""
    sources: list[dict[str, object]] = [{"path": name, "size": 1, "mtime_ns": 1}]
    disk.save(root, sources, build_arrays(PaperStore(papers), processes=1)[0])
    return disk.open_index(root, sources)


def _same(one: FlatIndex, other: FlatIndex, queries: list[str]) -> None:
    for query in queries:
        a, b = one.run(parse_query(query)), other.run(parse_query(query))
        assert np.array_equal(a.numbers, b.numbers), query
        assert a.full == b.full, query


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    return _papers()


def test_a_kept_index_holds_its_text_in_a_third_of_its_size(
    tmp_path: Path, papers: list[Paper]
) -> None:
    arrays = build_arrays(PaperStore(papers), processes=1)[0]
    sources: list[dict[str, object]] = [{"path": "x", "size": 1, "mtime_ns": 1}]
    folder = disk.save(tmp_path, sources, arrays)
    kept = (folder / "text.npy").stat().st_size + (folder / f"{kept_text.KEPT}.npy").stat().st_size
    assert kept <= len(arrays["text"]) / 2
    frames = [np.load(folder / f"{name}.npy") for name in ("text", "text_offsets", kept_text.KEPT)]
    text, offsets = kept_text.built(*frames)
    assert np.array_equal(text, arrays["text"])
    assert np.array_equal(offsets, arrays["text_offsets"])


def test_phrases_find_in_a_kept_index_what_they_find_as_built(
    tmp_path: Path, papers: list[Paper]
) -> None:
    built = FlatIndex.of(PaperStore(papers))
    kept = _kept(tmp_path, papers, "x")
    _same(kept, built, PHRASES)
    first = HALF  # the special papers' first
    assert set(kept.run(parse_query('"erdos renyi"')).numbers.tolist()) >= {first, first + 1}
    assert {first + 2, first + 3} <= set(
        kept.run(parse_query('"efficient classification"')).numbers.tolist()
    )
    for number in (0, first, first + 2, len(papers) - 1):
        assert kept._text.of(number) == built._text.of(number)
        assert np.array_equal(kept.related(number), built.related(number))


def test_kept_parts_of_their_own_dictionaries_merge_into_the_same_index(
    tmp_path: Path, papers: list[Paper]
) -> None:
    """Each part trains its own dictionary; merged, the text is read back and kept again."""
    cut = HALF + 2  # between the special papers
    first = _kept(tmp_path / "a", papers[:cut], "a")
    second = _kept(tmp_path / "b", papers[cut:], "b")
    parts = [*first.parts, *second.parts]
    dictionaries = [bytes(np.asarray(part.arrays[kept_text.KEPT])) for part in parts]
    assert dictionaries[0] != dictionaries[1]
    sources: list[dict[str, object]] = [{"path": "m", "size": 1, "mtime_ns": 1}]
    disk.save(tmp_path / "m", sources, merged(parts))
    _same(disk.open_index(tmp_path / "m", sources), FlatIndex.of(PaperStore(papers)), PHRASES)


def test_a_part_too_small_for_a_dictionary_is_kept_without_one(tmp_path: Path) -> None:
    papers = [Paper.from_abstract(text, "C", Path("x.jsonl")) for text in SPECIAL[:2]]
    kept = _kept(tmp_path, papers, "x")
    (part,) = kept.parts
    assert not len(part.arrays[kept_text.KEPT])
    _same(kept, FlatIndex.of(PaperStore(papers)), PHRASES)
    assert isinstance(part, IndexPart)


@pytest.mark.parametrize("texts", [[b""] * 30, [b""] * 18 + [b"x" * 49], [b"a few words"] * 3])
def test_texts_too_few_or_all_empty_are_kept_without_a_dictionary(texts: list[bytes]) -> None:
    """zstd's training crashed the process on a column of empty texts (papers without a
    title): below so many bytes none is trained."""
    offsets = np.cumsum([0, *map(len, texts)], dtype=np.int64)
    frames = io.BytesIO()
    places, dictionary = framed([b"".join(texts)], offsets, frames)
    data = frames.getvalue()
    read = reader(dictionary)
    assert dictionary == b""
    assert [read(data[a:b]) for a, b in pairwise(places.tolist())] == texts


def test_a_column_mostly_empty_is_framed_without_ending_the_process() -> None:
    """zstd's training ended the process (a segmentation fault) on 9,999 empty titles and one
    long one, enough bytes to train on: the empty ones are left out of its samples."""
    program = (
        "import io, random, numpy as np\n"
        "from tui_reader.core.frames import framed, reader\n"
        "texts = [b''] * 9999 + [random.Random(1).randbytes(100_001)]\n"
        "offsets = np.cumsum([0, *map(len, texts)], dtype=np.int64)\n"
        "frames = io.BytesIO()\n"
        "places, dictionary = framed([b''.join(texts)], offsets, frames)\n"
        "data = frames.getvalue()\n"
        "read = reader(dictionary)\n"
        "bounds = places.tolist()\n"
        "assert [read(data[a:b]) for a, b in zip(bounds, bounds[1:])] == texts\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-500:]


def test_frames_made_by_blocks_of_texts_are_each_the_frame_of_its_text_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """zstd's threads make a block's frames at once: each is the frame `compress` makes of
    its text alone, with the dictionary trained on the first SAMPLES texts, whatever chunks
    the texts are laid in (a text cut between two, empty ones, none after the last)."""
    rng = np.random.default_rng(7)
    words = [f"word{number}".encode() for number in range(300)]
    texts = [b" ".join(words[i] for i in rng.integers(0, 300, 40)) for _ in range(900)]
    texts[5:8] = [b"", b"", b""]
    texts += [b""] * 4
    joined = b"".join(texts)
    offsets = np.cumsum([0, *map(len, texts)], dtype=np.int64)
    cuts = [0, 1000, 1003, int(offsets[5]), int(offsets[6]), 250_000, int(offsets[-1])]
    chunks = [joined[a:b] for a, b in pairwise(cuts)]
    monkeypatch.setattr(frames, "SAMPLES", 600)
    monkeypatch.setattr(frames, "GATHERED", 30_000)  # blocks given zstd a few at a time
    into = io.BytesIO()
    places, dictionary = framed(chunks, offsets, into)
    assert dictionary and dictionary == frames.trained(texts[:600])
    compress = zstandard.ZstdCompressor(
        level=frames.LEVEL,
        dict_data=zstandard.ZstdCompressionDict(dictionary, dict_type=zstandard.DICT_TYPE_FULLDICT),
        write_checksum=False,
        write_dict_id=False,
    ).compress
    data = into.getvalue()
    assert [data[a:b] for a, b in pairwise(places.tolist())] == [compress(t) for t in texts]


@pytest.mark.parametrize(
    ("chunks", "texts"),
    [
        ([], [b"", b"", b""]),  # a column of empty texts given in no chunk
        ([b"ab"], [b"", b"a", b"b", b"", b""]),
        ([b"ab"], [b"ab", b""]),  # a thread of zstd's given the empty one alone gave nothing
    ],
)
def test_empty_texts_are_each_framed_where_they_stand(
    chunks: list[bytes], texts: list[bytes]
) -> None:
    into = io.BytesIO()
    offsets = np.cumsum([0, *map(len, texts)], dtype=np.int64)
    places, dictionary = framed(chunks, offsets, into)
    compress = zstandard.ZstdCompressor(
        level=frames.LEVEL, write_checksum=False, write_dict_id=False
    ).compress
    data = into.getvalue()
    assert dictionary == b""
    assert [data[a:b] for a, b in pairwise(places.tolist())] == [compress(t) for t in texts]


JOINED = [
    "A network of robustness s, holding the words apart.",
    r"The Erd\H{o}s--R\'enyi graph, joined by LaTeX's en dash.",
    r"The Erd\H{o}s---R\'enyi graph, joined by LaTeX's em dash.",
    "A network\u2019s robustness, with a curly apostrophe.",
    "A network's robustness, with a straight one.",
    "The networks\u2019 robustness, of many.",
    "Networks robustness, no apostrophe.",
]


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ('"Erdos Renyi"', [1, 2]),
        ('"erdos--renyi"', [1, 2]),
        ('"network\'s"', [3, 4]),  # either apostrophe for either
        ('"network\u2019s robustness"', [3, 4]),
        ('"networks\' robustness"', [5]),
        ('"networks robustness"', [6]),  # an apostrophe is no space: as the straight one
        ("network's", [3, 4]),  # typed with punctuation: ranked first where it stands so
    ],
)
def test_a_phrase_finds_words_joined_by_latex_dashes_and_either_apostrophe(
    tmp_path: Path, query: str, found: list[int]
) -> None:
    papers = [Paper.from_abstract(text, "C", Path("x.jsonl")) for text in JOINED]
    built = FlatIndex.of(PaperStore(papers))
    ranking = built.run(parse_query(query))
    assert sorted(ranking.numbers[: len(found)].tolist()) == found
    if query.startswith('"'):
        assert ranking.full == len(found)
    _same(_kept(tmp_path, papers, "x"), built, [query])


def test_the_search_command_finds_such_a_phrase_indexed_and_then_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    papers_file = tmp_path / "papers.jsonl"
    papers_file.write_text(
        "".join(json.dumps({"title": "", "abstract": text}) + "\n" for text in JOINED),
        encoding="utf-8",
    )
    runs = []
    for _ in range(2):  # the first indexes the papers and keeps them, the second reads those
        assert main(["search", '"Erdos Renyi" graph', str(papers_file)]) == 0
        runs.append(capsys.readouterr().out)
    assert list((tmp_path / "cache").iterdir())
    assert runs[0] == runs[1] and len(runs[0].splitlines()) == 2


SPACED = [
    r"The Erdos Renyis, and the Erd\H{o}s--R\'enyi graph.",  # whole only with its dashes
    r"An Erd\H{o}s--R\'enyi graph and an Erdos Renyi one.",  # both ways, each whole
    "Time -- and frequency: a neural network, single-spaced.",  # a run elsewhere only
    "Time -- and frequency: a neural net, and a network.",  # a run, the phrase nowhere
    "Time and frequency: a neural network.",  # no run
    r"A neural--network pair, and the Erdos Renyis.",  # the phrase by its dashes alone
]


@pytest.mark.parametrize(
    ("queries", "found"),
    [
        (['"Erdos Renyi"'], [[0, 1]]),
        (['"neural network"'], [[2, 4, 5]]),
        # The papers known to hold a run of spaces, or not, kept from one phrase to the next.
        (['"neural network"', '"erdos renyi"', '"neural network'], [[2, 4, 5], [0, 1], [2, 4, 5]]),
        (['"time and frequency"', '"time and'], [[2, 3, 4], [2, 3, 4]]),
    ],
)
def test_a_phrase_is_found_as_by_its_pattern_beside_runs_of_spaces_in_the_text(
    tmp_path: Path, queries: list[str], found: list[list[int]]
) -> None:
    """A phrase is found single-spaced, and by the pattern only in the texts holding a run
    of spaces: whether it stands there single-spaced, with dashes, or both."""
    papers = [Paper.from_abstract(text, "C", Path("x.jsonl")) for text in SPACED]
    built, kept = FlatIndex.of(PaperStore(papers)), _kept(tmp_path, papers, "x")
    for query, holding in zip(queries, found, strict=True):
        for index in (built, kept):
            ranking = index.run(parse_query(query))
            assert sorted(ranking.numbers.tolist()) == holding, query
            assert ranking.full == len(holding), query
