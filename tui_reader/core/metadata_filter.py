"""The query's filters on a paper's own fields: `cat:cs.LG` (`cat:cs`: any cs category),
`year:2025` (or years: `year:2019..2021`, `year:2019-2021`, `year:2019..`, `year:..2021`),
`after:2025-06` (on or after), `before:2025-06` (strictly before), by the date the paper was
published (else its year); a paper without the field does not match. A token that names a
filter but not a value it takes (`year:abc`) is searched as words, and `misread` says why.

A filter tests the papers of a store at once from its columns (core.filtering): a date as
the number YYYYMMDD (`date_key`), the categories as codes of the distinct names, each name
tested once.
"""

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

Bools: TypeAlias = npt.NDArray[np.bool_]
_YEARS = re.compile(r"([0-9]{4})?(?:\.\.|-)([0-9]{4})?|([0-9]{4})")  # 2019..2021, 2019-2021, 2025
# What the value of a `year:` filter can be on the way to being: 20, 2019., 2019..20, ..20.
_PARTIAL_YEARS = re.compile(r"\.?|[0-9]{1,4}|[0-9]{4}\.|(?:[0-9]{4})?(?:\.\.|-)[0-9]{0,4}")
DATE = re.compile(r"([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?")  # ISO: 2025, 2025-06, 2025-06-03
NO_DATE = 0  # the date key of a paper without a date
UNSURE = -1  # the date key of a date not in that form: read as text
_UNITS = (10_000, 100, 1)  # a date key's unit at each precision: year, month, day


def date_of(published: str, year: int | None) -> str:
    """A paper's date, as precise as known: `2025-06-03`, `2025`, or ""."""
    return published or (str(year) if year else "")


def date_key(date: str) -> int:
    """A date as a number that compares as the filters compare it: 2025-06-03 is 20250603,
    2025-06 is 20250600, 2025 is 20250000; NO_DATE for "", UNSURE for any other form.
    The filters' bounds are ten characters at most, so a longer date is its first ten."""
    if not date:
        return NO_DATE
    found = DATE.fullmatch(date[:10] if len(date) > 10 else date)
    if found is None:
        return UNSURE
    year, month, day = found.group(1), found.group(2) or "", found.group(3) or ""
    if year == "0000" or "00" in (month, day):  # a zero would read as a coarser date
        return UNSURE
    return int(year) * 10_000 + int(month or 0) * 100 + int(day or 0)


# The field each filter reads, as the user is told that no paper has it.
FIELDS = {"cat": "a category", "year": "a year", "after": "a date", "before": "a date"}
_DATES = "a date (2025, 2025-06, 2025-06-15)"
_TAKES = {  # what each filter takes, as the user is told
    "cat": "a category (cs.LG, cs)",
    "year": "a year (2025, 2019..2021)",
    "after": _DATES,
    "before": _DATES,
}


def _years(text: str) -> tuple[int, int] | None:
    """The first and last year a `year:` filter's value names: 2025, 2019..2021 or 2019-2021,
    open at either end (2019.., ..2021); None for anything else."""
    found = _YEARS.fullmatch(text)
    if found is None:
        return None
    first, last, one = found.groups()
    if one is not None:
        return int(one), int(one)
    if first is None and last is None:
        return None
    span = int(first or 1), int(last or 9999)
    return (min(span), max(span))  # 2021..2019 are the same years


def _could_become(scope: str, value: str) -> bool:
    """Whether typing more after the value can make it one the filter takes."""
    if scope == "cat" or not value:
        return True
    if scope == "year":
        return _PARTIAL_YEARS.fullmatch(value) is not None
    if len(value) < 4:  # a year being typed
        return value.isdigit()
    if not value[:4].isdigit() or value[:4] == "0000":
        return False
    year = int(value[:4])  # "2025-1" begins 2025-10-01; "2025-13" begins no day of 2025
    first, last = datetime.date(year, 1, 1).toordinal(), datetime.date(year, 12, 31).toordinal()
    days = range(first, last + 1)
    return any(datetime.date.fromordinal(day).isoformat().startswith(value) for day in days)


