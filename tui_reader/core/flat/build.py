"""Index papers into a few flat arrays, a chunk of papers at a time, on every core.

A chunk's texts are joined (NUL between papers, SOH between a paper's fields), their LaTeX
unwrapped (core.flat.fold), and cut into raw tokens in bulk: `bytes.translate` turns every
ASCII byte that is not a letter, digit, `_` or `-` into a space, and Arrow (in a pool's
processes; `bytes.split` and a dict here) splits the text and numbers the chunk's distinct
tokens. Each raw token ("Co-Training", "Schrödinger", "model's")
is read once per process into the words search knows (casefolded, accents dropped, a
hyphenated compound also joined: co, training, cotraining) and its capitalised words as written
(Co, Training); a chunk's distinct tokens cost one dict look-up each. Postings then come from
numpy: each chunk's (word, paper) pairs made unique by `np.unique`, merged at the end into one
int32 array per field with int64 offsets, in paper order (core.flat.postings: a big index's
in a temporary file, mapped). Chunks are read by a pool of
processes when there are several, each keeping its own table of tokens; only arrays, the new
words and the folded text come back.

Words are numbered in alphabetical order, so prefixes are ranges of ids. Fields:

- `all`: every word of the paper (headline, title, abstract, authors, venue);
- `title` (headline and title), `author`, `venue` (venue and the collection's name: a file's
  name is no word of its papers, `since` does not find every paper fetched "since 2026-12-01");
- `cased`: words written with a capital ("SAM", "GPs"), as written, over their own vocabulary
  (not the collection's name).

Each paper's number of distinct words is kept (`paper_words`, for related papers), whether it
has no title (`untitled`: its words are weighed as a title's would be), and the
folded text of each paper too (`text`, UTF-8, each paper ended by a NUL), for
phrases, for ranking by how close the terms stand, and for related papers.
"""

import mmap
import os
import re
from array import array
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.fold import fold_rest, phrase_text, unwrap_latex_utf8
from tui_reader.core.flat.postings import Chunk, postings
from tui_reader.core.flat.words import Arrays, strings
from tui_reader.core.pools import process_pool
from tui_reader.core.scratch import scratch, scratch_file

if TYPE_CHECKING:
    pass

Ids = npt.NDArray[np.int32]

CHUNK = 5000  # papers read at once
POOLED_FROM = 4 * CHUNK  # fewer papers are read in this process (a pool costs a second)
FIELDS = ("all", "title", "author", "venue")
# The postings each of a paper's searched fields (SEARCHED) goes to besides `all`; the last,
# the collection's name, goes to `venue` alone.
_FIELD_OF_SEGMENT = np.asarray([1, 1, 0, 2, 3, 3], dtype=np.int8)  # a place in FIELDS
_COLLECTION_SEGMENT = 5
PAPER_END, FIELD_END = "\x00", "\x01"
_PAPER_END, _FIELD_END = PAPER_END.encode(), FIELD_END.encode()
_WORDS = re.compile(r"\w+")
_COMPOUNDS = re.compile(r"\w++(?:-\w++)+")  # possessive: no backtracking
_MARKUP = b"${}\\"  # what is left of LaTeX once unwrapped: dropped from the text
_CUT = bytes(
    byte if chr(byte).isalnum() or chr(byte) in "_-\x00\x01" or byte >= 128 else ord(" ")
    for byte in range(256)
)


class Columns(Protocol):
    """Papers kept as columns (core.store.PaperStore): a field of many papers at once."""

    def __len__(self) -> int: ...

    def utf8(self, name: str, start: int = 0, stop: int | None = None) -> list[bytes]: ...


# A paper's searched fields, in order (authors joined by spaces).
SEARCHED = ("headline", "title", "abstract", "authors", "venue", "collection")


def _fields(papers: Columns, start: int, stop: int) -> list[list[bytes]]:
    """The searched fields of papers `start` to `stop` in UTF-8, field by field; a title that
    is the headline is read once."""
    fields = [papers.utf8(name, start, stop) for name in SEARCHED]
    fields[1] = [b"" if t == h else t for h, t in zip(fields[0], fields[1], strict=True)]
    return fields


