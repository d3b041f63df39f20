"""Triage: the papers shown, one at a time, one key per decision.

A triage runs over the papers a filter shows, unread first, in a fixed order: deciding on a
paper changes the library (as one step that undo takes back) and moves on. Where a triage of a
filter stopped (its order, the paper reached and the decisions made) is kept in `triage.json`
beside the session file when the triage is left, so that the next triage of the same filter
and sort, in the same library and collection, goes on from there: another library (a fresh one
say) starts a fresh triage. Each decision is saved at once by the library alone, so a triage
that ended without keeping its place (a reader killed) is taken up past the papers ahead that
the library shows decided since the place was kept, counted as the library shows them; a
decision made in it that the library no longer shows (undone in the list) is made again. That
file is a convenience: one that cannot be read is ignored, and only the filters triaged last
are kept. A place kept by a version that named no library (its key the filter
and sort alone) is taken up by the library whose state holds its decisions, else ignored.
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from tui_reader.core.atomic_file import write_atomically
from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.library import Library
from tui_reader.core.library_file import format_stamp
from tui_reader.core.locations import session_path
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import LATER_TAG
from tui_reader.core.store import Numbers, PaperView
from tui_reader.core.wording import count

KEPT_FILTERS = 10  # the filters whose place is remembered, the most recently triaged
MAX_PLACES_BYTES = 50_000_000  # ten filters of a million papers each

KEEP, SKIP, LATER = "kept", "skipped", "later"
TAGGED = "tagged"  # a quick tag added (the decision is "#tag")


def places_path() -> Path:
    """Where the places are kept: triage.json beside the session file."""
    return session_path().with_name("triage.json")


@dataclass
class Place:
    """Where a triage of one filter stopped."""

    order: list[str]  # paper ids, in the order they are triaged
    position: int  # the paper reached: a place in `order` (len(order) when all are done)
    decisions: dict[str, str] = field(default_factory=dict)  # paper id -> kind or "#tag"
    at: str = ""  # when it was left: the oldest places are dropped first


def filter_key(query: str, sort: str, library: Path | None = None, collection: str = "") -> str:
    """What a place is remembered by: the library's file (none: a library kept nowhere), the
    collection read (core.session.inputs_of), the filter's words and the sort order."""
    where = "" if library is None else str(library.resolve())
    return f"{where}\n{collection}\n{_unattributed_key(query, sort)}"


def _unattributed_key(query: str, sort: str) -> str:
    """The key of a place kept with no library: the filter's words and the sort order."""
    return f"{' '.join(query.split())}\n{sort}"


def place_of(
    places: dict[str, Place],
    key: str,
    library: Library,
    known: Callable[[str], bool] = lambda _: False,
) -> tuple[Place | None, str]:
    """The place kept under `key` (filter_key) and the key it was kept under: its own, else
    one kept with no library whose every decision the library holds (none made: any), else
    the latest kept of this library, filter and sort while other files were read (a folder
    added to the config's paths), whose every decision the library holds on a paper read
    now (`known`)."""
    if (place := places.get(key)) is not None:
        return place, key
    old = "\n".join(key.split("\n")[-2:])  # the filter's words and the sort: no line break
    place = places.get(old)
    if place is not None and all(_holds(library, i, kind) for i, kind in place.decisions.items()):
        return place, old
    where, _, rest = key.split("\n", 2)
    others = [
        (kept.at, other, kept)
        for other, kept in places.items()
        if other.split("\n", 2)[::2] == [where, rest]
        and kept.decisions
        and all(known(i) and _holds(library, i, kind) for i, kind in kept.decisions.items())
    ]
    if not others:
        return None, key
    _, other, kept = max(others, key=lambda found: found[:2])
    return kept, other


def _holds(library: Library, paper_id: str, kind: str) -> bool:
    """Whether the library's state is what deciding `kind` on the paper made it."""
    if kind == LATER:
        return LATER_TAG in library.tags(paper_id)
    if not library.is_read(paper_id):
        return False
    if kind in (KEEP, SKIP):
        return library.is_bookmarked(paper_id) == (kind == KEEP)
    return kind.startswith("#") and kind[1:] in library.tags(paper_id)


def _decision_shown(library: Library, paper_id: str) -> str | None:
    """The decision the library's state shows made on the paper, None for none: a quick tag
    is not told from a skip followed by a tag, and counts as a skip."""
    if not library.is_read(paper_id):
        return LATER if LATER_TAG in library.tags(paper_id) else None
    return KEEP if library.is_bookmarked(paper_id) else SKIP


