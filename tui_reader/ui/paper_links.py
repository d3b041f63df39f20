"""A paper's links: copied, opened in a browser, and what was copied shown again."""

from collections.abc import Callable, Sequence

from textual.widget import Widget

from tui_reader.core.browser import open_in_browser
from tui_reader.core.paper import Paper
from tui_reader.core.references import links_of
from tui_reader.core.wording import count
from tui_reader.ui.clipboard import CopyLog, notice
from tui_reader.ui.copied_screen import CopiedScreen
from tui_reader.ui.notices import tell


class PaperLinks:
    """Copies and opens papers' links, saying so; a paper copied from or opened is `used`."""

    def __init__(
        self,
        screen: Widget,
        copy_log: CopyLog,
        search_template: str,
        show_copied_key: Callable[[], str],
        used: Callable[[Sequence[Paper]], None],
    ) -> None:
        """`show_copied_key()`: the key that shows what was copied, as the config binds it,
        named in each copy's notice."""
        self._screen, self._copy_log, self._template = screen, copy_log, search_template
        self._show_copied_key, self._used = show_copied_key, used

    def of(self, paper: Paper) -> list[str]:
        """The paper's links, its own first, else a search for it."""
        return links_of(paper, self._template)

    def copy(self, text: str, what: str, warning: str = "") -> None:
        """Copy text holding `what` ("3 links"); say so, after the `warning` when there is one."""
        said = notice(self._copy_log.copy(text, what), self._show_copied_key())
        if warning:
            tell(self._screen.app, f"{warning} {said}", "warning")
        else:
            tell(self._screen.app, said)

    def copy_first(self, papers: Sequence[Paper]) -> None:
        """Copy each paper's first link."""
        self.copy("\n".join(self.of(paper)[0] for paper in papers), count(len(papers), "link"))
        self._used(papers)

    def open(self, paper: Paper, number: int) -> None:
        """Open the paper's link `number` (from 1), if it has one."""
        if 1 <= number <= len(links := self.of(paper)):
            self.open_url(links[number - 1])
            self._used([paper])

    def open_url(self, url: str) -> None:
        """Open `url` in a browser; copy it when there is none to open."""
        if reason := open_in_browser(url):
            self.copy(url, "1 link", warning=f"Not opening a browser: {reason}.")
        else:
            tell(self._screen.app, f"Opened {url}")

    def show_copied(self) -> None:
        """Show every copy of the session."""
        self._screen.app.push_screen(CopiedScreen(self._copy_log, self._show_copied_key()))
