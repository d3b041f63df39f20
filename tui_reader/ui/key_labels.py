"""How keys are named to the reader: in the footer, help, the palette and notices."""

from collections.abc import Mapping, Sequence
from typing import Any

from textual.app import App
from textual.binding import Binding, BindingType


def described(bindings: Sequence[BindingType]) -> list[Binding]:
    """The bindings a reader is told about: those with a description."""
    return [b for b in bindings if isinstance(b, Binding) and b.description]


def key_display(app: App[Any], keys: Mapping[str, str], binding: Binding) -> str:
    """The keys of a binding as the footer shows them, after the config's rebinding (`keys`:
    binding id to keys)."""
    chosen = keys.get(binding.id or "", binding.key)
    return " ".join(app.get_key_display(Binding(key.strip(), "")) for key in chosen.split(","))
