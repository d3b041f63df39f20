"""The library's saves and reloads, and whether its changes are saved: one object the app owns,
which every screen that changes the library uses, so that a failure is told once, and the
header and a quit know of it, wherever the change was made."""

import asyncio
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.signal import Signal
from textual.worker import Worker

from tui_reader.core.library import Library, LibraryError
from tui_reader.ui.notices import tell


class LibrarySync:
    """Writes the library's changes and reads those of other programs, in threads, and tells
    how that went; `synced` is published after each save, and each reload that found a
    change, for the screens that show the library to draw it again: with True when the
    library may hold what they do not show yet (others' changes taken in, citation keys
    given), False after a save that only wrote this program's changes."""

    def __init__(self, library: Library, app: App[Any]) -> None:
        self.library = library
        self._app = app
        self.failing = False  # the last save failed: said once, until one succeeds
        self.synced: Signal[bool] = Signal(app, "library-synced")
        self._reloading: Worker[None] | None = None

    @property
    def saving(self) -> bool:
        """Whether changes wait to be written, or are being written."""
        return self.library.has_unsaved_changes or self.library.saving

    @property
    def losing_changes(self) -> bool:
        """Whether a quit now loses changes: they could not be written."""
        return self.failing and self.library.has_unsaved_changes

    def save(self) -> None:
        """Write the changes in the background."""
        self._app.run_worker(
            self.written(self.library.save, changes=False), name="save", group="save"
        )

    async def written(self, write: Callable[[], list[str]], changes: bool = True) -> None:
        """Run `write` in a thread: a save, or a change that saves at once (citation keys:
        `changes`); tell what it found on disk, or that it failed."""
        taken_in = self.library.taken_in
        try:
            messages = await asyncio.to_thread(write)
        except LibraryError as error:
            if not self.failing:  # told once: a failing disk fails every save
                self.failing = True
                warning = f"Changes cannot be saved ({error}); they are kept for this session."
                tell(self._app, warning, "warning")
        else:
            for message in messages:
                tell(self._app, message, "error")
            if self.failing:
                self.failing = False
                tell(self._app, f"Saved again to {self.library.path}")
        self.synced.publish(changes or self.library.taken_in != taken_in)

    def reload(self) -> None:
        """Read in what other programs saved, unless the last look is still at it (a file
        held by another program's lock)."""
        if self._reloading is None or self._reloading.is_finished:
            self._reloading = self._app.run_worker(self._reload(), name="reload", group="reload")

    async def _reload(self) -> None:
        changes = await asyncio.to_thread(self.library.reload_if_changed)
        for message in changes.messages:  # a damaged file mended, entries kept aside
            tell(self._app, message, "error")
        if changes.changed or changes.messages:
            self.synced.publish(True)
