"""The form of text that search reads: LaTeX markup unwrapped, accents folded, case folded.

`$\\mathcal{O}(1/T)$` reads `o(1/t)`, `Schr\\"odinger` and `Schrödinger` read `schrodinger`,
`$\\alpha$` reads `alpha`. This is a fast, regex-only approximation of core.typeset (which
takes milliseconds a paper: hours at a million papers); it is applied to whole chunks of
papers joined by NUL characters, which none of its patterns cross.
"""

import re
import unicodedata

# \mathcal{O}, \textbf{word}...: the argument stays, the command goes.
_WRAPPER = re.compile(
    r"\\(?:math(?:cal|bb|rm|bf|it|sf|frak|scr|tt)|text(?:rm|bf|it|sf|tt|normal)?|emph"
    r"|boldsymbol|bm|operatorname\*?|mbox|hat|bar|tilde|vec|widehat|widetilde|overline)"
    r"\s*\{([^{}\x00]*)\}"
)
# \"o, \'{e}, {\"o}, \c{c}, \v s: the letter stays, the accent goes.
_ACCENT = re.compile(r"\\(?:[\"'`^~=.]|[uvHckbdr](?=\s*\{))\s*\{?\s*\\?([A-Za-z])\s*\}?")
_COMMAND = re.compile(r"\\([A-Za-z]+)")  # \alpha reads alpha
_MARKUP = re.compile(r"[${}\\]")  # what is left of the markup
_MARKS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def fold(text: str) -> str:
    """The text as search reads it (lower case, no accents, no LaTeX commands)."""
    if "\\" in text or "$" in text:
        text = _WRAPPER.sub(r"\1", text)
        text = _ACCENT.sub(r"\1", text)
        text = _COMMAND.sub(r"\1", text)
        text = _MARKUP.sub("", text)
    if not text.isascii():
        text = _MARKS.sub("", unicodedata.normalize("NFKD", text))
    return text.casefold()
