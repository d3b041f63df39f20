"""Unicode text as BibTeX field values that BibTeX, biber and Pandoc all read alike.

A character is written as LaTeX only in forms all three read: the LaTeX specials escaped
(`\\%`, `\\&`, `{\\textbackslash}`), an accented letter in BibTeX's own braced form (`{\\'e}`,
`{\\"i}`: never the dotless `\\i` under an accent, which Pandoc reads as a dotless i; a letter
and its combining marks composed first, else written as the letter under its accent commands,
`{\\"q}`, a dotless i under one an i), the special letters (`{\\o}`, `{\\ss}`), dashes and
curly quotes as TeX's ligatures (`---`, `--`, ``` `` ```, `''`: Pandoc drops `{\\textemdash}`),
Greek and math symbols as `\\ensuremath{...}`. Any other character (CJK, `✓`, `€`) stays UTF-8,
which biber, Pandoc and LaTeX read.

A title protects its capitalised words rather than the whole title, so that a style can set it
in sentence case: a word with a capital after its first letter (`GANs`, `ImageNet`, `BERT`)
always, and any capitalised word past the first of a title written in sentence case (a proper
name: `Bayesian`, `Schrödinger`), as Better BibTeX does. Its math is braced, and a word with
a capital joined to math (`{VO}{$Q$}{L}`): BibTeX changes the case of math's letters too.
"""

import bisect
import functools
import re
import unicodedata

from pylatexenc.latexencode import UnicodeToLatexEncoder

from tui_reader.core.latex_text import latex_to_unicode, unicode_text, unpaired_braces
from tui_reader.core.references import STOP_WORDS
from tui_reader.core.typeset import ACCENT_MARKS, math_spans

_OWN_FORMS = {
    "\u2014": "---", "\u2013": "--", "\u201c": "``", "\u201d": "''", "\u2018": "`",
    "\u2019": "'", "\u00a0": "~",
}  # fmt: skip
_SPECIALS = frozenset("\\%&#_${}~^")
# An accent command on one letter as pylatexenc writes it: \'e, \H{o}, {\"\i}, \c{c}.
_ACCENTED = re.compile(r"\{?\\(?P<accent>[`'^\"~=.uvHckrbd])\{?(?P<letter>\\[ij]|[A-Za-z])\}?\}?")
_LETTER = re.compile(r"\{\\(?:ss|o|O|ae|AE|oe|OE|aa|AA|l|L)\}")
_ESCAPE_OR_SPECIAL = re.compile(r"\\.|\\\Z|[%&#$_]", re.S)
_ESCAPED = re.compile(r"\\.", re.S)
_WORD = re.compile(r"\S+")
_BRACE = re.compile(r"\\.|[{}]", re.S)  # an escaped character, or a brace
_COMMAND_BEFORE = re.compile(r"\\[A-Za-z]+\s*$|\\.$|\}$")  # `\emph{`, `\'{`, `}{`
_PUNCTUATION = ",;:.!?()[]\"'"
_CAPITAL_INSIDE = re.compile(r"\w\W*[A-Z]|[A-Z]\W*\d|^[A-Z]$")
# A character and the combining marks on it (`o\u0308`, as text written NFD holds them).
_MARKED = re.compile(r".[\u0300-\u036f]*", re.S)
_ACCENT_OF = {mark: accent for accent, mark in ACCENT_MARKS.items()}
_SYMBOL_ACCENTS = "`'^\"~=."


@functools.cache
def _encoder() -> UnicodeToLatexEncoder:
    # Made when first used: its tables take a while, and most runs write no BibTeX.
    return UnicodeToLatexEncoder(
        non_ascii_only=False, unknown_char_policy="keep", unknown_char_warning=False
    )


