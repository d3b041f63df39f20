"""The detail pane: the whole of the paper under the cursor."""

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.style import Style
from textual.widgets import Static

from tui_reader.core.highlight import Highlight
from tui_reader.core.latex_text import unicode_text
from tui_reader.core.library import Library
from tui_reader.core.paper import Paper
from tui_reader.core.references import links_of
from tui_reader.core.text import displayed, for_terminal
from tui_reader.ui.messages import RelatedFound, WhyFound
from tui_reader.ui.typeset_text import typeset_content

LINK_SHOWN = 72
MEASURE = 100  # cells: the body's max-width in styles/app.tcss, a readable line
# Readable in light and dark themes alike: the theme's text on a tint of its accent.
MATCH_STYLE = "bold underline $foreground on $accent-muted"
# The matches drawn in a paper: each is a copy of the text's styles, so thousands (a hostile
# abstract of one word repeated) took seconds.
MOST_MATCHES = 500
# Characters of an abstract shown: more than the longest real abstracts hold. A huge one (odd
# input) held the screen for minutes while it was typeset and wrapped.
ABSTRACT_SHOWN = 20_000
LINKS_SHOWN = 50  # the first of the abstract's links, by number


def _metadata_lines(paper: Paper, raw: bool) -> list[str | tuple[str, str]]:
    """The lines of what is known about a paper beyond its text: authors (their LaTeX read
    as letters unless `raw`), venue and date (or year), arXiv id with version, DOI,
    categories; none for a paper that has none. The date and the categories are what
    `after:`, `before:` and `cat:` filter on."""
    lines = []
    if authors := ", ".join(paper.authors):
        lines.append(authors if raw else unicode_text(authors))  # Fran\c{c}ois: François
    year = str(paper.year) if paper.year and str(paper.year) not in paper.venue else ""
    if published := " ".join(part for part in (paper.venue, paper.published or year) if part):
        lines.append(published)
    if paper.arxiv_id:
        version = f"v{paper.arxiv_version}" if paper.arxiv_version else ""
        lines.append(f"arXiv {paper.arxiv_id}{version}")
    if paper.doi:
        lines.append(f"DOI {paper.doi}")
    if paper.categories:
        lines.append(" · ".join(paper.categories))
    parts: list[str | tuple[str, str]] = []
    for line in lines:
        parts += [(line, "dim"), "\n"]
    return parts


def paper_content(
    paper: Paper,
    library: Library,
    links: list[str],
    related: Sequence[Paper] = (),
    raw: bool = False,
    link_width: int = LINK_SHOWN,  # cells for a link or a related headline, one line each
    why: str = "",
) -> Content:
    """A paper as the detail pane shows it; its text is data and never parsed as markup.

    Its math and emphasis are typeset unless `raw` asks for the text as written; `why`, a line
    under its state: why the for-you order recommends it."""
    state = ["★ bookmarked" if library.is_bookmarked(paper.id) else ""]
    state.append("read" if library.is_read(paper.id) else "unread")
    state += [f"#{tag}" for tag in library.tags(paper.id)]
    parts: list[Content | str | tuple[str, str]] = [
        typeset_content(paper.headline, raw).stylize_before("bold"),
        "\n",
        (f"{paper.collection} · {displayed(paper.source.name)}", "dim"),
        "\n",
        (f"id {paper.id}", "dim"),
        "\n",
        *_metadata_lines(paper, raw),
        ("  ".join(item for item in state if item), "italic"),
    ]
    if why:
        parts += ["\n", (why, "bold $text-accent")]
    parts += ["\n\n", typeset_content(paper.abstract[:ABSTRACT_SHOWN], raw)]
    if (left := len(paper.abstract) - ABSTRACT_SHOWN) > 0:
        parts += ["\n", (f"… and {left:,} more characters, not shown", "dim italic")]
    if note := library.note(paper.id):
        parts += ["\n\n", ("Note", "bold"), "\n", note]
    parts += ["\n\n", ("Links", "bold"), ("  (click, or o opens the first; y copies it)", "dim")]
    for number, link in enumerate(links[:LINKS_SHOWN], 1):
        # The click runs the screen's action by number: the URL never enters an action string.
        style = Style(underline=True) + Style.from_meta({"@click": f"screen.open_link({number})"})
        # A long search link would wrap into a wall of %-escapes: show its start; y copies it all.
        shown = link if len(link) <= link_width else link[: link_width - 1] + "…"
        parts += ["\n", (f"{number:>2} ", "dim"), Content(for_terminal(shown)).stylize(style)]
    if len(links) > LINKS_SHOWN:
        parts += ["\n", (f"   … and {len(links) - LINKS_SHOWN:,} more links", "dim italic")]
    if related:
        parts += ["\n\n", ("Related", "bold"), ("  (a digit jumps to it)", "dim")]
        for number, other in enumerate(related, 1):
            headline = typeset_content(other.headline, raw).truncate(link_width, ellipsis=True)
            parts += ["\n", (f"{number:>2} ", "dim"), headline]
    return Content.assemble(*(_for_terminal(part) for part in parts))


