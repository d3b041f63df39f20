"""LaTeX prose as Unicode, for references (core.references): arXiv writes titles and authors
as LaTeX (`Schr\\"odinger`, `Erd\\H{o}s`, `50\\%`, `\\textbf{bold}`, `The {GAN} zoo`).

Only accents, special letters (`\\ss`, `\\o`), escaped characters (`\\%`, `\\{`) and text
styles (`\\emph{}`, `\\textbf{}`...) are converted, and braces dropped; any other command, an
environment or math is kept as written, and so is a brace without its pair, and a backslash
that escapes nothing (`a \\ b`: no control space, as the list shows it).
"""

import functools
import re
import unicodedata
from typing import Any

from tui_reader.core.text import without_debris
from tui_reader.core.typeset import math_spans, math_to_text, written_quotes

# pylatexenc reads about 60 kB a second: an abstract is 1-3 kB, but a record may hold a
# megabyte (17 s, with the reader's screen held while it exports).
LONGEST_CONVERTED = 20_000
_BRACE_TOKEN = re.compile(r"\\[{}]|\\.|[{}]", re.S)
_LATEX_MARK = re.compile(r"[\\{}]")
# What only pylatexenc reads: a backslash not escaping a character, a dollar not escaped.
_COMMAND_MARK = re.compile(r"\\(?![%&_#${}])|(?<!\\)\$")
_CHARACTER_ESCAPE = re.compile(r"\\(.)")
_TO_ESCAPE = re.compile(r"\\.|\\\Z|[%{}]", re.S)
_ACCENTS = list("'\"^`~=.") + list("uvHckrbd")
_LETTERS = ["ss", "o", "O", "ae", "AE", "oe", "OE", "aa", "AA", "l", "L", "i", "j"]
_ESCAPES = list("%&_#${}")
_STYLES = ["emph", "textbf", "textit", "textsl", "textsc", "textrm", "textsf", "texttt"]
_STYLES += ["textup", "textnormal", "text", "mbox"]
_SWITCHES = ["bf", "it", "em", "rm", "sc", "sf", "tt", "boldmath"]  # {\bf x} is x
# An accent over a dotless i or j (`\\"{\\i}`, `\\'\\i`, as BibTeX files write it): the letter
# with the accent is i or j with it (ï, í), never a dotless one.
_DOTLESS = re.compile(
    r"\\([`'^\"~=.uvHckrbd])\s*(?:\{\\([ij])\s*\}|\\([ij])(?:\{\}| |(?![A-Za-z])))"
)
# TeX's ligatures, which a reader of plain text would see as typed.
_LIGATURES = re.compile(r"---|--|``|''")
_COMMAND_END = re.compile(r"\\[A-Za-z@]*\Z")  # a command before a brace, or `\{`
_LIGATURE_TEXT = {"---": "\u2014", "--": "\u2013", "``": "\u201c", "''": "\u201d"}


def unicode_text(text: str, math: bool = False) -> str:
    """Text as a reference manager shows it: LaTeX accents, escapes and text styles outside
    math as Unicode (`Schr\\"odinger`: Schrödinger; `50\\%`: 50%; `The {GAN} zoo`: The GAN
    zoo; `Alzheimer\\'s`: Alzheimer's; ``quoted'': “quoted”, as the screen shows them), what PDF
    extraction broke mended (piri(cid:173) form: piriform), and `$math$` as written, or with
    `math` as Unicode (`$\\sqrt{T}$`: √(T))."""
    text = without_debris(text)
    marks = any(mark in text for mark in "\\{}") or "``" in text or "''" in text
    if not marks and not (math and "$" in text):  # most: nothing to read
        return text
    text = written_quotes(
        _DOTLESS.sub(lambda dotless: f"\\{dotless[1]}{{{dotless[2] or dotless[3]}}}", text)
    )
    pieces = []
    for prose, source in _prose_and_math(text):
        pieces += [latex_to_unicode(prose), math_to_text(source) if math and source else source]
    return "".join(pieces)


def _prose_and_math(text: str) -> list[tuple[str, str]]:
    """The text cut at its `$math$`: each piece of prose with the math after it ("" last).
    Braces of math's own (`{$Q$}`: a title's math kept from a style's case changes), not a
    command's argument (`\\textbf{$x$}`) nor escaped (`\\{`), go with it."""
    pieces, at = [], 0
    for start, end in math_spans(text):
        braced = (
            text[start - 1 : start] == "{"
            and start > at
            and text[end : end + 1] == "}"
            and not _COMMAND_END.search(text, at, start - 1)
        )
        pieces.append((text[at : start - 1] if braced else text[at:start], text[start:end]))
        at = end + 1 if braced else end
    return [*pieces, (text[at:], "")]


def plain_text(text: str) -> str:
    """Text with no LaTeX left where it can be read, for formats that take no markup (RIS,
    CSL-JSON, a plain-text citation): `unicode_text`, `$math$` as Unicode as the screen shows
    it (`$x^2 \\leq 1$`: x² ≤ 1; math it cannot read stays as written), TeX's dashes and
    double quotes (`--`, ``` ``x'' ```) as the characters they make, and accents composed
    (NFC: `ö`, not an `o` and a combining mark)."""
    pieces = []
    for prose, source in _prose_and_math(text):
        prose = _LIGATURES.sub(lambda tie: _LIGATURE_TEXT[tie[0]], prose)
        pieces += [unicode_text(prose), math_to_text(source) if source else ""]
    return unicodedata.normalize("NFC", "".join(pieces))


