"""Triage: the papers shown, one at a time in the reading layout, one key per decision.

Enter keeps a paper (bookmark, read), x skips it (read, no bookmark), l puts it off (#later,
unread), 1 to 9 add the config's quick tags (and read); each decision is one step of the
library's undo, and u takes it back and returns to the paper. y, o, t and n work as in the
list. Escape or q leaves, with the paper reached; where a filter's triage stopped is kept for the
next time (core.triage). The next paper is typeset while the reader reads this one, so it is
on screen in the frame after the key. In the for-you order, the papers after the one on screen
are sorted again as the model follows each decision, and a line says why the paper on screen
is recommended (`Ranking`: ui/for_you).
"""

import contextlib
import threading
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Protocol

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message_pump import MessagePump
from textual.screen import ModalScreen
from textual.signal import Signal
from textual.widgets import Static

from tui_reader.core.browser import open_in_browser
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import LATER_TAG
from tui_reader.core.references import headline_text, links_of
from tui_reader.core.store import Numbers, PaperView
from tui_reader.core.triage import (
    KEEP,
    LATER,
    SKIP,
    Place,
    Triage,
    filter_key,
    load_places,
    place_of,
    places_path,
    save_place,
)
from tui_reader.ui.asking import ask, dialog_flow
from tui_reader.ui.clipboard import CopyLog, notice
from tui_reader.ui.detail_pane import LINK_SHOWN, MEASURE, paper_content
from tui_reader.ui.library_sync import LibrarySync
from tui_reader.ui.messages import WhyFound
from tui_reader.ui.note_editor import NoteEditor
from tui_reader.ui.ordered_keys import KeyWait
from tui_reader.ui.tag_editor import tag_edit, tag_prompt

SHOW_COPIED_KEY = "c"  # in the list: what was copied, named in a copy's notice


class Ranking(Protocol):
    """The order a triage follows as decisions come (ui/for_you's ForYou)."""

    rescored: Signal[None]  # a new order
    learning: Signal[None]  # a first model is being made
    tag: str | None  # "like #tag": the tag's papers are the kept ones, and a keep gives it

    def changed(self) -> bool:
        """The library changed: a new order will follow (whether one will)."""

    def ahead(self, numbers: Numbers) -> Numbers | None:
        """These papers' places among them in the order now, best first (None: no order)."""

    def explain(self, paper_id: str, to: MessagePump) -> None:
        """Post to `to` why the order recommends the paper (WhyFound)."""


