"""Abstracts as a reader wants them: LaTeX math as Unicode, emphasis as styles.

The raw text stays the paper's truth (search, copy and export use it); this is only how it is
shown. Whatever cannot be converted is shown as its source, never dropped: `typeset` keeps
every letter and digit of the source, in order, apart from LaTeX command names.
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec
from pylatexenc.latex2text import get_default_latex_context_db as latex2text_context
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexNode,
    LatexWalker,
)
from pylatexenc.latexwalker import get_default_latex_context_db as latexwalker_context
from pylatexenc.macrospec import LatexContextDb, MacroSpec

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
    if not any(mark in text for mark in "$\\*_"):
        return (Span(text),)
    return _typeset(text)


@lru_cache(maxsize=512)
def _typeset(text: str) -> tuple[Span, ...]:
    kept = _kept_spans(text)
    masked, cut = [], 0
    for start, end in kept:
        masked += [text[cut:start], _PLACEHOLDER]
        cut = end
    masked.append(text[cut:])
    sources = iter(text[start:end] for start, end in kept)
    spans: list[Span] = []
    italic = bold = False
    for token in _EMPHASIS.parseInline("".join(masked))[0].children or []:
        if token.type in ("em_open", "em_close"):
            italic = token.type == "em_open"
        elif token.type in ("strong_open", "strong_close"):
            bold = token.type == "strong_open"
        else:
            for number, part in enumerate(token.content.split(_PLACEHOLDER)):
                if number:
                    source = next(sources)
                    if source.startswith(("$", "\\(")):
                        spans.append(Span(math_to_text(source), italic, bold, math=True))
                    else:
                        spans.append(Span(source, italic, bold))
                if part:
                    spans += _text_spans(part, italic, bold)
    return tuple(spans)


def _kept_spans(text: str) -> list[tuple[int, int]]:
    """Math, and LaTeX's starred scripts outside it (Δ_*), hidden from the emphasis parser."""
    maths = math_spans(text)
    starred = [match.span() for match in _STARRED.finditer(text)]
    starred = [(a, b) for a, b in starred if not any(s <= a < e for s, e in maths)]
    return sorted(maths + starred)


_STARRED = re.compile(r"[_^]\*")
_COMMAND = re.compile(r"\\[A-Za-z]")
_EMPHASIS = MarkdownIt("zero").enable(["emphasis"])


def math_spans(text: str) -> list[tuple[int, int]]:
    """Where `$...$`, `$$...$$` and `\\(...\\)` math is, as (start, end) with delimiters.

    A `$` opens math only when a non-space follows it, and closes it only when a non-space
    precedes it and no digit follows (Pandoc's rule), so "$5 and $10" stays money.
    A `$` that encloses a LaTeX command is math even with spaces inside.
    """
    spans: list[tuple[int, int]] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == _PLACEHOLDER:
            spans.append((at, at + 1))
        elif char == "\\" and text.startswith("\\(", at):
            close = text.find("\\)", at + 2)
            if close != -1:
                spans.append((at, close + 2))
                at = close + 2
                continue
        elif char == "\\":
            at += 2  # an escaped character, such as \$, is never a delimiter
            continue
        elif char == "$":
            delimiter = "$$" if text.startswith("$$", at) else "$"
            close = _closing_dollar(text, at + len(delimiter), delimiter)
            if close != -1:
                spans.append((at, close + len(delimiter)))
                at = close + len(delimiter)
                continue
            at += len(delimiter)
            continue
        at += 1
    return spans


def _closing_dollar(text: str, start: int, delimiter: str) -> int:
    if start >= len(text):
        return -1
    # Beyond Pandoc's rule: an author's "$ O(\\sqrt{T}) $", spaced inside, is math too when
    # it holds a LaTeX command and its closing $ ends a word.
    spaced = text[start].isspace()
    at = start
    while (at := text.find(delimiter, at)) != -1:
        before, follows = text[at - 1], text[at + len(delimiter) : at + len(delimiter) + 1]
        if delimiter == "$" and follows == "$":  # a $$ never closes a single $
            at += 2
            continue
        if at > start and before not in "\\$" and not follows.isdigit():
            if not spaced and not before.isspace():
                return at
            if spaced and not follows.isalnum():
                return at if _COMMAND.search(text, start, at) else -1
        at += 1
    return -1


class _Unconvertible(Exception):
    """Math that the converter would get wrong: it is shown as its source instead."""


