"""The workspace's dialog flows: each asks in dialogs, then acts on the answers, top to
bottom (ui/asking: `dialog_flow` makes one the workspace's action)."""

import asyncio
from functools import partial
from pathlib import Path

from tui_reader.core.citation_keys import give_keys
from tui_reader.core.export import (
    ExportError,
    exporter,
    file_formats,
    format_of,
    kept_file,
    write_export,
)
from tui_reader.core.export import render as render_export
from tui_reader.core.library import normalise_tag, tag_problem
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import LATER_TAG
from tui_reader.core.pipe import FORMATS, pipe_input
from tui_reader.core.text import strip_controls
from tui_reader.core.wording import count
from tui_reader.ui.actions import headline, targeted, targeted_papers, undo
from tui_reader.ui.asking import ask
from tui_reader.ui.copy_picker import CopyPicker
from tui_reader.ui.dialogs import ConfirmByEnter, ConfirmScreen, PromptScreen, typed_path
from tui_reader.ui.feeds_screen import FeedsScreen, save_search_prompt
from tui_reader.ui.note_editor import NoteEditor
from tui_reader.ui.pipe_screen import PipeOutputScreen, PipePicker
from tui_reader.ui.tag_editor import tag_edit, tag_prompt
from tui_reader.ui.tags_screen import TagsScreen
from tui_reader.ui.triage_screen import TriageScreen
from tui_reader.ui.workspace_parts import WorkspaceParts


async def edit_tags(screen: WorkspaceParts) -> None:
    library, targets = screen.library, targeted(screen)
    current = library.tags(targets[0]) if len(targets) == 1 else None
    if current is None:
        title = f"Tags for the {count(len(targets), 'marked paper')}"
    else:
        title = f"Tags of {headline(screen, targets[0])}"
    text = await ask(screen, tag_prompt(title, current, list(library.tag_counts())))
    if text is None:
        return
    edit = tag_edit(text, current)
    if not library.change_tags(targets, edit.add, edit.remove):
        return
    if LATER_TAG in edit.add:  # put off, as triage's l puts a paper off: unread, not used
        library.set_read(targets, False, in_step=True)
        screen.filtering.marked_read(targets)
        screen.following.stop_reading()
        screen.library_changed()
    else:
        screen.library_changed(used=targets)
    if edit.said:
        screen.tell(edit.said)


async def edit_note(screen: WorkspaceParts) -> None:
    library, paper = screen.library, screen.paper_list.current
    if paper is None:
        return
    title = f"Note on {headline(screen, paper.id)}"
    before = library.note(paper.id)

    def set_note(text: str) -> bool:
        return library.set_note(paper.id, text.rstrip(), before)

    # Kept as it is if the reader closes over the editor: the command saves it on the way out.
    text = await ask(screen, NoteEditor(title, before, set_note))
    if text is None or not set_note(text):
        return
    screen.library_changed(used=[paper.id])
    if library.note(paper.id) != strip_controls(text.rstrip()):
        screen.tell("A note on this paper was saved elsewhere meanwhile: yours is after it")


async def tags_view(screen: WorkspaceParts) -> None:
    library = screen.library
    action = await ask(
        screen, TagsScreen(library.tag_counts(), library.tag_counts(screen.store.__contains__))
    )
    if action is None:
        return
    tag = action.tag
    if action.kind == "filter":
        screen.jumps.jump((f"#{tag}", None))
        screen.action_leave_filter()
    elif action.kind == "rename":

        def check(text: str) -> str | None:
            if problem := tag_problem(text):
                return f"Not a tag: {problem}"
            return "Type a new tag" if normalise_tag(text) == tag else None

        counts = library.tag_counts()

        def joining(text: str) -> str | None:
            new = normalise_tag(text)
            if new not in counts:
                return None
            return (
                f"#{new} is the tag of {count(counts[new], 'paper')} already. Give it to the "
                f"{count(counts[tag], 'paper')} tagged #{tag} (one tag of the two)?"
            )

        prompt = PromptScreen(f"Rename #{tag} to", tag, check=check, confirm=joining)
        text = await ask(screen, prompt)
        if text is not None and library.rename_tag(tag, text):
            new = normalise_tag(text)
            done = "Joined" if new in counts else "Renamed"
            screen.tell(f"{done} #{tag} to #{new} (u undoes)")
            screen.library_changed()
    elif action.kind == "delete":
        tagged = count(library.tag_counts().get(tag, 0), "paper")
        yes = await ask(screen, ConfirmScreen(f"Delete #{tag} from {tagged}?"))
        if yes and library.delete_tag(tag):
            screen.tell(f"Deleted #{tag} from {tagged} (u undoes)")
            screen.library_changed()


