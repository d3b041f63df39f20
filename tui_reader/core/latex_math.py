"""LaTeX math as Unicode text, through pylatexenc (core.typeset imports it on first use).

`$\\rho \\sqrt{T}$` reads "ρ √(T)", `x_i^2` "xᵢ²"; math the converter would get wrong (an
unknown command, an environment) is left as its source.
"""

import unicodedata

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec
from pylatexenc.latex2text import get_default_latex_context_db as latex2text_context
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexMacroNode,
    LatexNode,
    LatexWalker,
)
from pylatexenc.latexwalker import get_default_latex_context_db as latexwalker_context
from pylatexenc.macrospec import LatexContextDb, MacroSpec


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


class _MathToText(LatexNodes2Text):  # type: ignore[misc]  # pylatexenc has no type hints
    """pylatexenc's converter, stricter: an unknown command makes the math unconvertible,
    spaces after commands are kept ("ln T", not "lnT"), and scripts become Unicode."""

    def macro_node_to_text(self, node: LatexMacroNode) -> str:
        if self.latex_context.get_macro_spec(node.macroname) is None:
            raise _Unconvertible(node.macroname)
        text: str = super().macro_node_to_text(node)
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
