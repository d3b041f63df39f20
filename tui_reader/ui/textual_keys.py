"""Textual's private key helpers, behind one door: tests/test_textual_keys.py pins what the
reader relies on, so a Textual upgrade that changes them fails there, not in a key."""

from typing import Any

from textual import events
from textual.app import App
from textual.keys import _character_to_key, _normalize_key_list
from textual.widget import Widget


def key_name(character: str) -> str:
    """The name Textual gives the key of a character: "/" is "slash", "a" is "a"."""
    return _character_to_key(character)


def key_list(keys: str) -> list[str]:
    """A binding's keys ("?,ctrl+b") as Textual names them (["question_mark", "ctrl+b"])."""
    return _normalize_key_list(keys).split(",")


async def run_binding(app: App[Any], key: str, *, priority: bool = False) -> bool:
    """Run the binding of `key` where the focus is, as Textual does for a key that reaches
    the app (only the priority bindings when `priority`); whether one ran."""
    return await app._check_bindings(key, priority=priority)


def forward_key(target: Widget, event: events.Key) -> None:
    """Hand a key to a widget to handle as its own, as Textual does for the focused one."""
    target._forward_event(event)
