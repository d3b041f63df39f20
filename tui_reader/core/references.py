"""Ways to refer to a paper elsewhere: its links, a Markdown link, a citation, a BibTeX entry,
and the paper with what the user made of it as plain data."""

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable

from pylatexenc.latexencode import UnicodeToLatexEncoder

from tui_reader.core.latex_text import latex_to_unicode, unpaired_braces
from tui_reader.core.links import DEFAULT_SEARCH_URL, paper_links, search_link
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState
from tui_reader.core.text import without_debris
from tui_reader.core.typeset import math_spans, math_to_text, written_quotes

_KEY_WORD = re.compile(r"[A-Za-z0-9]+")
# Letters NFKD does not take apart into an ASCII letter and an accent.
_ASCII_LETTERS = str.maketrans(
    {"Ø": "O", "ø": "o", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "ß": "ss", "Ł": "L",
     "ł": "l", "Đ": "D", "đ": "d", "Ð": "D", "ð": "d", "Þ": "Th", "þ": "th", "\u0131": "i"}
)  # fmt: skip
_NAME_SUFFIX = re.compile(r"(?:,\s*|\s+)(Jr\.?|Sr\.?|II|III|IV)\s*$")
# Words a key passes over for the title's first significant one, as Better BibTeX does.
_STOP_WORDS = frozenset(
    ("a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "is", "of", "on",
     "or", "the", "to", "towards", "via", "with", "without")
)  # fmt: skip
_ESCAPE_OR_SPECIAL = re.compile(r"\\.|\\\Z|[%&#]", re.S)
_ESCAPED = re.compile(r"\\.", re.S)
_PARENTHESIS = re.compile(r"(?<!\\)[()]")


@functools.cache
def _encoder() -> UnicodeToLatexEncoder:
    # A character LaTeX has no command for (✓, CJK) is kept as UTF-8, which biblatex and
    # Zotero read, without a warning on stderr for each. Made when first used: its tables
    # take a while, and most runs write no BibTeX.
    return UnicodeToLatexEncoder(
        non_ascii_only=False, unknown_char_policy="keep", unknown_char_warning=False
    )


def headline_text(paper: Paper, *, cut: bool = False) -> str:
    """What names the paper in a line of text (a dialog's title, a link's text, a search):
    its title, else its headline, as read (`unicode_text`, math too: "$\\sqrt{T}$ regret"
    reads "√(T) regret"); with `cut`, no longer than a headline (a title may be longer), cut
    at a word with "…"."""
    text = unicode_text(paper.headline, math=True)
    if not cut:
        return text
    from tui_reader.core.headline import HEADLINE_MAX, shorten  # as in reference_title

    return shorten(text, HEADLINE_MAX)


def search_text(paper: Paper) -> str:
    """What a search for the paper looks for: its title, else its headline, which names the
    paper better than its first sentence ("Large Language Models have emerged as...").

    A headline cut to fit gives its whole words (a long sentence would make a search engine
    find less, not more); LaTeX is read as its letters (Schrödinger, not Schr\\"odinger, which
    finds nothing)."""
    return headline_text(paper).removesuffix("…")


def reference_title(paper: Paper) -> str:
    """What a reference calls the paper, never cut: its title, else its headline when that
    is whole, else the whole sentence the headline was cut from."""
    if paper.title:
        return paper.title
    if not paper.headline.endswith("…"):
        return paper.headline
    from tui_reader.core.headline import headline_source  # its patterns: 17 ms to compile

    return headline_source(paper.abstract).removesuffix(".")


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
    text = written_quotes(text)
    pieces, at = [], 0
    for start, end in math_spans(text):
        source = text[start:end]
        pieces += [latex_to_unicode(text[at:start]), math_to_text(source) if math else source]
        at = end
    pieces.append(latex_to_unicode(text[at:]))
    return "".join(pieces)


def links_of(paper: Paper, search_template: str = DEFAULT_SEARCH_URL) -> list[str]:
    """Every link of the paper, the primary one first; there is always at least one."""
    search = search_link(search_text(paper), search_template)
    own = [url for _, url in paper.kind_links]
    return paper_links(paper.url, [*own, *paper.links], search)