class TriageScreen(ModalScreen[str | None]):
    """Triage the papers given, in their order, unread first; dismissed with the id of the
    paper reached (None when there were none)."""

    DEFAULT_CSS = """
    TriageScreen {
        background: $background;
    }
    TriageScreen #triage-progress {
        height: 1;
        padding: 0 1;
        background: $boost;
        text-style: bold;
    }
    TriageScreen #triage-why {
        height: auto;
        padding: 0 1;
        color: $text-accent;
        text-style: bold;
    }
    TriageScreen #triage-reading {
        height: 1fr;
        padding: 0 2;
        align-horizontal: center;
        scrollbar-size-vertical: 1;
    }
    TriageScreen #triage-body {
        max-width: 100;
    }
    TriageScreen #triage-keys {
        height: auto;
        padding: 0 1;
        color: $text-muted;
        background: $boost;
    }
    """
    BINDINGS = [
        Binding("enter", f"decide('{KEEP}')", "Keep"),
        Binding("x", f"decide('{SKIP}')", "Skip"),
        Binding("l", f"decide('{LATER}')", "Later"),
        *[Binding(str(n), f"quick_tag({n})", show=False) for n in range(1, 10)],
        Binding("u", "undo", "Undo"),
        Binding("y", "copy_link", "Copy link"),
        Binding("o", "open_link", "Open link"),
        Binding("t", "edit_tags", "Tags"),
        Binding("n", "edit_note", "Note"),
        Binding("j", "scroll(1)", show=False),
        Binding("k", "scroll(-1)", show=False),
        Binding("escape", "leave", "Leave"),
        Binding("q", "leave", show=False),  # as q closes the pickers and the help
    ]

    def __init__(
        self,
        papers: PaperView,
        sync: LibrarySync,
        *,
        query: str,
        sort: str,
        collection: str = "",
        quick_tags: Sequence[str] = (),
        search_template: str,
        copy_log: CopyLog | None = None,
        places: Path | None = None,
        key_wait: KeyWait | None = None,
        ranking: Ranking | None = None,
        reached: Callable[[str], None] = lambda _: None,
    ) -> None:
        """`papers`: those the filter `query` shows, sorted by `sort`, in that order, of the
        `collection` read (core.session.inputs_of); `sync`: the library's, which saves each
        decision; `places`: where triages are remembered
        (default: beside the session file); `key_wait`: the main screen's, which the keys
        wait on while a flow of this screen (tags, a note) acts on an answer; `ranking`,
        the order the papers ahead follow as decisions come (the for-you order); `reached`,
        told the paper reached as the triage closes, also when the reader quits in it."""
        super().__init__()
        self._places = places or places_path()
        self._sync = sync
        self.key_wait = key_wait or KeyWait()
        self.library = library = sync.library
        self._key = filter_key(query, sort, library.path, collection)
        kept = load_places(self._places)
        known = papers.store.__contains__
        place, self._kept_as = place_of(kept, self._key, library, known)
        self.triage = Triage(papers, library, place)
        self._first = place is None  # no place kept for this filter yet
        self._quick_tags = list(quick_tags)[:9]
        self._template = search_template
        self._copy_log = copy_log
        self._body = Static(id="triage-body")
        self._progress = Static(id="triage-progress")
        self._why = Static(id="triage-why")  # in the for-you order: why the paper is first
        # The paper after this one, typeset: (its id, its state when typeset, the text).
        self.ahead: tuple[str, str, Content] | None = None
        self._place_saved = False
        self._saving = threading.Lock()  # the place at its start, kept in a thread
        self._ranking = ranking
        tag = ranking.tag if ranking is not None else None
        self._kept_tag = None if tag == LATER_TAG else tag  # a keep takes #later off
        self._reached = reached

    def compose(self) -> ComposeResult:
        yield self._progress
        if self._ranking is not None:
            yield self._why
        with VerticalScroll(id="triage-reading"):
            yield self._body
        keep = f"Enter keep #{self._kept_tag}" if self._kept_tag else "Enter keep"
        keys = f"{keep} · x skip · l later · u undo · y copy link · o open · t tags · n note"
        tags = "   ".join(f"{n} #{tag}" for n, tag in enumerate(self._quick_tags, 1))
        yield Static(
            Content(f"{keys} · Escape leaves" + (f"\n{tags}" if tags else "")), id="triage-keys"
        )

    def on_mount(self) -> None:
        self.query_one("#triage-reading").focus()
        if self._ranking is not None:
            self._ranking.rescored.subscribe(self, self._rescored)
            self._ranking.learning.subscribe(self, self._learning)
            # Opened (or taken up again) on the best paper not decided in the order now.
            self._reorder(with_current=True)
        if self._first and self.triage.papers:
            keep = partial(self._keep_first_place, self.triage.place_at_start())
            self.run_worker(keep, thread=True, exit_on_error=False)
        self._show()

    def _rescored(self, _: None) -> None:
        """Sort the papers after the one on screen in the order now, and say why it is
        recommended by the model now."""
        self._reorder()
        self._explain()

    def _learning(self, _: None) -> None:
        """Say that the model is being made (its papers' rows built), as the header does."""
        self._explain()

    def _explain(self) -> None:
        if self._ranking is not None and (paper := self.triage.current) is not None:
            self._ranking.explain(paper.id, self)

    def on_why_found(self, message: WhyFound) -> None:
        paper = self.triage.current
        if paper is not None and paper.id == message.paper_id:
            self._why.update(Content(message.line))

    def _reorder(self, with_current: bool = False) -> None:
        triage = self.triage
        start = triage.position + (0 if with_current else 1)
        assert self._ranking is not None
        places = self._ranking.ahead(triage.numbers[start:])
        if places is not None:
            triage.reorder_ahead(places, with_current)
            self.call_after_refresh(self._typeset_ahead)

    def on_resize(self) -> None:
        self.ahead = None  # typeset for another width
        self._show()

    # Showing

    def _content(self, paper: Paper) -> Content:
        width = min(self.size.width - 4, MEASURE) - 4
        links = links_of(paper, self._template)
        # Its links, clicked, run this screen's open_link (screen.open_link).
        return paper_content(paper, self.library, links, link_width=max(width, LINK_SHOWN))

    def _show(self) -> None:
        """Show the paper reached and the progress; then typeset the one after it."""
        triage = self.triage
        self._progress.update(Content(triage.progress()))
        paper = triage.current
        self._explain()  # the line says the paper before it until then: not laid out twice
        if paper is None:
            done = "Every paper is triaged. u takes back the last decision, Escape leaves."
            self._body.update(Content.styled(done, "italic"))
        elif (
            self.ahead is not None
            and self.ahead[0] == paper.id
            and self.ahead[1] == self.library.changed_at(paper.id)
        ):
            self._body.update(self.ahead[2])
        else:
            self._body.update(self._content(paper))
        self.query_one("#triage-reading", VerticalScroll).scroll_home(animate=False)
        self.call_after_refresh(self._typeset_ahead)

    def _typeset_ahead(self) -> None:
        paper = self.triage.ahead()
        if paper is not None and (self.ahead is None or self.ahead[0] != paper.id):
            self.ahead = (paper.id, self.library.changed_at(paper.id), self._content(paper))

    def action_scroll(self, lines: int) -> None:
        reading = self.query_one("#triage-reading", VerticalScroll)
        reading.scroll_to(y=reading.scroll_target_y + lines, animate=False, immediate=True)

    # Deciding

    def action_decide(self, kind: str) -> None:
        if self.triage.current is None:
            self.notify("Every paper is triaged: Escape leaves", markup=False)
            return
        if self.triage.decide(kind, self._kept_tag):
            self._changed()
        self._show()

    def _changed(self) -> None:
        """Save a change, and have the order follow it."""
        self._sync.save()
        if self._ranking is not None:
            self._ranking.changed()

    def action_quick_tag(self, number: int) -> None:
        if number > len(self._quick_tags):
            self.notify(
                f"No quick tag {number}: name up to nine in the config file, "
                '[triage] quick_tags = ["to-read", ...]',
                markup=False,
            )
            return
        self.action_decide(f"#{self._quick_tags[number - 1]}")

    def action_undo(self) -> None:
        undone = self.triage.undo()
        if undone is None:
            self.notify("Nothing to undo in this triage", markup=False)
            return
        self.notify(f"Undone: {undone}", markup=False)
        self.ahead = None
        self._show()
        self._changed()

    # As in the list

    def action_copy_link(self) -> None:
        if (paper := self.triage.current) is not None:
            self._copy(links_of(paper, self._template)[0])

    def _copy(self, url: str, warning: str = "") -> None:
        if self._copy_log is None:
            self._copy_log = CopyLog(self.app)
        said = notice(self._copy_log.copy(url, "1 link"), SHOW_COPIED_KEY)
        self.notify(f"{warning} {said}" if warning else said, markup=False)

    def action_open_link(self, number: int = 1) -> None:
        paper = self.triage.current
        if paper is None or not 1 <= number <= len(links := links_of(paper, self._template)):
            return
        if reason := open_in_browser(links[number - 1]):
            self._copy(links[number - 1], warning=f"Not opening a browser: {reason}.")
        else:
            self.notify(f"Opened {links[number - 1]}", markup=False)

    @dialog_flow
    async def action_edit_tags(self) -> None:
        paper = self.triage.current
        if paper is None:
            return
        current = self.library.tags(paper.id)
        title = f"Tags of “{headline_text(paper, cut=True)}”"
        text = await ask(self, tag_prompt(title, current, list(self.library.tag_counts())))
        if text is not None:
            edit = tag_edit(text, current)
            self._edited(self.library.change_tags([paper.id], edit.add, edit.remove))
            if edit.said:
                self.notify(edit.said, markup=False)

    @dialog_flow
    async def action_edit_note(self) -> None:
        paper = self.triage.current
        if paper is None:
            return
        before = self.library.note(paper.id)

        def set_note(text: str) -> bool:  # also as it is if the reader closes over the editor
            return self.library.set_note(paper.id, text.rstrip(), before)

        title = f"Note on “{headline_text(paper, cut=True)}”"
        text = await ask(self, NoteEditor(title, before, set_note))
        if text is not None:
            self._edited(set_note(text))

    def _edited(self, changed: bool) -> None:
        self.triage.edited(changed)
        if changed:
            self._changed()
            self._show()

    # Leaving, and saving where the triage stopped

    def action_leave(self) -> None:
        triage = self.triage
        self._save_place()
        papers = triage.papers
        reached = triage.current or (papers[-1] if papers else None)
        self.dismiss(reached.id if reached is not None else None)

    def on_unmount(self) -> None:
        self._save_place()  # the reader quit with the triage open
        if (paper := self.triage.current) is not None:
            self._reached(paper.id)

    def _keep_first_place(self, first: Callable[[], Place]) -> None:
        """Keep where the triage starts, unless its place was kept as it stopped: a reader
        killed in it takes it up past the papers decided since (core.triage)."""
        with self._saving, contextlib.suppress(OSError):  # told, if still so, when it stops
            if not self._place_saved:
                save_place(self._places, self._key, first())

    def _save_place(self) -> None:
        if self._place_saved or not self.triage.papers:
            return
        try:
            with self._saving:
                self._place_saved = True
                replacing = self._kept_as if self._kept_as != self._key else None
                save_place(self._places, self._key, self.triage.place(), replacing)
        except OSError as error:
            self.app.notify(
                f"Where this triage stopped cannot be kept in {self._places}: "
                f"{error.strerror or error}",
                severity="warning",
                markup=False,
            )