def _for_terminal(part: Content | str | tuple[str, str]) -> Content | str | tuple[str, str]:
    """A part of the pane's text as it may reach the terminal (Content is made so already)."""
    if isinstance(part, str):
        return for_terminal(part)
    if isinstance(part, tuple):
        return for_terminal(part[0]), part[1]
    return part


class DetailPane(VerticalScroll):
    """Shows one paper, wrapped to the pane, scrolling when it is longer."""

    raw: reactive[bool] = reactive(False, init=False)  # the text as written, not typeset
    # Finds the words a search matched, to highlight them. Not drawn at once: the screen shows
    # the paper under the cursor after every search, and drawing it twice a key is slow.
    highlight: reactive[Highlight | None] = reactive[Highlight | None](
        None, init=False, repaint=False
    )
    # A paper's id, and the papers most like it (found in a thread: RelatedFound).
    related: reactive[tuple[str, list[Paper]]] = reactive[tuple[str, list[Paper]]](
        ("", []), init=False
    )
    # A paper's id, and the line saying why the for-you order recommends it (ui/for_you).
    why: reactive[tuple[str, str]] = reactive[tuple[str, str]](("", ""), init=False)

    BINDINGS = [
        Binding("j", "scroll_down", "Scroll down", show=False, id="scroll-down"),
        Binding("k", "scroll_up", "Scroll up", show=False, id="scroll-up"),
        Binding("g", "scroll_home", "Top", show=False, id="scroll-top"),
        Binding("G", "scroll_end", "Bottom", show=False, id="scroll-bottom"),
        Binding(
            "escape,enter", "screen.back_to_list", "Back to the list", show=False, id="back-to-list"
        ),
    ]

    def compose(self) -> ComposeResult:
        yield self._body

    # Each key scrolls from where the key before it left the text, at once: Textual's own
    # scrolling waits for the next frame and starts from the line shown, so ten "j" sent
    # together scrolled one line.

    def _scroll_to_line(self, line: float) -> None:
        self.scroll_to(y=line, animate=False, immediate=True)

    def action_scroll_down(self) -> None:
        self._scroll_to_line(self.scroll_target_y + 1)

    def action_scroll_up(self) -> None:
        self._scroll_to_line(self.scroll_target_y - 1)

    def action_page_down(self) -> None:
        self._scroll_to_line(self.scroll_target_y + self.scrollable_content_region.height)

    def action_page_up(self) -> None:
        self._scroll_to_line(self.scroll_target_y - self.scrollable_content_region.height)

    def action_scroll_home(self) -> None:
        self._scroll_to_line(0)

    def action_scroll_end(self) -> None:
        self._scroll_to_line(self.max_scroll_y)

    def __init__(self, library: Library, search_template: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.library = library
        self.search_template = search_template
        self.paper: Paper | None = None
        self._drawn_highlight: Highlight | None = None  # the highlight the paper was drawn with
        # Kept, not looked up: a paper shown as the reader quits finds it taken down already.
        self._body = Static(id="detail-body")

    def watch_raw(self) -> None:
        if self.paper is not None:
            self.show(self.paper)

    def watch_related(self, related: tuple[str, list[Paper]]) -> None:
        if self.paper is not None and self.paper.id == related[0]:
            self.show(self.paper)

    def on_resize(self) -> None:
        if self.paper is not None:
            self.show(self.paper)

    def watch_why(self, old: tuple[str, str], new: tuple[str, str]) -> None:
        if self.paper is not None and self.paper.id in (old[0], new[0]):
            self.show(self.paper)

    def on_related_found(self, message: RelatedFound) -> None:
        self.related = (message.paper_id, message.related)

    def on_why_found(self, message: WhyFound) -> None:
        self.why = (message.paper_id, message.line)

    def show(self, paper: Paper | None, empty_message: str = "No paper selected") -> None:
        """Show a paper from its top, or the message when there is none."""
        body = self._body
        if paper is None:
            body.update(Content.styled(empty_message, "dim italic"))
        else:
            links = links_of(paper, self.search_template)
            related = self.related[1] if self.related[0] == paper.id else []
            why = self.why[1] if self.why[0] == paper.id else ""
            # The link's line starts with its number, three cells; the scrollbar may take one.
            width = min(self.size.width, MEASURE) - 4
            link_width = width if width > 20 else LINK_SHOWN
            content = paper_content(paper, self.library, links, related, self.raw, link_width, why)
            if self.highlight is not None:
                for start, end in self.highlight.spans(content.plain)[:MOST_MATCHES]:
                    content = content.stylize(MATCH_STYLE, start, end)
            body.update(content)
        if paper is not self.paper:
            self._scroll_to_line(0)
        self.paper, self._drawn_highlight = paper, self.highlight

    def shows(self, paper: Paper | None) -> bool:
        """Whether the pane shows this paper as it is to be shown: with the search's words
        highlighted now."""
        shown = self.paper
        same = paper is not None and shown is not None and shown.id == paper.id
        return same and self._drawn_highlight is self.highlight
