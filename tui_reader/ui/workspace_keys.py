"""The main screen's keys: each binding has an id, by which the config rebinds it and help
lists it (see keymap)."""

from textual.app import App
from textual.binding import Binding, BindingType

SHOW_COPIED = Binding("c", "show_copied", "What was copied", show=False, id="copied")

WORKSPACE_BINDINGS: list[BindingType] = [
    # Priority bindings act as soon as the key arrives, so that keys typed in the same
    # burst ("/dif", "diffusion<Enter>j") land in the pane they were meant for.
    Binding("slash", "focus_filter", "Filter", priority=True, id="filter"),
    Binding("enter", "leave_filter", show=False, priority=True),
    Binding("b", "bookmark", "Bookmark", id="bookmark"),
    Binding("t", "edit_tags", "Tags", id="tags"),
    Binding("n", "edit_note", "Note", id="note"),
    Binding("r", "toggle_read", "Read/unread", show=False, id="read"),
    Binding("R", "read_all", "Mark all shown read", show=False, id="read-all"),
    Binding("T", "tags_view", "All tags", show=False, id="all-tags"),
    Binding("u", "undo", "Undo", id="undo"),
    Binding("y", "copy_link", "Copy link", id="copy-link"),
    Binding("Y", "copy_picker", "Copy…", show=False, id="copy-picker"),
    SHOW_COPIED,
    Binding("o", "open_link", "Open link", show=False, id="open-link"),
    Binding("E", "export", "Export shown or marked", show=False, id="export"),
    Binding("I", "triage", "Triage the papers shown", show=False, id="triage"),
    Binding("S", "save_search", "Save the filter as a feed", show=False, id="save-search"),
    Binding("F", "feeds", "Feeds: saved searches", show=False, id="feeds"),
    Binding("vertical_line", "pipe", "Pipe to a command", show=False, id="pipe"),
    Binding("L", "resolve", "Find the real paper online", show=False, id="resolve"),
    Binding("z", "reading_mode", "Reading mode", show=False, id="reading-mode"),
    Binding("m", "toggle_raw", "Math and emphasis / raw text", show=False, id="raw-text"),
    Binding("s", "next_sort", "Sort: relevance … for you", show=False, id="sort"),
    Binding("left_square_bracket", "jump_back", "Back before a jump", show=False, id="back"),
    Binding("right_square_bracket", "jump_forward", "Forward again", show=False, id="forward"),
    *[
        Binding(str(n), f"related({n})", f"Related paper {n}", show=False, id=f"related-{n}")
        for n in range(1, 6)
    ],
    Binding("less_than_sign", "split(-1)", "Narrower list", show=False, id="narrower"),
    Binding("greater_than_sign", "split(1)", "Wider list", show=False, id="wider"),
    Binding("question_mark", "help", "Keys", id="help"),
    Binding("q", "quit", "Quit", id="quit"),
    Binding("tab", "app.focus_next", "Next pane", show=False),
    Binding("shift+tab", "app.focus_previous", "Previous pane", show=False),
]

# The app's own keys, which work under every screen: Textual's, described as help lists them.
APP_BINDINGS: list[BindingType] = [
    Binding(
        App.COMMAND_PALETTE_BINDING,
        "command_palette",
        "palette",  # as the footer names it, at its right end
        show=False,
        key_display=App.COMMAND_PALETTE_DISPLAY,
        priority=True,
        tooltip="Command palette",
    ),
    Binding("ctrl+q", "quit", "Quit from anywhere", show=False, priority=True),
]

# Actions that need a paper under the cursor, or marked papers.
PAPER_ACTIONS = (
    "bookmark", "edit_tags", "edit_note", "toggle_read", "copy_link", "copy_picker",
    "open_link", "export", "related", "read_all", "triage", "pipe", "resolve",
)  # fmt: skip
