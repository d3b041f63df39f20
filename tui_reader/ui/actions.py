"""The main screen's actions that do not ask (those that do are dialog flows, ui/flows):
each a function taking the workspace, which makes it its action. One that changes the
library acts on the marked papers or the one under the cursor, says what it did when that
may be out of sight, and leaves the rest to `Workspace.library_changed` (redraw, filter
again, save)."""

from tui_reader.core.paper import Paper
from tui_reader.core.references import headline_text
from tui_reader.core.sorting import SORTS
from tui_reader.core.wording import count
from tui_reader.ui.help_screen import HelpScreen, key_table
from tui_reader.ui.workspace_keys import APP_BINDINGS, WORKSPACE_BINDINGS
from tui_reader.ui.workspace_parts import WorkspaceParts


def targeted(screen: WorkspaceParts) -> list[str]:
    """The marked papers (in store order) or else the one under the cursor."""
    paper_list = screen.paper_list
    if paper_list.marked:  # found by id: a walk of a million papers is slow
        return screen.store.in_order(paper_list.marked)
    return [paper_list.current.id] if paper_list.current is not None else []


def targeted_papers(screen: WorkspaceParts) -> list[Paper]:
    """The marked papers (in store order) or else the one under the cursor."""
    return [paper for i in targeted(screen) if (paper := screen.store.get(i)) is not None]


def headline(screen: WorkspaceParts, paper_id: str) -> str:
    """The paper's headline in quotes, cut to fit a dialog's title or a notice."""
    paper = screen.store.get(paper_id)
    return f"“{headline_text(paper, cut=True)}”" if paper is not None else paper_id


def bookmark(screen: WorkspaceParts) -> None:
    """Bookmark the papers (`Library.bookmark`: no longer `#later`), or take their bookmarks
    off."""
    targets, library = targeted(screen), screen.library
    value = not all(library.is_bookmarked(i) for i in targets)
    if value:
        library.bookmark(targets)
    else:
        library.set_bookmarked(targets, False)
    _tell_marked_changed(screen, targets, "bookmarked" if value else "not bookmarked")
    screen.library_changed(used=targets)


def toggle_read(screen: WorkspaceParts) -> None:
    targets, library = targeted(screen), screen.library
    value = not all(library.is_read(i) for i in targets)
    screen.filtering.marked_read(targets)
    # The reader's own mark, a step: a paper marked read leaves is:unread, and u brings it back.
    library.set_read(targets, value, undoable=True)
    _tell_marked_changed(screen, targets, "read" if value else "unread")
    screen.following.stop_reading()
    screen.library_changed()


def read_all(screen: WorkspaceParts) -> None:
    """Mark every paper shown read, as one step that u undoes."""
    if said := screen.paper_list.none_in_full:
        screen.tell(said)
        return
    shown = [paper.id for paper in screen.paper_list.shown]
    screen.filtering.marked_read(shown)
    # Those it reads, counted and undone: one read before stays read.
    paper_ids = [paper_id for paper_id in shown if not screen.library.is_read(paper_id)]
    if screen.library.set_read(paper_ids, True, undoable=True):
        screen.tell(f"Marked {count(len(paper_ids), 'paper')} read (u undoes)")
        screen.library_changed()
    else:
        screen.tell("Every paper shown is read already")


def undo(screen: WorkspaceParts) -> None:
    undone = screen.library.undo()
    if undone is None:
        screen.tell("Nothing to undo")
        return
    papers = undone.paper_ids  # one is named: it may be far from the cursor by now
    named = f" · {headline(screen, papers[0])}" if len(papers) == 1 else ""
    screen.tell(f"Undone: {undone.undone}{named}")
    screen.library_changed()


def resolve(screen: WorkspaceParts) -> None:
    """Look the marked papers (or the one under the cursor) up on OpenReview and arXiv by
    their text; one that is certainly the same paper gets its title, authors and links."""
    papers = [paper for paper in targeted_papers(screen) if not paper.title]
    if not papers:
        screen.tell("These papers have titles already: there is nothing to look up")
        return
    screen.tell(f"Looking up {count(len(papers), 'paper')} on OpenReview and arXiv…")
    screen.look_up.start(papers)


def copy_link(screen: WorkspaceParts) -> None:
    screen.links.copy_first(targeted_papers(screen))


def open_link(screen: WorkspaceParts, number: int = 1) -> None:
    if (paper := screen.paper_list.current) is not None:
        screen.links.open(paper, number)


def show_copied(screen: WorkspaceParts) -> None:
    screen.links.show_copied()


def related(screen: WorkspaceParts, number: int) -> None:
    """Go to the paper the detail pane lists as related number `number`."""
    screen.jumps.to_related(*screen.detail_pane.related, number)


def jump_back(screen: WorkspaceParts) -> None:
    if not screen.jumps.back():
        screen.tell("Nothing to go back to")


def jump_forward(screen: WorkspaceParts) -> None:
    if not screen.jumps.forward():
        screen.tell("Nothing to go forward to")


RELEVANCE_TOLD = "Sorted by relevance (file order when not filtering)"


def next_sort(screen: WorkspaceParts) -> None:
    """Relevance (file order when not filtering), file order, headline, recently changed."""
    screen.sort = SORTS[(SORTS.index(screen.sort) + 1) % len(SORTS)]
    if screen.sort == "relevance":  # the default, which the header leaves unnamed
        screen.tell(RELEVANCE_TOLD)


def reading_mode(screen: WorkspaceParts) -> None:
    """The detail pane alone, full width, its paper opened (read once rested on, as Enter
    reads it); the same key brings the list back."""
    if screen.has_class("-reading"):
        back_to_list(screen)
    else:
        screen.add_class("-reading")
        screen.set_focus(screen.detail_pane)
        screen.following.opened()


def back_to_list(screen: WorkspaceParts) -> None:
    """Focus the list, out of reading mode, which hides it."""
    screen.remove_class("-reading")
    screen.set_focus(screen.paper_list)


def toggle_raw(screen: WorkspaceParts) -> None:
    """Show paper text as written (LaTeX, asterisks) or typeset; search and copy use it raw."""
    screen.raw = not screen.raw
    screen.app.notify("Showing the raw text" if screen.raw else "Showing math and emphasis")


def split(screen: WorkspaceParts, step: int) -> None:
    """Move the split between the list and the detail pane; the session keeps it."""
    panes = screen.panes
    panes.list_share = max(2, min(8, panes.list_share + step))


def show_help(screen: WorkspaceParts) -> None:
    screen.app.push_screen(
        HelpScreen(key_table(screen.key_named, [*WORKSPACE_BINDINGS, *APP_BINDINGS]))
    )


def _tell_marked_changed(screen: WorkspaceParts, targets: list[str], now: str) -> None:
    """Say what a change to the marked papers did: their rows may be out of sight."""
    if len(targets) > 1:
        screen.tell(f"{count(len(targets), 'marked paper')} {now} (u undoes)")