async def copy_picker(screen: WorkspaceParts) -> None:
    papers = targeted_papers(screen)
    if len(papers) == 1:
        title, links = f"Copy from {headline(screen, papers[0].id)}", screen.links.of(papers[0])
        kind_links = papers[0].kind_links
    else:
        title = f"Copy for the {count(len(papers), 'marked paper')}"
        links, kind_links = ["Each one's primary link"], ()
    pick = await ask(screen, CopyPicker(title, links, kind_links))
    if pick is None:
        return
    screen.read_used(papers)
    if pick.kind == "link":
        urls = [screen.links.of(paper)[pick.number - 1] for paper in papers]
        if pick.open:
            screen.links.open_url(urls[0])
            return
        text, nouns = "\n".join(urls), ("link", "links")
    else:
        form = exporter(pick.kind)
        text = await rendered(screen, form.name, papers)
        nouns = form.copied or (form.label, form.label)
    screen.links.copy(text, count(len(papers), *nouns))


async def export(screen: WorkspaceParts) -> None:
    if not screen.paper_list.marked and (said := screen.paper_list.none_in_full):
        screen.tell(said)
        return
    marked = targeted_papers(screen) if screen.paper_list.marked else None
    papers = marked or list(screen.paper_list.shown)
    kinds = ", ".join(row.suffix for row in file_formats())

    def check(text: str) -> str | None:
        path = typed_path(text)
        if format_of(path) is None:
            return f"The file must end in one of {kinds}"
        if not path.parent.is_dir():
            return f"There is no folder {path.parent}"
        if path.is_dir():
            return f"{path} is a folder: name a file"
        if path.exists() and not path.is_file():
            return f"{path} is not a regular file: name another"
        read = [*screen.store.source_files(), *screen.opened_files]
        return kept_file(path, screen.library.own_files(), read)

    def replace(text: str) -> str | None:
        path = typed_path(text)
        return f"{path} exists. Replace it?" if path.exists() else None

    which = "marked paper" if marked else "paper"
    title = f"Export {'the ' * bool(marked)}{count(len(papers), which)} to a file ({kinds})"
    hint = f"In {Path.cwd()} unless the name has a folder. Enter writes, Escape cancels"
    prompt = PromptScreen(title, "reading-list.md", hint, check=check, confirm=replace)
    text = await ask(screen, prompt)
    if text is None:
        return
    path = typed_path(text)
    kind = format_of(path)
    assert kind is not None  # checked as it was typed
    text = await rendered(screen, kind, papers)
    try:
        await asyncio.to_thread(write_export, path, text, force=True)
    except ExportError as error:
        screen.tell(str(error), "error")
    else:
        screen.tell(f"Wrote {count(len(papers), 'paper')} to {path}")


async def rendered(screen: WorkspaceParts, kind: str, papers: list[Paper]) -> str:
    """The papers in the format called `kind`, a reference's papers given their citation
    keys first. In a thread: references of thousands of papers take seconds (pylatexenc),
    and the screen answers meanwhile."""
    if exporter(kind).reference:
        await cite(screen, papers)
    library, template = screen.library, screen.search_template
    include_notes = screen.config.include_notes
    return await asyncio.to_thread(render_export, kind, papers, library, template, include_notes)


