"""Ways to refer to a paper elsewhere: its links, a Markdown link, a citation, what kind of
publication it is, and the paper with what the user made of it as plain data.

What a reference says comes from the paper's record only: its venue is the record's venue
(never the name of the file it came from), its year the record's, else one its venue names
(or the collection's name a seed file's first line gives).

The kind of publication (`kind_of`), which the reference formats write as their types:
- unpublished: an OpenReview submission rejected, withdrawn or under review (its decision, or
  a venue such as "Submitted to ICLR 2025"), or a BibTeX `@unpublished`;
- journal or conference: as the record says (BibTeX `@article` with a `journal`,
  `@inproceedings`; a `journal` or `booktitle` field), else as the venue reads: a venue
  naming a conference (Proceedings, Workshop, NeurIPS, ICLR...) is a conference, one naming a
  journal or written as a journal reference (Journal, Transactions, Phys. Rev., a volume and
  page: `Phys.Rev.D76:013009,2007`) a journal, as is any venue of an arXiv paper (arXiv gives
  its journal reference); any other venue is a conference;
- preprint: an arXiv paper with no venue but arXiv;
- other: no venue at all.
"""

import re
from typing import Literal

from tui_reader.core.latex_text import plain_text
from tui_reader.core.links import DEFAULT_SEARCH_URL, paper_links, search_link
from tui_reader.core.paper import Paper, author_text
from tui_reader.core.paper_state import PaperState
from tui_reader.core.typeset import math_spans, typeset_text

Kind = Literal["journal", "conference", "preprint", "unpublished", "other"]

# Words a key passes over for a title's first significant one, as Better BibTeX does, and
# that a title in title case leaves in lower case.
STOP_WORDS = frozenset(
    ("a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "is", "of", "on",
     "or", "the", "to", "towards", "via", "with", "without")
)  # fmt: skip
_PARENTHESIS = re.compile(r"(?<!\\)[()]")
_MARKDOWN_SPECIAL = re.compile(r"[\\\[\]<>]")
_MARKDOWN_IN_MATH = re.compile(r"<(?=[A-Za-z/!?])|\](?=\()")
_DATE = re.compile(r"(\d{4})(?:-(\d\d)(?:-(\d\d))?)?")
# Two pages joined by a dash as a record writes one (`45--67`, `45-67`, an en dash,
# `123:1--123:20`).
_PAGE_RANGE = re.compile(
    r"\s*([^\s\u2013\u2014-]+)\s*(?:-{1,3}|[\u2013\u2014])\s*([^\s\u2013\u2014-]+)\s*"
)
_UNPUBLISHED_DECISIONS = frozenset(("rejected", "withdrawn", "desk rejected", "under review"))
_UNPUBLISHED_VENUE = re.compile(
    r"^submitted to\b|\b(?:withdrawn|rejected|under review)\b", re.IGNORECASE
)
_PREPRINT_VENUE = re.compile(
    r"(?:arxiv(?:\.org)?|corr)(?: preprint)?(?: (?:arxiv:)?\S+)?|preprint", re.IGNORECASE
)


def _words(*words: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{'|'.join(words)})(?!\w)", re.IGNORECASE)


_CONFERENCE_VENUE = _words(
    "proceedings", r"proc\.", "conference", r"conf\.", "workshops?", "symposium", "meeting",
    "congress", "neurips", "nips", "icml", "iclr", "cvpr", "iccv", "eccv", "acl", "emnlp",
    "naacl", "eacl", "coling", "aaai", "ijcai", "kdd", "sigir", "sigmod", "vldb", "www",
    "colt", "aistats", "uai", "corl", "colm", "rss", "icra", "iros", "interspeech", "icassp",
    "miccai", "wacv", "bmvc", "chi", "focs", "stoc", "soda", "icalp", "osdi", "sosp", "nsdi",
    "usenix", "advances in neural information processing systems",
)  # fmt: skip
_JOURNAL_VENUE = re.compile(
    _words(
        "journal", r"j\.", "transactions", r"trans\.", "letters", r"lett\.", "review",
        r"rev\.", "magazine", "annals", "nature", "science", r"phys\.", "physical", "acta",
        "bulletin", "quarterly", "jmlr", "tmlr", "pnas", "jhep", "jcap", "mnras", "apj",
    ).pattern
    + r"|\d+\s*[:(]\s*\d",
    re.IGNORECASE,
)  # fmt: skip


def headline_text(paper: Paper, *, cut: bool = False) -> str:
    """What names the paper in a line of text (a dialog's title, a link's text, a search):
    its title, else its headline, as the list shows it (`typeset_text`: "$\\sqrt{T}$ regret"
    reads "√T regret", `Multi--task` with an en dash, a backslash that escapes nothing stays);
    with `cut`, no longer than a headline (a title may be longer), cut at a word with "…"."""
    text = typeset_text(paper.headline)
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


def links_of(paper: Paper, search_template: str = DEFAULT_SEARCH_URL) -> list[str]:
    """Every link of the paper, the primary one first; there is always at least one."""
    search = search_link(search_text(paper), search_template)
    own = [url for _, url in paper.kind_links]
    return paper_links(paper.url, [*own, *paper.links], search)


def primary_link(paper: Paper, search_template: str = DEFAULT_SEARCH_URL) -> str:
    """The paper's own link, else a search for it."""
    return links_of(paper, search_template)[0]


def own_link(paper: Paper) -> str:
    """The paper's primary link when it has one of its own (a search is none), else ""."""
    links = links_of(paper)
    return links[0] if len(links) > 1 else ""


