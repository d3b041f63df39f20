"""Citation keys, as Better BibTeX gives them: made once for a paper, kept in the library, and
never given to another paper.

A key is made from the first author's family name, the year and the title's first word that
is not a stop word (`lovelace2025attention`); a paper without authors has its title's (or
headline's) first word that is not a stop word, its year and the start of its id
(`loam2026_28f1d9`), an organisation its name's first word that is not one (`atlas2020...`).
Accents are folded and punctuation dropped (`godel`, `mullerost`, `obrien`).

A paper is given its key the first time it is exported or copied in a format that cites by
key (BibTeX, RIS, CSL-JSON), and the library keeps it (`Library.give_citation_keys`): the
paper has that key from then on, whatever is exported with it, in whatever order, from the
reader, its copy picker or the commands. A key another paper holds already gets a suffix
(`a`, `b`... `z`, `aa`): the paper given its key later keeps the suffix. Papers given keys at
once are given them in the order of their dates, then of their ids, so that which of two gets
the suffix never hangs on the order they were exported in.
"""

import itertools
import re
import unicodedata
from collections.abc import Container, Mapping, Sequence
from typing import Protocol

from tui_reader.core.latex_text import plain_text
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState
from tui_reader.core.reference_names import parse_name
from tui_reader.core.references import STOP_WORDS, reference_title, year_of

_KEY_WORD = re.compile(r"[A-Za-z0-9]+")
# Letters NFKD does not take apart into an ASCII letter and an accent.
_ASCII_LETTERS = str.maketrans(
    {"Ø": "O", "ø": "o", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "ß": "ss", "Ł": "L",
     "ł": "l", "Đ": "D", "đ": "d", "Ð": "D", "ð": "d", "Þ": "Th", "þ": "th", "\u0131": "i"}
)  # fmt: skip


def _ascii_words(text: str) -> list[str]:
    letters = unicodedata.normalize("NFKD", text.translate(_ASCII_LETTERS))
    folded = letters.encode("ascii", "ignore").decode()
    return [word.lower() for word in _KEY_WORD.findall(folded)]


def _significant(text: str) -> list[str]:
    """The words of a title or name a key may take: math read as its letters (`{VO}$Q$L` is
    `voql`, not `vo`), a letter alone passed over (`$\\mathcal{X}$-Armed` is `armed`, not
    `mathcal`), stop words too."""
    words = _ascii_words(plain_text(text))
    return [word for word in words if len(word) > 1 and word not in STOP_WORDS]


def key_base(paper: Paper) -> str:
    """The key the paper would be given were no other paper to hold it (see the module)."""
    title = _significant(reference_title(paper))
    if not paper.authors:
        return f"{''.join(title[:1]) or 'paper'}{year_of(paper)}_{paper.id[:6]}"
    name = parse_name(paper.authors[0])
    if name.organisation:
        words = _significant(name.family)[:1]
    else:  # the last word of the family name, whole: Müller-Øst is "mullerost"
        words = _ascii_words(name.family.split()[-1] if name.family.split() else "")
    return f"{''.join(words) or 'anon'}{year_of(paper)}{''.join(title[:1])}"


def free_key(base: str, taken: Container[str]) -> str:
    """The base, else the base with the first suffix (a, b, ..., z, aa...) no paper holds."""
    keys = (base + _suffix(number) for number in itertools.count(-1))
    return next(key for key in keys if key not in taken)


def _suffix(number: int) -> str:
    """The n-th suffix of a repeated key: none for -1, then a, b, ..., z, aa, ab..."""
    letters = ""
    number += 1
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def _giving_order(paper: Paper) -> tuple[str, str]:
    return paper.published or str(paper.year or ""), paper.id


def keyless(papers: Sequence[Paper], state: PaperState) -> list[Paper]:
    """The papers not given a key yet, each once, in the order keys are given them."""
    return _without(papers, state.citation_keys([paper.id for paper in papers]))


def _without(papers: Sequence[Paper], given: Mapping[str, str]) -> list[Paper]:
    unique = {paper.id: paper for paper in papers if paper.id not in given}
    return sorted(unique.values(), key=_giving_order)


def keys_of(papers: Sequence[Paper], state: PaperState) -> list[str]:
    """The papers' keys: those given them; a paper given none yet (the state keeps no keys)
    has one made here as it would be given, among these papers only."""
    keys = dict(state.citation_keys([paper.id for paper in papers]))
    taken = set(keys.values())
    for paper in _without(papers, keys):
        keys[paper.id] = key = free_key(key_base(paper), taken)
        taken.add(key)
    return [keys[paper.id] for paper in papers]


class KeyGiver(PaperState, Protocol):
    """What gives keys and keeps them: the library."""

    def give_citation_keys(self, bases: Sequence[tuple[str, str]]) -> tuple[int, list[str]]: ...


def give_keys(papers: Sequence[Paper], library: KeyGiver) -> tuple[int, list[str]]:
    """Give the papers that have none their keys, kept in the library (see the module): how
    many this gave, once what other programs saved is read (a key another gave meanwhile is
    theirs), and what the user must be told. LibraryError when they cannot be saved: they
    hold for the session."""
    if not (new := keyless(papers, library)):
        return 0, []
    return library.give_citation_keys([(paper.id, key_base(paper)) for paper in new])
