"""The form of text that search reads: LaTeX markup unwrapped, accents folded, case folded,
what PDF extraction broke mended.

`$\\mathcal{O}(1/T)$` reads `o(1/t)`, `Schr\\"odinger` and `Schrödinger` read `schrodinger`,
`$\\alpha$` reads `alpha`, `piri(cid:173) form` and `eﬃcient` read `piriform` and `efficient`.
This is a fast, regex-only approximation of core.typeset (which takes milliseconds a paper:
hours at a million papers). The index applies its steps to whole chunks of papers joined by
NUL and SOH characters, which none of its patterns cross: `unwrap_latex_utf8` on the chunk's
bytes, then the markup left dropped and each new word read through `fold_rest`
(core.flat.build).
"""

import re
import unicodedata

from tui_reader.core.text import without_debris, without_debris_utf8

# \mathcal{O}, \textbf{word}...: the argument stays, the command goes.
_WRAPPER = (
    r"\\(?:math(?:cal|bb|rm|bf|it|sf|frak|scr|tt)|text(?:rm|bf|it|sf|tt|normal)?|emph"
    r"|boldsymbol|bm|operatorname\*?|mbox|hat|bar|tilde|vec|widehat|widetilde|overline)"
    r"\s*\{([^{}\x00\x01]*)\}"
)
# \"o, \'{e}, {\"o}, \c{c}: the letter stays, the accent goes. Spaces only after an accent
# named by a letter and inside braces: taken after the letter too, `Alzheimer\'s disease`
# and `the \"deep\" model` were read alzheimersdisease and deepmodel.
_ACCENT = r"\\(?:[\"'`^~=.]|[uvHckbdr]\s*(?=\{))(\{\s*)?\\?([A-Za-z])(?(1)\s*\})"
# Alzheimer\'s, don\'t, O\'Neil: an apostrophe, no accent (as core.typeset reads it), so the
# words are those of Alzheimer's. The backslash first: a pattern that opens on a look-behind
# is tried at every byte (18 µs a paper, against 0.4).
_APOSTROPHE = r"\\(?<=[A-Za-z]\\)'(?=(?:s|t|d|m|re|ll|ve)(?![A-Za-z])|[A-Z])"
_COMMAND = r"\\([A-Za-z]+)(\s*\{)?"  # \alpha reads alpha
# Each pattern for text and for UTF-8 (the index unwraps a chunk's bytes: 2.7 times faster
# than its text), their spaces ASCII's: `\s` is that in bytes, and more in text.
_PATTERNS = [
    pattern.replace(r"\s", r"[ \t\n\r\f\v]")
    for pattern in (_WRAPPER, _APOSTROPHE, _ACCENT, _COMMAND)
]
_TEXT = tuple(re.compile(pattern) for pattern in _PATTERNS)
_UTF8 = tuple(re.compile(pattern.encode()) for pattern in _PATTERNS)
_MARKUP = re.compile(r"[${}\\]")  # what is left of the markup
# What is part of a word but folds away: combining accents, and what is never seen (a soft
# hyphen, zero-width spaces and joiners), which split "gra\u00adph" in two.
MARKS = (
    "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
    "\u00ad\u200b-\u200d\u2060\ufeff"
)
_MARKS = re.compile(f"[{MARKS}]")


def unwrap_latex(text: str) -> str:
    """The text with LaTeX commands unwrapped (`\\mathcal{O}` reads `{O}`... `O` once the
    markup characters `${}\\` left are dropped), case kept; another command's name and its
    arguments are words apart (`\\cite{a}` reads `cite {a}`); PDF-extraction debris mended
    (core.text.without_debris)."""
    text = without_debris(text)
    if "\\" in text:
        wrapper, apostrophe, accent, command = _TEXT
        text = apostrophe.sub("'", wrapper.sub(r"\1", text))
        text = accent.sub(r"\2", text)
        text = command.sub(_command, text).replace("}{", "} {")  # \href{url}{text}
    return text


def unwrap_latex_utf8(text: bytes) -> bytes:
    """`unwrap_latex` of UTF-8 text, as bytes."""
    text = without_debris_utf8(text)
    if b"\\" in text:
        wrapper, apostrophe, accent, command = _UTF8
        text = apostrophe.sub(b"'", wrapper.sub(rb"\1", text))
        text = accent.sub(rb"\2", text)
        text = command.sub(_command_utf8, text).replace(b"}{", b"} {")
    return text


def _command(found: re.Match[str]) -> str:
    """A command's name, set apart from a word just before it (note\\footnote{a}) and from
    its argument (\\textsc{BERT}), so that dropping the markup glues no words."""
    start = found.start()
    before = " " if found.string[start - 1 : start].isalnum() else ""
    return before + found[1] + (" {" if found[2] else "")


def _command_utf8(found: re.Match[bytes]) -> bytes:
    """`_command` in UTF-8: the character before is decoded (a letter may take 4 bytes)."""
    start = found.start()
    before = found.string[max(start - 4, 0) : start].decode(errors="ignore")[-1:]
    return (b" " if before.isalnum() else b"") + found[1] + (b" {" if found[2] else b"")


# A phrase reads a hyphen or a dash between words as a space: `"erdos renyi"` finds
# Erd\H{o}s-R\'enyi and Erdős-Rényi with an en dash, `"co-training"` finds co training.
_DASHES = ("-", "\u2013", "\u2014")


def phrase_text(text: str) -> str:
    """Folded text as a phrase is matched in it: dashes as spaces."""
    for dash in _DASHES:
        text = text.replace(dash, " ")
    return text


def fold_rest(text: str, casefold: bool = True) -> str:
    """The text without accents (and in lower case unless `casefold` is false)."""
    if not text.isascii():
        text = _MARKS.sub("", unicodedata.normalize("NFKD", text))
    return text.casefold() if casefold else text


def fold(text: str) -> str:
    """The text as search reads it (lower case, no accents, no LaTeX commands)."""
    return fold_rest(_MARKUP.sub("", unwrap_latex(text)))
