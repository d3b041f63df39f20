"""Keys act in the order they were sent, where they were meant to go.

Textual types a printable key where it arrives, but runs a key's binding either as it reaches
the app (priority bindings) or once it has bubbled from the focused widget back up to the app.
Keys sent in one burst (a paste, `tmux send-keys`, a fast typist) were passed on before the
keys ahead of them had acted: a paste after Ctrl+U was wiped by it ("old", Ctrl+U, "agent" left
the filter empty; Textual issue 6605), and letters sent with "t" went to the list the tag
editor was opening over. Here every key is looked up, with the app's own lookup, only once the
keys before it have acted: what runs is unchanged, only when.
"""

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import Any

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, TextArea

from tui_reader.ui.textual_keys import (
    InputKeysFirst,
    TextAreaKeysFirst,
    forward_key,
    key_name,
    run_binding,
)


def keys_sent(event: events.Key, bound: Iterable[str]) -> list[events.Key]:
    """The keys a key event stands for. A terminal sends Alt+j as Escape then j, so Escape
    and a letter sent in one burst ("Escape j": leave the filter, then down) read as Alt+j,
    and the j was lost: an Alt key of a printable character (not Alt+Backspace, which deletes
    a word) that the `bound` keys do not name is the two keys."""
    name, character = event.key, event.character or ""
    printable = len(character) == 1 and character.isprintable()
    if not name.startswith("alt+") or name in bound or not printable:
        return [event]
    return [events.Key("escape", "\x1b"), events.Key(key_name(character), character)]


async def route_key(app: App[Any], event: events.Key) -> bool:
    """Take a key as it reaches the app; False leaves it to Textual.

    An `OrderedInput` with the focus gets every key, in the order sent, and looks each up in
    its turn. Elsewhere a key's binding runs now: an action that opens a dialog is awaited
    until the dialog has the focus, so the keys after it go there."""
    app.app_focus = True  # as Textual does for a key
    focused = app.focused
    if isinstance(focused, (OrderedInput, OrderedTextArea)):
        forward_key(focused, event)
        return True
    if isinstance(focused, (Input, TextArea)):
        return False  # another text field (the command palette's): as Textual does
    dialog = app.screen if isinstance(app.screen, GivesWayToTyping) else None
    if dialog is not None and dialog.typed_below(event):
        await dialog.dismiss()
        return await route_key(app, event)
    if await run_binding(app, event.key, priority=True) or await run_binding(app, event.key):
        return True
    if dialog is not None:  # a key it has no use for: closed, and on
        await dialog.dismiss()
        return await route_key(app, event)
    return False


class KeyWait:
    """A key waits for what the keys sent before it started to be done, so that it acts
    where they left it; the screen goes on drawing meanwhile. It looks again when told that
    what it waits for may have come (a flow asked or ended, results came, the query, the
    focus or the screens changed), never on a clock."""

    def __init__(self) -> None:
        self._told = asyncio.Event()
        self.asked: Screen[Any] | None = None  # the dialog a flow asked last, until it ends

    async def caught_up(
        self, app: App[Any], results_due: Callable[[], bool], flow_wait: float, most: float
    ) -> bool:
        """Wait for a dialog flow acting on an answer (its dialog closed, and it has neither
        asked the next nor ended): "T Enter j" moves in a tag's papers; at most `flow_wait`
        seconds. Then for the results of the query typed, while `results_due()`: "regret
        Enter j j" moves in them; whether they came within `most` seconds."""

        def flow_caught_up() -> bool:
            return self.asked is None or self.asked in app.screen_stack

        if not await self.until(flow_caught_up, flow_wait):
            self.asked = None  # a flow held up: the keys after this one wait no more
            return True
        return await self.until(lambda: not results_due(), most)

    def look_again(self) -> None:
        """Tell the waiting key to look again."""
        self._told.set()

    async def until(self, done: Callable[[], bool], most: float) -> bool:
        """Whether `done()` holds within `most` seconds, looked at each time told."""
        deadline = time.monotonic() + most
        while not done():
            self._told.clear()
            try:
                await asyncio.wait_for(self._told.wait(), deadline - time.monotonic())
            except asyncio.TimeoutError:  # not TimeoutError before Python 3.11
                return done()
        return True


class GivesWayToTyping(ModalScreen[None]):
    """A dialog that opens unasked (the problems at start): a key it has no use for closes
    it and acts where the reader was, so what was typed while it opened is not lost; and
    while the reader was typing in a text field, any character does, its own keys too
    ("q" closes it, "j" scrolls it: "quantum" lost its "q")."""

    def typed_below(self, event: events.Key) -> bool:
        """Whether the key is a character typed into the text field under the dialog."""
        stack = self.app.screen_stack
        below = stack[-2].focused if len(stack) > 1 and stack[-1] is self else None
        return event.is_printable and isinstance(below, (Input, TextArea))


async def _in_turn(field: Input | TextArea, event: events.Key) -> None:
    """Look a key up for a text field, once the keys sent before it have acted."""
    app = field.app
    if app.focused is not field:
        # Sent with a key that took the focus away (Escape, then "j" for the list; Ctrl+S
        # closing the note): it was passed here before that key acted, and goes where the
        # focus went.
        app.post_message(events.Key(event.key, event.character))
    elif await run_binding(app, event.key, priority=True):
        pass
    elif field.check_consume_key(event.key, event.character):
        return  # typed text: the field's own handler inserts it
    elif not await run_binding(app, event.key):
        return  # not bound: on to the field's handler, then up to the app
    event.stop()
    event.prevent_default()  # the field's handlers are done with it


class OrderedInput(InputKeysFirst):
    """An Input that looks up each key once the keys sent before it have acted."""

    BINDINGS = [Binding("right", "complete_or_right", "Accept the completion", show=False)]

    async def key_first(self, event: events.Key) -> None:
        await _in_turn(self, event)

    async def action_complete_or_right(self) -> None:
        """Accept the completion at the end of the text, else move right."""
        if not await self.complete():
            self.action_cursor_right()

    async def complete(self) -> bool:
        """Accept the completion at the end of the text, if there is one. Textual looks for
        a completion in a worker after each key, so a → sent with the keys before it
        ("t be →") came before the completion did: it is asked for here, in its turn."""
        suggester, value = self.suggester, self.value
        if suggester is not None and self.cursor_at_end and self.selection.is_empty:
            asked = value if suggester.case_sensitive else value.casefold()
            suggestion = await suggester.get_suggestion(asked)
            if suggestion is not None and len(suggestion) > len(value):
                self.value = suggestion
                self.cursor_position = len(suggestion)
                return True
        return False


class OrderedTextArea(TextAreaKeysFirst):
    """A TextArea that looks up each key once the keys sent before it have acted."""

    async def key_first(self, event: events.Key) -> None:
        await _in_turn(self, event)
