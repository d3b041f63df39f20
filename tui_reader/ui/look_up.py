"""Finding the real paper behind abstracts that have no title, online (OpenReview, arXiv), in
a thread worker of the screen that posts `PapersResolved`; the screen going stops it between
papers."""

import threading
from collections.abc import Mapping, Sequence

from textual.notifications import SeverityLevel
from textual.widget import Widget

from tui_reader.core.library import Library, LibraryError
from tui_reader.core.paper import Paper
from tui_reader.core.resolve import resolve_online, with_resolutions
from tui_reader.core.store import PaperStore
from tui_reader.core.wording import count
from tui_reader.ui.messages import PapersResolved


class LookUp:
    """Looks papers up by their text; one found for certain gets its title, authors and
    links, in the library and in the store."""

    def __init__(
        self, screen: Widget, store: PaperStore, library: Library, sources: Mapping[str, str]
    ) -> None:
        """`sources`: the config's [sources], where to look."""
        self._screen, self._store, self._library, self._sources = screen, store, library, sources
        self._stop = threading.Event()

    def start(self, papers: Sequence[Paper]) -> None:
        """Look the papers up in the background."""
        self._screen.run_worker(
            lambda: self._look_up(list(papers)),
            name="look up",
            group="resolve",
            thread=True,
            exclusive=True,
        )

    def stop(self) -> None:
        """Stop looking, before the next paper."""
        self._stop.set()

    def found(self, resolved: PapersResolved) -> list[tuple[str, SeverityLevel]]:
        """Show what a look-up found for certain in the store; what to say of it."""
        store = self._store
        found = [paper for i in resolved.found if (paper := store.get(i)) is not None]
        store.revise(with_resolutions(found, self._library))
        if resolved.problem:
            return [(f"Stopped looking up: {resolved.problem}", "warning")]
        if not resolved.looked_up:
            return []
        said = f"Found {count(len(found), 'paper')} for certain"
        if unsure := resolved.looked_up - len(found):
            said += f"; {count(unsure, 'paper')} had no certain match"
        return [(said, "information")]

    def _look_up(self, papers: list[Paper]) -> None:
        # Here, not at the top: the HTTP client would slow the reader's start.
        from tui_reader.core.sources.polite import FetchError

        try:
            outcome = resolve_online(
                papers, self._library, self._sources, again=True, stop=self._stop
            )
        except (FetchError, LibraryError) as error:
            self._screen.post_message(PapersResolved([], 0, str(error)))
        else:
            self._screen.post_message(PapersResolved(outcome.found, outcome.looked_up))
