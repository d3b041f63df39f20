"""What a search highlights: the words it matched, found in a paper's text as written there.

The words are the index's (core.flat): case and accents folded, LaTeX unwrapped, and a
compound a paper hyphenated also as written ("co-training", "pol-icy"). A text's words are
read and folded the same way and looked up, so every matched word is found, however many:
a prefix matches thousands of words among many papers.
"""

import re
from dataclasses import dataclass

from tui_reader.core.flat.fold import MARKS, fold_rest

_LETTER = rf"[\w{MARKS}]"  # an accent written apart (NFD), or a soft hyphen, is in the word
_WORDS = re.compile(rf"{_LETTER}+(?:-{_LETTER}+)*")  # a compound whole, when it matched whole
_PARTS = re.compile(rf"{_LETTER}+")

Span = tuple[int, int]


@dataclass(frozen=True)
class Highlight:
    """The words to highlight, as the index folds them."""

    words: frozenset[str]
    longest: int  # the most parts a compound among the words has ("co-training": 2)

    @classmethod
    def of(cls, matched: frozenset[str] | set[str]) -> "Highlight | None":
        """The highlight of the words a search matched (those of its case-sensitive terms,
        "SAM", in any case, as the index reads a text); None when there are none."""
        if not matched:
            return None
        words = frozenset(fold_rest(word) for word in matched)
        return cls(words, max(word.count("-") + 1 for word in words))

    def spans(self, text: str) -> list[Span]:
        """Where the words stand in the text: of a compound, the longest runs of its parts
        that matched ("co-training" in "co-training-based"), else the parts that did."""
        words, found = self.words, []
        for match in _WORDS.finditer(text):
            written = match.group()
            if fold_rest(written) in words:  # most words, and compounds matched whole
                found.append(match.span())
                continue
            if "-" not in written:
                continue
            parts = [part.span() for part in _PARTS.finditer(text, *match.span())]
            first = 0
            while first < len(parts):
                # Runs no longer than the longest compound: a hostile run of thousands of
                # parts ("a-b-c-…") would be read in cubic time.
                for last in range(min(len(parts), first + self.longest) - 1, first - 1, -1):
                    start, end = parts[first][0], parts[last][1]
                    if fold_rest(text[start:end]) in words:
                        found.append((start, end))
                        first = last + 1
                        break
                else:
                    first += 1
        return found