def math_to_text(source: str) -> str:
    """Math such as `$\\rho \\sqrt{T}$` as Unicode ("ρ √(T)"); its source when that fails."""
    # Abstracts write "$32%$": a percent sign, never the comment it would be in LaTeX.
    latex = source.replace("\\%", "%").replace("%", "\\%")
    try:
        walker = LatexWalker(latex, latex_context=_PARSING, tolerant_parsing=False)
        text = _MATH.nodelist_to_text(walker.get_latex_nodes()[0]).strip()
    except Exception:  # pylatexenc raises its own parse errors and, on odd input, others
        return source
    return text or source


def _script(text: str, kind: str) -> str:
    """`text` raised (`^`) or lowered (`_`): Unicode sub/superscripts when each has one."""
    prefixes = (
        ("SUPERSCRIPT ", "MODIFIER LETTER ", "SUPERSCRIPT LATIN ")
        if kind == "^"
        else ("SUBSCRIPT ", "LATIN SUBSCRIPT ", "GREEK SUBSCRIPT ")
    )
    if kind == "^" and text == "∘":  # 360^\circ: degrees
        return "°"
    scripted = []
    for char in text:
        base = _base_name(char)
        # "MODIFIER LETTER SMALL D" but "LATIN SUBSCRIPT SMALL LETTER I": try both spellings.
        for name in [
            prefix + form for prefix in prefixes for form in (base, base.replace("LETTER ", ""))
        ]:
            try:
                candidate = unicodedata.lookup(name)
            except KeyError:
                continue
            # Only a true small form of the same character (U+02D5 is no raised U+22A4).
            if _base_name(unicodedata.normalize("NFKC", candidate)) == base:
                scripted.append(candidate)
                break
        else:
            return kind + (text if len(text) == 1 else f"({text})")
    return "".join(scripted)


def _base_name(char: str) -> str:
    """A character's Unicode name without its script or digit prefix: "SMALL LETTER D"."""
    name = unicodedata.name(char, "") if len(char) == 1 else ""
    name = {"HYPHEN-MINUS": "MINUS", "MINUS SIGN": "MINUS"}.get(name, name)
    return name.removeprefix("DIGIT ").removeprefix("LATIN ").removeprefix("GREEK ")


class _MathToText(LatexNodes2Text):
    """pylatexenc's converter, stricter: an unknown command makes the math unconvertible,
    spaces after commands are kept ("ln T", not "lnT"), and scripts become Unicode."""

    def macro_node_to_text(self, node: LatexMacroNode) -> str:
        if self.latex_context.get_macro_spec(node.macroname) is None:
            raise _Unconvertible(node.macroname)
        text = super().macro_node_to_text(node)
        if not (node.nodeargd and node.nodeargd.argnlist):
            text += node.macro_post_space
        return text

    def environment_node_to_text(self, node: LatexNode) -> str:
        raise _Unconvertible(node.latex_verbatim())

    def nodelist_to_text(self, nodelist: list[LatexNode]) -> str:
        out: list[str] = []
        pending = ""  # a ^ or _ waiting for the next node, as in x^{2} or e^\top
        for node in nodelist:
            if node is None:
                continue
            text = self.node_to_text(node)
            if pending:
                after = text[len(text.rstrip()) :]
                text, pending = _script(text.strip(), pending) + after, ""
            if isinstance(node, LatexCharsNode):
                text, pending = _inline_scripts(text)
            out.append(text)
        if pending:
            out.append(pending)
        return "".join(out)


def _inline_scripts(chars: str) -> tuple[str, str]:
    """Scripts within plain characters (x_i^2); a trailing ^ or _ is returned as pending."""
    out: list[str] = []
    at = 0
    while at < len(chars):
        char = chars[at]
        if char in "^_" and at + 1 == len(chars):
            return "".join(out), char
        if char in "^_" and not chars[at + 1].isspace():
            out.append(_script(chars[at + 1], char))
            at += 2
            continue
        out.append(char)
        at += 1
    return "".join(out), ""