def _joined(fields: list[list[bytes]]) -> bytes:
    """Papers' searched texts in UTF-8: FIELD_END between a paper's fields, each paper
    ended by PAPER_END; those characters in the text become spaces."""
    count = len(fields[0])
    joined = _interleaved(fields)
    if joined.count(_PAPER_END) != count or joined.count(_FIELD_END) != 5 * count:
        ends_as_spaces = bytes.maketrans(_PAPER_END + _FIELD_END, b"  ")
        joined = _interleaved([[t.translate(ends_as_spaces) for t in f] for f in fields])
    return joined


def _interleaved(fields: list[list[bytes]]) -> bytes:
    """Each paper's fields one after the other, FIELD_END between them, PAPER_END after
    them."""
    count = len(fields[0])
    parts = [_FIELD_END] * (12 * count)
    for place, values in enumerate(fields):
        parts[2 * place :: 12] = values
    parts[11::12] = [_PAPER_END] * count
    return b"".join(parts)


@dataclass
class ChunkRead:
    """What one chunk gives: pairs (word, paper in the chunk) per field, sorted by word then
    paper, in the reading process's own word ids, with the words it met first in this chunk."""

    reader: tuple[int, int]  # the reader (process, table) that read it: its word ids are its own
    new_words: list[str]
    new_cased: list[str]
    compounds: dict[str, str]  # "cotraining": "co-training", to highlight what was typed
    pairs: dict[str, tuple[Ids, Ids]]  # field (and "cased") -> (word ids, papers)
    counts: dict[str, tuple[Ids, Ids]]  # field -> (its distinct word ids, the papers of each)
    paper_words: Ids  # each paper's distinct words (its `all` pairs)
    text: bytes  # the chunk's folded text, each paper ended by PAPER_END