@functools.lru_cache(maxsize=4096)
def _character(char: str) -> str:
    """One character of prose as BibTeX takes it (see the module)."""
    if unicodedata.combining(char):  # a mark on no letter (`Le \u0301vy`) stays as it is
        return char
    if char in _OWN_FORMS:
        return _OWN_FORMS[char]
    latex: str = _encoder().unicode_to_latex(char)
    if char in _SPECIALS or latex.startswith("\\ensuremath{"):
        return latex
    if accented := _ACCENTED.fullmatch(latex):
        letter = accented["letter"].removeprefix("\\")
        separator = "" if accented["accent"] in _SYMBOL_ACCENTS else " "
        latex = f"{{\\{accented['accent']}{separator}{letter}}}"
    elif not _LETTER.fullmatch(latex):
        return char
    # Only a form read back as the character itself (pylatexenc writes ħ as an h with a macron).
    return latex if latex_to_unicode(latex) == char else char


def _marked(cluster: str) -> str:
    """A letter with combining marks that make no one character (`q\u0308`, and a dotless
    `\u0131` under an accent, as PDF extraction writes `í`) as BibTeX takes it: the letter
    under its accent commands (`{\\"q}`, `{\\'i}`: never the dotless `\\i`, see the module), or
    as it is (UTF-8) where a mark has no command or its base is no letter."""
    decomposed = unicodedata.normalize("NFD", cluster)
    base, marks = decomposed[0], decomposed[1:]
    if base in "\u0131\u0237" and all(unicodedata.combining(mark) == 230 for mark in marks):
        base = "i" if base == "\u0131" else "j"  # a mark above takes the dot's place
        if len(composed := unicodedata.normalize("NFC", base + marks)) == 1:
            return _character(composed)
    accents = [_ACCENT_OF.get(mark, "") for mark in marks]
    if not (base.isascii() and base.isalpha() and all(accents)):
        return _character(cluster[0]) + cluster[1:]
    latex = base
    for accent in accents:
        separator = "" if accent in _SYMBOL_ACCENTS else " "
        latex = f"\\{accent}{separator}{latex}" if len(latex) == 1 else f"\\{accent}{{{latex}}}"
    return "{" + latex + "}"


def bibtex_text(text: str) -> str:
    """Unicode text for a BibTeX field: special characters escaped, whole `$math$` kept."""
    return _encoded(text, math_spans(text), [])


def bibtex_title(written: str) -> str:
    """A title (or a venue) as written, LaTeX and all, for BibTeX: as Unicode
    (latex_text.unicode_text), written back as BibTeX's LaTeX, its capitalised words
    protected (see the module), and those its writer protected in braces (`{GAN}s`,
    Zotero's `{Is}`) too."""
    text = unicode_text(written)
    kept = _braced_words(written)
    maths = math_spans(text)
    prose = list(text)
    for start, end in maths:
        prose[start:end] = " " * (end - start)
    words = list(_WORD.finditer("".join(prose)))
    sentence_case = _in_sentence_case([word[0] for word in words[1:]])
    touching = {end for _, end in maths} | {start for start, _ in maths}
    protected = [
        word.span()
        for number, word in enumerate(words)
        if _protected(word, number == 0, sentence_case)
        or word[0].strip(_PUNCTUATION) in kept
        or _touching_capital(word, touching)
    ]
    return _encoded(text, maths, protected, braced_maths=True)


def _braced_words(written: str) -> set[str]:
    """The words (as Unicode) a title as written holds in braces of their own, not a
    command's: `{GAN}s`, `Attention {Is} {All}`."""
    if "{" not in written:
        return set()
    words: set[str] = set()
    depth, start = 0, 0
    for match in _BRACE.finditer(written):
        if match[0] == "{":
            if depth == 0 and not _COMMAND_BEFORE.search(written, 0, match.start()):
                start = match.end()
            elif depth == 0:
                start = -1
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0 and start >= 0:
                group = unicode_text(written[start : match.start()])
                words.update(word.strip(_PUNCTUATION) for word in group.split())
    return words


def _encoded(
    text: str,
    maths: list[tuple[int, int]],
    protected: list[tuple[int, int]],
    braced_maths: bool = False,
) -> str:
    """The text for BibTeX, its `maths` kept as written (in braces too: a title's, whose
    letters a style sets in sentence case would lower, `$o(n)$`), its `protected` words in
    braces."""
    pieces, at = [], 0
    for start, end in sorted([*maths, *protected]):
        piece = text[start:end]
        pieces.append(_prose(text[at:start]))
        if (start, end) in protected:
            pieces.append("{" + _prose(piece) + "}")
        elif unpaired_braces(piece):
            pieces.append(_prose(piece))
        else:
            pieces.append("{" + piece + "}" if braced_maths else piece)
        at = end
    pieces.append(_prose(text[at:]))
    return _paired("".join(pieces))


