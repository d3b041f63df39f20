"""Finding the real paper behind an abstract that has no title, and keeping what was found.

A paper without a title (a plain file's abstract, the bundled ICML abstracts) is looked up by
the words of its abstract on OpenReview and arXiv (core.sources.lookup). A candidate is the
same paper only when its abstract is the same text, give or take typesetting and small
edits; then its title, authors, venue, ids and links are kept in the library under the
paper's id (`Library.set_resolved`, journaled and merged like a note), and every later load
shows the paper with them (`with_resolutions`). A paper looked up without a certain match is
remembered too, so that a run stopped halfway goes on where it stopped; `again` looks those
up once more.

The text similarity, and why its thresholds are where they are
---------------------------------------------------------------
Both abstracts are folded (`fold`): LaTeX typeset as the reader shows it ($\\alpha$ as the
Greek letter, \\emph{x} as x), compatibility forms and ligatures unified (NFKC), accents and
case dropped, PDF debris such as "(cid:173)" removed, and only the words kept, one space
apart, so that line breaks, punctuation and spacing do not count. The score is rapidfuzz's
`fuzz.ratio` (normalised Indel similarity, 0-100) of the two folded texts as wholes: word
order counts, so two abstracts that share their opening sentences and then differ score low.

A match is certain when the score is at least SAME_TEXT (90) and the shorter folded text is
at least SAME_LENGTH (0.85) of the longer, and exactly one paper of a service passes. Measured
on the 31,867 real abstracts of ml-abstracts-31k (tests/test_resolve.py checks these pairs):
- the most similar other abstract of 150 random ones scored 48 (median) to 54 at most, even
  for papers of the same area;
- a different paper by the same authors, its abstract a revised version of the other's
  ("Online Structure Learning for Sum-Product Networks", ICLR 2017, and "... for Feed-Forward
  and Recurrent Sum-Product Networks", NeurIPS 2018): 86, the highest non-match found;
- an abstract that shares its first sentence with another paper's: 60;
- a short version of a paper ("Attentive Recurrent Comparators", ICML 2017 workshop-length,
  330 characters, and ICLR 2017, 1,108): 32, and a length ratio of 0.3;
- the same paper with a clause or a sentence added (The Predictron, Conditional Image
  Synthesis with Auxiliary Classifier GANs, ICLR vs ICML 2017): 93-95, length 0.88-0.90;
- the same abstract typeset differently ("two parameter" vs "2 parameters"): 99.7.
So 90 sits between the closest different paper (86) and an added sentence (93). An arXiv v2
that adds a sentence to a typical abstract (about 1,000 characters) still matches; one that
adds it to a short abstract may not: when in doubt, nothing is attached. The length check
keeps a shorter version (a workshop abstract) from matching a longer one it is part of.
"""

import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from tui_reader.core.library import Library
from tui_reader.core.links import is_web_url
from tui_reader.core.paper import Paper, paper_year
from tui_reader.core.paper_columns import PaperColumns, columns_of
from tui_reader.core.sources.record import LINK_KINDS, SourceRecord, clean_all, split_arxiv_id
from tui_reader.core.store import PaperStore, papers_of
from tui_reader.core.text import clean, token

SAME_TEXT = 90.0  # fuzz.ratio of the folded abstracts (see the module)
SAME_LENGTH = 0.85  # the shorter folded abstract's length over the longer's
SEARCH_WORDS = 12  # words of an abstract a service is asked for

_DEBRIS = re.compile(r"\(cid:\d+\)\s*")
_WORD = re.compile(r"\w+")
# Words too common in abstracts to tell one from another.
_COMMON = frozenset(
    {
        "about", "above", "across", "after", "among", "approach", "based", "because", "being",
        "between", "could", "either", "further", "given", "however", "method", "methods",
        "model", "models", "other", "paper", "problem", "problems", "propose", "proposed",
        "provide", "results", "should", "shows", "since", "their", "there", "these", "those",
        "through", "under", "using", "where", "which", "while", "within", "would",
    }
)  # fmt: skip


def fold(text: str) -> str:
    """The words of a text as the similarity compares them (see the module)."""
    # Imported when first needed: the typesetter's parsers take 0.06 s to import, and
    # `tui-reader search`, which imports this module, never folds.
    from tui_reader.core.typeset import typeset_text

    text = typeset_text(_DEBRIS.sub("", text))
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    text = "".join(char for char in text if not unicodedata.combining(char)).casefold()
    return " ".join(_WORD.findall(text))


@dataclass(frozen=True)
class Similarity:
    score: float  # fuzz.ratio of the folded texts, 0-100
    length: float  # the shorter folded text's length over the longer's, 0-1

    @property
    def certain(self) -> bool:
        return self.score >= SAME_TEXT and self.length >= SAME_LENGTH


