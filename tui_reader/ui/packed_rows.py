"""The paper list's rows as drawn, kept as data that Python's garbage collector need not follow.

A Textual `Strip` is an object with seven small caches and a list of segments, and the strips
cropped from it as the screen is drawn are kept in those caches: the rows kept as strips were
some 20,000 objects at 100,000 papers, which each of the collector's full passes went over. A
row is kept packed instead: its text, where each run of one style ends, and each run's style as
its place in a short list of the styles met. A tuple of strings and numbers leaves the
collector's sight at its first pass over it. Only the rows drawn last are kept as strips as well
(`STRIPS_KEPT`, a few screens): a row unpacked anew at each frame, and the strips cropped from
it made anew, took a third more of the CPU time a cursor key's frame takes.
"""

from collections.abc import Hashable

from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.strip import Strip

# Text, where each run ends in it, each run's style (a place in the styles met), cells.
Packed = tuple[str, tuple[int, ...], tuple[int, ...], int]
STRIPS_KEPT = 150


class PackedRows:
    """Rows by key, the least recently drawn dropped past `size`."""

    def __init__(self, size: int) -> None:
        self._rows: LRUCache[Hashable, Packed] = LRUCache(size)
        self._strips: LRUCache[Hashable, Strip] = LRUCache(STRIPS_KEPT)  # those drawn last
        self._styles: list[Style | None] = []
        self._places: dict[Style | None, int] = {}  # a style: its place in `_styles`

    def get(self, key: Hashable) -> Strip | None:
        strip = self._strips.get(key)
        if strip is not None:
            return strip
        packed = self._rows.get(key)
        if packed is None:
            return None
        text, ends, places, cells = packed
        styles, segments, start = self._styles, [], 0
        for end, place in zip(ends, places, strict=True):
            segments.append(Segment(text[start:end], styles[place]))
            start = end
        strip = self._strips[key] = Strip(segments, cells)
        return strip

    def keep(self, key: Hashable, strip: Strip) -> None:
        """Keep a row drawn (of segments without control codes, as the list draws them)."""
        self._strips[key] = strip
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
        self._strips.clear()
        self._styles.clear()
        self._places.clear()