class _TokenWords:
    """Each raw token's words: the first in an array (-1: none), the others (a compound's
    parts, words joined by punctuation other than ASCII) in a short list of their own."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.listed: list[str] = []
        self.first = array("i")
        self.more_offsets = array("q", [0])  # by raw token id, into more
        self.more = array("i")

    def add(self, words: Iterable[str]) -> None:
        """The words of the next raw token."""
        numbers = []
        for word in words:
            number = self.ids.get(word)
            if number is None:
                number = self.ids[word] = len(self.listed)
                self.listed.append(word)
            numbers.append(number)
        self.first.append(numbers[0] if numbers else -1)
        self.more.extend(numbers[1:])
        self.more_offsets.append(len(self.more))

    def add_one(self, word: str | None) -> None:
        """The word of the next raw token (None: it has none)."""
        if word is None:
            self.first.append(-1)
        else:
            number = self.ids.get(word)
            if number is None:
                number = self.ids[word] = len(self.listed)
                self.listed.append(word)
            self.first.append(number)
        self.more_offsets.append(len(self.more))

    def of(self, distinct: Ids, places: Ids, paper: Ids, segment: Ids) -> tuple[Ids, Ids, Ids]:
        """The words of a chunk's raw tokens (`distinct`, the ids of its distinct ones, and the
        place of each token among them), with the paper and segment of each. Each distinct
        token is looked up in the tables once: looked up for every token, the tables of a
        million papers' tokens (megabytes) missed the CPU's cache at each."""
        first = np.frombuffer(self.first, dtype=np.int32)[distinct][places]
        kept = first >= 0
        offsets = np.frombuffer(self.more_offsets, dtype=np.int64)
        begin, end = offsets[:-1][distinct], offsets[1:][distinct]
        with_more = end > begin
        if not with_more.any():
            return first[kept], paper[kept], segment[kept]
        has_more = np.flatnonzero(with_more[places])
        begin, end = begin[places[has_more]], end[places[has_more]]
        lengths = end - begin
        within = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        more = np.frombuffer(self.more, dtype=np.int32)[np.repeat(begin, lengths) + within]
        return (
            np.concatenate((first[kept], more)),
            np.concatenate((paper[kept], np.repeat(paper[has_more], lengths))),
            np.concatenate((segment[kept], np.repeat(segment[has_more], lengths))),
        )


class _Reader:
    """Raw tokens to words, kept for every chunk a process reads."""

    def __init__(self, by_arrow: bool = False) -> None:
        self.by_arrow = by_arrow  # in a pool's process; here a dict (Arrow takes 36 MB)
        self.tokens: defaultdict[bytes, int] = defaultdict()
        self.tokens.default_factory = self.tokens.__len__
        self.words, self.cased = _TokenWords(), _TokenWords()
        for separator in (PAPER_END, FIELD_END):  # raw ids 0 and 1 stand for no word
            self.tokens[separator.encode()]
            self.words.add(())
            self.cased.add(())

    def read(self, joined: bytes, count: int) -> ChunkRead:
        """Read `count` papers' searched texts, each ended by PAPER_END."""
        first_word, first_cased = len(self.words.listed), len(self.cased.listed)
        compounds: dict[str, str] = {}
        raw = unwrap_latex_utf8(joined).translate(None, _MARKUP)
        distinct, places = self._token_ids(raw, compounds)
        # Raw tokens 0 and 1 are the separators: each paper has them.
        paper_end, field_end = (int(np.flatnonzero(distinct == raw_id)[0]) for raw_id in (0, 1))
        ends = places == paper_end
        paper = (np.cumsum(ends) - ends).astype(np.int32)
        fields = np.cumsum(places == field_end, dtype=np.int32)
        segment = (fields - np.concatenate(([0], fields[ends]))[paper]).astype(np.int8)
        words, word_paper, word_segment = self.words.of(distinct, places, paper, segment)
        of_paper = word_segment != _COLLECTION_SEGMENT
        pairs = {"all": _unique_pairs(words[of_paper], word_paper[of_paper], count)}
        field_of = _FIELD_OF_SEGMENT[word_segment]
        for number, name in enumerate(FIELDS[1:], start=1):
            inside = field_of == number
            pairs[name] = _unique_pairs(words[inside], word_paper[inside], count)
        cased, cased_paper, cased_segment = self.cased.of(distinct, places, paper, segment)
        of_paper = cased_segment != _COLLECTION_SEGMENT
        pairs["cased"] = _unique_pairs(cased[of_paper], cased_paper[of_paper], count)
        return ChunkRead(
            (os.getpid(), id(self)),
            self.words.listed[first_word:],
            self.cased.listed[first_cased:],
            compounds,
            pairs,
            {name: _runs(ids) for name, (ids, _) in pairs.items()},
            np.bincount(pairs["all"][1], minlength=count).astype(np.int32),
            _folded_text(raw),
        )

    def _token_ids(self, raw: bytes, compounds: dict[str, str]) -> tuple[Ids, Ids]:
        """The raw ids of the text's distinct tokens, and the place of each token among them;
        new tokens are read into words. The chunk's tokens are numbered first, so only its
        distinct ones are looked up in the table of all (a million papers' tokens: each
        look-up a miss of the CPU's cache)."""
        cut = raw.replace(b"\x00", b" \x00 ").replace(b"\x01", b" \x01 ").translate(_CUT)
        distinct, places = _numbered_by_arrow(cut) if self.by_arrow else _numbered(cut)
        known = len(self.tokens)
        table = self.tokens
        ids = np.fromiter(map(table.__getitem__, distinct), dtype=np.int32, count=len(distinct))
        if len(table) > known:  # new tokens are numbered in the order first met
            self._learn([distinct[i] for i in np.flatnonzero(ids >= known).tolist()], compounds)
        return ids, places

    def _learn(self, tokens: list[bytes], compounds: dict[str, str]) -> None:
        """Read new raw tokens into words."""
        for token in tokens:
            if token.isalnum():  # most: ASCII letters and digits, one word
                lower = token.lower()
                self.words.add_one(lower.decode())
                self.cased.add_one(None if lower == token else token.decode())
                continue
            written = token.decode(errors="replace")  # not UTF-8: a lone surrogate
            if not written.isascii():
                written = fold_rest(written, casefold=False)
            folded = written.casefold()
            found = dict.fromkeys(_WORDS.findall(folded))
            if "-" in folded:
                for compound in _COMPOUNDS.findall(folded):
                    joined = compound.replace("-", "")
                    compounds.setdefault(joined, compound)
                    found[joined] = None
            self.words.add(found)
            capitals = () if folded == written else _WORDS.findall(written)
            self.cased.add(dict.fromkeys(w for w in capitals if w != w.lower()))


