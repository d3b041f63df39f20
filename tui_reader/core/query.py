"""The filter's query language.

- words, separated by spaces: each must match (typos forgiven; the word being typed, the last
  one, matches as a prefix);
- `"exact phrase"`; `'word` matches that word exactly; a word with capitals is case-sensitive;
- `!word` or `-word` excludes papers that have it;
- `a | b` matches either, where each of `a` and `b` is a word, a phrase, a state filter or a
  metadata filter; a `|` next to a negated word joins nothing (`gan | !vae` is `gan !vae`);
- `title:word`, `author:name`, `venue:word` look only in that field;
- state filters on the user's library: `#tag` has the tag, `!#tag` lacks it, `is:bookmarked`,
  `is:read`, `is:unread`, `has:note`, any of them negated with a leading `!`; and `is:new`,
  the papers the collection kept took in last (fetched today, say);
- metadata filters on the paper (core.metadata_filter): `cat:cs.LG`, `year:2025`,
  `after:2025-06`, `before:2025-06`, negated with `!`.

A state filter being typed, the last word, is not searched as words: `is:bookm` is the one
filter it can become (`is:bookmarked`), and one that could become several (`is:`) adds nothing
until more is typed (`completing` says which). Typed in full, a word that names a filter but is
not one is searched as words, and the query says why (`misread`), or which state filter it is
close to (`mistyped`: `is:bookm` did you mean `is:bookmarked`?).

A paper's id alone names that paper (core.search_service).
"""

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeAlias

from tui_reader.core.library import normalise_tag
from tui_reader.core.metadata_filter import MetadataFilter
from tui_reader.core.paper_state import LATER_TAG, PaperState, WithNew
from tui_reader.core.text import without_surrogates

FIELDS = ("title", "author", "venue")
NOT = "!"  # a term's mark of negation (`!word`), as said of it (`Ranking.corrected`)
_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r'[!-]?(?:\w+:)?"[^"]*"?|\||[^\s|]+')  # `a|b` is `a | b`
_STATES: dict[str, Callable[[PaperState, str], bool]] = {
    "is:bookmarked": lambda state, paper_id: state.is_bookmarked(paper_id),
    "is:read": lambda state, paper_id: state.is_read(paper_id),
    "is:unread": lambda state, paper_id: not state.is_read(paper_id),
    # New to the collection kept: its last update took it in (core.search_service).
    "is:new": lambda state, paper_id: isinstance(state, WithNew) and state.is_new(paper_id),
    "has:note": lambda state, paper_id: bool(state.note(paper_id)),
}
_IS_NEW = _STATES["is:new"]


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
class Either:
    """An either-or with a state or metadata filter among its parts (`diffusion | #later`): a
    paper passes it when it matches the words or passes one of the filters."""

    term: Term | None  # the words and phrases among its parts
    states: tuple[StateFilter, ...] = ()
    metadata: tuple[MetadataFilter, ...] = ()


@dataclass(frozen=True)
class Query:
    terms: tuple[Term, ...] = ()
    states: tuple[StateFilter, ...] = ()
    metadata: tuple[MetadataFilter, ...] = ()
    misread: tuple[str, ...] = ()  # why tokens naming a filter are not one, searched as words
    either: tuple[Either, ...] = ()
    # Tokens close to a state filter, searched as words: "is:bookm is not a filter: did you
    # mean is:bookmarked?"
    mistyped: tuple[str, ...] = ()
    # The state filters the word being typed can become, the only one applied: "is:b →
    # is:bookmarked"
    completing: str = ""

    @property
    def asks_state(self) -> bool:
        """Whether what the query finds depends on the user's library."""
        return bool(self.states) or any(either.states for either in self.either)

    @property
    def asks_new(self) -> bool:
        """Whether the query asks for the papers new to the collection kept (`is:new`)."""
        states = [*self.states, *(one for either in self.either for one in either.states)]
        return any(one.test is _IS_NEW for one in states)

    def allows(self, state: PaperState, paper_id: str) -> bool:
        """Whether the paper passes every state filter."""
        return all(test(state, paper_id) for test in self.states)


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


def _unknown_state(token: str) -> str | None:
    """The state a token names without being one (`is:bookm`, `!has:x`), lower-case and
    without its `!`; None for any other token."""
    body = token.removeprefix("!").lower()
    scope, colon, _ = body.partition(":")
    return body if colon and scope in ("is", "has") and body not in _STATES else None


