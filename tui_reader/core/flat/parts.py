"""An index kept in parts: each part the arrays of core.flat.build over some of the papers,
numbered from 0, and the file of their folded text. The index numbers the papers one part
after the other (a part's first paper is the number of papers in the parts before it) and
reads its words through a lexicon of all the parts' words (core.flat.lexicon); what ranks
(how many papers hold a word, how many papers there are) is counted over all the parts, so
that the parts rank as one index of all their papers would.
"""

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO

import numpy as np
import numpy.typing as npt

from tui_reader.core.engine import Stop
from tui_reader.core.flat.build import FIELDS
from tui_reader.core.flat.folded_text import FoldedText, KeptText
from tui_reader.core.flat.kept_text import KEPT
from tui_reader.core.flat.lexicon import Lexicon
from tui_reader.core.flat.vocabulary import Vocabulary, VocabularyPart
from tui_reader.core.flat.words import Array, Words
from tui_reader.core.frames import LARGEST, reader

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class IndexPart:
    """The arrays of an index of some papers (`papers`: how many), and the file of their
    folded text, whose bytes start at `text_start`; kept as frames, no frame may claim more
    than `largest` bytes (core.frames). The file is the part's own: closed once the part is
    dropped (with the last index holding it), never left to the collector."""

    arrays: Mapping[str, Array]
    text: IO[bytes]
    text_start: int = 0
    largest: int = LARGEST

    def __post_init__(self) -> None:
        weakref.finalize(self, self.text.close)

    def __len__(self) -> int:
        return int(np.asarray(self.arrays["papers"])[0])


@dataclass(frozen=True)
class Lexicons:
    """The lexicons of an index's parts: of their words, and of their words as written."""

    words: Lexicon
    cased: Lexicon


class Parts:
    """The parts of one index, read as one."""

    def __init__(self, parts: Sequence[IndexPart], lexicons: Lexicons | None = None) -> None:
        self.parts = list(parts)
        counts = [len(part) for part in parts]
        self.bases = np.concatenate(([0], np.cumsum(counts, dtype=np.int64)))
        self.count = int(self.bases[-1])
        starts = self.bases[:-1].tolist()
        self.text = PartedText([_text(part) for part in parts], starts)
        if lexicons is None:
            (only,) = parts
            self.words = Vocabulary(
                Words(only.arrays["words"], only.arrays["words_offsets"]),
                [VocabularyPart(only.arrays, 0)],
                FIELDS,
            )
            self.cased = Vocabulary(
                Words(only.arrays["cased_words"], only.arrays["cased_words_offsets"]),
                [VocabularyPart(only.arrays, 0)],
                ("cased",),
            )
            return
        self.words = _vocabulary(lexicons.words, parts, starts, FIELDS)
        self.cased = _vocabulary(lexicons.cased, parts, starts, ("cased",))

    def joined(self, name: str) -> Array:
        """An array of one value a paper, all the parts' one after the other."""
        arrays = [np.asarray(part.arrays[name]) for part in self.parts]
        return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)

    def compounds(self) -> list[tuple[Words, Words]]:
        """Each part's compound words as joined, and as written ("cotraining", "co-training")."""
        return [
            (
                Words(part.arrays["compound_keys"], part.arrays["compound_keys_offsets"]),
                Words(part.arrays["compound_values"], part.arrays["compound_values_offsets"]),
            )
            for part in self.parts
        ]


def _text(part: IndexPart) -> FoldedText:
    """A part's folded text: as built, or as kept (compressed, with its dictionary)."""
    offsets = np.asarray(part.arrays["text_offsets"], dtype=np.int64)
    dictionary = part.arrays.get(KEPT)
    if dictionary is None:
        return FoldedText(part.text, part.text_start, offsets)
    read = reader(dictionary, part.largest, str(part.text.name))
    return KeptText(part.text, part.text_start, offsets, read)


def _vocabulary(
    lexicon: Lexicon, parts: Sequence[IndexPart], starts: list[int], fields: tuple[str, ...]
) -> Vocabulary:
    return Vocabulary(
        Words(lexicon.data, lexicon.offsets),
        [
            VocabularyPart(part.arrays, base, ids)
            for part, base, ids in zip(parts, starts, lexicon.ids, strict=True)
        ],
        fields,
    )


class PartedText:
    """The folded text of the papers of several parts, each part's in its own file."""

    def __init__(self, texts: list[FoldedText], starts: list[int]) -> None:
        self._texts = texts
        self._starts = np.asarray(starts, dtype=np.int64)

    def of(self, number: int) -> str:
        """Paper `number`'s text."""
        place = int(np.searchsorted(self._starts, number, side="right")) - 1
        return self._texts[place].of(number - int(self._starts[place]))

    def folded(self, number: int) -> bytes:
        """Paper `number`'s text as UTF-8."""
        place = int(np.searchsorted(self._starts, number, side="right")) - 1
        return self._texts[place].folded(number - int(self._starts[place]))

    def holding(
        self, numbers: Ints, needle: bytes, whole: bool = True, stop: Stop | None = None
    ) -> npt.NDArray[np.bool_]:
        """Whether each of these papers (in increasing order) holds the needle as words (as
        core.flat.folded_text reads it); `stop` given up as it reads (Stopped)."""
        if len(self._texts) == 1:
            return self._texts[0].holding(numbers, needle, whole, stop)
        cuts = np.searchsorted(numbers, self._starts[1:]).tolist()
        found = [
            text.holding(numbers[first:last] - base, needle, whole, stop)
            for text, base, first, last in zip(
                self._texts,
                self._starts.tolist(),
                [0, *cuts],
                [*cuts, len(numbers)],
                strict=True,
            )
        ]
        return np.concatenate(found) if found else np.zeros(0, dtype=bool)
