"""Cleaning and normalising paper text, which is data and never markup."""

import re
import unicodedata
from pathlib import Path

# C0 and C1 control characters (ESC, BEL, OSC introducers, DEL...) and the bidirectional
# overrides that can reorder what a terminal shows. Tabs and newlines are whitespace and
# are collapsed by `squash_whitespace` instead.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# A terminal's escape sequences, each taken whole (its ESC alone dropped left the rest as text,
# and the URL of an OSC 8 hyperlink became the paper's first link): a control sequence (CSI:
# parameters, intermediates, a final byte), also in its 8-bit form; an operating system command
# (OSC: 8 a hyperlink, 52 the clipboard) up to BEL or ST, or to the end of the text when it has
# none, as a terminal would read it; a device control, start of string, privacy message or
# application program command string up to ST; any other escape, its intermediates and final
# byte. An ESC inside a string ends it there, as it does on a terminal. The 8-bit forms of the
# strings are removed alone, not what follows them: UTF-8 read as Latin-1 holds them ("â\x80\x9d"
# is a closing quote), and taken as strings they swallowed most of such an abstract.
_ESCAPE = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"
)
# Half of a UTF-16 pair alone, as JSON may write (`"\ud800"`): no character, and not UTF-8.
_SURROGATE = re.compile("[\ud800-\udfff]")
# The control characters `str.split` takes for spaces.
_SPLITTING_CONTROLS = "\x0b\x0c\x1c\x1d\x1e\x1f\x85"
# PDF extraction (pdfminer) writes a glyph it cannot name as its number in the font, "(cid:N)".
# A soft hyphen is 173. Ligatures are 11 to 14 in TeX's own fonts (OT1: ff, fi, fl, ffi), 2 and
# 3 in its 8r encoding of PostScript fonts (fi, fl): in the 31,867 abstracts of
# ml-abstracts-31k.jsonl.gz each of these beside a lower-case letter was one (149 of them), and
# none elsewhere ("parameter (cid:11) which" is alpha, "N(cid:2)N" is N times N).
_LIGATURE_CODES = {
    "(cid:2)": "fi", "(cid:3)": "fl",
    "(cid:11)": "ff", "(cid:12)": "fi", "(cid:13)": "fl", "(cid:14)": "ffi",
}  # fmt: skip
# A soft hyphen takes the space that stood for the line break after it. Every choice starts
# with "(cid:", which the search looks for as a whole (a look-behind first: 6x slower).
_GLYPH_SOURCE = r"\(cid:(?:173\) ?|1[1-4]\)|[23]\))"
_GLYPH = re.compile(_GLYPH_SOURCE)
_GLYPH_UTF8 = re.compile(_GLYPH_SOURCE.encode())
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_LIGATURES = "\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06"  # ff fi fl ffi ffl, long s t, s t
_LIGATURE_PAIRS = tuple(zip(_LIGATURES, ("ff", "fi", "fl", "ffi", "ffl", "st", "st"), strict=True))
# In a chunk of the index (megabytes), each ligature replaced in turn took 20 times as long.
_LIGATURE_UTF8 = re.compile(b"\xef\xac[\x80-\x86]")
_LIGATURES_UTF8 = {ligature.encode(): letters.encode() for ligature, letters in _LIGATURE_PAIRS}


def strip_controls(text: str) -> str:
    """Remove terminal escape sequences whole and every other control character, keeping tabs
    and newlines (a carriage return is one: alone, it sends the cursor back over what the line
    showed); a lone surrogate becomes U+FFFD, as an undecodable byte does."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x1b" in text or "\x9b" in text:  # searched for alone: 30 times the speed of the pattern
        text = _ESCAPE.sub("", text)
    return without_surrogates(_CONTROL.sub("", text))


def without_surrogates(text: str) -> str:
    """Text any encoder takes: a lone surrogate (a byte of an argument that was not UTF-8, a
    JSON escape) becomes U+FFFD."""
    return _SURROGATE.sub("\ufffd", text) if not text.isascii() else text


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
    # Next most, text broken into lines at single spaces (arXiv's abstracts, indented):
    # a printable text once its line ends are spaces holds no other whitespace (11 -> 3 µs).
    spaced = text.replace("\n", " ").strip(" ")
    if "  " not in spaced and spaced.isprintable():
        return spaced
    # Else its words joined are clean when printable and no control character set them
    # apart, which `strip_controls` would drop rather than read as a space (21 -> 14 µs).
    squashed = squash_whitespace(text)
    if squashed.isprintable() and not any(c in text for c in _SPLITTING_CONTROLS):
        return squashed
    return squash_whitespace(strip_controls(text))


def without_debris(text: str) -> str:
    """Text as it was written before PDF extraction broke it, for reading and search: a soft
    hyphen written `(cid:173)` where a line broke dropped with the space after it
    ("piri(cid:173) form": piriform), a ligature written as its glyph's number beside a
    lower-case letter ("classi(cid:12)cation", "(cid:2)rst") or as a ligature character
    ("eﬃcient") read as its letters. Any other `(cid:N)` stays as written: a number is a letter
    in one font and a symbol in another. The paper keeps its text as written (its id is of
    that)."""
    if "(cid:" in text:
        text = _GLYPH.sub(_glyph, text)
    # Most text is ASCII, told at once; else seven substring searches are 3x faster than
    # one search for a range of characters (3.5 µs an abstract).
    if not text.isascii() and any(ligature in text for ligature in _LIGATURES):
        for ligature, letters in _LIGATURE_PAIRS:  # 25x faster than str.translate here
            text = text.replace(ligature, letters)
    return text


def without_debris_utf8(text: bytes) -> bytes:
    """`without_debris` of UTF-8 text (the index mends a chunk of papers at once)."""
    if b"(cid:" in text:
        text = _GLYPH_UTF8.sub(_glyph_utf8, text)
    if b"\xef\xac" in text:  # the first two bytes of every ligature character
        text = _LIGATURE_UTF8.sub(_ligature_utf8, text)
    return text


def _mended(glyph: str, before: str, after: str) -> str:
    """How a glyph's number reads between the characters `before` and `after`."""
    if glyph.startswith("(cid:173)"):
        return ""
    return _LIGATURE_CODES[glyph] if before in _LOWER or after in _LOWER else glyph


def _glyph(found: re.Match[str]) -> str:
    text, start, end = found.string, found.start(), found.end()
    return _mended(found.group(), text[start - 1 : start], text[end : end + 1])


def _glyph_utf8(found: re.Match[bytes]) -> bytes:
    text, start, end = found.string, found.start(), found.end()
    before, after = text[start - 1 : start], text[end : end + 1]
    return _mended(
        found.group().decode(), before.decode("latin-1"), after.decode("latin-1")
    ).encode()


def _ligature_utf8(found: re.Match[bytes]) -> bytes:
    return _LIGATURES_UTF8[found.group()]


def normalise(text: str) -> str:
    """The form of an abstract that identifies it: compatibility-normalised, clean."""
    return clean(text if text.isascii() else unicodedata.normalize("NFKC", text))  # ASCII: its own
