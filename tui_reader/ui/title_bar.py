"""The top line: the collection's name and what the list shows, which change at every key."""

from textual import events
from textual.content import Content
from textual.widget import Widget

ICON = " ⭘ "  # opens the command palette when clicked, as in Textual's own header


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
        self._title = Content()

    def show(self, title: str, subtitle: str) -> None:
        """Show the title (paper text: never markup) and the subtitle beside it, dimmed."""
        shown = Content(title)
        if subtitle:
            shown = Content.assemble(shown, (" — ", "dim"), Content(subtitle).stylize("dim"))
        if shown != self._title:
            self._title = shown
            self.refresh()

    def render(self) -> Content:
        width = self.size.width
        title = self._title.truncate(max(0, width - 2 * len(ICON)), ellipsis=True)
        left = max(len(ICON), (width - title.cell_length) // 2)
        return Content.assemble(ICON, " " * (left - len(ICON)), title)

    async def on_click(self, event: events.Click) -> None:
        if event.x < len(ICON) and self.app.ENABLE_COMMAND_PALETTE:
            await self.run_action("app.command_palette")
