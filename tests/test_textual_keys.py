"""Pins the private Textual helpers the reader uses (tui_reader/ui/textual_keys.py): if an
upgrade of Textual changes one, this fails, rather than a key of the reader."""

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Input

from tests.pilot_helpers import wait_until
from tui_reader.ui.textual_keys import forward_key, key_list, key_name, run_binding


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