def _numbered(text: bytes) -> tuple[list[bytes], Ids]:
    """The distinct tokens of a text (split at spaces) in the order first met, and the
    number of each token among them."""
    distinct: defaultdict[bytes, int] = defaultdict()
    distinct.default_factory = distinct.__len__
    places = np.fromiter(map(distinct.__getitem__, text.split()), dtype=np.int32)
    return list(distinct), places


def _numbered_by_arrow(text: bytes) -> tuple[list[bytes], Ids]:
    """What `_numbered` gives, by Arrow: split and numbered without a Python object a token
    (the token step at a million papers 35 -> 17 µs a paper)."""
    import pyarrow as pa  # once a pool's process indexes (0.2 s), not at every start
    import pyarrow.compute as pc

    tokens = pc.split_pattern(pa.array([text], pa.large_binary()), b" ").flatten()
    numbered = tokens.filter(pc.greater(pc.binary_length(tokens), 0)).dictionary_encode()
    places: Ids = numbered.indices.to_numpy()
    return numbered.dictionary.to_pylist(), places


def _unique_pairs(words: Ids, papers: Ids, count: int) -> tuple[Ids, Ids]:
    """The (word, paper) pairs, each once, sorted by word then paper."""
    # Keys of 32 bits while the words fit (0.86 million at 5,000 papers a chunk): sorted in
    # three fifths of the time 64 bits take.
    fits = not len(words) or (int(words.max()) + 1) * count <= 1 << 32
    kind = np.uint32 if fits else np.int64
    keys = np.sort(words.astype(kind) * count + papers.astype(kind))
    keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))[: len(keys)]]
    found, numbers = np.divmod(keys, count)
    return found.astype(np.int32), numbers.astype(np.int32)


def _runs(words: Ids) -> tuple[Ids, Ids]:
    """The distinct words of sorted word ids, and how many times each stands there."""
    starts = np.flatnonzero(np.concatenate(([True], words[1:] != words[:-1]))[: len(words)])
    return words[starts], np.diff(np.append(starts, len(words))).astype(np.int32)


def _folded_text(raw: bytes) -> bytes:
    """The text as phrases are matched: lower case, accents dropped, dashes as spaces;
    fields on their own lines but the collection's name, each paper ended by a NUL."""
    papers = (text[: text.rfind(_FIELD_END)].translate(_FOR_PHRASES) for text in raw.split(b"\x00"))
    return b"\x00".join(
        text.lower()
        if text.isascii()
        else phrase_text(fold_rest(text.decode(errors="replace"))).encode()
        for text in papers
    )


_FOR_PHRASES = bytes.maketrans(b"\x01-", b"\n ")  # fields on lines, a hyphen a space
_READER: _Reader | None = None


def _read_pooled(joined: bytes, count: int) -> ChunkRead:
    global _READER  # one table of tokens per process of the pool
    if _READER is None:
        _READER = _Reader(by_arrow=True)
    return _READER.read(joined, count)


