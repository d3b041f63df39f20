"""One search for every caller: the reader's filter, `tui-reader search`, and `list` and
`export` with `--query`.

A query's text is parsed once (core.query); its terms go to the engine (core.engine), which
ranks paper numbers; its state filters (`#tag`, `is:read`, `has:note`...) keep the papers the
user's state allows and its metadata filters (`cat:`, `year:`, `after:`, `before:`) those
whose fields fit, and an either-or with such a filter (`diffusion | #later`) those that match
its words or pass one of its filters, recounting those that match every term ("full") and the
rest ("close"); then the papers are put in the order asked for (core.sorting). The filters are
tested on the store's columns (core.filtering). Callers turn the numbers into papers through
the store (`PaperStore.view`).
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from tui_reader.core.engine import Ranking, Scores, SearchEngine, Stop
from tui_reader.core.filtering import passing
from tui_reader.core.flat.build import GrowingIndex
from tui_reader.core.flat.fold import fold
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.highlight import Highlight
from tui_reader.core.paper_state import PaperState, WithNew
from tui_reader.core.query import NOT, Either, Query, StateFilter, parse_query
from tui_reader.core.search_turns import SEARCHES
from tui_reader.core.sorting import Sort, sort_order
from tui_reader.core.sources.record import split_arxiv_id
from tui_reader.core.store import Bools, Numbers, PaperStore


@dataclass(frozen=True)
class Results:
    """The papers to show for a query, in order."""

    numbers: Numbers  # paper numbers: places in the store
    full: int  # the first `full` match every term; the rest all but one
    scores: Scores  # aligned with numbers (all 0 for a query without search terms)
    matched: frozenset[str]  # the indexed words the terms matched
    highlight: Highlight | None  # finds those words in a paper's text
    corrected: tuple[tuple[str, str], ...] = ()  # (word typed, read as): see Ranking

    @property
    def showing(self) -> str:
        """What the results show for words no paper holds as typed ("showing satisficing for
        satisficng", "no paper writes SAM: showing sam in any case"), or ""."""
        return "; ".join(_shown(typed, read) for typed, read in self.corrected)

    @property
    def told(self) -> str:
        """`showing` as the commands say it, a typo's told as one."""
        typo = ": no paper holds the word typed"
        return "; ".join(
            _shown(typed, read) + ("" if _any_case(typed, read) else typo)
            for typed, read in self.corrected
        )

    named: bool = False  # the query named the paper found by its id or link
    # The first papers only, as the whole results begin: the rest and the count to come.
    counting: bool = False

    @property
    def close(self) -> int:
        """How many papers match all terms but one."""
        return len(self.numbers) - self.full


def _any_case(typed: str, read: str) -> bool:
    """Whether a word typed with capitals was read in any case, not as a typo (Ranking)."""
    typed = typed.removeprefix(NOT)
    return read != typed and read == fold(typed)


def _shown(typed: str, read: str) -> str:
    if typed.startswith(NOT):
        return f"no paper writes {typed[1:]}: leaving out {read} in any case"
    if _any_case(typed, read):
        return f"no paper writes {typed}: showing {read} in any case"
    return f"showing {read} for {typed}"


def build_index(papers: PaperStore) -> FlatIndex:
    """The search engine over these papers (seconds at 100,000 papers, on every core; a
    program calling it must guard its main module: see core.flat.build)."""
    return FlatIndex.of(papers)


def growing_index(expected: int | None) -> GrowingIndex:
    """An index to grow as papers load, about `expected` of them (None: not known), on every
    core when they are many."""
    return GrowingIndex(expected=expected)


def index_so_far(growing: GrowingIndex) -> FlatIndex:
    """The search engine over the papers a growing index has read so far."""
    return FlatIndex(*growing.arrays())


def needs_index(text: str) -> bool:
    """Whether a query has search terms, or asks for the papers new to the collection kept
    (`is:new`: the index says which), so needs an index (other state and metadata filters
    alone do not)."""
    query = parse_query(text)
    return _has_words(query) or query.asks_new


def _has_words(query: Query) -> bool:
    return bool(query.terms) or any(either.term for either in query.either)


def _paper_named(text: str, papers: PaperStore) -> int | None:
    """The number of the paper a query names by its id alone (`2106.01234`, pasted as
    `arXiv:2106.01234v2` or its abstract's or PDF's URL too), when it is among the papers."""
    words = text.split()
    if len(words) != 1:
        return None
    arxiv = split_arxiv_id(words[0].removesuffix(".pdf"))
    for paper_id in (words[0], arxiv[0] if arxiv else None):
        if not paper_id:
            continue
        if (number := papers.position_of(paper_id)) is not None:
            return number
    return None


def search_papers(
    index: SearchEngine | None,
    text: str,
    state: PaperState,
    order: Sort,
    papers: PaperStore,
    required: Sequence[StateFilter] = (),
    first: int | None = None,
    stop: Stop | None = None,
) -> Results:
    """The papers (of `papers`) a query finds, in the order asked for; with
    `required`, only those passing these state filters too (a command's `--tag`), which no
    `|` of the query joins. With `first`, a query ranked by relevance alone (no filter) may
    find only its first papers where finding them all takes long (`Results.counting`: the
    engine's `first`); `stop` gives a search up (core.engine.Stopped).

    `index` may be None when the query has no search terms (see `needs_index`): every paper
    is then a candidate for the state filters. Runs in any thread, ahead of work done
    ahead of time (core.search_turns); at 1,000,000 papers a sort by headline or by change
    takes about a second.
    """
    with SEARCHES.running():
        return _search(index, text, state, order, papers, required, first, stop)


def _search(
    index: SearchEngine | None,
    text: str,
    state: PaperState,
    order: Sort,
    papers: PaperStore,
    required: Sequence[StateFilter],
    first: int | None,
    stop: Stop | None,
) -> Results:
    if not required and (named := _paper_named(text, papers)) is not None:
        found = np.array([named], dtype=np.int64)
        return Results(found, 1, np.zeros(1), frozenset(), None, named=True)
    query = parse_query(text)
    query = replace(query, states=query.states + tuple(required))
    if index is None and _has_words(query):
        raise ValueError(f"the query {text!r} has search terms: it needs an index")
    if query.states or query.metadata or query.either or order != "relevance":
        first = None  # these read every paper found
    if query.terms and index is not None:
        ranking = index.run(query, first, stop)
    else:
        every = len(papers)
        ranking = Ranking(np.arange(every, dtype=np.int64), every, np.zeros(every))
    numbers, full, scores = ranking.numbers, ranking.full, ranking.scores
    matched = set(ranking.matched)
    if isinstance(index, FlatIndex) and index.new:
        state = WithNew(state, index.new)
    if query.states or query.metadata or query.either:
        passed = passing(query, state, numbers, papers)
        for either in query.either:
            passed &= _passing_either(either, index, state, numbers, papers, matched)
        full = int(np.count_nonzero(passed[:full]))
        numbers, scores = numbers[passed], scores[passed]
    if order != "relevance":
        positions = sort_order(numbers, full, order, papers, state)
        numbers, scores = numbers[positions], scores[positions]
    words = frozenset(matched)
    highlight = Highlight.of(words)
    return Results(
        numbers, full, scores, words, highlight, ranking.corrected, counting=ranking.counting
    )


def _passing_either(
    either: Either,
    index: SearchEngine | None,
    state: PaperState,
    numbers: Numbers,
    papers: PaperStore,
    matched: set[str],
) -> Bools:
    """Which of these papers pass an either-or with a state or metadata filter: those its
    words find (adding the words matched to `matched`), and those passing one of its filters."""
    passed = np.zeros(len(numbers), dtype=bool)
    if either.term is not None and index is not None:
        found = index.run(Query((either.term,)))
        matched |= found.matched
        by_words = np.zeros(len(papers), dtype=bool)
        by_words[found.numbers] = True
        passed |= by_words[numbers]
    for one in either.states:
        passed |= passing(Query(states=(one,)), state, numbers, papers)
    for fitting in either.metadata:
        passed |= passing(Query(metadata=(fitting,)), state, numbers, papers)
    return passed
