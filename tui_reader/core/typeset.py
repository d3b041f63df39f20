"""Abstracts as a reader wants them: LaTeX math as Unicode, emphasis as styles.

The raw text stays the paper's truth (search, copy and export use it); this is only how it is
shown. What PDF extraction broke is mended first (core.text.without_debris: "piri(cid:173)
form" reads piriform, "eﬃcient" efficient). Whatever cannot be converted is shown as its
source, never dropped: outside converted math, `typeset` shows every character of the source,
in order, but the syntax it applies: the names and braces of \\emph{}, \\textbf{} and the like,
the backslash of an escape such as \\%, the * and _ that markdown-it reads as emphasis, -- and
--- shown as – and —, TeX's quotes ``quoted'' shown as “quoted”, and an accent written \\"o
shown on its letter (ö) when it is one (Alzheimer\\'s and \\"quoted\\" read Alzheimer's and
"quoted").
"""

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from tui_reader.core.text import without_debris

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# Stands in for a math span while the emphasis around it is parsed; a U+FFFC already in the
# text is treated as a span of its own, so the count always lines up.
_PLACEHOLDER = "\ufffc"


@dataclass(frozen=True, slots=True)
class Span:
    """A run of text shown in one style."""

    text: str
    italic: bool = False
    bold: bool = False
    math: bool = False


def typeset(text: str) -> tuple[Span, ...]:
    """The text as spans to show; joined, they read like the typeset paper."""
    text = without_debris(text)
    if not any(mark in text for mark in "$\\*_`") and "--" not in text and "''" not in text:
        return (Span(text),)
    return _typeset(text)


def typeset_text(text: str) -> str:
    """The text as `typeset` shows it, without its styles: a paper's headline as the list
    shows it, which names the paper wherever it is named (core.references.headline_text)."""
    return "".join(span.text for span in typeset(text))


@lru_cache(maxsize=512)
def _typeset(text: str) -> tuple[Span, ...]:
    kept = _kept_spans(text)
    masked, cut = [], 0
    for start, end, _ in kept:
        masked += [text[cut:start], _PLACEHOLDER]
        cut = end
    masked.append(text[cut:])
    sources = iter((text[start:end], shown) for start, end, shown in kept)
    prose = "".join(masked)
    if "*" not in prose and "_" not in prose:  # no emphasis: no parser (nor its import)
        return _merged(_prose(prose, 0, len(prose), False, False, sources))
    spans: list[Span] = []
    italic = bold = 0  # emphasis nests: _a *b* c_ is italic to its end
    for token in _emphasis().parseInline(prose)[0].children or []:
        if token.type in ("em_open", "em_close"):
            italic += 1 if token.type == "em_open" else -1
        elif token.type in ("strong_open", "strong_close"):
            bold += 1 if token.type == "strong_open" else -1
        else:
            content = token.content
            spans += _prose(content, 0, len(content), italic > 0, bold > 0, sources)
    return _merged(spans)