def unpaired_braces(text: str) -> list[re.Match[str]]:
    """The braces of `text` without a pair, in order: grouping braces (`{}`) and escaped
    ones (`\\{\\}`) are each paired among their own kind; `\\\\` escapes no brace."""
    unpaired: list[re.Match[str]] = []
    opened: dict[bool, list[re.Match[str]]] = {False: [], True: []}
    for match in _BRACE_TOKEN.finditer(text):
        token = match.group()
        escaped = len(token) == 2
        if token[-1] == "{":
            opened[escaped].append(match)
        elif token[-1] == "}":
            if opened[escaped]:
                opened[escaped].pop()
            else:
                unpaired.append(match)
    return sorted([*unpaired, *opened[False], *opened[True]], key=lambda match: match.start())


@functools.lru_cache(maxsize=1024)  # an author's name is read for its key, name and parts
def latex_to_unicode(prose: str) -> str:
    """Prose without math (`Schr\\"odinger`) as Unicode (Schrödinger); text with no command
    or brace is returned as it is, and so is text longer than LONGEST_CONVERTED."""
    if len(prose) > LONGEST_CONVERTED or not _LATEX_MARK.search(prose):
        return prose
    # A bare % is a percent sign in a title (arXiv writes "50% less"), not a comment; a
    # brace without its pair is a character too.
    unpaired = {match.start() for match in unpaired_braces(prose) if len(match.group()) == 1}
    if not _COMMAND_MARK.search(prose):  # braces and escaped characters only: most BibTeX
        return _CHARACTER_ESCAPE.sub(r"\1", _without_group_braces(prose, unpaired))

    def as_character(match: re.Match[str]) -> str:
        token = match.group()
        if token == "\\":  # the last character: a backslash, not a command
            return "\\textbackslash{}"
        return "\\" + token if token == "%" or match.start() in unpaired else token

    source = _TO_ESCAPE.sub(as_character, prose)
    walker, converter = _converter()
    try:
        nodes = walker(source).get_latex_nodes()[0]
        return str(converter.nodelist_to_text(nodes))
    except Exception:  # pylatexenc raises its own parse errors and, on odd input, others
        return prose


def _without_group_braces(prose: str, unpaired: set[int]) -> str:
    """The prose without its paired grouping braces (`{GAN}s`: GANs), as pylatexenc reads it."""
    pieces, at = [], 0
    for match in _BRACE_TOKEN.finditer(prose):
        if len(match.group()) == 1 and match.start() not in unpaired:
            pieces.append(prose[at : match.start()])
            at = match.end()
    return "".join([*pieces, prose[at:]])


@functools.cache
def _converter() -> tuple[Any, Any]:
    """The parser (a function of the text) and the converter, made when first used: pylatexenc
    takes 40 ms to import, and most commands convert no LaTeX."""
    from pylatexenc.latex2text import EnvironmentTextSpec, LatexNodes2Text, MacroTextSpec
    from pylatexenc.latex2text import get_default_latex_context_db as text_context
    from pylatexenc.latexwalker import LatexGroupNode, LatexMacroNode, LatexWalker
    from pylatexenc.latexwalker import get_default_latex_context_db as parse_context
    from pylatexenc.macrospec import LatexContextDb

    def as_written(node: Any, l2tobj: Any) -> str:
        return str(node.latex_verbatim())

    defaults = text_context()
    macros = [defaults.get_macro_spec(name) for name in _ACCENTS + _LETTERS + _ESCAPES]
    macros += [MacroTextSpec(name, discard=False) for name in _STYLES]
    macros += [MacroTextSpec(name, simplify_repl="") for name in _SWITCHES]
    macros += [MacroTextSpec("textbraceleft", "{"), MacroTextSpec("textbraceright", "}")]
    macros += [MacroTextSpec("textbackslash", "\\")]
    converted_names = {macro.macroname for macro in macros}
    converted = LatexContextDb()
    converted.add_context_category("text", macros=macros, environments=[], specials=[])
    converted.set_unknown_macro_spec(MacroTextSpec("", simplify_repl=as_written))
    converted.set_unknown_environment_spec(EnvironmentTextSpec("", simplify_repl=as_written))
    # No specials: ~, --, `` and '' stay as written.
    parsing = parse_context().filter_context(keep_which=["macros", "environments"])

    class Converter(LatexNodes2Text):  # type: ignore[misc]  # pylatexenc has no type hints
        """A command kept as written keeps its arguments' braces too: the parser does not
        know that `\\href` takes two, and `\\href{url}{text}` must not read `\\hrefurltext`."""

        def nodelist_to_text(self, nodelist: list[Any]) -> str:
            out: list[str] = []
            after_kept_command = False
            for node in filter(None, nodelist):
                if after_kept_command and node.isNodeType(LatexGroupNode):
                    out.append(node.latex_verbatim())
                    continue
                after_kept_command = (
                    node.isNodeType(LatexMacroNode) and node.macroname not in converted_names
                )
                out.append(self.node_to_text(node))
            return "".join(out)

    def walker(text: str) -> Any:
        return LatexWalker(text, latex_context=parsing, tolerant_parsing=True)

    return walker, Converter(latex_context=converted, math_mode="verbatim")
