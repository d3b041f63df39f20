"""The filter an entry's papers were read with (`--category`, `--since`).

A filtered input is kept as an entry of its own, beside the entry of its whole files: the
papers the filter admits, in parts read with it, brought up to date as any entry is (a day's
papers appended or in a new file read alone, those admitted taken in: `is:new`). Its folder's
key and its manifest name the filter; an entry is only ever started from one of the same.
"""

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from tui_reader.core.loading import NO_FILTER, LoadFilter
from tui_reader.core.metadata_filter import in_category, on_or_after
from tui_reader.core.segments.ranges import Rejected


def as_json(load_filter: LoadFilter) -> dict[str, object] | None:
    """A filter as a manifest keeps it; None for none."""
    if load_filter == NO_FILTER:
        return None
    return {"categories": list(load_filter.categories), "since": load_filter.since}


def filter_of(value: object) -> LoadFilter:
    """The filter a manifest keeps (None: none); Rejected when it keeps something else."""
    if value is None:
        return NO_FILTER
    if not isinstance(value, dict) or set(value) != {"categories", "since"}:
        raise Rejected(f"not a filter: {value!r:.200}")
    categories, since = value["categories"], value["since"]
    if not isinstance(categories, list) or not all(isinstance(c, str) for c in categories):
        raise Rejected(f"not a filter's categories: {categories!r:.200}")
    if not isinstance(since, str):
        raise Rejected(f"not a filter's date: {since!r:.200}")
    return LoadFilter(tuple(categories), since)


def wider(one: LoadFilter, other: LoadFilter) -> bool:
    """Whether a filter admits every paper the other does: none at all, or categories among
    which are the other's (or their archives) and a date no later than the other's."""
    categories = not one.categories or (
        bool(other.categories) and all(_covered(name, one.categories) for name in other.categories)
    )
    since = not one.since or (bool(other.since) and on_or_after(other.since, one.since))
    return categories and since


def _covered(name: str, categories: Sequence[str]) -> bool:
    return any(in_category((name,), category) for category in categories)


def key_of(files: Sequence[Path], load_filter: LoadFilter) -> str:
    """The key of the entry of these files read with this filter (of the files alone when
    there is none: as entries were keyed before filters were kept)."""
    paths: list[object] = [str(file.resolve()) for file in files]
    kept = as_json(load_filter)
    what = paths if kept is None else [paths, kept]
    return hashlib.sha256(json.dumps(what).encode()).hexdigest()[:24]