@cache
def _emphasis() -> "MarkdownIt":
    """The parser of *emphasis* and **bold**, imported on first use (40 ms at each start)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("zero").enable(["emphasis"])


def _kept_spans(text: str) -> list[tuple[int, int, str | None]]:
    """What the emphasis parser must not see, as (start, end, how it reads; None for math):
    math; a backslash and the character it escapes (\\%, \\_, \\*, \\\\); LaTeX's starred
    scripts (Δ_*); dashes; quotes; and the \\r and \\0 that markdown-it would rewrite."""
    maths = math_spans(text)
    kept: list[tuple[int, int, str | None]] = [
        (start, end, None if text[start] != _PLACEHOLDER else _PLACEHOLDER) for start, end in maths
    ]
    kept += _prose_literals(text, maths)
    return sorted(kept, key=lambda piece: piece[0])


def _prose_literals(text: str, maths: list[tuple[int, int]]) -> Iterator[tuple[int, int, str]]:
    """Where the pieces of prose that read otherwise than written are, outside math (dashes,
    quotes and accents not in links either), and how each reads: an escape, a dash, TeX's
    quotes, an accent, or the backslash and mark of one that is none."""
    links = [match.span() for match in _LINK.finditer(text)]
    # Where the last closing \" is, found once: searched for at each \", it made a text of
    # many of them quadratic.
    last_closing = max((m.start() for m in _CLOSING_QUOTE.finditer(text)), default=-1)
    for match in _LITERAL.finditer(text):
        start = match.start()
        if any(s <= start < e for s, e in maths):
            continue
        if match.lastgroup in ("dash", "accent", "quote") and any(s <= start < e for s, e in links):
            continue
        # \emph{\"o}: the brace is the command's, not the accent's
        commands = bool(match["outer"]) and _COMMAND_BEFORE.search(text, max(start - 40, 0), start)
        braced = bool(match["outer"]) and not commands
        if match["mark"] and not _is_accent(text, match, last_closing, braced):
            mark = match.start("mark") - 1
            yield mark, mark + 2, _literal(text[mark : mark + 2])
        elif commands:
            yield start + 1, match.end() - 1, _literal(text[start + 1 : match.end() - 1])
        elif match.lastgroup == "quote":
            yield start, match.end(), _quote(text, start)
        else:
            yield start, match.end(), _literal(match.group())


def _is_accent(text: str, match: re.Match[str], last_closing: int, braced: bool) -> bool:
    """Whether an accent's source is one: its letter takes the mark as one character
    (no d̈), and, not in braces of its own, it is not an apostrophe (Alzheimer\\'s, don\\'t,
    O\\'Neil) or an opening quote (\\"deep\\": a closing \\" comes after it, the last at
    `last_closing`)."""
    accented = unicodedata.normalize("NFC", match["letter"] + ACCENT_MARKS[match["mark"]])
    if len(accented) != 1:
        return False
    if braced or match["brace"]:
        return True
    start = match.start("mark") - 1
    after_letter = start > 0 and text[start - 1].isalpha()
    if match["mark"] == "'":
        apostrophe = match["letter"].isupper() or _CONTRACTION.match(text, start + 2)
        return not (after_letter and apostrophe)
    if match["mark"] == '"':
        return after_letter or last_closing < match.end()
    return True


def _quote(text: str, start: int) -> str:
    """How TeX's quote at `start` reads: `` opens, '' closes, but for one that stands before
    a word and after a space or an opening bracket (''word'', as some write both)."""
    if text.startswith("``", start):
        return "\u201c"
    before = text[start - 1] if start else " "
    after = text[start + 2 : start + 3]
    opens = (before.isspace() or before in "([{`") and after.strip() != ""
    return "\u201c" if opens else "\u201d"


_QUOTES = ("\\'", '\\"', "``", "''")


def written_quotes(text: str) -> str:
    """The text with each \\' and \\" that is no accent (Alzheimer\\'s, \\"deep\\") as the
    apostrophe or quote it stands for, and TeX's ``quotes'' as “quotes”, where `typeset` shows
    them so; all else as it is."""
    if not any(quote in text for quote in _QUOTES):
        return text
    pieces, at = [], 0
    for start, end, shown in _prose_literals(text, math_spans(text)):
        if text[start:end] in _QUOTES:
            pieces += [text[at:start], shown]
            at = end
    return "".join([*pieces, text[at:]])


def _literal(source: str) -> str:
    """How a kept piece of prose reads: \\% as %, -- as an en dash, --- as an em dash,
    Schr\\"odinger's accent on its letter."""
    if source in _DASHES:
        return _DASHES[source]
    if accent := _ACCENT.fullmatch(source[1:-1] if source[:1] == "{" else source):
        return unicodedata.normalize("NFC", accent["letter"] + ACCENT_MARKS[accent["mark"]])
    if source[0] == "\\" and source[1] in "%&_#{}$'\"":  # \' and \" no accent: Alzheimer\'s
        return source[1]
    return source


