"""Dialogs asked one way: an action that asks is a dialog flow, written top to bottom, which
awaits each answer with `ask` (`push_screen_wait` in the flow's worker).

The key that started a flow is done once its first dialog is open (mounted), or once the flow
ended without one, so that the keys sent with it ("t" and a tag) go to that dialog; a key sent
after an answer waits while the flow acts on it (KeyWait, see ordered_keys)."""

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from contextvars import ContextVar
from functools import wraps
from typing import Any, Protocol, TypeVar

from textual.app import App
from textual.screen import Screen
from textual.worker import Worker

from tui_reader.ui.ordered_keys import KeyWait
from tui_reader.ui.textual_keys import mounted

T = TypeVar("T")


class Asker(Protocol):
    """A screen whose actions are dialog flows."""

    key_wait: KeyWait  # shared with the main screen: the keys wait on the app's one

    @property
    def app(self) -> App[Any]: ...

    def run_worker(
        self, work: Coroutine[Any, Any, None], name: str | None = "", group: str = "default"
    ) -> Worker[None]: ...


S = TypeVar("S", bound=Asker)

# Set by a dialog flow's first dialog once it is open (see `dialog_flow`).
_dialog_open: ContextVar[asyncio.Event] = ContextVar("dialog_open")


def dialog_flow(
    flow: Callable[..., Coroutine[Any, Any, None]],
) -> Callable[..., Awaitable[None]]:
    """An action of the screen a flow takes first: it runs the flow as a worker, and is done
    once the flow's first dialog is open, or once it ended without one."""

    @wraps(flow)
    async def action(screen: Asker, *arguments: object) -> None:
        opened, key_wait = asyncio.Event(), screen.key_wait
        asked_before = key_wait.asked

        async def run() -> None:
            token = _dialog_open.set(opened)
            try:
                await flow(screen, *arguments)
            finally:
                # Asked from another flow's dialog (triage's tags): that one is asked again.
                open_before = asked_before in screen.app.screen_stack
                key_wait.asked = asked_before if open_before else None
                key_wait.look_again()
                _dialog_open.reset(token)
                opened.set()  # it ended without a dialog

        screen.run_worker(run(), name=flow.__name__, group="dialog")
        await opened.wait()  # the worker's task runs on its own: it gets here

    return action


async def ask(screen: Asker, dialog: Screen[T]) -> T:
    """Open a dialog over the screen and wait for its answer, in a `dialog_flow`. Notices are
    about what came before: they would show over the dialog, so they go."""
    app, key_wait = screen.app, screen.key_wait
    app.clear_notifications()
    key_wait.asked = dialog
    answer = asyncio.ensure_future(app.push_screen_wait(dialog))
    opening = asyncio.ensure_future(mounted(dialog))
    await asyncio.wait((answer, opening), return_when=asyncio.FIRST_COMPLETED)
    opening.cancel()  # the dialog could not be opened: `answer` says why
    key_wait.look_again()
    if (opened := _dialog_open.get(None)) is not None:
        opened.set()
    return await answer
