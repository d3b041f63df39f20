"""The filter's query language.

- words, separated by spaces: each must match (typos forgiven; the word being typed, the last
  one, matches as a prefix);
- `"exact phrase"`; `'word` matches that word exactly; a word with capitals is case-sensitive;
- `!word` or `-word` excludes papers that have it; `a | b` matches either;
- `title:word`, `author:name`, `venue:word` look only in that field;
- state filters on the user's library: `#tag` has the tag, `!#tag` lacks it, `is:bookmarked`,
  `is:read`, `is:unread`, `has:note`, any of them negated with a leading `!`;
- metadata filters on the paper: `cat:cs.LG` (`cat:cs`: any cs category), `year:2025`,
  `after:2025-06` (on or after), `before:2025-06` (strictly before), by the date the paper was
  published (else its year); a paper without the field does not match; negated with `!`.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tui_reader.core.library import normalise_tag
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState

FIELDS = ("title", "author", "venue")
_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r'[!-]?(?:\w+:)?"[^"]*"?|\S+')
DATE = re.compile(r"\d{4}(?:-\d\d(?:-\d\d)?)?")
_STATES: dict[str, Callable[[PaperState, str], bool]] = {
    "is:bookmarked": lambda state, paper_id: state.is_bookmarked(paper_id),
    "is:read": lambda state, paper_id: state.is_read(paper_id),
    "is:unread": lambda state, paper_id: not state.is_read(paper_id),
    "has:note": lambda state, paper_id: bool(state.note(paper_id)),
}


def words(text: str) -> list[str]:
    """The lower-case words of a text, as the index and the query see them."""
    return _WORD.findall(text.casefold())


@dataclass(frozen=True)
class StateFilter:
    test: Callable[[PaperState, str], bool]
    negated: bool = False
    tag: str = ""  # the tag a `#tag` filter names
    prefix: bool = False  # a `#tag` being typed: papers with a tag that starts with it

    def __call__(self, state: PaperState, paper_id: str) -> bool:
        return self.test(state, paper_id) != self.negated


@dataclass(frozen=True)
class MetadataFilter:
    """A filter on the paper's own fields (`cat:`, `year:`, `after:`, `before:`)."""

    test: Callable[[Paper], bool]
    negated: bool = False

    def __call__(self, paper: Paper) -> bool:
        return self.test(paper) != self.negated


def _date(paper: Paper) -> str:
    """The paper's date, as precise as known: `2025-06-03`, `2025`, or ""."""
    return paper.published or (str(paper.year) if paper.year else "")


def on_or_after(date: str, bound: str) -> bool:
    """Whether a date (`2025-06-03`, `2025-06`, `2025`; "" for none) is on or after the bound;
    one less precise than it (2025 for 2025-06) cannot say, so is not."""
    shared = min(len(date), len(bound))
    if date[:shared] != bound[:shared]:
        return bool(date) and date[:shared] > bound[:shared]
    return bool(date) and len(date) >= len(bound)


def _after(bound: str) -> Callable[[Paper], bool]:
    return lambda paper: on_or_after(_date(paper), bound)


def _before(bound: str) -> Callable[[Paper], bool]:
    """Strictly before the bound; a date less precise than it cannot say."""

    def test(paper: Paper) -> bool:
        date = _date(paper)
        shared = min(len(date), len(bound))
        return bool(date) and date[:shared] < bound[:shared]

    return test


def in_category(categories: Sequence[str], name: str) -> bool:
    """Whether one of the categories is `name` (`cs.LG`), or in the archive it names (`cs`)."""
    name = name.casefold()
    return any(c.casefold() == name or c.casefold().startswith(name + ".") for c in categories)


def _in_category(name: str) -> Callable[[Paper], bool]:
    return lambda paper: in_category(paper.categories, name)


def _in_year(year: int) -> Callable[[Paper], bool]:
    return lambda paper: paper.year == year


def _metadata_filter(token: str) -> MetadataFilter | None:
    negated = token.startswith("!")
    scope, _, value = (token[1:] if negated else token).partition(":")
    scope = scope.lower()
    test: Callable[[Paper], bool]
    if scope == "cat" and value:
        test = _in_category(value)
    elif scope == "year" and len(value) == 4 and value.isdigit():
        test = _in_year(int(value))
    elif scope in ("after", "before") and DATE.fullmatch(value):
        test = _after(value) if scope == "after" else _before(value)
    else:
        return None
    return MetadataFilter(test, negated)