def load_places(path: Path) -> dict[str, Place]:
    """The places kept in the file; none when it is missing, not a regular file or unreadable."""
    if special_file_problem(path):
        return {}
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_PLACES_BYTES + 1)
        data = json.loads(raw) if len(raw) <= MAX_PLACES_BYTES else None
    except (OSError, ValueError, RecursionError):
        return {}
    filters = data.get("filters") if isinstance(data, dict) else None
    places = {}
    for key, item in filters.items() if isinstance(filters, dict) else ():
        try:
            place = Place(**item)
        except TypeError:
            continue
        if (
            isinstance(place.order, list)
            and all(isinstance(i, str) for i in place.order)
            and isinstance(place.position, int)
            and 0 <= place.position <= len(place.order)
            and isinstance(place.decisions, dict)
            and all(isinstance(v, str) for v in place.decisions.values())
            and isinstance(place.at, str)
        ):
            places[key] = place
    return places


def save_place(path: Path, key: str, place: Place, replacing: str | None = None) -> None:
    """Keep the place of one filter, with those of the filters triaged last (`replacing`: a
    key kept with no library whose place this one takes up, dropped), at the time it was
    taken (now, unless it has one); OSError when the file cannot be written (or is not a
    regular file)."""
    if problem := special_file_problem(path):
        raise OSError(0, problem, str(path))
    place.at = place.at or _now()
    places = load_places(path)
    places.pop(key, None)
    if replacing is not None:
        places.pop(replacing, None)
    places[key] = place
    latest = sorted(places.items(), key=lambda item: item[1].at)[-KEPT_FILTERS:]
    data = {"version": 2, "filters": {key: asdict(place) for key, place in latest}}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(data, ensure_ascii=False) + "\n")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


@dataclass(frozen=True)
class Step:
    """A change made in triage, to undo: a decision (at `position`) or an edit of tags or a
    note; `changed` says whether the library took a step that undo must take back."""

    position: int | None
    changed: bool


def _decided_since(library: Library, since: str) -> dict[str, str]:
    """The papers the library shows decided after `since` (when a place was kept), with the
    decisions it shows; none when `since` is not a time."""
    try:
        after = format_stamp(datetime.fromisoformat(since).astimezone(timezone.utc))
    except ValueError:
        return {}
    return {
        paper_id: kind
        for paper_id in library.paper_ids()
        if library.changed_at(paper_id) > after
        and (kind := _decision_shown(library, paper_id)) is not None
    }


