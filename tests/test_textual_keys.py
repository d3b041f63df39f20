"""Pins the private Textual helpers the reader uses (tui_reader/ui/textual_keys.py): if an
upgrade of Textual changes one, this fails, rather than a key of the reader."""

from typing import Any

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.scroll_view import ScrollView
from textual.widgets import Input

from tests.pilot_helpers import wait_until
from tui_reader.ui.textual_keys import (
    InputKeysFirst,
    SteadyScrollView,
    TextAreaKeysFirst,
    forward_key,
    key_list,
    key_name,
    mounted,
    run_binding,
    tolerate_input_not_utf8,
)


def test_terminal_input_not_utf8_reads_as_a_replacement_character(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The input thread's decoder (linux_driver) read a Latin-1 byte strictly: typed in a
    terminal not set to UTF-8, `é` ended the reader in a traceback."""
    from textual.drivers import linux_driver

    monkeypatch.setattr(linux_driver, "getincrementaldecoder", linux_driver.getincrementaldecoder)
    tolerate_input_not_utf8()
    decode = linux_driver.getincrementaldecoder("utf-8")().decode
    assert decode(b'"caf\xe9"', final=False) + decode(b"\xc3", final=False) == '"caf\ufffd"'
    assert decode(b"\xa9 ok", final=True) == "\u00e9 ok"  # UTF-8 cut between reads: whole


def test_key_names_of_characters() -> None:
    assert [key_name(c) for c in "a/?# "] == [
        "a",
        "slash",
        "question_mark",
        "number_sign",
        "space",
    ]


def test_key_lists_are_named_and_split() -> None:
    assert key_list("?,ctrl+b") == ["question_mark", "ctrl+b"]
    assert key_list("a, f2") == ["a", "f2"]
    assert key_list("/") == ["slash"]


class Keyed(App[None]):
    BINDINGS = [
        Binding("x", "ran('x')"),
        Binding("ctrl+p", "ran('ctrl+p')", priority=True),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.ran: list[str] = []

    def compose(self) -> ComposeResult:
        yield Input()

    def action_ran(self, key: str) -> None:
        self.ran.append(key)


async def test_run_binding_runs_the_binding_of_a_key() -> None:
    app = Keyed()
    async with app.run_test():
        app.set_focus(None)  # an Input with the focus takes printable keys as text
        assert await run_binding(app, "x") is True
        assert await run_binding(app, "y") is False
        assert await run_binding(app, "x", priority=True) is False  # not a priority binding
        assert await run_binding(app, "ctrl+p", priority=True) is True
        assert app.ran == ["x", "ctrl+p"]


async def test_forward_key_types_into_the_widget() -> None:
    app = Keyed()
    async with app.run_test() as pilot:
        field = app.query_one(Input)
        forward_key(field, events.Key("q", "q"))
        await wait_until(pilot, lambda: field.value == "q", "the forwarded key typed")


class Asking(ModalScreen[str]):
    def compose(self) -> ComposeResult:
        yield Input(id="answer")


async def test_mounted_returns_once_a_screen_pushed_for_its_answer_has_its_widgets() -> None:
    app = Keyed()
    async with app.run_test() as pilot:
        dialog = Asking()
        answered: list[str] = []

        async def ask() -> None:
            answered.append(await app.push_screen_wait(dialog))

        app.run_worker(ask())
        await mounted(dialog)
        assert dialog.is_mounted and app.screen is dialog
        assert dialog.query_one("#answer", Input).is_mounted
        dialog.dismiss("yes")
        await wait_until(pilot, lambda: answered == ["yes"], "the answer")


class HoldsX(InputKeysFirst):
    seen: list[str] = []

    async def key_first(self, event: events.Key) -> None:
        self.seen.append(event.key)
        if event.key == "x":
            event.prevent_default()


class HoldsXArea(TextAreaKeysFirst):
    seen: list[str] = []

    async def key_first(self, event: events.Key) -> None:
        self.seen.append(event.key)
        if event.key == "x":
            event.prevent_default()


class Fields(App[None]):
    def compose(self) -> ComposeResult:
        yield HoldsX()
        yield HoldsXArea()


async def test_a_text_field_sees_each_key_first_and_can_keep_it_from_the_widget() -> None:
    app = Fields()
    async with app.run_test() as pilot:
        field, area = app.query_one(HoldsX), app.query_one(HoldsXArea)
        field.seen, area.seen = [], []
        await pilot.press("x", "y")
        app.set_focus(area)
        await pilot.press("x", "y")
        await pilot.pause()
        assert (field.value, field.seen) == ("y", ["x", "y"])
        assert (area.text, area.seen) == ("y", ["x", "y"])


class Rows(SteadyScrollView):
    def on_mount(self) -> None:
        self.virtual_size = Size(10, 100)


class Scrolled(App[None]):
    def compose(self) -> ComposeResult:
        yield Rows()


async def test_a_steady_scroll_view_is_laid_out_again_only_when_its_sizes_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    updated: list[Size] = []
    size_updated = ScrollView._size_updated

    def counted(view: ScrollView, size: Size, *arguments: Any) -> bool:
        updated.append(size)
        return size_updated(view, size, *arguments)

    monkeypatch.setattr(ScrollView, "_size_updated", counted)
    app = Scrolled()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert updated  # Textual tells the view its size through _size_updated
        before = len(updated)
        app.screen.refresh(layout=True)  # a layout that changes nothing
        await pilot.pause()
        assert len(updated) == before
        await pilot.resize_terminal(50, 12)
        await pilot.pause()
        assert len(updated) > before