def paper_record(
    paper: Paper, state: PaperState, search_template: str = DEFAULT_SEARCH_URL
) -> dict[str, object]:
    """Everything about a paper and what the user made of it, as plain data."""
    links = links_of(paper, search_template)
    return {
        "id": paper.id,
        "headline": reference_title(paper),  # never cut to fit a screen
        "title": paper.title,
        "authors": [author_text(author) for author in paper.authors],
        "venue": paper.venue,
        "volume": paper.volume,
        "issue": paper.issue,
        "pages": paper.pages,
        "url": links[0],
        "links": links,
        "abstract": paper.abstract,
        "keywords": list(paper.keywords),
        "comments": paper.comments,
        "collection": paper.collection,
        "source": str(paper.source),
        "tags": list(state.tags(paper.id)),
        "bookmarked": state.is_bookmarked(paper.id),
        "read": state.is_read(paper.id),
        "note": state.note(paper.id),
    }


def kind_of(paper: Paper) -> Kind:
    """What kind of publication the paper is (see the module)."""
    venue = paper.venue.strip()
    unpublished = paper.decision in _UNPUBLISHED_DECISIONS or paper.venue_kind == "unpublished"
    if unpublished or _UNPUBLISHED_VENUE.search(venue):
        return "unpublished"
    if paper.venue_kind == "journal":
        return "journal"
    if paper.venue_kind == "conference":
        return "conference"
    if not venue or _PREPRINT_VENUE.fullmatch(venue):
        return "preprint" if paper.arxiv_id or venue else "other"
    if _CONFERENCE_VENUE.search(venue):
        return "conference"
    if _JOURNAL_VENUE.search(venue) or paper.arxiv_id:
        return "journal"
    return "conference"


def year_of(paper: Paper) -> str:
    """The paper's year as text ("" for none): the one `year:` filters on, which a record
    without a year field takes from its venue at load (`paper_year`)."""
    return str(paper.year) if paper.year else ""


def date_of(paper: Paper) -> list[int]:
    """The paper's date as year, month and day, as much as its record says: its year (as
    `year_of`), and the month and day it was published when that was in its year (an
    OpenReview paper's year is its venue's, which its submission may precede)."""
    year = year_of(paper)
    if not year:
        return []
    match = _DATE.fullmatch(paper.published)
    if not match or match.group(1) != year or not 1 <= int(match.group(2) or 0) <= 12:
        return [int(year)]
    return [int(part) for part in match.groups() if part]


def pages_of(paper: Paper) -> tuple[str, str]:
    """The paper's first and last page ("" for none); pages that are no one range (`e1234`,
    `1-5, 9`) as written, as the first."""
    if match := _PAGE_RANGE.fullmatch(paper.pages):
        return match[1], match[2]
    return paper.pages.strip(), ""


def where_in_venue(paper: Paper) -> str:
    """Where the paper stands in its venue, as a citation says it: `12(3):45-67`, or its
    pages alone (`pp. 45-67`), a range with an en dash."""
    first, last = pages_of(paper)
    pages = f"{first}\u2013{last}" if last else first
    if not paper.volume:
        return f"pp. {pages}" if pages else ""
    issue = f"({paper.issue})" if paper.issue else ""
    return f"{paper.volume}{issue}" + (f":{pages}" if pages else "")


def keywords_of(paper: Paper, state: PaperState) -> tuple[str, ...]:
    """The user's tags of the paper (a reference manager reads keywords as its tags), then
    its keywords, else its categories (arXiv's); each once, in any case."""
    first: dict[str, str] = {}
    for word in [*state.tags(paper.id), *(paper.keywords or paper.categories)]:
        first.setdefault(word.casefold(), word)
    return tuple(first.values())


def markdown_text(text: str) -> str:
    """Paper text as Markdown shows it as written, never as a link, an image or HTML (a
    server's `[x](javascript:…)` or `<img src=…>` in a mailed digest): outside its math,
    backslashes, brackets and angle brackets escaped; inside it, where Markdown would read
    them so, a space after `<` and between `]` and `(` (nothing to TeX)."""
    spans = math_spans(text)
    pieces, at = [], 0
    for start, end in [*spans, (len(text), len(text))]:
        pieces.append(_MARKDOWN_SPECIAL.sub(r"\\\g<0>", text[at:start]))
        pieces.append(_MARKDOWN_IN_MATH.sub(r"\g<0> ", text[start:end]))
        at = end
    return "".join(pieces)


def markdown_link(paper: Paper, url: str) -> str:
    """`[headline](url)`: the paper's title, else its headline (never the whole sentence
    it was cut from: a link names the paper, its URL is the reference), read as Unicode,
    as `markdown_text`."""
    text = markdown_text(headline_text(paper))
    url = url.replace(" ", "%20")
    if not _balanced_parentheses(url):  # a Markdown link may hold only balanced ones
        url = url.replace("(", "%28").replace(")", "%29")
    return f"[{text}]({url})"


def citation(paper: Paper, url: str) -> str:
    """A plain-text citation: authors, title, venue (with its volume, issue and pages) and
    year, link."""
    parts = []
    if paper.authors:
        authors = ", ".join(plain_text(author) for author in paper.authors)
        parts.append(authors if authors.endswith(".") else authors + ".")  # "et al.", "Jr."
    title = plain_text(reference_title(paper)).rstrip(".")
    parts.append(title if title.endswith(("?", "!")) else title + ".")
    venue, year = plain_text(paper.venue), year_of(paper)
    said = [text for text in (venue, plain_text(where_in_venue(paper))) if text]
    if year and year not in venue:
        said.append(year)
    if said:
        parts.append(", ".join(said) + ".")
    parts.append(url)
    return " ".join(parts)


def _balanced_parentheses(text: str) -> bool:
    """Whether every unescaped `(` is closed, in order."""
    depth = 0
    for match in _PARENTHESIS.finditer(text):
        depth += 1 if match.group() == "(" else -1
        if depth < 0:
            return False
    return depth == 0