def primary_link(paper: Paper, search_template: str = DEFAULT_SEARCH_URL) -> str:
    """The paper's own link, else a search for it."""
    return links_of(paper, search_template)[0]


def paper_record(
    paper: Paper, state: PaperState, search_template: str = DEFAULT_SEARCH_URL
) -> dict[str, object]:
    """Everything about a paper and what the user made of it, as plain data."""
    links = links_of(paper, search_template)
    return {
        "id": paper.id,
        "headline": reference_title(paper),  # never cut to fit a screen
        "title": paper.title,
        "authors": list(paper.authors),
        "venue": venue_of(paper),
        "url": links[0],
        "links": links,
        "abstract": paper.abstract,
        "collection": paper.collection,
        "source": str(paper.source),
        "tags": list(state.tags(paper.id)),
        "bookmarked": state.is_bookmarked(paper.id),
        "read": state.is_read(paper.id),
        "note": state.note(paper.id),
    }


def venue_of(paper: Paper) -> str:
    return paper.venue or paper.collection


def markdown_link(paper: Paper, url: str) -> str:
    """`[headline](url)`: the paper's title, else its headline (never the whole sentence
    it was cut from: a link names the paper, its URL is the reference), read as Unicode,
    brackets escaped."""
    text = headline_text(paper).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    url = url.replace(" ", "%20")
    if not _balanced_parentheses(url):  # a Markdown link may hold only balanced ones
        url = url.replace("(", "%28").replace(")", "%29")
    return f"[{text}]({url})"


def citation(paper: Paper, url: str) -> str:
    """A plain-text citation: authors, title, venue and year, link."""
    parts = []
    if paper.authors:
        parts.append(", ".join(unicode_text(author) for author in paper.authors) + ".")
    title = unicode_text(reference_title(paper)).rstrip(".")
    parts.append(title if title.endswith(("?", "!")) else title + ".")
    if venue := venue_of(paper):
        parts.append(venue + ".")
    parts.append(url)
    return " ".join(parts)


def _latex(text: str) -> str:
    """Unicode text for a BibTeX field: special characters escaped, whole `$math$` kept."""
    pieces, at = [], 0
    for start, end in [*math_spans(text), (len(text), len(text))]:
        math = text[start:end]
        pieces.append(_encoder().unicode_to_latex(text[at:start]))
        pieces.append(_encoder().unicode_to_latex(math) if unpaired_braces(math) else math)
        at = end
    return _paired("".join(pieces))


def _latex_source(text: str) -> str:
    """An abstract, which is already LaTeX-flavoured (`\\emph{}`, `$x$`, `34.8\\%`), for BibTeX:
    unescaped `%`, `&` and `#` escaped, and its braces paired."""

    def escaped(match: re.Match[str]) -> str:
        token = match.group()
        if token == "\\":  # the text's last character: it would escape the field's end
            return "\\textbackslash{}"
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


def _balanced_parentheses(text: str) -> bool:
    """Whether every unescaped `(` is closed, in order."""
    depth = 0
    for match in _PARENTHESIS.finditer(text):
        depth += 1 if match.group() == "(" else -1
        if depth < 0:
            return False
    return depth == 0


def name_parts(author: str) -> tuple[str, str, str]:
    """An author's family name (with its "van", "de"...), given names and suffix ("Jr.",
    "III"), as Unicode; a name BibTeX cannot split is all family name."""
    # bibtexparser is imported when a reference is made, not by every command (0.02 s).
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    name, suffix = unicode_text(author).strip(), ""
    # "Martin Luther King, Jr." would read to BibTeX as given name "Jr." of a family "Martin
    # Luther King": the suffix is taken off first.
    if match := _NAME_SUFFIX.search(name):
        name, suffix = name[: match.start()], match.group(1)
    try:
        parts = parse_single_name_into_parts(name, strict=False)
    except Exception:  # the parser raises plain exceptions on names like "a,b,c,d"
        return name, "", suffix
    family = " ".join([*parts.von, *parts.last]) or name
    return family, " ".join(parts.first), suffix or " ".join(parts.jr)


