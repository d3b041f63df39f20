"""The reader: what is app-wide (settings, theme, keys, where the reader left off); the
papers are read on its main screen (ui/workspace)."""

from collections.abc import Iterable
from functools import partial
from typing import Any

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen

from tui_reader import startup
from tui_reader.core.config import Config
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.session import Session
from tui_reader.core.text import for_terminal
from tui_reader.resources import bundled
from tui_reader.ui.clipboard import CopyLog
from tui_reader.ui.key_labels import key_display
from tui_reader.ui.library_sync import LibrarySync
from tui_reader.ui.loader import Loader
from tui_reader.ui.messages import CacheDamaged
from tui_reader.ui.notices import tell
from tui_reader.ui.ordered_keys import keys_sent, route_key
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.timings import Timings
from tui_reader.ui.workspace import Workspace
from tui_reader.ui.workspace_keys import APP_BINDINGS

READ_AFTER = Config().read_after  # seconds to read a paper, for a reader given no config


class ReaderApp(App[None]):
    """Filter, read and triage research-paper abstracts."""

    CSS_PATH = bundled("styles") / "app.tcss"
    BINDINGS = APP_BINDINGS
    TITLE = "tui-reader"

    def __init__(
        self,
        opening: Opening,
        library: Library | None = None,
        config: Config | None = None,
        *,
        timings: Timings | None = None,
    ) -> None:
        """`opening`: the papers and what comes with them (core.opening), where the reader
        left off among them; `config`, the user's settings (its keys already checked, the
        search link to use as its `search_url`); `timings`, how long the reader waits before
        it acts (ui/timings)."""
        super().__init__()
        self.config = config or Config(read_after=READ_AFTER)
        self.set_keymap(dict(self.config.keys))
        # The keys the config binds: an Alt key among them is itself, not Escape and a key.
        self._configured_keys = {
            key.strip() for keys in self.config.keys.values() for key in keys.split(",")
        } - {""}
        self.store = opening.store
        self.library = library or Library(None)
        # Saves and reloads the library for every screen, and knows whether it is saved.
        self.library_sync = LibrarySync(self.library, self)
        self._session = opening.session
        self._configured_theme = self.theme  # Textual's, or the config's (on_mount)
        self.copy_log = CopyLog(self)  # copies, and what was copied this session
        timings = timings or Timings()
        loader = Loader(
            opening.store,
            timings,
            stream=opening.stream,
            expected_papers=opening.expected,
            cached_index=opening.index,
            cache_index=opening.cache_writer,
            skipped=opening.skipped,
            duplicates=opening.duplicates,
            new=opening.new,
            kept=opening.kept,
        )
        self.workspace = Workspace(
            loader,
            self.library_sync,
            self.config,
            self.copy_log,
            messages=opening.messages,
            session=opening.session,
            collection=opening.collection,
            opened_files=opening.files,
            timings=timings,
        )

    def get_default_screen(self) -> Screen[Any]:
        return self.workspace

    def on_mount(self) -> None:
        self.call_after_refresh(startup.release_collector)  # held while the reader started
        # The config's theme, unless one was chosen in the app since (the session has it).
        # (A theme that does not exist was named, with its line, when the config was read.)
        if (theme := self.config.theme) and theme in self.available_themes:
            self.theme = self._configured_theme = theme
        chosen = self._session.chosen_theme if self._session else ""
        if chosen and chosen in self.available_themes:
            self.theme = chosen

    async def on_event(self, event: events.Event) -> None:
        # Every key acts after the keys sent before it, where they left the focus (see
        # ordered_keys): "t" and a tag, "old" Ctrl+U "agent", Enter and "j" in one burst.
        if not isinstance(event, events.Key) or event.is_forwarded:
            await super().on_event(event)
            return
        # Only on the main screen: in a dialog, Escape cancels what was typed, and the key
        # after it would act on the list ("Alt+u" in a prompt: cancelled, then undo).
        on_main = self.screen is self.workspace
        for key in keys_sent(event, self._configured_keys) if on_main else [event]:
            await self.workspace.keys_caught_up()
            if not self.screen_stack:  # the reader closed while the key waited: dropped
                return
            if not await route_key(self, key):
                await super().on_event(key)

    async def action_quit(self) -> None:
        """Ctrl+Q quits as q does: asking first when changes could not be saved."""
        await self.workspace.action_quit()

    @on(CacheDamaged)
    def _cache_damaged(self, message: CacheDamaged) -> None:
        tell(self, message.told, "warning")

    def session(self) -> Session:
        """Where the reader is (or was, once it has quit), to be restored next time."""
        chosen = self.theme if self.theme != self._configured_theme else ""
        return self.workspace.session(chosen)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notice, whoever gives it: what it quotes (a paper's headline, a server's
        answer) never brings a control character to the terminal."""
        super().notify(
            for_terminal(message),
            title=for_terminal(title),
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette (Ctrl+P) offers every action of the reader, with its key, and
        those of Textual's commands the reader has no action of the same name for."""
        ours: list[SystemCommand] = []
        workspace = self.workspace
        owners = ((workspace, workspace.BINDINGS), (workspace.paper_list, PaperList.BINDINGS))
        for owner, bindings in owners if screen is workspace else ():
            for binding in bindings:
                if not isinstance(binding, Binding) or not binding.description:
                    continue
                run = partial(owner.run_action, binding.action)
                keys = key_display(self, self.config.keys, binding)
                ours.append(SystemCommand(binding.description, f"key: {keys}", run))
        named = {command.title for command in ours}
        yield from (c for c in super().get_system_commands(screen) if c.title not in named)
        yield from ours
