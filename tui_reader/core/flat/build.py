"""Index papers into a few flat arrays, a chunk of papers at a time.

Each chunk's texts are joined by NUL characters and read by one regex (C speed, no Python
loop per word); NUL stands between papers, so counting NULs gives each word its paper. A
word's id is its place in the vocabulary in the order first seen; `order` lists the ids in
alphabetical order, for prefixes. Postings (the sorted paper numbers of each word, each paper
once) are one int32 array with int64 offsets, per field:

- `all`: every word of the paper, as core.flat.fold reads it, and hyphenated compounds joined
  ("co-training" is also "cotraining");
- `title` (headline and title), `author`, `venue` (venue and collection);
- `cased`: words written with a capital ("SAM", "GPs"), as written, over their own vocabulary.

The folded text of each paper is kept too (`text`, UTF-8, each paper ended by a NUL), for
phrases and for ranking by how close the terms stand.
"""

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.fold import fold
from tui_reader.core.paper import Paper

Array = npt.NDArray[np.generic]
Arrays = dict[str, Array]

CHUNK = 8192  # papers read at once
FIELDS = ("all", "title", "author", "venue")
_WORDS = re.compile(r"\w+|\x00")
_COMPOUNDS = re.compile(r"\b\w++(?:-\w++)+|\x00")  # possessive: no backtracking
# Words with a capital letter (Latin, Greek, Cyrillic), as the case-sensitive index keeps them.
_CASED = re.compile(r"\b(?=\w*[A-ZÀ-ÖØ-ÞΑ-ΩЀ-Я])\w+|\x00")
SEPARATOR = "\x00"


class _Vocabulary:
    """Words to ids in the order first seen; id 0 is the separator between papers."""

    def __init__(self) -> None:
        ids: defaultdict[str, int] = defaultdict()
        ids.default_factory = ids.__len__
        ids[SEPARATOR] = 0
        self.ids = ids

    def of(self, tokens: list[str]) -> npt.NDArray[np.int32]:
        return np.fromiter(map(self.ids.__getitem__, tokens), dtype=np.int32, count=len(tokens))

    def arrays(self, prefix: str) -> Arrays:
        """The words (without the separator) as UTF-8 with offsets, and their sorted order."""
        words = list(self.ids)[1:]
        order = np.asarray(sorted(range(len(words)), key=words.__getitem__), dtype=np.int32)
        return _strings(f"{prefix}words", words) | {f"{prefix}order": order}


