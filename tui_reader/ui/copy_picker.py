"""The copy picker: a paper's links and the other ways to refer to it, chosen by digit or Enter."""

from collections.abc import Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui_reader.core.export import copy_forms
from tui_reader.ui.dialogs import DIALOG_CSS, Dialog
from tui_reader.ui.picker_list import PickerList

# How the picker names a link of each kind a paper carries (Paper.kind_links).
KIND_LABELS = {
    "abstract": "abstract page",
    "pdf": "PDF",
    "doi": "DOI",
    "forum": "forum",
    "code": "code",
}


@dataclass(frozen=True)
class Pick:
    """A choice: `link` with its number (1 = primary), or the name of one of core.export's
    copy_forms; `open` to open the link."""

    kind: str
    number: int = 1
    open: bool = False


class CopyPicker(Dialog[Pick | None]):
    DEFAULT_CSS = (
        DIALOG_CSS.format(name="CopyPicker")
        + """
    CopyPicker > Vertical { width: 90; }
    /* A long link (a search) on one line, cut with an ellipsis; chosen, it is copied whole. */
    CopyPicker OptionList {
        height: auto; max-height: 16; border: none; text-wrap: nowrap; text-overflow: ellipsis;
    }
    """
    )
    BINDINGS = [
        Binding("escape,q", "dismiss(None)", "Close"),
        Binding("o", "open", "Open link"),
        *[Binding(str(n), f"choose({n - 1})", show=False) for n in range(1, 10)],
    ]

    def __init__(
        self, title: str, links: list[str], kind_links: Sequence[tuple[str, str]] = ()
    ) -> None:
        """`links`: the paper's links; for marked papers, just ["each paper's primary link"].
        `kind_links`: the paper's (kind, url) pairs, which name the links they hold."""
        super().__init__()
        self._title = title
        self._choices = [Pick("link", n) for n in range(1, len(links) + 1)]
        # Besides links, what can be copied: the exporters that copy (core.export).
        forms = copy_forms()
        self._choices += [Pick(form.name) for form in forms]
        kinds = {url: KIND_LABELS.get(kind, kind) for kind, url in reversed(kind_links)}
        self._kinds = [kinds.get(link, "") for link in links] + ["" for _ in forms]
        self._labels = [*links, *(form.label for form in forms)]

    def compose(self) -> ComposeResult:
        width = max(map(len, self._kinds), default=0)
        options = [
            Option(
                Content.assemble(
                    (f"{n:>2}  ", "bold"),
                    (f"{kind:<{width + 2}}" if width else "", "italic"),
                    label,
                ),
                str(n - 1),
            )
            for n, (kind, label) in enumerate(zip(self._kinds, self._labels, strict=True), 1)
        ]
        with Vertical():
            yield Static(Content.styled(self._title, "bold"))
            yield PickerList(*options, picked=self._selected, classes="dialog-body")
            hint = "A digit or Enter copies it   o opens a link   Escape closes"
            yield Static(Content(hint), classes="dialog-hint")

    def _selected(self, option: Option, index: int) -> None:
        self.action_choose(index)

    def action_choose(self, index: int) -> None:
        if index < len(self._choices):
            self.dismiss(self._choices[index])

    def action_open(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is not None and self._choices[index].kind == "link":
            pick = self._choices[index]
            self.dismiss(Pick("link", pick.number, open=True))