def _prose(
    text: str,
    start: int,
    end: int,
    italic: bool,
    bold: bool,
    kept: Iterator[tuple[str, str | None]],
) -> list[Span]:
    """Prose in text[start:end] with its \\emph{}, \\textbf{} commands applied and each
    placeholder replaced by what it stands for; all else as written."""
    spans: list[Span] = []
    at = start
    while (mark := _PROSE_MARK.search(text, at, end)) is not None:
        if mark.start() > at:
            spans.append(Span(text[at : mark.start()], italic, bold))
        at = mark.end()
        if mark.group() == _PLACEHOLDER:
            source, shown = next(kept)
            if shown is None:
                spans.append(Span(math_to_text(source), italic, bold, math=True))
            else:
                spans.append(Span(shown, italic, bold))
            continue
        close = _closing_brace(text, at, end)
        if close in (-1, at):  # no closing brace, or nothing to style: shown as written
            spans.append(Span(mark.group(), italic, bold))
            continue
        names = [mark.group("command")] if mark.group("command") else _switched(mark)
        italic_in = italic or any(name in _ITALIC for name in names)
        bold_in = bold or any(name in _BOLD for name in names)
        spans += _prose(text, at, close, italic_in, bold_in, kept)
        at = close + 1
    if end > at:
        spans.append(Span(text[at:end], italic, bold))
    return spans


def _switched(mark: re.Match[str]) -> list[str]:
    """The commands a run of switches stands for: {\\em\\bf x} is \\emph and \\textbf."""
    return [_SWITCHES[name] for name in re.findall(_SWITCH, mark.group("switches"))]


def _closing_brace(text: str, start: int, end: int) -> int:
    depth = 0
    for match in _BRACE.finditer(text, start, end):
        if match.group() == "{":
            depth += 1
        elif depth:
            depth -= 1
        else:
            return match.start()
    return -1


def _merged(spans: list[Span]) -> tuple[Span, ...]:
    """Neighbouring prose spans of one style as one span."""
    out: list[Span] = []
    for span in spans:
        if not span.text:
            continue
        last = out[-1] if out else None
        if (
            last is not None
            and not (last.math or span.math)
            and (last.italic, last.bold) == (span.italic, span.bold)
        ):
            out[-1] = Span(last.text + span.text, span.italic, span.bold)
        else:
            out.append(span)
    return tuple(out)


_ITALIC = {"emph", "textit", "textsl", "mathit"}
_BOLD = {"textbf", "mathbf"}
_PLAIN = {"text", "textrm", "textsf", "texttt", "textsc", "textup", "textnormal", "url", "mbox"}
# LaTeX 2.09's switches, braced with the text they set: {\bf Re}presentation, {\em\bf x}.
_SWITCHES = {"it": "emph", "em": "emph", "sl": "emph", "bf": "textbf"} | dict.fromkeys(
    ("rm", "sf", "tt", "sc"), "text"
)
_SWITCH = r"\\(" + "|".join(_SWITCHES) + r")(?![A-Za-z])\s*"
_PROSE_MARK = re.compile(
    _PLACEHOLDER
    + r"|\\(?P<command>"
    + "|".join(sorted(_ITALIC | _BOLD | _PLAIN))
    + r")\s*\{|\{(?P<switches>(?:"
    + _SWITCH
    + r")+)"
)
_BRACE = re.compile(r"[{}]")
# A dash is -- or --- alone: not part of a longer rule, an arrow (-->, <--), an HTML comment
# or a command-line option ("--verbose", after a space or an opening bracket). Each choice
# starts with its first character, which keeps the search fast.
# A letter's accent, \"o, \"{o} or \c{c} (an accent named by a letter takes braces:
# \cite is none), and the combining mark that puts it on the letter.
_ACCENT_SOURCE = (
    r"\\(?P<mark>[\"'`^~=.]|[uvHckrdb](?=\{))(?P<brace>\{)?(?P<letter>[A-Za-z])(?(brace)\})"
)
_ACCENT = re.compile(_ACCENT_SOURCE)
_COMMAND_BEFORE = re.compile(r"\\[A-Za-z]+\s*\Z")  # a brace after it is its argument's
_CONTRACTION = re.compile(r"(?:s|t|d|m|re|ll|ve)(?![A-Za-z])")  # after \' and a word
_CLOSING_QUOTE = re.compile(r'\\"(?![A-Za-z{])')
ACCENT_MARKS = dict(
    zip(
        "\"'`^~=.uvHckrdb",
        "\u0308\u0301\u0300\u0302\u0303\u0304\u0307\u0306\u030c\u030b\u0327\u0328\u030a\u0323\u0331",
        strict=True,
    )
)
_LITERAL = re.compile(
    f"(?P<accent>(?P<outer>\\{{)?{_ACCENT_SOURCE}(?(outer)\\}}))"  # {\"o}: the braces go too
    r"|\\[^A-Za-z]|[_^]\*|[\r\0]|(?P<quote>``|'')"
    r"|(?P<dash>-(?<![-<!]-)--(?![->])"
    r"|-(?<=[^-<!\s(\[{\"'`]-)-(?![->])|-(?<![^\s(\[{\"'`]-)-(?![->A-Za-z]))",
    re.S,
)
_DASHES = {"--": "\u2013", "---": "\u2014"}
_LINK = re.compile(r"(?:https?|ftp)://\S+|www\.\S+")
_COMMAND = re.compile(r"\\[A-Za-z]")
_MATH_MARK = re.compile(r"\\.|\$|" + _PLACEHOLDER, re.S)
_DOLLAR = re.compile(r"\\.|\$", re.S)
_PAIR = re.compile(r"\\.", re.S)


