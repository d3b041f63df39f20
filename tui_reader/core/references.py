"""Ways to refer to a paper elsewhere: its links, a Markdown link, a citation, a BibTeX entry,
and the paper with what the user made of it as plain data."""

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable

from pylatexenc.latexencode import UnicodeToLatexEncoder

from tui_reader.core.links import DEFAULT_SEARCH_URL, paper_links, search_link
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState

_YEAR = re.compile(r"\b(19|20)\d\d\b")
_MATH = re.compile(r"(\$[^$]+\$)")
_KEY_WORD = re.compile(r"[A-Za-z0-9]+")
# Words a key passes over for the title's first significant one, as Better BibTeX does.
_STOP_WORDS = frozenset(
    ("a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "is", "of", "on",
     "or", "the", "to", "towards", "via", "with", "without")
)  # fmt: skip
_UNESCAPED = re.compile(r"(?<!\\)([%&#])")


@functools.cache
def _encoder() -> UnicodeToLatexEncoder:
    # A character LaTeX has no command for (✓, CJK) is kept as UTF-8, which biblatex and
    # Zotero read, without a warning on stderr for each. Made when first used: its tables
    # take a while, and most runs write no BibTeX.
    return UnicodeToLatexEncoder(
        non_ascii_only=False, unknown_char_policy="keep", unknown_char_warning=False
    )


def search_text(paper: Paper) -> str:
    """What a search for the paper looks for: its title, else its headline, which names the
    paper better than its first sentence ("Large Language Models have emerged as...").

    A headline cut to fit gives its whole words (a long sentence would make a search engine
    find less, not more)."""
    return paper.title or paper.headline.removesuffix("…")


def reference_title(paper: Paper) -> str:
    """What a reference calls the paper, never cut: its title, else its headline when that
    is whole, else the whole sentence the headline was cut from."""
    if paper.title:
        return paper.title
    if not paper.headline.endswith("…"):
        return paper.headline
    from tui_reader.core.headline import headline_source  # its patterns: 17 ms to compile

    return headline_source(paper.abstract).removesuffix(".")


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
    """`[title](url)`, brackets in the title escaped."""
    text = reference_title(paper).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    url = url.replace(" ", "%20")
    if not _balanced(url, "()"):  # a Markdown link may hold only balanced parentheses
        url = url.replace("(", "%28").replace(")", "%29")
    return f"[{text}]({url})"


def citation(paper: Paper, url: str) -> str:
    """A plain-text citation: authors, title, venue and year, link."""
    parts = []
    if paper.authors:
        parts.append(", ".join(paper.authors) + ".")
    title = reference_title(paper).rstrip(".")
    parts.append(title if title.endswith(("?", "!")) else title + ".")
    if venue := venue_of(paper):
        parts.append(venue + ".")
    parts.append(url)
    return " ".join(parts)


def _latex(text: str) -> str:
    """Plain text for a BibTeX field: special characters escaped, whole `$math$` kept."""
    pieces = []
    for piece in _MATH.split(text):
        if _MATH.fullmatch(piece) and piece.count("{") == piece.count("}"):
            pieces.append(piece)
        else:
            pieces.append(_encoder().unicode_to_latex(piece))
    return "".join(pieces)


def _latex_source(text: str) -> str:
    """An abstract, which is already LaTeX-flavoured (`\\emph{}`, `$x$`, `34.8\\%`), for BibTeX:
    unescaped `%`, `&` and `#` escaped, and every brace escaped if they do not balance."""
    if not _balanced(text):
        text = re.sub(r"(?<!\\)([{}])", r"\\\1", text)
    return _UNESCAPED.sub(r"\\\1", text)


def _balanced(text: str, pair: str = "{}") -> bool:
    """Whether every unescaped opening bracket of the pair is closed, in order."""
    depth = 0
    for match in re.finditer(rf"(?<!\\)[{re.escape(pair)}]", text):
        depth += 1 if match.group() == pair[0] else -1
        if depth < 0:
            return False
    return depth == 0


def name_parts(author: str) -> tuple[str, str]:
    """An author's family name (with its "van", "de"...) and given names; a name BibTeX
    cannot split is all family name."""
    # bibtexparser is imported when a reference is made, not by every command (0.02 s).
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    try:
        parts = parse_single_name_into_parts(author, strict=False)
    except Exception:  # the parser raises plain exceptions on names like "a,b,c,d"
        return author, ""
    family = " ".join([*parts.von, *parts.last]) or author
    return family, " ".join([*parts.first, *parts.jr])


def _ascii_words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return [word.lower() for word in _KEY_WORD.findall(folded)]


def year_of(paper: Paper) -> str:
    """The paper's year, else the year its venue or collection names."""
    if paper.year:
        return str(paper.year)
    match = _YEAR.search(venue_of(paper))
    return match.group() if match else ""


def bibtex_key(paper: Paper) -> str:
    """A readable key, as Better BibTeX makes them: first author's family name, year, first
    significant title word (`lovelace2025attention`). A paper without authors has its
    headline's first word, year and id (`loam2026_28f1d9`): stable whatever else is exported."""
    if not paper.authors:
        word = next(iter(_ascii_words(paper.headline)), "paper")
        return f"{word}{year_of(paper)}_{paper.id[:6]}"
    family = name_parts(paper.authors[0])[0]
    words = _ascii_words(family.split()[-1] if family.split() else family)
    title = [w for w in _ascii_words(reference_title(paper)) if w not in _STOP_WORDS]
    return f"{''.join(words[-1:]) or 'anon'}{year_of(paper)}{''.join(title[:1])}"


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
        fields = [Field("title", "{" + _latex(reference_title(paper)) + "}")]
        if paper.authors:
            fields.append(Field("author", " and ".join(_latex(a) for a in paper.authors)))
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
        fields.append(Field("abstract", _latex_source(paper.abstract)))
        if note := state.note(paper.id):
            fields.append(Field("note", _latex(note)))
        library.add(Entry("misc", key, fields))
    return write_string(library)
