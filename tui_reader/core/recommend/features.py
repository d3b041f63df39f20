"""What the recommendations learn from: each paper's words, pairs of words and authors as
TF-IDF, one sparse row a paper, over a vocabulary of the VOCABULARY commonest words and pairs
and the AUTHORS commonest authors.

A word is a run of letters and digits beginning with a letter, of two characters or more, in
lower case, in the text as written before PDF extraction broke it (`text.without_debris`);
common English words are left out, and a pair is two words that follow each other
once those are left out (as scikit-learn's vectorizer pairs them). Each word and pair is
hashed (CRC-32, the same in every process) into one of FEATURES columns, and each author into
one of FEATURES columns of their own, after them (no word shares an author's column); what a
column stands for is found again from the paper's own text (`names_in`). As arxiv-sanity-lite
keeps its 20,000 commonest terms, only the VOCABULARY words and pairs found most often and the
AUTHORS authors named on most papers count, each in two papers or more: a word of a few papers
lets a model learn the few papers it was shown by heart rather than what they are about. A
value is the sublinear term frequency (1 + log tf) times the smoothed inverse document
frequency. A row's words and pairs are made of length 1 and its authors of length
AUTHOR_WEIGHT, apart, and the whole row then divided by the length both would have (a row
with both has length 1, one with words alone 0.82): an author's few columns weigh as much
beside a long abstract as beside a short one.

The rows are kept in the cache as `.npy` arrays (CSR: `starts`, `columns` as places in the
vocabulary, `values`; `vocabulary`, the hashed column of each place, `idf`, its weight, and
`keys`, the key of each paper's id) beside a JSON manifest naming the format, its VERSION, a
digest of the papers' ids in order, how many of the vocabulary's places are authors (the
last), how many rows were made since the last whole build and
each array's CRC-32, taken as it is written (core.flat.disk.save_array) and checked at each
open (0.1 s at a million papers, their files in memory): rows of other words or weights would
be learnt from. They are opened by memory map, never unpickled, from regular files of the
folder's own (no link followed); anything else is rejected and built again.

Papers added to those of kept rows (a day's papers) get rows of their own, weighed by the
kept vocabulary and IDF (`extended`); the kept papers' rows are taken as they are. Once the
rows made so since the last whole build are more than AGAIN of the papers, they are all
built again: the vocabulary and IDF follow the collection.
"""

import hashlib
import json
import re
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tui_reader.core import wording
from tui_reader.core.flat import disk
from tui_reader.core.store import PaperStore
from tui_reader.core.text import without_debris
from tui_reader.core.topic_words import STOP_WORDS

FORMAT = "tui-reader recommend features"
VERSION = 7  # 4: the IDF and the papers' keys kept, rows made for papers added; 5: digests;
# 6: the authors weighed apart from the words; 7: the authors in columns of their own
# Bits of a hashed column: at 18, each of the 20,000 columns kept mixed a common pair with some
# ten rare ones, and the simulated readers' precision fell by one or two hundredths.
BITS = 24
FEATURES = 1 << BITS
COLUMNS = 2 * FEATURES  # the words' and pairs' FEATURES, then the authors' as many
VOCABULARY = 20_000  # words and pairs a row keeps: arxiv-sanity-lite's max_features
# Authors a row keeps (the places of the vocabulary stay under 65,536, a row's column a uint16)
AUTHORS = 40_000
AUTHOR_WEIGHT = 0.7  # the length of a row's authors, its words' being 1 (benchmarks/RESULTS.md)
AGAIN = 0.1  # rows made for papers added since the last whole build, of all, built whole past it
CHUNK = 10_000  # papers hashed at once: bounds the memory a build takes
SCORED_AT_ONCE = 1 << 18  # values of the rows scored at once: a megabyte of products
MANIFEST = "manifest.json"
MANIFEST_LIMIT = 1_000_000  # bytes; a bigger manifest is not ours

