"""Keys the user rebinds in the config file, checked against the bindings the reader has."""

from collections.abc import Mapping

from textual.binding import Binding
from textual.keys import Keys, _character_to_key, _normalize_key_list, key_to_character

from tui_reader.ui.app import ReaderApp
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.paper_list import PaperList

_MODIFIERS = {"ctrl", "shift", "alt", "super", "meta", "hyper"}
# Named keys (f2, pagedown) and printable characters by their names (slash, less_than_sign),
# which key_to_character alone misses for some ("slash" is U+002F SOLIDUS).
_NAMED_KEYS = {key.value for key in Keys} | {_character_to_key(chr(c)) for c in range(32, 127)}


# The keys in effect where the list, or the detail pane, has the focus: its own and the app's.
_CONTEXTS = (
    [*ReaderApp.BINDINGS, *PaperList.BINDINGS],
    [*ReaderApp.BINDINGS, *DetailPane.BINDINGS],
)


def binding_ids() -> set[str]:
    """The actions a config file may rebind, by the id of their binding."""
    return {b.id for context in _CONTEXTS for b in context if isinstance(b, Binding) and b.id}


def keys_taken(keys: Mapping[str, str]) -> list[str]:
    """Actions left without a key in the list or the detail pane, because a rebinding took
    the only keys they had there."""
    lost: dict[str, None] = {}
    for context in _CONTEXTS:
        bindings = [b for b in context if isinstance(b, Binding)]
        taken = {
            key
            for b in bindings
            if b.id in keys
            for key in _normalize_key_list(keys[b.id]).split(",")
        }
        for binding in bindings:
            if binding.id in keys or not binding.description:
                continue
            if set(_normalize_key_list(binding.key).split(",")) <= taken:
                lost[binding.description] = None
    return list(lost)


def is_key(key: str) -> bool:
    """A key as Textual names it: "b", "B", "f2", "ctrl+b", "slash", "question_mark", "?"."""
    *modifiers, name = key.split("+")
    if not name or not set(modifiers) <= _MODIFIERS:
        return False
    return name in _NAMED_KEYS or key_to_character(name) is not None


def check_keys(binding_id: str, keys: str) -> str | None:
    """What is wrong with rebinding `binding_id` to `keys` ("ctrl+b,f2"), or None."""
    if binding_id not in binding_ids():
        return "no such action (the README lists them)"
    bad = [key for key in keys.split(",") if not is_key(key.strip())]
    if bad:
        return f"{', '.join(map(repr, bad))} is not a key name"
    return None
