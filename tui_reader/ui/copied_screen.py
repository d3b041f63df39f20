"""What was copied this session: every copy, newest first, its whole text selectable."""

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static, TextArea
from textual.widgets.option_list import Option

from tui_reader.core.text import strip_controls
from tui_reader.ui.clipboard import Copied, CopyLog, notice
from tui_reader.ui.dialogs import DIALOG_CSS
from tui_reader.ui.picker_list import PickerList

HINT = (
    "y copies the chosen one again · in the text, select with the mouse or Shift+arrows "
    "and Ctrl+C copies the selection · Tab switches · Escape closes"
)


class CopiedText(TextArea):
    """The copy's text, read-only; Ctrl+C copies the selection the way the reader copies."""

    def __init__(self) -> None:
        super().__init__(read_only=True, soft_wrap=True, show_line_numbers=False)

    def action_copy(self) -> None:
        if text := self.selected_text:
            screen = self.screen
            assert isinstance(screen, CopiedScreen)
            screen.copy(text, "the selected text")


class CopiedScreen(ModalScreen[None]):
    """The session's copies in a list; the one highlighted shown whole below it."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="CopiedScreen")
        + """
    CopiedScreen > Vertical { width: 100%; max-width: 120; height: 100%; max-height: 40; }
    CopiedScreen > Vertical.-empty { height: auto; }
    CopiedScreen OptionList, CopiedScreen OptionList:focus {
        height: auto; max-height: 8; border: none; border-bottom: solid $border-blurred;
    }
    CopiedScreen TextArea, CopiedScreen TextArea:focus { height: 1fr; border: none; padding: 0; }
    """
    )
    BINDINGS = [
        Binding("escape,q", "dismiss", "Close"),
        Binding("y", "copy_again", "Copy again"),
    ]

    def __init__(self, copy_log: CopyLog, show_key: str) -> None:
        """`show_key`: the key that opens this screen, named in notices of copies made here."""
        super().__init__()
        self._copy_log = copy_log
        self._show_key = show_key

    def compose(self) -> ComposeResult:
        with Vertical(classes="" if self._copy_log.copies else "-empty") as box:
            box.border_title = "Copied this session · Escape closes"
            if not self._copy_log.copies:
                hint = "Nothing copied yet: y copies a paper's link, Y chooses what to copy."
                yield Static(Content(hint))
                return
            yield PickerList(*self._options())
            yield CopiedText()
            yield Static(Content(HINT), classes="dialog-hint")

    def _newest_first(self) -> list[Copied]:
        return self._copy_log.copies[::-1]

    def _options(self) -> list[Option]:
        return [
            Option(Content.assemble((f"{c.at:%H:%M:%S}  ", "dim"), c.what, (f"  {c.via}", "dim")))
            for c in self._newest_first()
        ]

    def on_mount(self) -> None:
        if self._copy_log.copies:
            self.query_one(OptionList).highlighted = 0

    @on(OptionList.OptionHighlighted)
    def _show(self, event: OptionList.OptionHighlighted) -> None:
        text = strip_controls(self._newest_first()[event.option_index].text)
        self.query_one(TextArea).load_text(text)

    def action_copy_again(self) -> None:
        lists = self.query(OptionList)
        if lists and (index := lists.first().highlighted) is not None:
            copied = self._newest_first()[index]
            self.copy(copied.text, copied.what)

    def copy(self, text: str, what: str) -> None:
        """Copy, say so, and list the copy at the top."""
        copied = self._copy_log.copy(text, what)
        self.notify(notice(copied, self._show_key), markup=False)
        option_list = self.query_one(OptionList)
        option_list.clear_options()
        option_list.add_options(self._options())
        option_list.highlighted = 0