def state_completions(token: str) -> tuple[str, ...]:
    """The state filters a token being typed can still become, negated as it is (`is:b`:
    `is:bookmarked`; `!is:`: `!is:bookmarked`, `!is:read`, `!is:unread`)."""
    body = _unknown_state(token)
    if body is None:
        return ()
    return tuple("!" * token.startswith("!") + name for name in _STATES if name.startswith(body))


def _state_misread(token: str) -> str | None:
    """Why a token naming a state (`is:bx`) is not one, as MetadataFilter.misread says of the
    others."""
    if _unknown_state(token) is None:
        return None
    return f"{token} is not a state ({', '.join(_STATES)})"


def _state_mistyped(token: str) -> str | None:
    """The state filters a token typed in full is close to (`is:bookm`, `is:unred`,
    `has:notes`), or the tag of papers put off (`is:later`: #later), as a question; None
    when it is close to none."""
    body = _unknown_state(token)
    if body is None:
        return None
    if body.partition(":")[2] == LATER_TAG:
        return f"{token} is not a filter: did you mean {'!' * token.startswith('!')}#{LATER_TAG}?"
    close = [name for name in _STATES if name.startswith(body)]
    close = close or difflib.get_close_matches(body, _STATES, n=1, cutoff=0.8)
    if not close:
        return None
    named = ["!" * token.startswith("!") + name for name in close]
    meant = " or ".join(filter(None, (", ".join(named[:-1]), named[-1])))
    return f"{token} is not a filter: did you mean {meant}?"


def _field_misread(token: str, typing: bool) -> str | None:
    """Why a field scope with no words after it (`title:`) is searched as a word; None
    while it is being typed."""
    body = token[1:] if token[:1] in "!-" else token  # negated as `_term` reads it
    scope, colon, rest = body.partition(":")
    if typing or not colon or rest or scope.lower() not in FIELDS:
        return None
    return f"{token} has no words to find in the {scope.lower()} ({scope.lower()}:bandit)"


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


_Part: TypeAlias = Term | StateFilter | MetadataFilter


def parse_query(query: str) -> Query:
    """The query's terms, state filters and metadata filters. The last word is "being typed"
    unless a space follows it. A lone surrogate in it is U+FFFD, which no paper holds."""
    query = without_surrogates(query)
    tokens = _TOKEN.findall(query)
    typing = bool(query) and not query[-1].isspace()
    groups: list[list[_Part]] = []  # parts joined by `|`
    misread: list[str] = []
    mistyped: list[str] = []
    completing = ""
    join_next = False
    for number, token in enumerate(tokens):
        if token == "|":
            join_next = bool(groups)
            continue
        last = typing and number == len(tokens) - 1
        part: _Part | None = _state_filter(token, last) or MetadataFilter.parse(token)
        completions = state_completions(token) if part is None and last else ()
        if completions:  # what it is to be: the only one, else none yet
            completing = f"{token} → {', '.join(completions)}"
            part = _state_filter(completions[0], last) if len(completions) == 1 else None
        elif part is None:
            if mistake := _state_mistyped(token):
                mistyped.append(mistake)
            elif reason := (
                MetadataFilter.misread(token, last)
                or _state_misread(token)
                or _field_misread(token, last)
            ):
                misread.append(reason)
            part = _term(token, last)
        if part is None:
            continue
        if join_next and _joins(part) and _joins(groups[-1][-1]):
            groups[-1].append(part)
        else:
            groups.append([part])
        join_next = False
    terms: list[Term] = []
    states: list[StateFilter] = []
    metadata: list[MetadataFilter] = []
    either: list[Either] = []
    for group in groups:
        alternatives = tuple(
            a for part in group if isinstance(part, Term) for a in part.alternatives
        )
        group_states = tuple(part for part in group if isinstance(part, StateFilter))
        group_metadata = tuple(part for part in group if isinstance(part, MetadataFilter))
        if len(group) == 1 and isinstance(group[0], Term):
            terms.append(group[0])  # negated or not
        elif not group_states and not group_metadata:
            terms.append(Term(alternatives))
        elif len(group) == 1:
            states.extend(group_states)
            metadata.extend(group_metadata)
        else:
            term = Term(alternatives) if alternatives else None
            either.append(Either(term, group_states, group_metadata))
    return Query(
        _without_repeats(terms),
        tuple(states),
        tuple(metadata),
        tuple(dict.fromkeys(misread)),
        tuple(either),
        tuple(dict.fromkeys(mistyped)),
        completing,
    )


def _joins(part: _Part) -> bool:
    """Whether `|` joins the part to its neighbour: any but a negated word, which excludes
    papers whatever else they match."""
    return not (isinstance(part, Term) and part.negated)


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
