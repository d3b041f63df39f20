"""The top line: the collection's name and what the list shows, which change at every key."""

from textual import events
from textual.content import Content
from textual.widget import Widget

from tui_reader.core.text import for_terminal

ICON = " ⭘ "  # opens the command palette when clicked, as in Textual's own header
SEPARATOR = " — "
TITLE_SHOWN_AT_LEAST = 12  # cells of the collection's name, or none of it
COUNTS_SHOWN = 24  # cells of the subtitle's start ("2,729 of 31,836 papers") kept before its end


class TitleBar(Widget):
    """The title and subtitle, centred, drawn in place: Textual's Header lays the whole screen
    out again whenever its subtitle changes, which here is at each key of the filter."""

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self._title, self._subtitle, self._kept = Content(), Content(), Content()

    def show(self, title: str, subtitle: str, kept: str = "") -> None:
        """Show the title (paper text: never markup) and the subtitle beside it, dimmed; the
        subtitle's end `kept` whole when it is cut (what the reader is doing: its marks, a
        save failing), what comes before it cut first."""
        kept = kept if subtitle.endswith(kept) else ""
        shown = (
            Content(for_terminal(title)),
            Content(for_terminal(subtitle.removesuffix(kept))),
            Content(for_terminal(kept)),
        )
        if shown != (self._title, self._subtitle, self._kept):
            self._title, self._subtitle, self._kept = shown
            self.refresh()

    def render(self) -> Content:
        width = self.size.width
        room = max(0, width - 2 * len(ICON))
        title, subtitle, kept = self._title, self._subtitle, self._kept
        # Cut before the end kept, unless it would leave too little of the counts.
        if subtitle.cell_length + kept.cell_length > room >= kept.cell_length + COUNTS_SHOWN:
            subtitle = subtitle.truncate(room - kept.cell_length, ellipsis=True)
        subtitle = Content.assemble(subtitle, kept).stylize("dim")
        if subtitle:
            # What the list shows, and what the header has to say of the query, go before
            # the collection's name: it is cut first, and left out when little of it fits.
            room_for_title = room - len(SEPARATOR) - subtitle.cell_length
            if room_for_title < min(TITLE_SHOWN_AT_LEAST, title.cell_length):
                title = subtitle
            else:
                title = Content.assemble(
                    title.truncate(room_for_title, ellipsis=True), (SEPARATOR, "dim"), subtitle
                )
        title = title.truncate(room, ellipsis=True)
        left = max(len(ICON), (width - title.cell_length) // 2)
        return Content.assemble(ICON, " " * (left - len(ICON)), title)

    async def on_click(self, event: events.Click) -> None:
        if event.x < len(ICON) and self.app.ENABLE_COMMAND_PALETTE:
            await self.run_action("app.command_palette")
