"""Counts in words: "1 paper", "2 papers"."""


def count(number: int, noun: str, plural: str = "") -> str:
    """The number with its noun, plural unless it is one; `plural` when it is not noun + "s"."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"
