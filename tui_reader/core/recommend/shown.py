"""The why line's words and pairs of words as the reader sees them in the paper typeset.

The rows' words are in lower case and their pairs skip common English and punctuation, so a
word or pair of the rows may not be one the reader sees: the name of a LaTeX command (`\\sqrt`
shows as √, while `\\log` shows as the word log), or two words that follow each other only once
the words between are left out ("learning reinforcement" across a title's end and the
abstract's start, "regret bounds" across a sentence's end). `shown` keeps those the typeset
paper writes, a pair's two words next to each other (parted by spaces, or by a hyphen, an en
dash or a slash as written: "multi-armed", "Kullback--Leibler" typeset), each word as the paper
writes it: in lower case where it is so written anywhere, else in its capitals ("RL",
"NeurIPS"; not those of a title all in capitals). A word only capitalised ("Bayesian", or
"Learning" in a title or in "Reinforcement Learning (RL)") is written in lower case: nothing
tells a name from a word capitalised.
"""

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from tui_reader.core.typeset import typeset_text

_TOKEN = re.compile(r"[^\W_]+")  # a run of letters and digits
# What may part a pair's two words: spaces, or one hyphen, en dash ("Kullback--Leibler"
# typeset) or slash; a dash between spaces parts clauses.
_JOINERS = frozenset("-\u2010\u2011\u2013/")


@dataclass(frozen=True)
class _Token:
    form: str  # as written
    word: str  # in lower case
    start: int
    end: int


def shown(names: Iterable[str], title: str, abstract: str) -> dict[str, str]:
    """Each of these words or pairs of words of the paper's rows (in lower case) that the
    typeset paper writes, as it writes it."""
    parts = [_Part(title), _Part(abstract)]
    # A word may run on in the typeset text: "max" in "maxᵢ" (`\\max_i`), read "maxi".
    forms: dict[str, list[str]] = {}
    capitals = not any(letter.islower() for letter in parts[0].text)  # a title in capitals
    for part in parts[1:] if capitals else parts:  # says nothing of how a word is written
        for token in part.tokens:
            forms.setdefault(token.word, []).append(token.form)
    found: dict[str, str] = {}
    for name in names:
        match name.split():
            case [word]:
                if any(token.word.startswith(word) for part in parts for token in part.tokens):
                    found[name] = _written(word, forms)
            case [first, second]:
                if glue := _gap(first, second, parts):
                    found[name] = _written(first, forms) + glue + _written(second, forms)
    return found


class _Part:
    """A title or abstract typeset, and its words."""

    def __init__(self, text: str) -> None:
        self.text = unicodedata.normalize("NFKC", typeset_text(text))
        self.tokens = [
            _Token(match.group(), match.group().lower(), match.start(), match.end())
            for match in _TOKEN.finditer(self.text)
        ]


def _gap(first: str, second: str, parts: list[_Part]) -> str:
    """What parts the two words where the paper writes them next to each other (spaces read
    as one), if it does."""
    for part in parts:
        for one, other in pairwise(part.tokens):
            if one.word == first and other.word.startswith(second):
                gap = part.text[one.end : other.start]
                if gap.isspace():
                    return " "
                if gap in _JOINERS:
                    return gap
    return ""


def _written(word: str, forms: dict[str, list[str]]) -> str:
    """The word (in lower case) as the paper writes it (`shown`)."""
    written = forms.get(word, [])
    if word in written:
        return word
    capitals = [form for form in written if any(letter.isupper() for letter in form[1:])]
    return capitals[0] if capitals else word