class _Postings:
    """The (word, paper) pairs of each chunk, merged into one array at the end."""

    def __init__(self) -> None:
        self.chunks: list[tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]] = []

    def add(self, streams: Iterable[npt.NDArray[np.int32]], first: int, count: int) -> None:
        """Add a chunk of `count` papers from `first`: each stream holds word ids with 0
        between papers."""
        keys = []
        for ids in streams:
            paper = np.cumsum(ids == 0)
            kept = ids != 0
            keys.append((ids[kept].astype(np.int64) - 1) * (count + 1) + paper[kept])
        pairs = np.sort(np.concatenate(keys))  # by word, then paper; each pair once:
        unique = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))[: len(pairs)]]
        words, papers = np.divmod(unique, count + 1)
        self.chunks.append((words.astype(np.int32), (papers + first).astype(np.int32)))

    def arrays(self, name: str, vocabulary_size: int) -> Arrays:
        counts = np.zeros(vocabulary_size, dtype=np.int64)
        for words, _ in self.chunks:
            counts += np.bincount(words, minlength=vocabulary_size)
        offsets = np.zeros(vocabulary_size + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        papers = np.empty(int(offsets[-1]), dtype=np.int32)
        cursor = offsets[:-1].copy()
        while self.chunks:  # chunks in paper order: each word's papers stay sorted
            words, numbers = self.chunks.pop(0)
            here = np.bincount(words, minlength=vocabulary_size)
            starts = np.cumsum(here) - here  # where each word's run starts in this chunk
            papers[cursor[words] + np.arange(len(words)) - starts[words]] = numbers
            cursor += here
        return {f"{name}_offsets": offsets, f"{name}_papers": papers}


def _joined(papers: Sequence[Paper], text: Callable[[Paper], str]) -> str:
    joined = SEPARATOR.join(map(text, papers)) + SEPARATOR
    if joined.count(SEPARATOR) != len(papers):  # a paper's own NUL would split it in two
        joined = SEPARATOR.join(text(paper).replace(SEPARATOR, " ") for paper in papers) + SEPARATOR
    return joined


def _compounds(text: str) -> list[str]:
    """The hyphenated compounds of a text, and its paper separators."""
    pieces = " ".join(p for p in text.split() if "-" in p or SEPARATOR in p)
    return _COMPOUNDS.findall(pieces)


def _searched_text(paper: Paper) -> str:
    authors = " ".join(paper.authors)
    venue = f"{paper.venue}\n{paper.collection}"
    return f"{paper.headline}\n{paper.title}\n{paper.abstract}\n{authors}\n{venue}"


def build_arrays(papers: Sequence[Paper]) -> Arrays:
    """The index of these papers, numbered in their order, as named arrays."""
    vocabulary, cased = _Vocabulary(), _Vocabulary()
    postings = {name: _Postings() for name in (*FIELDS, "cased")}
    compounds: dict[str, str] = {}  # "cotraining": "co-training", to highlight what was typed
    texts: list[bytes] = []
    for first in range(0, len(papers), CHUNK):
        chunk = papers[first : first + CHUNK]
        count = len(chunk)
        folded = fold(_joined(chunk, _searched_text))
        texts.append(folded.encode())
        streams = [vocabulary.of(_WORDS.findall(folded))]
        found = _compounds(folded)
        for compound in found:
            if compound != SEPARATOR:
                compounds.setdefault(compound.replace("-", ""), compound)
        streams.append(vocabulary.of([compound.replace("-", "") for compound in found]))
        postings["all"].add(streams, first, count)
        for name, text in (
            ("title", lambda paper: f"{paper.headline} {paper.title}"),
            ("author", lambda paper: " ".join(paper.authors)),
            ("venue", lambda paper: f"{paper.venue} {paper.collection}"),
        ):
            field = fold(_joined(chunk, text))
            joined = [c.replace("-", "") for c in _compounds(field)]
            field_streams = [vocabulary.of(_WORDS.findall(field)), vocabulary.of(joined)]
            postings[name].add(field_streams, first, count)
        raw = _joined(chunk, lambda paper: f"{paper.headline} {paper.title} {paper.abstract}")
        # Only pieces with a capital (or a paper's end) can hold one: 10x faster than the
        # regex over everything.
        pieces = " ".join(p for p in raw.split() if not p.islower() or SEPARATOR in p)
        postings["cased"].add([cased.of(_CASED.findall(pieces))], first, count)
    arrays: Arrays = {"papers": np.asarray([len(papers)], dtype=np.int64)}
    arrays |= vocabulary.arrays("")
    arrays |= cased.arrays("cased_")
    for name in FIELDS:
        arrays |= postings[name].arrays(name, len(vocabulary.ids) - 1)
    arrays |= postings["cased"].arrays("cased", len(cased.ids) - 1)
    blob = b"".join(texts)
    ends = np.flatnonzero(np.frombuffer(blob, dtype=np.uint8) == 0)
    arrays["text"] = np.frombuffer(blob, dtype=np.uint8)
    arrays["text_offsets"] = np.concatenate(([0], ends + 1)).astype(np.int64)
    joined_words = sorted(compounds)
    arrays |= _strings("compound_keys", joined_words)
    arrays |= _strings("compound_values", [compounds[word] for word in joined_words])
    return arrays


def _strings(name: str, strings: list[str]) -> Arrays:
    """Strings as one UTF-8 array with offsets."""
    encoded = [string.encode() for string in strings]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)), out=offsets[1:])
    return {name: np.frombuffer(b"".join(encoded), dtype=np.uint8), f"{name}_offsets": offsets}


def strings_of(data: Array, offsets: Array) -> list[str]:
    """The strings `_strings` kept, decoded."""
    blob = np.asarray(data).tobytes()
    bounds = np.asarray(offsets).tolist()
    return [blob[start:end].decode() for start, end in pairwise(bounds)]