def is_date(text: str) -> bool:
    """Whether the text is a day, month or year of the calendar (not 2020-13, nor 2015-02-30)."""
    found = DATE.fullmatch(text)
    if found is None:
        return False
    try:
        datetime.date(int(found.group(1)), int(found.group(2) or 1), int(found.group(3) or 1))
    except ValueError:
        return False
    return True


def on_or_after(date: str, bound: str) -> bool:
    """Whether a date (`2025-06-03`, `2025-06`, `2025`; "" for none) is on or after the bound;
    one less precise than it (2025 for 2025-06) cannot say, so is not."""
    shared = min(len(date), len(bound))
    if date[:shared] != bound[:shared]:
        return bool(date) and date[:shared] > bound[:shared]
    return bool(date) and len(date) >= len(bound)


def before(date: str, bound: str) -> bool:
    """Whether a date is strictly before the bound; one less precise than it cannot say."""
    shared = min(len(date), len(bound))
    return bool(date) and date[:shared] < bound[:shared]


def in_category(categories: Sequence[str], name: str) -> bool:
    """Whether one of the categories is `name` (`cs.LG`), or in the archive it names (`cs`)."""
    name = name.casefold()
    return any(c.casefold() == name or c.casefold().startswith(name + ".") for c in categories)


@dataclass(frozen=True)
class MetadataFilter:
    scope: str  # "cat", "year", "after" or "before"
    value: str  # as typed: a category or archive, a year, a date
    negated: bool = False

    @classmethod
    def parse(cls, token: str) -> "MetadataFilter | None":
        """The filter a query's token names, or None when it names none."""
        negated = token.startswith("!")
        scope, _, value = (token[1:] if negated else token).partition(":")
        scope = scope.lower()
        if (
            (scope == "cat" and value)
            or (scope == "year" and _years(value) is not None)
            or (scope in ("after", "before") and is_date(value))
        ):
            return cls(scope, value, negated)
        return None

    @staticmethod
    def misread(token: str, typing: bool = False) -> str | None:
        """Why a token that names a filter (`year:abc`) is not one, to tell the user that it
        is searched as words; None for any other token, and for one being typed that more
        keys can still make a filter (`year:20`)."""
        scope, colon, value = token.removeprefix("!").partition(":")
        scope = scope.lower()
        if not colon or scope not in _TAKES or MetadataFilter.parse(token) is not None:
            return None
        if typing and _could_become(scope, value):
            return None
        return f"{token} is not {_TAKES[scope]}"

    @property
    def years(self) -> tuple[int, int]:
        """The first and last year of a `year:` filter."""
        found = _years(self.value)
        assert found is not None, "a year: filter is made of years"
        return found

    def fits_date(self, date: str) -> bool:
        """Whether a date passes an `after:` or `before:` filter, negation aside."""
        return on_or_after(date, self.value) if self.scope == "after" else before(date, self.value)

    def fits_dates(self, keys: npt.NDArray[Any]) -> Bools:
        """Which date keys pass an `after:` or `before:` filter, negation aside, as `fits_date`
        would say of their dates; an UNSURE key does not (its date is to be read)."""
        value = self.value
        bound = int(value[:4]) * 10_000 + int(value[5:7] or 0) * 100 + int(value[8:10] or 0)
        precision = (4, 7, 10).index(len(value))  # of the bound: 0 a year, 1 a month, 2 a day
        own = np.where(keys % 10_000 == 0, 0, np.where(keys % 100 == 0, 1, 2))
        passing = np.zeros(len(keys), dtype=bool)
        for level in range(len(_UNITS)):  # the dates known to this precision
            shared = _UNITS[min(level, precision)]  # compared as far as both are known
            mine, theirs = keys // shared, bound // shared
            if self.scope == "before":
                fits = mine < theirs
            else:  # a date less precise than the bound must be past it, not equal
                fits = mine > theirs if level < precision else mine >= theirs
            passing |= (own == level) & fits
        return passing & (keys > NO_DATE)

    def fits_category(self, name: str) -> bool:
        """Whether one category name passes a `cat:` filter, negation aside."""
        return in_category((name,), self.value)