class _Merged:
    """Chunks' pairs and words, numbered as one index. What is big (each chunk's pairs, the
    folded text) waits in unnamed temporary files (the pairs read back a chunk at a time, the
    text by memory map): the system may drop those pages when memory runs short, where it
    cannot drop the process's own."""

    def __init__(self) -> None:
        self.vocabularies: dict[str, dict[str, int]] = {"words": {}, "cased": {}}
        self.compounds: dict[str, str] = {}
        # Each reading process's word ids to ours.
        self.mapping: dict[tuple[str, tuple[int, int]], Ids] = {}
        self.pairs = scratch_file()  # closed by GrowingIndex.close
        self.text = scratch_file()  # too: each index made reads it by a descriptor of its own
        # For each field, each chunk's first paper, pair count and place in self.pairs.
        self.chunks: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        # For each field, each word's papers (by our ids), counted as the chunks come: the
        # postings are made without reading the pairs once more for them.
        self.counts: dict[str, npt.NDArray[np.int64]] = {}
        self.paper_words: list[tuple[int, Ids]] = []  # each chunk's first paper, its counts
        self.text_ends: list[npt.NDArray[np.int64]] = []  # where each paper's text ends

    def add(self, read: ChunkRead, first: int) -> None:
        for kind, new in (("words", read.new_words), ("cased", read.new_cased)):
            vocabulary = self.vocabularies[kind]
            ours = np.fromiter(
                (vocabulary.setdefault(word, len(vocabulary)) for word in new), np.int32, len(new)
            )
            before = self.mapping.get((kind, read.reader), np.zeros(0, dtype=np.int32))
            self.mapping[kind, read.reader] = np.concatenate((before, ours))
        for joined, compound in read.compounds.items():
            self.compounds.setdefault(joined, compound)
        with scratch():
            for name, (ids, papers) in read.pairs.items():
                kind = "cased" if name == "cased" else "words"
                mapping = self.mapping[kind, read.reader]
                words, counts = read.counts[name]
                self._count(name, mapping[words], counts, len(self.vocabularies[kind]))
                self.chunks[name].append((first, len(ids), self.pairs.tell()))
                self.pairs.write(mapping[ids].tobytes())
                self.pairs.write(papers.astype(np.uint16).tobytes())  # within the chunk
            self.paper_words.append((first, read.paper_words))
            ends = np.flatnonzero(np.frombuffer(read.text, dtype=np.uint8) == 0)
            self.text_ends.append(ends + 1 + self.text.tell())
            self.text.write(read.text)

    def _count(self, name: str, words: Ids, counts: Ids, known: int) -> None:
        """Add a chunk's counts of the papers of distinct words (our ids, of `known` words or
        fewer) to a field's."""
        total = self.counts.get(name, np.zeros(0, dtype=np.int64))
        if len(total) < known:  # grown by half at least: new words come all the way
            grown = np.zeros(max(known, len(total) * 3 // 2), dtype=np.int64)
            grown[: len(total)] = total
            total = self.counts[name] = grown
        total[words] += counts

    def arrays(self, count: int) -> Arrays:
        """The index of the chunks added so far, `count` papers; more can be added after."""
        arrays: Arrays = {"papers": np.asarray([count], dtype=np.int64)}
        with scratch():
            self.pairs.flush()
        for prefix, kind, names in (("", "words", FIELDS), ("cased_", "cased", ("cased",))):
            listed = list(self.vocabularies[kind])
            alphabetical = sorted(range(len(listed)), key=listed.__getitem__)
            arrays |= strings(f"{prefix}words", [listed[i] for i in alphabetical])
            rank = np.empty(len(listed), dtype=np.int32)  # our ids are alphabetical ranks
            rank[alphabetical] = np.arange(len(listed), dtype=np.int32)
            for name in names:
                counts = np.zeros(len(listed), dtype=np.int64)
                counted = self.counts.get(name, counts)[: len(listed)]
                counts[rank[: len(counted)]] = counted

                def chunks(name: str = name, rank: Ids = rank) -> Iterator[Chunk]:
                    for first, length, place in self.chunks[name]:
                        self.pairs.seek(place)
                        read = self.pairs.read(6 * length)
                        ids = np.frombuffer(read, np.int32, length)
                        yield first, rank[ids], np.frombuffer(read, np.uint16, length, 4 * length)

                arrays |= postings(name, chunks, counts)
        arrays["paper_words"] = np.zeros(count, dtype=np.int32)
        for first, words in self.paper_words:
            arrays["paper_words"][first : first + len(words)] = words[: max(count - first, 0)]
        self.pairs.seek(0, os.SEEK_END)  # where the next chunk's pairs go
        arrays["text"] = np.frombuffer(_mapped(self.text), dtype=np.uint8)
        arrays["text_offsets"] = np.concatenate([[0], *self.text_ends]).astype(np.int64)
        joined = sorted(self.compounds)
        arrays |= strings("compound_keys", joined)
        arrays |= strings("compound_values", [self.compounds[word] for word in joined])
        return arrays


def _mapped(file: IO[bytes]) -> mmap.mmap | bytes:
    with scratch():
        file.flush()
    if not file.tell():
        return b""  # an empty file cannot be mapped
    return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)


def _chunks(papers: Columns, start: int, stop: int) -> Iterator[tuple[int, bytes, int]]:
    for first in range(start, stop, CHUNK):
        end = min(first + CHUNK, stop)
        yield first, _joined(_fields(papers, first, end)), end - first


def _untitled(papers: Columns, start: int, stop: int) -> bytes:
    """A byte for each of these papers: 1 when it has no title (its headline was made from its
    abstract), else 0."""
    return bytes(not title for title in papers.utf8("title", start, stop))


def _processors() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def build_arrays(papers: Columns, processes: int | None = None) -> tuple[Arrays, IO[bytes]]:
    """The index of these papers, numbered in their order, as named arrays, and the file
    that holds its folded text (the `text` array maps it), the caller's to close. Several
    chunks are read by a pool of `processes` (default: one a core)."""
    processes = processes or min(_processors(), -(-len(papers) // CHUNK))
    with GrowingIndex(processes, expected=len(papers)) as growing:
        growing.read(papers, len(papers))
        return growing.arrays()


class GrowingIndex:
    """The index of papers that keep coming (a store as it loads), each chunk read once;
    `arrays` makes the index of those read so far, and more can be read after. Chunks are
    read by a pool of `processes` (default: one a core) once the papers are known to be at
    least POOLED_FROM (`expected` of them, or read so far). Where no pool can start (no
    semaphores, say), or it breaks, they are read in this process."""

    def __init__(self, processes: int | None = None, expected: int | None = None) -> None:
        self.processes = processes or _processors()
        self._expected = expected or 0
        self._merged = _Merged()
        self._here: _Reader | None = None  # for chunks read in this process
        self._pool: ProcessPoolExecutor | None = None
        self._no_pool = self.processes < 2  # or none could start, or it broke
        self._waiting: deque[tuple[int, bytes, int, Future[ChunkRead] | None]] = deque()
        self._stopping: Callable[[], bool] = lambda: False
        self._untitled = bytearray()  # 1 for each paper read that has no title of its own
        self.count = 0  # papers given to read

    def read(
        self,
        papers: Columns,
        stop: int,
        more_coming: bool = False,
        *,
        stopping: Callable[[], bool] = lambda: False,
    ) -> bool:
        """Read papers `count` to `stop`, or with `more_coming` their whole chunks only (the
        rest is read with the papers after it); False if `stopping` said to stop first. A few
        chunks may still be read by the pool when it returns."""
        self._stopping = stopping
        if more_coming:
            stop -= (stop - self.count) % CHUNK
        for first, joined, count in _chunks(papers, self.count, stop):
            if stopping():
                return False
            self._untitled += _untitled(papers, first, first + count)
            pooled = max(self._expected, first + count) >= POOLED_FROM
            future = self._submit(joined, count) if pooled else None
            self._waiting.append((first, joined, count, future))
            self.count = first + count
            # Bounded: chunks are megabytes, and a quit waits for them.
            while len(self._waiting) > self.processes:
                self._merge_next()
        return True

    def arrays(self) -> tuple[Arrays, IO[bytes]]:
        """The index of every paper read, and the file of its folded text: opened again for
        it, its own to close (core.flat.parts.IndexPart), read after the build has ended."""
        while self._waiting:
            self._merge_next()
        arrays = self._merged.arrays(self.count)
        arrays["untitled"] = np.frombuffer(bytes(self._untitled[: self.count]), dtype=np.uint8)
        return arrays, open(os.dup(self._merged.text.fileno()), "rb")

    def close(self) -> None:
        """Stop the pool (chunks still waiting are dropped) and free what the build held: its
        temporary files too, which the indexes made read by their own descriptors."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
        self._waiting.clear()
        self._merged.pairs.close()
        self._merged.text.close()

    def __enter__(self) -> "GrowingIndex":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _submit(self, joined: bytes, count: int) -> Future[ChunkRead] | None:
        if self._no_pool:
            return None
        try:
            if self._pool is None:
                self._pool = process_pool(self.processes)
            return self._pool.submit(_read_pooled, joined, count)
        except (OSError, ImportError, BrokenProcessPool):
            self._no_pool = True
            return None

    def _merge_next(self) -> None:
        first, joined, count, future = self._waiting.popleft()
        read = None
        if future is not None:
            try:
                read = future.result()
            except (OSError, BrokenProcessPool):
                self._no_pool = True
        if read is None and self._stopping():  # the pool stopped with the reader (stop_pools)
            return
        if read is None:
            self._here = self._here or _Reader()
            read = self._here.read(joined, count)
        self._merged.add(read, first)