def _fraction(node: LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    """a/b, with parentheses around a part that is more than one word: (a+b)/c.

    pylatexenc passes the converter by the argument name `l2tobj`."""
    parts = [l2tobj.node_arg_to_text(node, k).strip() for k in (0, 1)]
    return "/".join(part if part.isalnum() else f"({part})" for part in parts)


def _root(node: LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    """√x, √(SAT), √(a+b), and ³√x for \\sqrt[3]{x}."""
    index, body = (l2tobj.node_arg_to_text(node, k).strip() for k in (0, 1))
    return (_script(index, "^") if index else "") + "√" + (body if len(body) == 1 else f"({body})")


def _text_context() -> LatexContextDb:
    """What each math command shows as, beyond pylatexenc's defaults."""
    context = latex2text_context()
    # Commands pylatexenc would silently drop or refuse, given the text they stand for.
    size = ["left", "right", "middle", "big", "Big", "bigg", "Bigg"]
    size += [name + side for name in size[3:] for side in "lrm"]
    fonts = ["bf", "rm", "cal", "it", "sf", "tt"]  # old font switches: {\cal O} shows O
    blank = ["displaystyle", "textstyle", "scriptstyle", "limits", "nolimits", "!", "mathop"]
    spaced = [",", ";", ":", " ", "quad", "qquad", "enspace", "thinspace"]
    named = {"|": "‖", "Vert": "‖", "vert": "|", "lVert": "‖", "rVert": "‖", "top": "⊤"}
    named |= {"land": "∧", "lor": "∨", "Pr": "Pr", "colon": ":"}
    macros = [MacroTextSpec(name, simplify_repl="") for name in size + fonts + blank]
    macros += [MacroTextSpec(name, simplify_repl=" ") for name in spaced]
    macros += [MacroTextSpec(name, simplify_repl=text) for name, text in named.items()]
    macros += [MacroTextSpec(name, discard=False) for name in _PLAIN_ARGUMENT]
    macros += [MacroTextSpec(name, simplify_repl=_fraction) for name in ("frac", "dfrac", "tfrac")]
    macros.append(MacroTextSpec("sqrt", simplify_repl=_root))
    for name, like in {"boldsymbol": "mathbf", "bm": "mathbf", "Tilde": "tilde"}.items():
        macros.append(MacroTextSpec(name, simplify_repl=context.get_macro_spec(like).simplify_repl))
    context.add_context_category("tui-reader", macros=macros, specials=[], prepend=True)
    return context


def _parse_context() -> LatexContextDb:
    """The parser must know which commands take an argument, or it reads {x} as a group."""
    context = latexwalker_context()
    names = ["boldsymbol", "bm", "Tilde", "operatorname", *_PLAIN_ARGUMENT]
    context.add_context_category("tui-reader", macros=[MacroSpec(name, "{") for name in names])
    return context


_PLAIN_ARGUMENT = ["operatorname", "mathrm", "text", "texttt", "textsf", "textnormal", "mbox"]
_PLAIN_ARGUMENT += ["smash"]
_MATH = _MathToText(
    latex_context=_text_context(),
    math_mode="text",
    # Keep the spaces the source has, as between "\\sqrt{T} \\log T".
    strict_latex_spaces={"between-latex-constructs": True, "in-equations": None},
)
_PARSING = _parse_context()

_ITALIC = {"emph", "textit", "textsl", "mathit"}
_BOLD = {"textbf", "mathbf"}
_PLAIN = {"text", "textrm", "textsf", "texttt", "textsc", "textup", "textnormal", "url", "mbox"}


def _text_spans(text: str, italic: bool, bold: bool) -> list[Span]:
    """Prose with LaTeX text commands (\\emph{}, \\textbf{}, \\%) applied; the rest verbatim."""
    if "\\" not in text:
        return [Span(text, italic, bold)]
    try:
        nodes = LatexWalker(text, tolerant_parsing=False).get_latex_nodes()[0]
    except Exception:  # unbalanced braces and the like: show the source
        return [Span(text, italic, bold)]
    return _node_spans(nodes, italic, bold)


def _node_spans(nodes: list[LatexNode], italic: bool, bold: bool) -> list[Span]:
    spans: list[Span] = []
    for node in nodes:
        if isinstance(node, LatexMacroNode):
            name, args = node.macroname, node.nodeargd.argnlist if node.nodeargd else []
            group = args[-1] if args and isinstance(args[-1], LatexGroupNode) else None
            if group is not None and len(args) == 1 and name in _ITALIC | _BOLD | _PLAIN:
                inner = _node_spans(
                    group.nodelist, italic or name in _ITALIC, bold or name in _BOLD
                )
                spans += inner
                continue
            if not name.isalpha() and not args:  # \% \& \_ \# \{ \}
                spans.append(Span(name + node.macro_post_space, italic, bold))
                continue
        if isinstance(node, LatexGroupNode):
            spans.append(Span(node.delimiters[0], italic, bold))
            spans += _node_spans(node.nodelist, italic, bold)
            spans.append(Span(node.delimiters[1], italic, bold))
            continue
        spans.append(Span(node.latex_verbatim(), italic, bold))
    return spans
