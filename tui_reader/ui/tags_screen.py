"""The tags view: every tag with its count; choose one to filter, rename or delete it."""

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui_reader.core.wording import count
from tui_reader.ui.dialogs import DIALOG_CSS, Dialog
from tui_reader.ui.picker_list import PickerList


@dataclass(frozen=True)
class TagAction:
    """What the reader chose in the tags view: "filter", "rename" or "delete" a tag."""

    kind: str
    tag: str


class TagsScreen(Dialog[TagAction | None]):
    DEFAULT_CSS = (
        DIALOG_CSS.format(name="TagsScreen")
        + """
    TagsScreen OptionList { height: auto; max-height: 20; border: none; }
    """
    )
    BINDINGS = [
        Binding("escape,q", "dismiss(None)", "Close"),
        Binding("r", "choose('rename')", "Rename tag"),
        Binding("d,delete", "choose('delete')", "Delete tag"),
    ]

    def __init__(self, counts: dict[str, int], here: dict[str, int]) -> None:
        """`counts`: each tag's papers in the library; `here`: among the papers loaded."""
        super().__init__()
        self._counts, self._here = counts, here

    def compose(self) -> ComposeResult:
        width = max((len(tag) for tag in self._counts), default=0) + 3
        options = [
            Option(
                Content.assemble(
                    (f"#{tag}".ljust(width), "bold"),
                    count(n, "paper", width=5),
                    (
                        "" if self._here.get(tag, 0) == n else f", {self._here.get(tag, 0)} here",
                        "dim",
                    ),
                ),
                tag,
            )
            for tag, n in self._counts.items()
        ]
        with Vertical():
            yield Static(Content.styled("Tags", "bold"))
            if options:
                yield PickerList(*options, picked=self._selected, classes="dialog-body")
                hint = "Enter filters by the tag   r renames it   d deletes it   Escape closes"
            else:
                hint = "No tags yet: press t on a paper to tag it. Escape closes."
            yield Static(Content(hint), classes="dialog-hint")

    def _highlighted(self) -> str | None:
        lists = self.query(OptionList)
        if not lists:
            return None
        option_list = lists.first()
        if option_list.highlighted is None:
            return None
        return option_list.get_option_at_index(option_list.highlighted).id

    def _selected(self, option: Option, index: int) -> None:
        if option.id is not None:
            self.dismiss(TagAction("filter", option.id))

    def action_choose(self, kind: str) -> None:
        if (tag := self._highlighted()) is not None:
            self.dismiss(TagAction(kind, tag))