# Multipliers spreading a word's hash, and a pair's, over the columns (Fibonacci hashing).
_SPREAD = np.uint64(0x9E3779B97F4A7C15)
_PAIR = np.uint64(0xC2B2AE3D27D4EB4F)
_SHIFT = np.uint64(64 - BITS)

Floats = npt.NDArray[np.float32]


class Rejected(Exception):
    """Kept features that are not a sound copy for these papers (built again)."""


@dataclass(frozen=True)
class Features:
    """One row per paper (CSR): row n's columns are `columns[starts[n]:starts[n + 1]]`, each a
    place in `vocabulary`, which holds the hashed column it stands for: words and pairs, then
    the last `authors` places, authors."""

    starts: npt.NDArray[np.int64]
    columns: npt.NDArray[np.uint16]
    values: Floats
    vocabulary: npt.NDArray[np.int32]
    idf: Floats | None = None  # each place's weight; None: not known (rows not kept)
    keys: npt.NDArray[np.int64] | None = None  # the key of each paper's id
    added: int = 0  # rows made for papers added since the last whole build
    authors: int = 0  # the vocabulary's last places that are authors

    def __len__(self) -> int:
        return len(self.starts) - 1

    def scores(self, weights: Floats, bias: float = 0.0) -> Floats:
        """Each paper's row times the weights (one per place in the vocabulary), plus the
        bias: the rows of SCORED_AT_ONCE values at a time, whose products stay in the
        processor's cache (all at once took half as long again: 90 ms at 100,000 papers, the
        for-you order's every decision)."""
        weights = np.asarray(weights, dtype=np.float32)
        sums = np.zeros(len(self), dtype=np.float32)
        room = np.empty(SCORED_AT_ONCE, dtype=np.float32)
        first, starts = 0, self.starts
        while first < len(self):
            end = int(np.searchsorted(starts, starts[first] + SCORED_AT_ONCE, "right")) - 1
            last = min(max(end, first + 1), len(self))  # a row longer than the room: alone
            start, stop = int(starts[first]), int(starts[last])
            size = stop - start
            products = room[:size] if size <= len(room) else np.empty(size, dtype=np.float32)
            np.take(weights, self.columns[start:stop], out=products)
            products *= self.values[start:stop]
            rows = np.flatnonzero(np.diff(starts[first : last + 1]))
            if len(rows):
                sums[first + rows] = np.add.reduceat(products, starts[first + rows] - start)
            first = last
        result: Floats = sums + np.float32(bias)
        return result

    def row(self, number: int) -> tuple[npt.NDArray[np.uint16], Floats]:
        start, stop = int(self.starts[number]), int(self.starts[number + 1])
        return self.columns[start:stop], self.values[start:stop]

    def entries(self, numbers: npt.NDArray[np.int64]) -> "Entries":
        """The rows of these papers, entry by entry."""
        starts = self.starts[numbers]
        lengths = self.starts[numbers + 1] - starts
        first = np.cumsum(lengths) - lengths
        spans = np.repeat(starts - first, lengths) + np.arange(int(lengths.sum()))
        return Entries(
            np.repeat(np.arange(len(numbers)), lengths),
            np.asarray(self.columns[spans], dtype=np.int64),
            np.asarray(self.values[spans], dtype=np.float64),
        )


@dataclass(frozen=True)
class Entries:
    """Entries of some rows: each one's row (a place among the rows asked for), column and
    value."""

    owners: npt.NDArray[np.int64]
    columns: npt.NDArray[np.int64]
    values: npt.NDArray[np.float64]