def math_spans(text: str) -> list[tuple[int, int]]:
    """Where `$...$`, `$$...$$` and `\\(...\\)` math is, as (start, end) with delimiters.

    Pandoc's rule, made stricter: a `$` opens math when a non-space follows it, and only the
    next `$` can close it, when a non-space precedes it. So "$5 and $10" stays money, even
    with math after it. Math spaced inside its dollars is math when it holds a LaTeX command.
    """
    spans: list[tuple[int, int]] = []
    at = 0
    while (mark := _MATH_MARK.search(text, at)) is not None:
        start, at = mark.span()
        found = mark.group()
        if found == _PLACEHOLDER:
            spans.append((start, at))
        elif found == "\\(":
            close = text.find("\\)", at)
            # math in math is a typo, not math: \(a $ b\) is shown as written
            if close != -1 and "$" not in _PAIR.sub("", text[at:close]):
                spans.append((start, close + 2))
                at = close + 2
        elif found == "$":
            delimiter = "$$" if text.startswith("$$", start) else "$"
            at = start + len(delimiter)
            close = _closing_dollar(text, at, delimiter)
            if close != -1:
                at = close + len(delimiter)
                spans.append((start, at))
    return spans


def _closing_dollar(text: str, start: int, delimiter: str) -> int:
    """Where the math opened just before `start` closes, or -1: only the next unescaped `$`
    can close it."""
    at = next((m.start() for m in _DOLLAR.finditer(text, start) if m.group() == "$"), -1)
    if at <= start or not text.startswith(delimiter, at):
        return -1
    content, follows = text[start:at], text[at + len(delimiter) : at + len(delimiter) + 1]
    if content[0].isspace() or content[-1].isspace():
        # Beyond Pandoc's rule: an author's "$ O(\\sqrt{T}) $", spaced inside, is math too
        # when it holds a LaTeX command and its closing $ ends a word.
        return at if _COMMAND.search(content) and not follows.isalnum() else -1
    # A digit after the closing $ is money ("$5-$10") when a digit follows the opening one
    # too; "$\\times$64" is math.
    return -1 if content[0].isdigit() and follows.isdigit() else at


def math_to_text(source: str) -> str:
    """Math such as `$\\rho \\sqrt{T}$` as Unicode ("ρ √(T)"); its source when that fails."""
    # Imported on first use: pylatexenc and the tables made from it take 40 ms to import, at
    # each start, before the first frame, which often shows no math.
    from tui_reader.core.latex_math import math_to_text as converted

    return converted(source)
