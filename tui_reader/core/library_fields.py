"""The fields of a paper's entry in the library, in one table: each one's value when never set,
whose type is the type every value of it must have.

Each field is stamped with the time it last changed (`NAME_at`), journaled and merged like the
others, the later change winning; tags are stamped each on its own, when added (`tags`) or
removed (`removed_tags`). A field is added with one row here; the version stays 1: a file
without it reads as it did, and an older tui-reader keeps a field it does not know.
"""

import unicodedata
from typing import Any

Entries = dict[str, dict[str, Any]]  # paper id (or a saved search's name) -> its entry

# `resolved`: the title, authors and links `tui-reader resolve` found for the paper (core.resolve);
# `citekey`: its citation key (core.citation_keys).
DEFAULTS: dict[str, Any] = {
    "bookmarked": False, "read": False, "note": "", "resolved": {}, "citekey": "",
}  # fmt: skip
VALUE_TYPES: dict[str, type] = {name: type(value) for name, value in DEFAULTS.items()}
FIELDS = tuple(DEFAULTS)
STAMP_OF = {name: f"{name}_at" for name in FIELDS}
TIME_FIELDS = tuple(STAMP_OF.values())
TAG_FIELDS = ("tags", "removed_tags")


def stored_tag(text: str) -> str:
    """A tag as stored: lower case, and composed (NFC), so that an accent typed as a letter
    and a combining mark is the same tag as the accented letter, as typed or as another
    program wrote it."""
    return unicodedata.normalize("NFC", text.strip().lower())