async def cite(screen: WorkspaceParts, papers: list[Paper]) -> None:
    """Give the papers that have none their citation keys, which the library saves at once
    (under its lock), and tell how that went as a save does."""
    await screen.sync.written(lambda: give_keys(papers, screen.library)[1])


async def triage(screen: WorkspaceParts) -> None:
    """The papers shown (those matching in full), one at a time, one key per decision."""
    if said := screen.paper_list.none_in_full:
        screen.tell(said)
        return
    screen.following.stop_reading()
    paper_list, query = screen.paper_list, screen.shown_query  # the list's papers' filter
    triage = TriageScreen(
        paper_list.shown,
        screen.sync,
        query=query,
        sort=screen.sort,
        collection=screen.collection,
        quick_tags=screen.config.quick_tags,
        search_template=screen.search_template,
        copy_log=screen.copy_log,
        key_wait=screen.key_wait,
        ranking=screen.for_you if screen.sort == "for you" else None,
        reached=screen.following.left_at,  # the session's paper, a quit in the triage too
    )
    paper_id = await ask(screen, triage)
    walk = triage.triage
    # Decided, as r marks one: a paper read before the triage leaves `is:unread` now.
    screen.filtering.marked_read(list(walk.decisions))
    screen.library_changed()
    walked = walk.numbers[: walk.position + 1]
    if len(walked) and screen.for_you.triage_left(query, int(walked[-1])):
        return
    position = None if paper_id is None else paper_list.position_of(paper_id)
    if position is not None:  # where triage stopped: not read for being there
        paper_list.put_cursor(position)


async def save_search(screen: WorkspaceParts) -> None:
    query = screen.filtering.query.strip()
    if not query:
        screen.tell("Type a filter first: S saves it under a name, as a feed")
        return
    name = await ask(screen, save_search_prompt(screen.library, query))
    if name is not None and screen.library.save_search(name, query):
        screen.tell(f"Saved the filter as “{' '.join(name.split())}”: F lists the feeds")
        screen.sync.save()


async def pipe(screen: WorkspaceParts) -> None:
    papers, commands = targeted_papers(screen), screen.config.commands
    choice = await ask(screen, PipePicker(commands, len(papers)))
    if choice is None:
        return
    name, kind = choice
    if kind == "bib":
        await cite(screen, papers)
    data = pipe_input(kind, papers, screen.library, screen.search_template)
    what = f"{count(len(papers), 'paper')} as {FORMATS[kind]}"
    screen.app.push_screen(PipeOutputScreen(name, commands[name], data, what, screen.copy_log))


def feeds_panel(screen: WorkspaceParts) -> FeedsScreen:
    """The saved searches, counted among the papers as they load and are indexed."""
    return FeedsScreen(
        screen.sync,
        screen.store,
        lambda: screen.index,
        to_filter=screen.action_focus_filter,
        undo=partial(undo, screen),
        recount_every=screen.timings.recount_every,
        key_wait=screen.key_wait,
        showing=screen.shown_query,
    )


async def feeds(screen: WorkspaceParts) -> None:
    feed_chosen(screen, await ask(screen, feeds_panel(screen)))


def feed_chosen(screen: WorkspaceParts, query: str | None) -> None:
    """Show the papers of the feed chosen in the feeds panel (None: none was)."""
    if query is not None:
        screen.jumps.jump((query, None))
        screen.action_leave_filter()


async def quit_reader(screen: WorkspaceParts) -> None:
    """Quit, asking first when changes could not be saved (said once, maybe long ago)."""
    sync = screen.sync
    if sync.losing_changes:
        question = (
            f"Your changes could not be saved to {sync.library.path}: "
            "quit and lose them? (Enter quits)"
        )
        if not await ask(screen, ConfirmByEnter(question)):
            return
    screen.app.exit()