def similarity(one: str, other: str) -> Similarity:
    """How alike two abstracts are (see the module)."""
    return _alike(fold(one), fold(other))


def _alike(a: str, b: str) -> Similarity:
    if not a or not b:
        return Similarity(0.0, 0.0)
    from rapidfuzz import fuzz  # on first use, not at every start

    return Similarity(fuzz.ratio(a, b), min(len(a), len(b)) / max(len(a), len(b)))


def search_words(abstract: str) -> list[str]:
    """The words a service is asked for: the longest distinct ones of the abstract (long words
    are the rare ones), not the commonest, ASCII only, in the abstract's order."""
    words = [w for w in dict.fromkeys(fold(abstract).split()) if w.isascii() and w.isalpha()]
    words = [w for w in words if len(w) >= 5 and w not in _COMMON]
    chosen = set(sorted(words, key=len, reverse=True)[:SEARCH_WORDS])
    return [w for w in words if w in chosen]


@dataclass(frozen=True)
class Match:
    record: SourceRecord
    similarity: Similarity


def certain_match(abstract: str, candidates: Iterable[SourceRecord]) -> Match | None:
    """The one candidate that is certainly the paper of this abstract, or None: none is, or
    more than one paper is (the same abstract given to two papers)."""
    folded = fold(abstract)
    found: dict[str, Match] = {}
    for record in candidates:
        alike = _alike(folded, fold(record.abstract))
        best = found.get(record.source_id)
        if alike.certain and (best is None or alike.score > best.similarity.score):
            found[record.source_id] = Match(record, alike)
    return next(iter(found.values())) if len(found) == 1 else None


# What the library keeps


def found_entry(matches: Sequence[Match], checked: str) -> dict[str, Any]:
    """What is kept of the matches of one paper (an OpenReview one, an arXiv one or both):
    OpenReview's title, authors and venue first, arXiv's ids and categories, every link."""
    entry: dict[str, Any] = {"checked": checked, "links": {}}
    for match in sorted(matches, key=lambda m: m.record.source_id.startswith("openreview:")):
        record = match.record
        found = {
            "title": record.title,
            "authors": list(record.authors),
            "venue": record.venue,
            "year": record.year,
            "published": record.published,
            "arxiv_id": record.arxiv_id,
            "arxiv_version": record.arxiv_version,
            "doi": record.doi,
            "categories": list(record.categories),
            "openreview_forum": record.openreview_forum,
        }
        entry.update({key: value for key, value in found.items() if value})
        entry["links"].update(record.links)
        entry.setdefault("matches", []).append(
            {"source": record.source_id, "score": round(match.similarity.score, 1)}
        )
    return entry


def _text(entry: Mapping[str, Any], key: str) -> str:
    value = entry.get(key)
    return clean(value) if isinstance(value, str) else ""


def _id(entry: Mapping[str, Any], key: str) -> str:
    value = entry.get(key)
    return token(value) if isinstance(value, str) else ""


def _whole(entry: Mapping[str, Any], key: str) -> int | None:
    value = entry.get(key)
    return value if type(value) is int and value > 0 else None


def resolved_paper(paper: Paper, entry: Mapping[str, Any]) -> Paper:
    """The paper with what resolve found, read warily (the library is a file anyone can edit):
    a field that is not what it should be is left as the paper has it."""
    title = _text(entry, "title")
    if not title or paper.title:
        return paper
    links = entry.get("links")
    kinds = tuple(
        (kind, url)
        for kind in LINK_KINDS
        if isinstance(links, dict) and isinstance(url := links.get(kind), str) and is_web_url(url)
    )
    arxiv_id = _id(entry, "arxiv_id")
    if split_arxiv_id(arxiv_id) != (arxiv_id, None):
        arxiv_id = ""
    kind_url = dict(kinds)
    url = next((kind_url[k] for k in ("abstract", "forum", "pdf", "doi") if k in kind_url), "")
    venue = _text(entry, "venue") or paper.venue
    return replace(
        paper,
        title=title,
        headline=title,
        authors=clean_all(entry.get("authors")) or paper.authors,
        url=url or paper.url,
        venue=venue,
        year=paper_year(_whole(entry, "year") or paper.year, venue),
        published=_text(entry, "published") or paper.published,
        arxiv_id=arxiv_id or paper.arxiv_id,
        arxiv_version=_whole(entry, "arxiv_version") if arxiv_id else paper.arxiv_version,
        doi=_id(entry, "doi") or paper.doi,
        categories=clean_all(entry.get("categories")) or paper.categories,
        openreview_forum=_id(entry, "openreview_forum") or paper.openreview_forum,
        kind_links=kinds or paper.kind_links,
    )


