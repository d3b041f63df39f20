"""The paper list's rows as drawn, kept as data that Python's garbage collector need not follow.

A Textual `Strip` is an object with seven small caches and a list of segments, and the strips
cropped from it as the screen is drawn are kept in those caches: 2,000 rows kept as strips were
some 40,000 objects, which each of the collector's full passes went over. A row is kept packed
instead: its text, where each run of one style ends, and each run's style as its place in a short
list of the styles met. A tuple of strings and numbers leaves the collector's sight at its first
pass over it. The row is unpacked into a new `Strip` each time it is drawn: a few microseconds.
"""

from collections.abc import Hashable

from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.strip import Strip

# Text, where each run ends in it, each run's style (a place in the styles met), cells.
Packed = tuple[str, tuple[int, ...], tuple[int, ...], int]


class PackedRows:
    """Rows by key, the least recently drawn dropped past `size`."""

    def __init__(self, size: int) -> None:
        self._rows: LRUCache[Hashable, Packed] = LRUCache(size)
        self._styles: list[Style | None] = []
        self._places: dict[Style | None, int] = {}  # a style: its place in `_styles`

    def get(self, key: Hashable) -> Strip | None:
        packed = self._rows.get(key)
        if packed is None:
            return None
        text, ends, places, cells = packed
        styles, segments, start = self._styles, [], 0
        for end, place in zip(ends, places, strict=True):
            segments.append(Segment(text[start:end], styles[place]))
            start = end
        return Strip(segments, cells)

    def keep(self, key: Hashable, strip: Strip) -> None:
        """Keep a row drawn (of segments without control codes, as the list draws them)."""
        texts: list[str] = []
        ends: list[int] = []
        places: list[int] = []
        end = 0
        for text, style, _ in strip:
            place = self._places.get(style)
            if place is None:
                place = self._places[style] = len(self._styles)
                self._styles.append(style)
            end += len(text)
            texts.append(text)
            ends.append(end)
            places.append(place)
        self._rows[key] = ("".join(texts), tuple(ends), tuple(places), strip.cell_length)

    def clear(self) -> None:
        self._rows.clear()
        self._styles.clear()
        self._places.clear()