def _tokens(texts: list[str]) -> tuple[list[str], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The words of each text that count, split at once by Arrow: the distinct words, and for
    each word in order its place among them and the text it is in."""
    import pyarrow as pa  # when rows are built or named, not when kept ones are read (0.2 s)
    import pyarrow.compute as pc

    lowered = pc.utf8_lower(pa.array([without_debris(text) for text in texts], pa.large_string()))
    split = pc.split_pattern_regex(lowered, pattern=r"[^\pL\pN]+")
    flat, owners = pc.list_flatten(split), pc.list_parent_indices(split)
    counting = pc.and_(
        pc.match_substring_regex(flat, pattern=r"^\pL[\pL\pN]"),
        pc.invert(pc.is_in(flat, value_set=pa.array(sorted(STOP_WORDS)))),
    )
    encoded = pc.dictionary_encode(pc.filter(flat, counting))
    places = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    kept = pc.filter(owners, counting).to_numpy(zero_copy_only=False).astype(np.int64)
    return encoded.dictionary.to_pylist(), places, kept


def _hash(word: str) -> int:
    return zlib.crc32(word.encode("utf-8", "surrogatepass"))


def _word_columns(hashes: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    columns: npt.NDArray[np.int64] = ((hashes * _SPREAD) >> _SHIFT).astype(np.int64)
    return columns


def _pair_columns(
    first: npt.NDArray[np.uint64], second: npt.NDArray[np.uint64]
) -> npt.NDArray[np.int64]:
    columns: npt.NDArray[np.int64] = (((first * _PAIR) ^ second) * _SPREAD >> _SHIFT).astype(
        np.int64
    )
    return columns


def _author_columns(authors: Sequence[str]) -> npt.NDArray[np.int64]:
    """The columns of these authors (no word's or pair's)."""
    keys = np.array([_hash(" ".join(author.lower().split())) for author in authors], np.uint64)
    return _word_columns(keys) + FEATURES


_WORD = re.compile(r"[^\W_]+")  # letters and digits, as `_tokens` splits at the rest


def _words(text: str) -> list[str]:
    """The words of one text that count, as `_tokens` finds them (but for a rare letter Python
    lowers otherwise: İ, a final Σ): Arrow's calls cost a millisecond each, which one paper's
    few hundred words do not need."""
    found = _WORD.findall(without_debris(text).lower())
    return [
        word for word in found if word[0].isalpha() and len(word) > 1 and word not in STOP_WORDS
    ]


def names_in(title: str, abstract: str, authors: Sequence[str]) -> dict[int, str]:
    """What each column a paper has stands for in it: a word, two words, or an author."""
    names: dict[int, str] = {}
    words = _words(f"{title}\n{abstract}")
    hashes = np.array([_hash(word) for word in words], dtype=np.uint64)
    for column, word in zip(_word_columns(hashes).tolist(), words, strict=True):
        names.setdefault(column, word)
    pairs = _pair_columns(hashes[:-1], hashes[1:]).tolist() if len(words) > 1 else []
    for column, first, second in zip(pairs, words, words[1:], strict=False):
        names.setdefault(column, f"{first} {second}")
    named = [author.strip() for author in authors if author.strip()]
    for column, author in zip(_author_columns(named).tolist(), named, strict=True):
        names.setdefault(column, author)
    return names


# A word PDF extraction broke where a line ended: "previ- ous".
_BROKEN = re.compile(r"([^\W\d_]+)- ([^\W\d_]+)")


def broken_halves(text: str, vocabulary: npt.NDArray[np.int32]) -> frozenset[str]:
    """The halves of the words of `text` broken where a line ended ("previ", "ous") whose
    whole is a word of the vocabulary (hashed columns), and which the text holds nowhere
    else: no word of the paper's to name."""
    # A second half in capitals is a word of its own ("Bayes- Optimal" is no line's end).
    pairs = _BROKEN.findall(text)
    broken = [(first.lower(), second) for first, second in pairs if second[0].islower()]
    if not broken:
        return frozenset()
    wholes = np.array([_hash(first + second) for first, second in broken], dtype=np.uint64)
    known = np.isin(_word_columns(wholes), vocabulary).tolist()
    halves = {half for pair, whole in zip(broken, known, strict=True) if whole for half in pair}
    elsewhere = set(re.split(r"[^\w]+", _BROKEN.sub(" ", text.lower())))
    return frozenset(halves - elsewhere)


def _texts(papers: PaperStore, start: int, stop: int) -> Iterator[tuple[str, str, Sequence[str]]]:
    """Title (else headline), abstract and authors of papers start to stop."""
    titles, headlines = papers.texts("title", start, stop), papers.texts("headline", start, stop)
    abstracts = papers.texts("abstract", start, stop)
    heads = [t or h for t, h in zip(titles, headlines, strict=True)]
    yield from zip(heads, abstracts, papers.author_lists(start, stop), strict=True)


def _chunk_counts(
    papers: PaperStore, start: int, stop: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The (paper, column) keys of papers start to stop, sorted, and how often each occurs."""
    texts, authors, author_owners = [], [], []
    for local, (title, abstract, names) in enumerate(_texts(papers, start, stop)):
        texts.append(f"{title}\n{abstract}")
        named = [name for name in names if name.strip()]
        authors += named
        author_owners += [local] * len(named)
    distinct, places, owner = _tokens(texts)
    flat = np.array([_hash(word) for word in distinct], dtype=np.uint64)[places]
    same = owner[:-1] == owner[1:]
    columns = np.concatenate(
        [
            _word_columns(flat),
            _pair_columns(flat[:-1][same], flat[1:][same]),
            _author_columns(authors),
        ]
    )
    rows = np.concatenate([owner, owner[:-1][same], np.array(author_owners, dtype=np.int64)])
    keys, counts = np.unique(rows * COLUMNS + columns, return_counts=True)
    return keys, counts


# A chunk's papers' numbers of entries, and the entries' columns and counts.
Counted = tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.uint16]]


def build(papers: PaperStore) -> Features:
    """The TF-IDF rows of these papers, in their order. The chunks' entries are counted
    first (6 bytes each: 1 GB at a million papers) to know the vocabulary, then each chunk's
    are weighed into the rows and let go."""
    total = len(papers)
    documents = np.zeros(COLUMNS, dtype=np.int32)  # papers holding each column
    occurrences = np.zeros(FEATURES, dtype=np.int64)  # of each word and pair
    parts: list[Counted | None] = []
    for start in range(0, total, CHUNK):
        stop = min(start + CHUNK, total)
        keys, counts = _chunk_counts(papers, start, stop)
        columns = (keys % COLUMNS).astype(np.int32)
        documents += np.bincount(columns, minlength=COLUMNS).astype(np.int32)
        words = columns < FEATURES
        occurrences += np.bincount(columns[words], counts[words], FEATURES).astype(np.int64)
        lengths = np.bincount(keys // COLUMNS, minlength=stop - start)
        parts.append((lengths, columns, np.minimum(counts, 65535).astype(np.uint16)))
    vocabulary, authors = _vocabulary(documents, occurrences)
    place = np.full(COLUMNS, -1, dtype=np.int32)
    place[vocabulary] = np.arange(len(vocabulary))
    idf = (np.log((1.0 + total) / (1.0 + documents[vocabulary])) + 1.0).astype(np.float32)
    size = sum(int(np.count_nonzero(place[part[1]] >= 0)) for part in parts if part)
    rows = Features(
        np.zeros(total + 1, dtype=np.int64),
        np.empty(size, dtype=np.uint16),
        np.empty(size, dtype=np.float32),
        vocabulary,
        idf,
        np.array(papers.number_column("keys", total), dtype=np.int64),
        authors=authors,
    )
    first = 0
    for number, part in enumerate(parts):
        if part is not None:
            first = _weigh(part, place, idf, rows, first)
            parts[number] = None
    return rows


def extended(papers: PaperStore, kept: Features) -> Features | None:
    """The rows of these papers: those of the papers of the kept rows as kept, the others
    made by the kept vocabulary and IDF. None when the rows so made since the last whole
    build would be more than AGAIN of the papers, or the kept rows say no IDF or keys."""
    if kept.idf is None or kept.keys is None:
        return None
    total = len(papers)
    keys = np.array(papers.number_column("keys", total), dtype=np.int64)
    order = np.argsort(kept.keys, kind="stable")
    at = np.searchsorted(kept.keys, keys, sorter=order).clip(max=max(len(order) - 1, 0))
    source = order[at] if len(order) else np.zeros(total, dtype=np.int64)
    found = kept.keys[source] == keys if len(order) else np.zeros(total, dtype=bool)
    new = np.flatnonzero(~found)
    added = kept.added + len(new)
    if added > AGAIN * total:
        return None
    made = _rows_of(papers, new, kept.vocabulary, kept.idf, kept.authors)
    lengths = np.zeros(total, dtype=np.int64)
    lengths[found] = np.diff(kept.starts)[source[found]]
    lengths[new] = np.diff(made.starts)
    starts = np.zeros(total + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    rows = Features(
        starts,
        np.empty(int(starts[-1]), dtype=np.uint16),
        np.empty(int(starts[-1]), dtype=np.float32),
        kept.vocabulary,
        kept.idf,
        keys,
        added,
        kept.authors,
    )
    for first in range(0, total, CHUNK * 10):
        numbers = np.arange(first, min(first + CHUNK * 10, total))
        _copy(kept, source[numbers], numbers[found[numbers]], found[numbers], rows)
    _copy(made, np.arange(len(new)), new, np.ones(len(new), dtype=bool), rows)
    return rows


def _copy(
    rows: Features,
    sources: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int64],
    taken: npt.NDArray[np.bool_],
    into: Features,
) -> None:
    """Copy the rows `sources[taken]` of `rows` into rows `targets` of `into`."""
    sources = sources[taken]
    lengths = rows.starts[sources + 1] - rows.starts[sources]
    within = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    read = np.repeat(rows.starts[sources], lengths) + within
    write = np.repeat(into.starts[targets], lengths) + within
    into.columns[write] = rows.columns[read]
    into.values[write] = rows.values[read]


def _rows_of(
    papers: PaperStore,
    numbers: npt.NDArray[np.int64],
    vocabulary: npt.NDArray[np.int32],
    idf: Floats,
    authors: int,
) -> Features:
    """The rows of these papers (in their order) by a vocabulary (its last `authors` places
    authors) and its IDF."""
    place = np.full(COLUMNS, -1, dtype=np.int32)
    place[vocabulary] = np.arange(len(vocabulary))
    runs = np.split(numbers, np.flatnonzero(np.diff(numbers) != 1) + 1) if len(numbers) else []
    parts: list[Counted] = []
    for run in runs:
        for start in range(int(run[0]), int(run[-1]) + 1, CHUNK):
            stop = min(start + CHUNK, int(run[-1]) + 1)
            keys, counts = _chunk_counts(papers, start, stop)
            columns = (keys % COLUMNS).astype(np.int32)
            lengths = np.bincount(keys // COLUMNS, minlength=stop - start)
            parts.append((lengths, columns, np.minimum(counts, 65535).astype(np.uint16)))
    size = sum(int(np.count_nonzero(place[part[1]] >= 0)) for part in parts)
    rows = Features(
        np.zeros(len(numbers) + 1, dtype=np.int64),
        np.empty(size, dtype=np.uint16),
        np.empty(size, dtype=np.float32),
        vocabulary,
        authors=authors,
    )
    first = 0
    for part in parts:
        first = _weigh(part, place, idf, rows, first)
    return rows


def _weigh(
    part: Counted, place: npt.NDArray[np.int32], idf: Floats, rows: Features, first: int
) -> int:
    """Write a chunk's rows into `rows`, from paper `first` on; the next chunk's first."""
    lengths, columns, counts = part
    found = place[columns]
    kept = found >= 0
    owners = np.repeat(np.arange(len(lengths)), lengths)[kept]
    values = (1.0 + np.log(counts[kept])).astype(np.float32) * idf[found[kept]]
    # Words and pairs are the vocabulary's first places, authors its last: each part a length
    by_author = (found[kept] >= len(rows.vocabulary) - rows.authors).astype(np.int64)
    parts = owners * 2 + by_author
    norms = np.sqrt(np.bincount(parts, values.astype(np.float64) ** 2, 2 * len(lengths)))
    lengths_to_be = np.array([1.0, AUTHOR_WEIGHT]) / np.hypot(1.0, AUTHOR_WEIGHT)
    values *= (lengths_to_be[by_author] / np.maximum(norms[parts], 1e-12)).astype(np.float32)
    at = int(rows.starts[first])
    rows.columns[at : at + len(values)] = found[kept]
    rows.values[at : at + len(values)] = values
    ends = at + np.cumsum(np.bincount(owners, minlength=len(lengths)))
    rows.starts[first + 1 : first + 1 + len(lengths)] = ends
    return first + len(lengths)


def _vocabulary(
    documents: npt.NDArray[np.int32], occurrences: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int32], int]:
    """The VOCABULARY words and pairs found most often, then the AUTHORS authors named on
    most papers, each among those in two papers or more (ties: the lower column first), in
    column order; and how many authors."""
    words = np.flatnonzero(documents[:FEATURES] >= 2)
    authors = np.flatnonzero(documents[FEATURES:] >= 2)
    chosen = [
        np.sort(words[np.lexsort((words, -occurrences[words]))[:VOCABULARY]]),
        np.sort(authors[np.lexsort((authors, -documents[FEATURES:][authors]))[:AUTHORS]])
        + FEATURES,
    ]
    vocabulary: npt.NDArray[np.int32] = np.concatenate(chosen).astype(np.int32)
    return vocabulary, len(chosen[1])


def papers_digest(papers: PaperStore) -> str:
    """What names these papers in their order: a digest of their ids."""
    digest = hashlib.sha256()
    for start in range(0, len(papers), 100_000):
        digest.update(b"\n".join(papers.utf8("id", start, start + 100_000)) + b"\n")
    return digest.hexdigest()


def save(folder: Path, features: Features, digest: str) -> None:
    """Write the rows and their manifest into `folder` (a new folder, renamed into place by
    the caller)."""
    assert features.idf is not None and features.keys is not None
    arrays: dict[str, npt.NDArray[Any]] = {
        "starts": features.starts,
        "columns": features.columns,
        "values": features.values,
        "vocabulary": features.vocabulary,
        "idf": features.idf,
        "keys": features.keys,
    }
    shapes, digests = {}, {}
    for name, array in arrays.items():
        digests[name] = disk.save_array(folder / f"{name}.npy", array)
        shapes[name] = {"dtype": array.dtype.str, "shape": list(array.shape)}
    manifest = {"format": FORMAT, "version": VERSION, "features": FEATURES, "papers": digest}
    manifest |= {"count": len(features), "added": features.added, "authors": features.authors}
    manifest |= {"digests": digests}
    (folder / MANIFEST).write_text(json.dumps(manifest | {"arrays": shapes}))


def open_kept(folder: Path, digest: str, count: int) -> Features:
    """The rows kept in `folder` for the papers `digest` names, memory-mapped. Rejected when
    they are missing, of another format or version or papers, or not sound."""
    manifest = read_manifest(folder / MANIFEST)
    expected = {"format": FORMAT, "version": VERSION, "features": FEATURES, "papers": digest}
    if any(manifest.get(key) != value for key, value in expected.items()):
        raise Rejected(f"{folder}: kept for other papers or by another version")
    types = {"starts": "<i8", "columns": "<u2", "values": "<f4", "vocabulary": "<i4"}
    types |= {"idf": "<f4", "keys": "<i8"}
    described, digests = manifest.get("arrays"), manifest.get("digests")
    if (
        not isinstance(described, dict)
        or not isinstance(digests, dict)
        or set(digests) != set(types)
    ):
        raise Rejected(f"{folder}: not a manifest of ours")
    arrays: dict[str, Any] = {}  # each of its kind, checked below
    for name, kind in types.items():
        try:
            array = disk.mapped(folder, name, described.get(name))
        except disk.Rejected as error:  # a link, cut short, pickled objects, another array
            raise Rejected(str(error)) from None
        if array.dtype.str != kind or array.ndim != 1:
            raise Rejected(f"{folder}: {name} is not an array of {kind}")
        arrays[name] = array
    # Bit rot or a disk's error would be read as other words and weights: each file's bytes
    # are checked at each open (0.1 s a gigabyte, the files in memory).
    if altered := disk.altered(folder, digests):
        raise Rejected(f"{folder}: {', '.join(altered)} damaged")
    starts, columns, values = arrays["starts"], arrays["columns"], arrays["values"]
    vocabulary = np.asarray(arrays["vocabulary"])
    nonzero = len(columns)
    if len(starts) != count + 1 or len(values) != nonzero or starts[0] != 0:
        raise Rejected(f"{folder}: the rows are not those of {wording.count(count, 'paper')}")
    if starts[-1] != nonzero or np.any(np.diff(starts) < 0):
        raise Rejected(f"{folder}: the rows do not add up")
    if len(vocabulary) and (int(vocabulary.min()) < 0 or int(vocabulary.max()) >= COLUMNS):
        raise Rejected(f"{folder}: a word of the vocabulary out of range")
    if nonzero and int(columns.max()) >= len(vocabulary):
        raise Rejected(f"{folder}: a column out of the vocabulary")
    idf, keys, added = arrays["idf"], arrays["keys"], manifest.get("added")
    if len(idf) != len(vocabulary) or len(keys) != count or type(added) is not int:
        raise Rejected(f"{folder}: the IDF or the papers' keys are not those of the rows")
    authors = manifest.get("authors")
    if type(authors) is not int or not 0 <= authors <= len(vocabulary):
        raise Rejected(f"{folder}: the authors are not places of the vocabulary")
    split = len(vocabulary) - authors
    if np.any(vocabulary[:split] >= FEATURES) or np.any(vocabulary[split:] < FEATURES):
        raise Rejected(f"{folder}: the authors are not the vocabulary's last places")
    return Features(starts, columns, values, vocabulary, idf, keys, added, authors)


def open_last(folder: Path) -> Features | None:
    """The rows kept in `folder`, whatever papers they are of; None when they are not sound."""
    try:
        manifest = read_manifest(folder / MANIFEST)
        count, digest = manifest.get("count"), manifest.get("papers")
        if type(count) is not int or not isinstance(digest, str):
            return None
        return open_kept(folder, digest, count)
    except Rejected:
        return None


def own_file(path: Path) -> None:
    """Rejected unless the path is a regular file of the cache (core.flat.disk.own_file)."""
    try:
        disk.own_file(path.parent, path, path.name)
    except disk.Rejected as error:
        raise Rejected(str(error)) from None


def read_manifest(path: Path) -> dict[str, object]:
    """A manifest of ours: a JSON object of a bounded size in a regular file (`own_file`);
    Rejected otherwise."""
    own_file(path)
    try:
        with path.open("rb") as file:
            raw = file.read(MANIFEST_LIMIT + 1)
        manifest = json.loads(raw) if len(raw) <= MANIFEST_LIMIT else None
    except (OSError, ValueError, RecursionError) as error:
        raise Rejected(f"{path}: cannot be read ({error})") from None
    if not isinstance(manifest, dict):
        raise Rejected(f"{path}: not a manifest of ours")
    return manifest
