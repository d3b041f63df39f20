"""Which papers an entry took in last: `is:new`.

An entry brought up to date (a day's papers fetched into a collection, a file added) notes
the papers it did not hold before, by the key of their id, with the time. The papers new are
those taken in on the day (local time) the last ones were: a day's fetch and a second one the
same day are new together, and yesterday's stop being new once today's come, however few
seconds less than a day apart two mornings' fetches end (a window of a day read them as one).
An entry written whole (the first time its files are read, small or big) notes only what the
fetches into its files noted they added (core.sources.taken), so that a cache pruned forgets
nothing of it: on first sight nothing else is new, every paper was there. An entry written
whole in place of others (kept by another version of the format, or damaged, or of a filter,
core.segments.kept.added_before) carries what they noted, and notes the papers the entry it
replaces did not hold.
"""

import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tui_reader.core.segments.part import OpenPart
from tui_reader.core.segments.ranges import Rejected

_YEAR_4000 = 64_060_588_800.0  # seconds since 1970
Added = list[tuple[int, float]]  # (key of a paper's id, when it was taken in)
Numbers = npt.NDArray[np.int64]


def added_of(value: object) -> Added:
    """The papers a manifest says were taken in; Rejected when it says something else."""
    if not isinstance(value, list):
        raise Rejected(f"not papers taken in: {value!r:.200}")
    added: Added = []
    for item in value:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or type(item[0]) is not int
            or not isinstance(item[1], float)
            or not 0.0 <= item[1] < _YEAR_4000  # NaN too: a time the clock reads as a day
        ):
            raise Rejected(f"not papers taken in: {item!r:.200}")
        added.append((item[0], item[1]))
    return added


def keys_of(parts: Sequence[OpenPart]) -> Numbers:
    """The keys of the ids of the papers of these parts."""
    return np.concatenate([np.asarray(p.arrays["keys"]) for p in parts] or [np.zeros(0, np.int64)])


def taken_in(
    before: Added, kept: Sequence[OpenPart], keys: Numbers, now: float | None = None
) -> Added:
    """The papers taken in on the last day: of those noted before and the papers of these
    keys (of parts just made) that no part kept from before held, taken in now."""
    now = time.time() if now is None else now
    for part in kept:
        held = np.asarray(part.arrays["sorted_keys"])
        if len(held) and len(keys):
            places = np.searchsorted(held, keys).clip(max=len(held) - 1)
            keys = keys[held[places] != keys]
    return taken_now(before, keys.tolist(), now)


def taken_now(before: Added, keys: Sequence[int], now: float) -> Added:
    """The papers taken in on the last day once these are taken in `now`: those noted
    before, and any noted later than now (a clock set back) read as taken now."""
    earlier = [(key, min(when, now)) for key, when in before]
    return of_last_day(earlier + [(key, now) for key in keys])


def taken_last(added: Added) -> float:
    """When the last papers were taken in; 0.0 when none were."""
    return max((when for _, when in added), default=0.0)


def of_last_day(added: Added) -> Added:
    """The papers taken in on the day (local time) the last ones were. Each time's day is
    read, never a midnight's time: where clocks go back at midnight, it comes twice."""
    days = {when: time.localtime(when)[:3] for when in {when for _, when in added}}
    last = days[taken_last(added)] if added else None
    return [(key, when) for key, when in added if days[when] == last]


def new_keys(added: Added) -> Numbers:
    """The keys of the papers taken in on the day the last ones were."""
    return np.asarray([key for key, _ in of_last_day(added)], dtype=np.int64)


def new_numbers(added: Added, parts: Sequence[OpenPart]) -> Numbers:
    """The numbers of the papers taken in on the day the last ones were, in order."""
    if not added:
        return np.zeros(0, dtype=np.int64)
    keys = new_keys(added)
    found = []
    base = 0
    for part in parts:
        held = np.asarray(part.arrays["sorted_keys"])
        if len(held):
            places = np.searchsorted(held, keys).clip(max=len(held) - 1)
            hit = held[places] == keys
            numbers = np.asarray(part.arrays["sorted_numbers"])[places[hit]]
            found.append(numbers.astype(np.int64) + base)
        base += part.facts.count
    return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
