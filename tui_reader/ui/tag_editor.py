"""Editing tags: a prompt whose words are tags, completed from the tags already in use."""

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from textual.suggester import Suggester

from tui_reader.core.library import normalise_tag, tag_problem
from tui_reader.ui.dialogs import PromptScreen


class TagSuggester(Suggester):
    """Completes the word being typed to a tag in use, when it starts with one of `marks`:
    the tag editor's words are tags ("" and "-" to remove), the filter's start with "#"."""

    def __init__(
        self, tags: Callable[[], Iterable[str]], marks: tuple[str, ...] = ("-", "")
    ) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self._tags, self._marks = tags, marks

    async def get_suggestion(self, value: str) -> str | None:
        head, space, word = value.rpartition(" ")
        mark = next((mark for mark in self._marks if word.startswith(mark)), None)
        stem = word[len(mark) :].lower() if mark is not None else ""
        if not stem:
            return None
        for tag in self._tags():
            if tag.startswith(stem) and tag != stem:
                return f"{head}{space}{mark}{tag}"
        return None


@dataclass(frozen=True)
class TagEdit:
    add: list[str]
    remove: list[str]
    folded: list[str]  # tags typed with capitals, kept in lower case

    @property
    def said(self) -> str:
        """What to tell of the edit: that capitals were folded, or ""."""
        if not self.folded:
            return ""
        return f"Tags are kept in lower case: {', '.join(f'#{tag}' for tag in self.folded)}"


def parse_tag_words(text: str) -> tuple[list[str], list[str], list[str]]:
    """The words of the prompt as (tags, tags to remove with `-`, words that are not tags)."""
    named: list[str] = []
    remove: list[str] = []
    bad: list[str] = []
    for word in text.split():
        target = remove if word.startswith("-") else named
        tag = normalise_tag(word[1:] if word.startswith("-") else word)
        if tag is None:
            bad.append(word)
        elif tag not in target:
            target.append(tag)
    return named, remove, bad


def tag_edit(text: str, current: list[str] | None) -> TagEdit:
    """The change the prompt asks for. With `current` (one paper) the words are its new tags;
    without (marked papers) they are tags to add. `-tag` removes a tag in both."""
    named, remove, _ = parse_tag_words(text)
    typed = {unicodedata.normalize("NFC", word.removeprefix("-")) for word in text.split()}
    folded = [tag for tag in named if tag not in typed]
    if current is None:
        return TagEdit(named, remove, folded)
    return TagEdit(
        [tag for tag in named if tag not in current],
        [tag for tag in current if tag not in named] + [t for t in remove if t in current],
        [tag for tag in folded if tag not in current],
    )


def _check(text: str) -> str | None:
    """The words that are not tags, by why not: "Not a tag: a! b? (tags are words; …)"."""
    *_, bad = parse_tag_words(text)
    why: dict[str, list[str]] = {}
    for word in bad:
        why.setdefault(tag_problem(word.removeprefix("-")) or "", []).append(word)
    said = "; ".join(f"{' '.join(words)} ({problem})" for problem, words in why.items())
    return f"Not a tag: {said}" if bad else None


def tag_prompt(title: str, current: list[str] | None, tags_in_use: list[str]) -> PromptScreen:
    """The prompt for one paper's tags (`current`) or for the marked papers' (None)."""
    if current is None:
        value, hint = "", "Tags to add, -tag to remove. → completes, Enter applies, Escape cancels"
    else:
        value = " ".join(current)
        hint = "Its tags, separated by spaces. → completes, Enter saves, Escape cancels"
    suggester = TagSuggester(lambda: tags_in_use)
    return PromptScreen(
        title, value + (" " if value else ""), hint, _check, suggester, selected=False
    )
