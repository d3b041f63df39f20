"""Counts in words: "1 paper", "2 papers"."""


def count(number: int, noun: str, plural: str = "", width: int = 0) -> str:
    """The number with its noun, plural unless it is one; `plural` when it is not noun + "s";
    the number right-aligned in `width` characters, for columns."""
    return f"{number:>{width},} {noun if number == 1 else plural or noun + 's'}"
