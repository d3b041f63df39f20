"""Sorted strings kept as one UTF-8 array with offsets: an index's vocabularies.

UTF-8 sorts as the strings do, so a vocabulary is searched by `bisect` without decoding it,
and two sorted vocabularies are merged by comparing their bytes (core.flat.lexicon).
"""

from collections.abc import Sequence
from itertools import pairwise
from typing import overload

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.generic]
Arrays = dict[str, Array]


class Words(Sequence[str]):
    """Sorted strings kept as UTF-8 with offsets, each decoded when it is read: a search
    opens the index without decoding the whole vocabulary (0.2 s at 100,000 papers), and a
    look-up by `bisect` decodes the twenty it compares. A long-lived index decodes them all
    (`[:]`): `bisect` on a list is C."""

    def __init__(self, data: Array, offsets: Array) -> None:
        self._data = np.asarray(data).tobytes()
        self._offsets = np.asarray(offsets, dtype=np.int64)

    def __len__(self) -> int:
        return len(self._offsets) - 1

    @overload
    def __getitem__(self, place: int) -> str: ...

    @overload
    def __getitem__(self, place: slice) -> list[str]: ...

    def __getitem__(self, place: int | slice) -> str | list[str]:
        offsets = self._offsets
        if isinstance(place, slice):
            start, stop, _ = place.indices(len(self))
            bounds = offsets[start : max(start, stop) + 1].tolist()
            data = self._data
            return [data[begin:end].decode() for begin, end in pairwise(bounds)]
        if place < 0:
            place += len(self)
        if not 0 <= place < len(self):
            raise IndexError(f"word {place} of {len(self)}")
        begin, end = offsets[place : place + 2].tolist()
        return self._data[begin:end].decode()

    def encoded(self, place: int) -> bytes:
        """The UTF-8 of the word at a place."""
        begin, end = self._offsets[place : place + 2].tolist()
        return self._data[begin:end]


def strings(name: str, values: Sequence[str]) -> Arrays:
    """Strings as one UTF-8 array (`name`) with offsets (`name_offsets`)."""
    return encoded_strings(name, [value.encode() for value in values])


def encoded_strings(name: str, encoded: Sequence[bytes]) -> Arrays:
    """Strings given as their UTF-8, as `strings` keeps them."""
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)), out=offsets[1:])
    return {name: np.frombuffer(b"".join(encoded), dtype=np.uint8), f"{name}_offsets": offsets}
