"""An index built whole, cut into the parts of runs of its papers (core.flat.parts).

Papers loaded from several files are indexed at once; kept, each file's papers are a part
of their own, so that a file that grows or changes is read again alone. A part's postings
are the index's, those of its papers, numbered from its first; its words, those its papers
hold, keep their places in the index's vocabulary (the lexicon of the parts is that
vocabulary). The postings are read a slice at a time: at a million papers they are half a
gigabyte.
"""

from collections.abc import Mapping, Sequence
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from tui_reader.core.flat.build import FIELDS
from tui_reader.core.flat.kept_text import KEPT
from tui_reader.core.flat.lexicon import Lexicon
from tui_reader.core.flat.parts import Lexicons
from tui_reader.core.flat.words import Array, Arrays

SLICE = 1 << 24  # postings read at once
Ints = npt.NDArray[np.int64]
_VOCABULARIES = {"": FIELDS, "cased_": ("cased",)}
# Arrays of one value a paper, and those every part keeps whole.
_PER_PAPER = ("paper_words", "untitled")
_WHOLE = ("compound_keys", "compound_values")


def split(arrays: Mapping[str, Array], cuts: Sequence[int]) -> tuple[list[Arrays], Lexicons]:
    """The index's arrays cut at these paper numbers (0 first, the count last) into the
    arrays of each run of papers; and the lexicons that place each part's words among the
    index's. Each part keeps all the compounds (a highlight reads them in the first part
    that has one)."""
    parts: list[Arrays] = [{} for _ in pairwise(cuts)]
    lexicons = []
    for prefix, fields in _VOCABULARIES.items():
        words = arrays[f"{prefix}words"], np.asarray(arrays[f"{prefix}words_offsets"], np.int64)
        counts = {field: _postings(arrays, field, cuts, parts) for field in fields}
        # A part's words: those of its papers in any field (a collection's name is in `venue`
        # alone).
        held = [
            np.flatnonzero(np.logical_or.reduce([counts[field][place] > 0 for field in fields]))
            for place in range(len(parts))
        ]
        for field, by_part in counts.items():
            for part, part_counts, ids in zip(parts, by_part, held, strict=True):
                offsets = np.zeros(len(ids) + 1, dtype=np.int64)
                np.cumsum(part_counts[ids], out=offsets[1:])
                part[f"{field}_offsets"] = offsets
        for part, ids in zip(parts, held, strict=True):
            part |= _words(words, ids, f"{prefix}words")
        lexicons.append(Lexicon(*words, [ids.astype(np.int32) for ids in held]))
    text = np.asarray(arrays["text_offsets"], dtype=np.int64)
    for part, (first, stop) in zip(parts, pairwise(cuts), strict=True):
        part["papers"] = np.asarray([stop - first], dtype=np.int64)
        part["text"] = arrays["text"][text[first] : text[stop]]
        part["text_offsets"] = text[first : stop + 1] - text[first]
        if KEPT in arrays:  # each paper's frame, read with the one dictionary
            part[KEPT] = arrays[KEPT]
        for name in _PER_PAPER:
            part[name] = np.asarray(arrays[name][first:stop])
        for name in _WHOLE:
            part[name], part[f"{name}_offsets"] = arrays[name], arrays[f"{name}_offsets"]
    return parts, Lexicons(*lexicons)


def _postings(
    arrays: Mapping[str, Array], field: str, cuts: Sequence[int], parts: list[Arrays]
) -> list[Ints]:
    """Each part's postings of the field (into `parts`), and how many of its papers hold each
    word of the index's vocabulary."""
    offsets = np.asarray(arrays[f"{field}_offsets"], dtype=np.int64)
    papers = arrays[f"{field}_papers"]
    words = len(offsets) - 1
    inner = np.asarray(cuts[1:-1], dtype=np.int64)
    counts = [np.zeros(words, dtype=np.int64) for _ in parts]
    pieces: list[list[Array]] = [[] for _ in parts]
    for begin in range(0, len(papers), SLICE):
        chunk = np.asarray(papers[begin : begin + SLICE])
        within = np.searchsorted(inner, chunk, side="right")
        places = np.arange(begin, begin + len(chunk), dtype=np.int64)
        word = np.searchsorted(offsets, places, side="right") - 1
        for place, first in enumerate(cuts[:-1]):
            inside = within == place
            counts[place] += np.bincount(word[inside], minlength=words)
            pieces[place].append((chunk[inside] - first).astype(np.int32))
    for part, chosen in zip(parts, pieces, strict=True):
        part[f"{field}_papers"] = np.concatenate(chosen) if chosen else np.zeros(0, np.int32)
    return counts


def _words(words: tuple[Array, Ints], ids: Ints, name: str) -> Arrays:
    """The words of these ids, as UTF-8 with offsets."""
    data, offsets = words
    lengths = offsets[ids + 1] - offsets[ids]
    chosen = np.zeros(len(data), dtype=bool)
    starts = np.repeat(offsets[ids], lengths)
    within = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(
        np.cumsum(lengths) - lengths, lengths
    )
    chosen[starts + within] = True
    part_offsets = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(lengths, out=part_offsets[1:])
    return {name: np.asarray(data)[chosen], f"{name}_offsets": part_offsets}
