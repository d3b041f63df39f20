"""The keys and theme a config file chooses, checked against what the reader has."""

from collections.abc import Mapping, Sequence

from textual.binding import Binding, BindingType
from textual.keys import Keys, key_to_character
from textual.theme import BUILTIN_THEMES
from textual.widgets import OptionList

from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.feeds_screen import FeedsScreen
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.picker_list import PickerList
from tui_reader.ui.textual_keys import key_list, key_name
from tui_reader.ui.workspace_keys import WORKSPACE_BINDINGS

_MODIFIERS = {"ctrl", "shift", "alt", "super", "meta", "hyper"}
# Named keys (f2, pagedown) and printable characters by their names (slash, less_than_sign),
# which key_to_character alone misses for some ("slash" is U+002F SOLIDUS).
_NAMED_KEYS = {key.value for key in Keys} | {key_name(chr(c)) for c in range(32, 127)}


# The keys in effect where the list, or the detail pane, has the focus: its own and the screen's.
_CONTEXTS = (
    [*WORKSPACE_BINDINGS, *PaperList.BINDINGS],
    [*WORKSPACE_BINDINGS, *DetailPane.BINDINGS],
)
# The same, named, after the screen's own keys, which apply everywhere.
_NAMED_CONTEXTS: tuple[tuple[str, Sequence[BindingType]], ...] = (
    ("app-wide", WORKSPACE_BINDINGS),
    ("in the paper list", _CONTEXTS[0]),
    ("in the detail pane", _CONTEXTS[1]),
    # Its undo is the reader's, rebound with it.
    (
        "in the saved searches panel",
        [*FeedsScreen.BINDINGS, *PickerList.BINDINGS, *OptionList.BINDINGS],
    ),
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
            if b.id is not None and b.id in keys
            for key in key_list(keys[b.id])
        }
        for binding in bindings:
            if binding.id in keys or not binding.description:
                continue
            if set(key_list(binding.key)) <= taken:
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


def _and(names: Sequence[str]) -> str:
    return f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]


def key_conflicts(keys: Mapping[str, str]) -> list[tuple[str, str]]:
    """Each key that a rebinding gives to two actions in one place (app-wide, the list, the
    detail pane), where only one of them can have it: (the binding id to blame, the last
    rebinding involved in the file's order; what is wrong)."""
    lost = set(keys_taken(keys))
    order = list(keys)
    found: dict[tuple[str, frozenset[str]], tuple[str, str]] = {}
    for where, context in _NAMED_CONTEXTS:
        holders: dict[str, list[Binding]] = {}
        for binding in context:
            if isinstance(binding, Binding) and binding.description:
                chosen = keys.get(binding.id or "", binding.key)
                for key in key_list(chosen):
                    holders.setdefault(key, []).append(binding)
        for key, bindings in holders.items():
            names = list(dict.fromkeys(b.description for b in bindings))
            rebound = [b.id for b in bindings if b.id is not None and b.id in keys]
            if len(names) < 2 or not rebound or (key, frozenset(names)) in found:
                continue
            both = "both " if len(names) == 2 else ""
            what = f"{key!r} is the key of {both}{_and(names)} {where}, but only one can have it"
            if left := [name for name in names if name in lost]:
                what += f"; {_and(left)} {'has' if len(left) == 1 else 'have'} no other key"
            found[key, frozenset(names)] = (max(rebound, key=order.index), what)
    return list(found.values())


def theme_problem(name: str) -> str | None:
    """What is wrong with a theme's name, or None."""
    if name in BUILTIN_THEMES:
        return None
    return f"there is no theme {name!r}; try {', '.join(sorted(BUILTIN_THEMES))}"
