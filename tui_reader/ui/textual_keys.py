"""Textual's private helpers and the private methods the reader overrides, behind one door:
tests/test_textual_keys.py pins what the reader relies on, so a Textual upgrade that changes
them fails there, not in a key."""

import codecs
from functools import partial
from typing import Any

from textual import events
from textual.app import App
from textual.geometry import Size
from textual.keys import _character_to_key, _normalize_key_list
from textual.scroll_view import ScrollView
from textual.widget import Widget
from textual.widgets import Input, TextArea


def tolerate_input_not_utf8() -> None:
    """Read the terminal's input with a byte not UTF-8 (typed in a Latin-1 terminal, pasted)
    as U+FFFD: Textual's input thread decodes strictly, and such a byte ended the reader in
    a traceback. (Windows' driver reads keys as characters: nothing to do there.)"""
    try:
        from textual.drivers import linux_driver
    except ImportError:  # no termios: Windows
        return

    def decoder(encoding: str) -> partial[codecs.IncrementalDecoder]:
        return partial(codecs.getincrementaldecoder(encoding), errors="replace")

    linux_driver.getincrementaldecoder = decoder  # type: ignore[attr-defined,assignment]


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


async def mounted(widget: Widget) -> None:
    """Return once `widget` is mounted (a screen just pushed: its widgets composed and
    mounted), as awaiting `push_screen` does; `push_screen_wait` waits for its answer only."""
    await widget._mounted_event.wait()


# Textual calls a Key event's handler of each class along the method resolution order, the
# widget's own (`Input._on_key`, `TextArea._on_key`) after those of its subclasses, unless
# one prevents the default.


class InputKeysFirst(Input):
    """An Input that sees each key in `key_first` before Input's own handler does."""

    async def _on_key(self, event: events.Key) -> None:
        await self.key_first(event)

    async def key_first(self, event: events.Key) -> None:
        """Look at a key; `event.prevent_default()` keeps it from Input's handler."""


class TextAreaKeysFirst(TextArea):
    """A TextArea that sees each key in `key_first` before TextArea's own handler does."""

    async def _on_key(self, event: events.Key) -> None:
        await self.key_first(event)

    async def key_first(self, event: events.Key) -> None:
        """Look at a key; `event.prevent_default()` keeps it from TextArea's handler."""


class SteadyScrollView(ScrollView):
    """A ScrollView that is laid out again only when its size, its container's or its
    virtual size changed. Textual's compares the region the compositor gives it with the
    virtual size, which differ whenever the content outnumbers the rows: any layout of the
    screen (each key of the filter makes one) redrew the scrollbar in a frame of its own."""

    _geometry: tuple[Size, Size, Size] | None = None  # as last laid out

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        geometry = (size, container_size, self.virtual_size)
        if geometry == self._geometry:
            return False
        self._geometry = geometry
        return super()._size_updated(size, virtual_size, container_size, layout)
