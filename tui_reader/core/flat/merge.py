"""Parts of an index (core.flat.parts) merged into one, as Lucene and tantivy merge segments:
the postings of each part, their words put in their places among all the parts' words and
their papers numbered one part after the other, in one array per field; nothing is read
again from the papers. Parts that come one after the other merge into one part that numbers
their papers as they were numbered.
"""

from collections.abc import Sequence

import numpy as np

from tui_reader.core.flat.build import FIELDS
from tui_reader.core.flat.kept_text import KEPT, built
from tui_reader.core.flat.lexicon import Lexicon, joined
from tui_reader.core.flat.parts import IndexPart
from tui_reader.core.flat.words import Array, Arrays, Words, strings

_VOCABULARIES = {"": FIELDS, "cased_": ("cased",)}


def merged(parts: Sequence[IndexPart]) -> Arrays:
    """The arrays of the index of the parts' papers, one part after the other."""
    counts = [len(part) for part in parts]
    bases = np.cumsum([0, *counts[:-1]]).tolist()
    arrays: Arrays = {"papers": np.asarray([sum(counts)], dtype=np.int64)}
    for prefix, fields in _VOCABULARIES.items():
        name = f"{prefix}words"
        lexicon = joined([(part.arrays[name], part.arrays[f"{name}_offsets"]) for part in parts])
        arrays[name], arrays[f"{name}_offsets"] = lexicon.data, lexicon.offsets
        for field in fields:
            arrays |= _postings(parts, field, lexicon, bases)
    texts = [_text(part) for part in parts]  # as built: kept again with one dictionary
    arrays["text"] = np.concatenate([text for text, _ in texts])
    arrays["text_offsets"] = joined_offsets([offsets for _, offsets in texts])
    for name in ("paper_words", "untitled"):
        arrays[name] = np.concatenate([np.asarray(part.arrays[name]) for part in parts])
    compounds: dict[str, str] = {}
    for part in parts:  # the first part to write a compound, as one index keeps it
        keys = Words(part.arrays["compound_keys"], part.arrays["compound_keys_offsets"])[:]
        values = Words(part.arrays["compound_values"], part.arrays["compound_values_offsets"])
        for key, value in zip(keys, values[:], strict=True):
            compounds.setdefault(key, value)
    ordered = sorted(compounds)
    arrays |= strings("compound_keys", ordered)
    arrays |= strings("compound_values", [compounds[key] for key in ordered])
    return arrays


def _text(part: IndexPart) -> tuple[Array, Array]:
    """A part's folded text as built, and where each paper's starts."""
    arrays = part.arrays
    if KEPT in arrays:
        frames, offsets = arrays["text"], arrays["text_offsets"]
        return built(frames, offsets, arrays[KEPT], part.largest, str(part.text.name))
    return np.asarray(arrays["text"], dtype=np.uint8), arrays["text_offsets"]


def _postings(parts: Sequence[IndexPart], field: str, lexicon: Lexicon, bases: list[int]) -> Arrays:
    """A field's postings of the parts' papers by the lexicon's word ids: each part's, word
    by word, a part's papers after the papers of the parts before it."""
    words, papers = [], []
    for part, ids, base in zip(parts, lexicon.ids, bases, strict=True):
        offsets = np.asarray(part.arrays[f"{field}_offsets"], dtype=np.int64)
        words.append(np.repeat(ids, np.diff(offsets)))
        papers.append(np.asarray(part.arrays[f"{field}_papers"], dtype=np.int32) + base)
    word = np.concatenate(words)
    order = np.argsort(word, kind="stable")  # the parts' papers stay in order
    offsets = np.zeros(len(lexicon) + 1, dtype=np.int64)
    np.cumsum(np.bincount(word, minlength=len(lexicon)), out=offsets[1:])
    return {
        f"{field}_offsets": offsets,
        f"{field}_papers": np.concatenate(papers)[order].astype(np.int32),
    }


def joined_offsets(columns: Sequence[Array]) -> Array:
    """Offsets into the parts' texts one after the other, from each part's own."""
    ends = np.cumsum([int(column[-1]) for column in columns]).tolist()
    starts = [0, *ends[:-1]]
    shifted = [
        np.asarray(column[:-1], dtype=np.int64) + start
        for column, start in zip(columns, starts, strict=True)
    ]
    return np.concatenate([*shifted, [ends[-1] if ends else 0]]).astype(np.int64)