def _protected(word: re.Match[str], first: bool, sentence_case: bool) -> bool:
    """Whether a title's word keeps its case in braces: a capital after its first letter
    (a lone capital past the first word), or a proper name in a sentence-case title."""
    if _CAPITAL_INSIDE.search(word[0]):
        return not (first and len(word[0]) == 1)
    return (
        sentence_case and not first and _first_letter(word[0]).isupper() and not _after_colon(word)
    )


def _touching_capital(word: re.Match[str], touching: set[int]) -> bool:
    """Whether a word with a capital is joined to math (`{VO}{$Q$}{L}`; not `-nets`)."""
    return (word.start() in touching or word.end() in touching) and word[0] != word[0].lower()


def _prose(text: str) -> str:
    if text.isascii() and not any(char in _SPECIALS for char in text):
        return text
    # Composed first: `o\u0308` is `ö`, written `{\\"o}`, not an `o` and a stray mark.
    clusters = _MARKED.findall(unicodedata.normalize("NFC", text))
    return "".join(
        _marked(cluster) if len(cluster) > 1 else _character(cluster) for cluster in clusters
    )


def _first_letter(word: str) -> str:
    return next((char for char in word if char.isalpha()), "")


def _after_colon(word: re.Match[str]) -> bool:
    return word.string[: word.start()].rstrip().endswith((":", ".", "?", "!"))


def _in_sentence_case(words: list[str]) -> bool:
    """Whether the words after a title's first are mostly lower case (those title case leaves
    in lower case too not counted)."""
    counted = [word for word in words if word.strip(",;:.").lower() not in STOP_WORDS]
    letters = [_first_letter(word) for word in counted if len(word) > 2]
    lower = sum(letter.islower() for letter in letters)
    return lower > 0 and lower >= len(letters) - lower


def bibtex_source(text: str) -> str:
    """An abstract, which is already LaTeX-flavoured (`\\emph{}`, `$x$`, `34.8\\%`), for BibTeX:
    unescaped `%`, `&` and `#` escaped, and a `$` that opens no math (money: "a $10K prize",
    as the screen reads it, `typeset.math_spans`) and a `_` out of math (LaTeX stops at it in
    text: `_emphasis_`, `a_b`), and its braces paired; its accents composed (NFC: `ö`, not an
    `o` and a combining mark)."""
    text = unicodedata.normalize("NFC", text)
    maths = math_spans(text)
    starts = [start for start, _ in maths]

    def escaped(match: re.Match[str]) -> str:
        token = match.group()
        if token == "\\":  # the text's last character: it would escape the field's end
            return "\\textbackslash{}"
        if token in "$_":
            at = bisect.bisect_right(starts, match.start()) - 1
            if at >= 0 and match.start() < maths[at][1]:
                return token
        return token if len(token) == 2 else "\\" + token

    return _paired(_ESCAPE_OR_SPECIAL.sub(escaped, text))


def _paired(latex: str) -> str:
    """LaTeX with each brace that has no pair, `{` or `\\{`, written \\textbraceleft{} (or
    \\textbraceright{}): BibTeX counts escaped braces too, so a lone `\\{` would leave the
    field open."""
    # A line break before a brace (`N \\\\{k}`): some readers, bibtexparser among them, take
    # `\\{` for an escaped brace and count the braces wrong.
    latex = _ESCAPED.sub(lambda e: "\\\\ " if _breaks_before_brace(e) else e[0], latex)
    pieces, at = [], 0
    for brace in unpaired_braces(latex):
        side = "left" if brace.group().endswith("{") else "right"
        pieces += [latex[at : brace.start()], f"\\textbrace{side}{{}}"]
        at = brace.end()
    pieces.append(latex[at:])
    return "".join(pieces)


def _breaks_before_brace(escaped: re.Match[str]) -> bool:
    return escaped[0] == "\\\\" and escaped.string.startswith(("{", "}"), escaped.end())