class Triage:
    """The papers to triage in order, the one reached, and the decisions made.

    The order is held as the papers' numbers in the store (`numbers`), a `Paper` built only
    for the one shown and the next: a triage of a hundred thousand papers held as many
    objects, and each of Python's full garbage collections went over them all."""

    def __init__(self, papers: PaperView, library: Library, place: Place | None) -> None:
        store, shown = papers.store, papers.numbers()
        # The place's order in numbers (-1: a paper not loaded now): those of it shown, and
        # those it decided or the library shows decided since it was kept, shown or not
        # (read, they left `is:unread`), so that its counts and position go on.
        ordered = store.positions_of(place.order) if place else np.zeros(0, dtype=np.int64)
        since = _decided_since(library, place.at) if place else {}
        decided = store.positions_of([*place.decisions, *since] if place else [])
        kept = ordered[np.isin(ordered, shown) | np.isin(ordered, decided[decided >= 0])]
        new = shown[~np.isin(shown, kept)]
        read = store.positions_of([i for i in library.paper_ids() if library.is_read(i)])
        new = new[np.argsort(np.isin(new, read), kind="stable")]  # unread first
        self.numbers: Numbers = np.concatenate([kept, new])
        self.papers = store.view(self.numbers)
        self.library = library
        self.position = 0
        self.decisions: dict[str, str] = {}
        self.steps: list[Step] = []
        if place is not None:
            found = np.isin(decided[: len(place.decisions)], kept).tolist()
            made = place.decisions.items()
            self.decisions = {i: kind for (i, kind), ok in zip(made, found, strict=True) if ok}
            remaining = np.flatnonzero(np.isin(kept, ordered[place.position :]))
            self.position = int(remaining[0]) if len(remaining) else len(kept)
            self._pass_over_decided(since)
            self._take_back_undone()

    def _pass_over_decided(self, decided: dict[str, str]) -> None:
        """Put the papers ahead that the library shows `decided` since the place was kept
        before the paper reached, with the decisions it shows."""
        store, ahead = self.papers.store, self.numbers[self.position :]
        passed = np.isin(ahead, store.positions_of(list(decided)))
        first = ahead[passed]
        self.numbers[self.position :] = np.concatenate([first, ahead[~passed]])
        for number in first.tolist():
            paper_id = store.id_of(number)
            self.decisions[paper_id] = decided[paper_id]
        self.position += len(first)

    def _take_back_undone(self) -> None:
        """The papers decided before the place was kept whose decision the library no longer
        holds (undone with u in the list, marked unread with r) come up next, to be decided
        again; but one kept since (bookmarked and read) counts as kept. The state alone does
        not tell an undone decision from a skip: a paper read before it was kept or put off
        is read still once that is undone."""
        undone = []
        for paper_id, kind in list(self.decisions.items()):
            if _holds(self.library, paper_id, kind):
                continue
            if _decision_shown(self.library, paper_id) == KEEP:
                self.decisions[paper_id] = KEEP
            else:
                del self.decisions[paper_id]
                undone.append(paper_id)
        behind = self.numbers[: self.position]
        back = np.isin(behind, self.papers.store.positions_of(undone))
        self.numbers[: self.position] = np.concatenate([behind[~back], behind[back]])
        self.position -= int(back.sum())

    def _paper(self, position: int) -> Paper | None:
        return self.papers[position] if position < len(self.numbers) else None

    @property
    def current(self) -> Paper | None:
        return self._paper(self.position)

    def ahead(self) -> Paper | None:
        """The paper after the current one: the next on screen."""
        return self._paper(self.position + 1)

    def reorder_ahead(self, places: Numbers | Sequence[int], with_current: bool = False) -> None:
        """Put the papers after the current one in a new order: `places`, theirs among them
        in the order wanted (a new for-you order). The current paper stays on screen, or,
        `with_current` (none is on screen yet: a triage opening), is sorted with them."""
        start = self.position + (0 if with_current else 1)
        ahead = self.numbers[start:]
        if len(places) != len(ahead):
            raise ValueError(f"{count(len(places), 'place')} for {count(len(ahead), 'paper')}")
        self.numbers[start:] = ahead[np.asarray(places, dtype=np.int64)]

    def place(self) -> Place:
        order = [self.papers.id_of(n) for n in range(len(self.numbers))]
        return Place(order, self.position, dict(self.decisions))

    def place_at_start(self) -> Callable[[], Place]:
        """The place of this triage as it starts, none decided, taken now: made by the call
        returned, off the screen's thread (a million papers' ids), and kept so that a triage
        that cannot keep its place when it stops (the reader killed) is taken up past the
        decisions made after this time."""
        store, numbers, at = self.papers.store, self.numbers.copy(), _now()
        return lambda: Place([store.id_of(n) for n in numbers.tolist()], 0, {}, at)

    def decide(self, kind: str, kept_tag: str | None = None) -> bool:
        """Decide on the current paper (KEEP, SKIP, LATER or "#tag"), as one undoable step of
        the library, and move on; whether the library changed. ValueError for a bad tag. A
        paper put off before (#later) and decided now is no longer put off; a bookmarked paper
        skipped is no longer bookmarked (a quick tag leaves its bookmark). A keep gives the
        paper `kept_tag` too (in a "like #tag" order, the tag's papers are the kept ones)."""
        paper = self.current
        if paper is None:
            return False
        ids, what = [paper.id], f"{kind} in triage"
        given = [kept_tag] if kind == KEEP and kept_tag else []
        if kind == LATER:
            changed = self.library.change(ids, what, read=False, add_tags=[LATER_TAG])
        else:
            changed = self.library.change(
                ids,
                what,
                bookmarked={KEEP: True, SKIP: False}.get(kind),
                read=True,
                add_tags=[kind[1:]] if kind.startswith("#") else given,
                remove_tags=[LATER_TAG],
            )
        self.steps.append(Step(self.position, changed))
        self.decisions[paper.id] = kind
        self.position += 1
        return changed

    def edited(self, changed: bool) -> None:
        """Record an edit of tags or a note made in triage, for undo to take back first."""
        if changed:
            self.steps.append(Step(None, True))

    def undo(self) -> str | None:
        """Take back the last step: a decision goes back to its paper. What was undone, or
        None when there is nothing to undo in this triage."""
        if not self.steps:
            return None
        step = self.steps.pop()
        change = self.library.undo() if step.changed else None
        undone = change.undone if change else None
        if step.position is None:
            return undone or "the last edit"
        self.position = step.position
        kind = self.decisions.pop(self.papers.id_of(step.position), "")
        return undone or f"{kind} in triage"

    def progress(self) -> str:
        """'12 of 340 · 5 kept · 6 skipped · 1 later' (and how many got a quick tag)."""
        total = len(self.numbers)
        kinds = list(self.decisions.values())
        where = f"{min(self.position + 1, total):,} of {total:,}"
        if self.current is None:
            where = f"all {count(total, 'paper')} triaged"
        parts = [where] + [f"{kinds.count(kind):,} {kind}" for kind in (KEEP, SKIP, LATER)]
        if tagged := sum(kind.startswith("#") for kind in kinds):
            parts.append(f"{tagged:,} {TAGGED}")
        return " · ".join(parts)
