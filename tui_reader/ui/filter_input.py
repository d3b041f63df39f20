"""The filter: the query the paper list shows the papers of."""

import re
from collections.abc import Callable, Iterable

from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import Reactive

from tui_reader.core.query import state_completions
from tui_reader.ui.ordered_keys import OrderedInput
from tui_reader.ui.tag_editor import TagSuggester

# A hyphen ending a line after a letter, the next line going on with a letter or a digit: the
# halves of a word (lower case next) are joined, a compound's ("Bayes-Optimal", "GPT-4") keep it.
_BROKEN_WORD = re.compile(r"(?<=[^\W\d_])-[ \t]*\r?\n[ \t]*(?=[^\W_])")


def _joined(broken: re.Match[str]) -> str:
    return "" if broken.string[broken.end()].islower() else "-"


class FilterSuggester(TagSuggester):
    """Completes the word being typed: a `#tag` to a tag in use, `is:b` to the state filter
    it can become (the first, of several: `is:` to `is:bookmarked`)."""

    def __init__(self, tags: Callable[[], Iterable[str]]) -> None:
        super().__init__(tags, marks=("!#", "#"))

    async def get_suggestion(self, value: str) -> str | None:
        if (tag := await super().get_suggestion(value)) is not None:
            return tag
        word = re.split(r"[\s|]", value)[-1]  # `a|is:b` is `a | is:b`
        completions = state_completions(word)
        return value + completions[0][len(word) :] if completions else None


class FilterInput(OrderedInput):
    """The filter query: Escape clears it, or leaves it when it is already empty."""

    # An Input's virtual size is its text's width, new at each key, and Textual lays the whole
    # screen out again when it changes. The filter's size is fixed (styles/app.tcss), and its
    # text scrolls within it without a layout.
    virtual_size = Reactive(Size(0, 0))

    BINDINGS = [
        Binding("escape", "clear", "Clear filter", show=False),
        Binding("ctrl+u", "delete_left_all", "Clear for a new query", show=False),
        Binding("tab", "complete_or_next", "Accept the completion, else next pane", show=False),
        Binding("up", "recall", "Bring back the filter cleared", show=False),
        Binding("down", "leave", "To the list", show=False),
    ]

    def __init__(
        self,
        changed: Callable[[str], None],
        tags: Callable[[], Iterable[str]],
        placeholder: str,
        id: str,
    ) -> None:
        # Not selected when focused: "/" goes back to the query to refine it (see `refine`).
        super().__init__(
            placeholder=placeholder, id=id, suggester=FilterSuggester(tags), select_on_focus=False
        )
        self._changed = changed
        self._new_word = False  # the next character typed at the end begins a word (refine)
        self._cleared = ""  # the query Escape cleared last: Up brings it back
        self._told_how_back = False

    def watch_value(self, value: str) -> None:
        self._new_word = False
        # Told at once, not by a message: the list follows before the next key of a burst
        # acts (Escape clears the filter, then "j" moves down the whole list).
        self._changed(value)

    def action_clear(self) -> None:
        if self.value:
            self._cleared, self.value = self.value, ""
            if not self._told_how_back:  # once: a slip of the key lost a long query
                self._told_how_back = True
                self.notify("Filter cleared: ↑ brings it back")
        else:
            self.action_leave()

    def action_recall(self) -> None:
        """Bring back the query cleared, to refine it as "/" does."""
        if self._cleared and not self.value:
            self.value = self._cleared
            self.refine()

    def action_leave(self) -> None:
        self.screen.focus_next()

    async def action_complete_or_next(self) -> None:
        if not await self.complete():
            self.screen.focus_next()

    def refine(self) -> None:
        """Put the cursor at the end of the query, to add a word to it: a character typed
        first begins a new word (`is:new` and `bandit` is `is:new bandit`, not
        `is:newbandit`); Backspace first goes on with the last word; Escape clears it."""
        self.cursor_position = len(self.value)
        self._new_word = bool(self.value) and not self.value[-1].isspace()

    def watch_selection(self) -> None:
        self._new_word = False  # moved within the query: what is typed goes where it is

    def _on_paste(self, event: events.Paste) -> None:
        """Text pasted over lines (a title copied from a PDF) is one query, its words joined
        by single spaces (Input's own handler, which runs next, keeps the first line alone),
        and a word a line's end broke with a hyphen joined again ("Ban-" and "dits": the
        search finds "self-supervised" as "selfsupervised" too)."""
        event.text = " ".join(_BROKEN_WORD.sub(_joined, event.text).split())

    def insert_text_at_cursor(self, text: str) -> None:
        if self._new_word and text and not text[0].isspace():
            text = " " + text
        super().insert_text_at_cursor(text)