def _found(library: Library) -> dict[str, dict[str, Any]]:
    """What resolve found, by paper id."""
    entries = {}
    for paper_id in library.paper_ids():
        if (entry := library.resolved(paper_id)).get("title"):
            entries[paper_id] = entry
    return entries


def with_resolutions(papers: Sequence[Paper], library: Library) -> list[Paper]:
    """The papers, each title-less one that resolve found shown with what it found."""
    entries = _found(library)
    return [resolved_paper(p, entries[p.id]) if p.id in entries else p for p in papers]


def show_resolutions(store: PaperStore, library: Library) -> None:
    """Show each paper of the store that resolve found with what it found (a store loaded
    at once, or opened from the cache)."""
    found = _found(library)
    papers = [paper for paper_id in found if (paper := store.get(paper_id)) is not None]
    store.revise(resolved_paper(paper, found[paper.id]) for paper in papers)


def resolving(
    batches: Iterator[PaperColumns | str], library: Library
) -> Iterator[PaperColumns | str]:
    """with_resolutions for papers loaded in batches (loading.stream_papers); problems pass,
    and batches none of whose papers resolve found."""
    entries = _found(library)
    for batch in batches:
        if isinstance(batch, str) or not entries or entries.keys().isdisjoint(batch.ids):
            yield batch
        else:
            papers = papers_of(batch)
            yield columns_of(
                [resolved_paper(p, entries[p.id]) if p.id in entries else p for p in papers]
            )


# Looking papers up


Lookup = Callable[[Sequence[str]], list[SourceRecord]]  # search words -> candidates


@dataclass
class Outcome:
    """How a resolve run went: papers to look up, looked up, found (their ids)."""

    to_look_up: int = 0
    looked_up: int = 0
    found: list[str] = field(default_factory=list)

    @property
    def unmatched(self) -> int:
        return self.looked_up - len(self.found)


def needs_lookup(paper: Paper, library: Library, again: bool = False) -> bool:
    """Whether the paper is to be looked up: it has no title and was not looked up before (or
    was, without a certain match, and `again` is asked)."""
    if paper.title:
        return False
    entry = library.resolved(paper.id)
    return not entry or (again and not entry.get("title"))


def resolve_papers(
    papers: Iterable[Paper],
    library: Library,
    lookups: Sequence[Lookup],
    *,
    again: bool = False,
    progress: Callable[[Outcome], None] = lambda outcome: None,
    stop: threading.Event | None = None,
    today: str = "",
) -> Outcome:
    """Look each title-less paper up with each lookup (OpenReview's, arXiv's) and keep a
    certain match in the library, saved after each paper so that a run stopped at any point
    keeps what it found. Stops between papers when `stop` is set. The lookups' FetchError
    (offline, a service failing) and LibraryError propagate; what was saved stays."""
    todo = list({p.id: p for p in papers if needs_lookup(p, library, again)}.values())
    outcome = Outcome(to_look_up=len(todo))
    checked = today or date.today().isoformat()
    for paper in todo:
        if stop is not None and stop.is_set():
            break
        words = search_words(paper.abstract)
        matches = []
        for lookup in lookups if words else ():
            if match := certain_match(paper.abstract, lookup(words)):
                matches.append(match)
        entry = found_entry(matches, checked) if matches else {"checked": checked}
        library.set_resolved(paper.id, entry)
        library.save()
        outcome.looked_up += 1
        if matches:
            outcome.found.append(paper.id)
        progress(outcome)
    return outcome


def resolve_online(
    papers: Iterable[Paper],
    library: Library,
    addresses: Mapping[str, str] | None = None,
    *,
    again: bool = False,
    progress: Callable[[Outcome], None] = lambda outcome: None,
    stop: threading.Event | None = None,
) -> Outcome:
    """resolve_papers with OpenReview's and arXiv's searches, politely, through one client;
    `addresses` are the config's [sources]. For a thread worker: blocking, stops between
    papers when `stop` is set."""
    # The HTTP client is imported only when looking up: it costs a start a sixth of a second.
    from tui_reader.core.sources import lookup
    from tui_reader.core.sources.polite import PoliteClient

    given = addresses or {}
    with PoliteClient() as client:
        lookups: list[Lookup] = [
            lambda words: lookup.openreview_candidates(client, words, given),
            lambda words: lookup.arxiv_candidates(client, words, given),
        ]
        return resolve_papers(papers, library, lookups, again=again, progress=progress, stop=stop)