def _bibtex_name(author: str) -> str:
    """An author for BibTeX's `author` field: as written, or as "King, Jr., Martin Luther"
    when the name has a suffix, the only way BibTeX reads one."""
    family, given, suffix = name_parts(author)
    return _latex(f"{family}, {suffix}, {given}" if suffix and given else unicode_text(author))


def _ascii_words(text: str) -> list[str]:
    letters = unicodedata.normalize("NFKD", text.translate(_ASCII_LETTERS))
    folded = letters.encode("ascii", "ignore").decode()
    return [word.lower() for word in _KEY_WORD.findall(folded)]


def year_of(paper: Paper) -> str:
    """The paper's year as text ("" for none): the one `year:` filters on, which a record
    without a year field takes from its venue at load (`paper_year`)."""
    return str(paper.year) if paper.year else ""


def bibtex_key(paper: Paper) -> str:
    """A readable key, as Better BibTeX makes them: first author's family name, year, first
    significant title word (`lovelace2025attention`). A paper without authors has its
    headline's first word, year and id (`loam2026_28f1d9`): stable whatever else is exported."""
    if not paper.authors:
        word = next(iter(_ascii_words(unicode_text(paper.headline))), "paper")
        return f"{word}{year_of(paper)}_{paper.id[:6]}"
    family = name_parts(paper.authors[0])[0]
    # The last word of the family name, whole: Müller-Øst is "mullerost", O'Brien "obrien".
    name = "".join(_ascii_words(family.split()[-1] if family.split() else family))
    title = [w for w in _ascii_words(unicode_text(reference_title(paper))) if w not in _STOP_WORDS]
    return f"{name or 'anon'}{year_of(paper)}{''.join(title[:1])}"


def citation_keys(papers: Iterable[Paper]) -> list[str]:
    """The papers' keys, a repeated one given a, b, c... after the first (Better BibTeX's way)."""
    keys: list[str] = []
    taken: set[str] = set()
    for paper in papers:
        base = key = bibtex_key(paper)
        suffixes = (base + _suffix(n) for n in itertools.count())
        while key in taken:
            key = next(suffixes)
        taken.add(key)
        keys.append(key)
    return keys


def _suffix(number: int) -> str:
    """a, b, ..., z, aa, ab, ...: the n-th suffix of a repeated key."""
    letters = ""
    number += 1
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def bibtex(
    papers: Iterable[Paper], state: PaperState, search_template: str = DEFAULT_SEARCH_URL
) -> str:
    """BibTeX entries (@misc) for the papers, one each, with unique keys: authors, title, year,
    arXiv's eprint, archivePrefix and primaryClass, DOI, the paper's primary link as url, and
    the user's note."""
    from bibtexparser.entrypoint import write_string  # as in name_parts
    from bibtexparser.library import Library
    from bibtexparser.model import Entry, Field

    library = Library()
    papers = list(papers)
    for paper, key in zip(papers, citation_keys(papers), strict=True):
        fields = [Field("title", "{" + _latex(unicode_text(reference_title(paper))) + "}")]
        if paper.authors:
            authors = " and ".join(_bibtex_name(author) for author in paper.authors)
            fields.append(Field("author", authors))
        if venue := venue_of(paper):
            fields.append(Field("howpublished", _latex(venue)))
        if year := year_of(paper):
            fields.append(Field("year", year))
        if paper.arxiv_id:
            fields += [Field("eprint", paper.arxiv_id), Field("archivePrefix", "arXiv")]
            if paper.categories:
                fields.append(Field("primaryClass", paper.categories[0]))
        if paper.doi:
            fields.append(Field("doi", _latex(paper.doi)))
        fields.append(Field("url", primary_link(paper, search_template)))
        fields.append(Field("abstract", _latex_source(without_debris(paper.abstract))))
        if note := state.note(paper.id):
            fields.append(Field("note", _latex(note)))
        library.add(Entry("misc", key, fields))
    return write_string(library)