@dataclass(frozen=True)
class Alternative:
    """One way a term can match: a word, or a phrase of several words."""

    text: str  # as typed, without quotes, scope or negation
    words: tuple[str, ...]
    exact: bool = False  # no typos, no prefix
    prefix: bool = False  # the word being typed
    case_sensitive: bool = False
    field: str | None = None

    @property
    def is_phrase(self) -> bool:
        """Several words, or one with punctuation ("co-training"): checked against the text.
        A space after the only word (`"sparse `, typed on the way to a phrase) is not."""
        text = self.text.strip().casefold()
        return len(self.words) > 1 or (len(self.words) == 1 and self.words[0] != text)


@dataclass(frozen=True)
class Term:
    alternatives: tuple[Alternative, ...]
    negated: bool = False


@dataclass(frozen=True)
class Query:
    terms: tuple[Term, ...] = ()
    states: tuple[StateFilter, ...] = ()
    metadata: tuple[MetadataFilter, ...] = ()

    def keeps(self, state: PaperState, paper_id: str) -> bool:
        """Whether the paper passes every state filter."""
        return all(test(state, paper_id) for test in self.states)

    def fits(self, paper: Paper) -> bool:
        """Whether the paper passes every metadata filter."""
        return all(test(paper) for test in self.metadata)


def _has_tag(tag: str, prefix: bool) -> Callable[[PaperState, str], bool]:
    if prefix:
        return lambda state, paper_id: any(t.startswith(tag) for t in state.tags(paper_id))
    return lambda state, paper_id: tag in state.tags(paper_id)


def _state_filter(token: str, typing: bool) -> StateFilter | None:
    negated = token.startswith("!")
    body = token[1:] if negated else token
    if test := _STATES.get(body.lower()):
        return StateFilter(test, negated)
    if body.startswith("#") and (tag := normalise_tag(body[1:])):
        prefix = typing and not negated  # like a word: "#to" finds #to-read while typed
        return StateFilter(_has_tag(tag, prefix), negated, tag, prefix)
    return None


def _term(token: str, typing: bool) -> Term | None:
    negated = token[:1] in "!-" and len(token) > 1
    body = token[1:] if negated else token
    field = None
    scope, colon, rest = body.partition(":")
    if colon and scope.lower() in FIELDS and rest:
        field, body = scope.lower(), rest
    exact = body.startswith("'") or body.startswith('"')
    # A phrase whose closing quote is still to come is being typed: its last word may be a prefix.
    unclosed = body.startswith('"') and (len(body) == 1 or not body.endswith('"'))
    if body.startswith('"'):
        body = body.strip('"')
    elif body.startswith("'"):
        body = body[1:]
    found = tuple(words(body))
    if not found:
        return None
    alternative = Alternative(
        text=body,
        words=found,
        exact=exact,
        prefix=typing and (not exact or unclosed) and not negated,
        case_sensitive=any(c.isupper() for c in body),
        field=field,
    )
    return Term((alternative,), negated)


def parse_query(query: str) -> Query:
    """The query's terms, state filters and metadata filters. The last word is "being typed"
    unless a space follows it."""
    tokens = _TOKEN.findall(query)
    typing = bool(query) and not query[-1].isspace()
    terms: list[Term] = []
    states: list[StateFilter] = []
    metadata: list[MetadataFilter] = []
    join_next = False
    for number, token in enumerate(tokens):
        if token == "|":
            join_next = bool(terms)
            continue
        last = typing and number == len(tokens) - 1
        if state := _state_filter(token, last):
            states.append(state)
            continue
        if found := _metadata_filter(token):
            metadata.append(found)
            continue
        term = _term(token, last)
        if term is None:
            continue
        if join_next and not term.negated and not terms[-1].negated:
            terms[-1] = Term(terms[-1].alternatives + term.alternatives)
        else:
            terms.append(term)
        join_next = False
    return Query(_without_repeats(terms), tuple(states), tuple(metadata))


def _without_repeats(terms: list[Term]) -> tuple[Term, ...]:
    """The terms, each once: a word typed again adds nothing to what must match, and counted
    twice it would weigh double and let papers missing another word through. A repeat still
    being typed is the word already there."""
    kept: list[Term] = []
    seen: set[Term] = set()
    for term in terms:
        whole = Term(tuple(replace(a, prefix=False) for a in term.alternatives), term.negated)
        if whole not in seen:
            seen.add(whole)
            kept.append(term)
    return tuple(kept)
