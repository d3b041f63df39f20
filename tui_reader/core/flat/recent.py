"""Values kept for the next keys of a search: the most recently used, up to a number."""

from collections.abc import Callable
from typing import TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")


def recently_used(kept: dict[Key, Value], key: Key, make: Callable[[], Value], limit: int) -> Value:
    """The value `kept` for `key`, else made by `make()` and kept, the least recently used
    dropped past `limit`; the value is kept as the last used."""
    value = kept.pop(key, None)
    if value is None:
        value = make()
        while len(kept) >= limit:
            try:  # the oldest; a search still running may take one at once
                kept.pop(next(iter(kept)), None)
            except (StopIteration, RuntimeError):
                break
    kept[key] = value
    return value
