"""Cleaning and normalising paper text, which is data and never markup."""

import re
import unicodedata
from pathlib import Path

# C0 and C1 control characters (ESC, BEL, OSC introducers, DEL...) and the bidirectional
# overrides that can reorder what a terminal shows. Tabs and newlines are whitespace and
# are collapsed by `squash_whitespace` instead.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# Half of a UTF-16 pair alone, as JSON may write (`"\ud800"`): no character, and not UTF-8.
_SURROGATE = re.compile("[\ud800-\udfff]")
# The control characters `str.split` takes for spaces.
_SPLITTING_CONTROLS = "\x0b\x0c\x1c\x1d\x1e\x1f\x85"


def strip_controls(text: str) -> str:
    """Remove terminal control characters, keeping tabs and newlines (a carriage return is
    one: alone, it sends the cursor back over what the line showed); a lone surrogate
    becomes U+FFFD, as an undecodable byte does."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _SURROGATE.sub("\ufffd", _CONTROL.sub("", text))


def for_terminal(text: str) -> str:
    """Text as it may be written to a terminal or a clipboard, a last defence behind the
    cleaning of each source: no control character but tab and newline."""
    if text.isprintable():
        return text
    return strip_controls(text)


def token(text: str) -> str:
    """An id or a URL as it may be kept: itself when it holds no space, control or format
    character (zero-width, bidirectional), else "" (such a value is refused, not mended)."""
    return text if text.isprintable() and " " not in text else ""


def displayed(path: Path | str) -> str:
    """A file's name or path as the reader shows it: a name may hold escapes too."""
    return clean(str(path))


def squash_whitespace(text: str) -> str:
    """Collapse every run of whitespace (tabs, newlines, non-breaking spaces) to one space."""
    return " ".join(text.split())


def clean(text: str) -> str:
    """Paper text as the reader keeps it: no control characters, single spaces."""
    # Most text is clean already (2x faster to tell): a printable string holds no control
    # character and no whitespace but the plain space.
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    # Next most, text broken into lines (arXiv's abstracts): its words joined are clean
    # when printable and no control character set them apart, which `strip_controls` would
    # drop rather than read as a space (21 -> 14 µs an abstract).
    squashed = squash_whitespace(text)
    if squashed.isprintable() and not any(c in text for c in _SPLITTING_CONTROLS):
        return squashed
    return squash_whitespace(strip_controls(text))


def normalise(text: str) -> str:
    """The form of an abstract that identifies it: compatibility-normalised, clean."""
    return clean(unicodedata.normalize("NFKC", text))
