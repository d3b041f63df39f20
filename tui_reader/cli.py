"""The `tui-reader` command: the reader, and commands for scripts that share its library."""

import argparse
import contextlib
import difflib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from tui_reader import __version__, startup
from tui_reader.command_options import (
    DEFAULT_PAPERS,
    NoMatch,
    UsageError,
    add_library_option,
    add_load_filter_options,
    add_papers_option,
    asked_for,
    load_filter,
    tags_given,
)
from tui_reader.command_papers import first_and_more, passed_over, print_ranked, read_papers
from tui_reader.core.citation_keys import give_keys, keyless
from tui_reader.core.config import Config, ConfigError, load_config
from tui_reader.core.engine import SearchEngine
from tui_reader.core.export import (
    ExportError,
    exporter,
    file_formats,
    format_of,
    render,
    write_export,
)
from tui_reader.core.index_cache import keep_in_background, kept_papers, load_cached
from tui_reader.core.library import (
    ENVIRONMENT_VARIABLE,
    Library,
    LibraryError,
    LibraryPathError,
    default_path,
)
from tui_reader.core.links import check_search_template
from tui_reader.core.loading import (
    NO_FILTER,
    LoadError,
    check_paths,
    expected_papers,
    load_paths,
    stream_papers,
)
from tui_reader.core.locations import config_path, session_path
from tui_reader.core.nothing_found import why_nothing
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import NO_STATE, PaperState
from tui_reader.core.query import Query, StateFilter, parse_query
from tui_reader.core.references import paper_record
from tui_reader.core.resolve import resolving, show_resolutions, with_resolutions
from tui_reader.core.search_service import needs_index, search_papers
from tui_reader.core.session import SessionError, inputs_of, load_session, restored, save_session
from tui_reader.core.sources.folder import fetched_collections
from tui_reader.core.store import PaperStore
from tui_reader.core.text import displayed, for_terminal
from tui_reader.core.wording import count
from tui_reader.library_command import run_library
from tui_reader.resources import bundled
from tui_reader.terminal_output import output_without_controls

LOAD_AT_ONCE = 2_000_000  # bytes of input read before the reader starts; more loads behind it
SKIPPED_SHOWN = 100  # problems reading the papers at start shown on the screen; the rest counted


def _add_search_url_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--search-url",
        metavar="TEMPLATE",
        help="the search link every paper gets, with a {query} slot (default: the config file's "
        "search_url, else a Google Scholar search)",
    )


def _add_selection_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tag", action="append", default=[], help="only papers with this tag")
    parser.add_argument("--bookmarked", action="store_true", help="only bookmarked papers")
    parser.add_argument("--query", default="", help="only papers matching this filter query")


def reader_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tui-reader",
        description="Read, filter and triage research-paper abstracts in the terminal.",
        epilog="commands for scripts: tag, untag, bookmark, unbookmark, tags, list, "
        "export, search, searches, digest, fetch, resolve, library (tui-reader COMMAND --help)",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="a file of papers or a directory of them (default: the config's paths, else the "
        "fetched collections, else the bundled ICML 2026 abstracts)",
    )
    add_library_option(parser)
    _add_search_url_option(parser)
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="start with no query, at the top, ignoring where the last session left off",
    )
    add_load_filter_options(parser, "load only papers")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def commands_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tui-reader")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        add_library_option(sub)
        add_papers_option(sub, "papers whose ids are known")
        return sub

    for name, help in (("tag", "add tags to a paper"), ("untag", "remove tags from a paper")):
        sub = command(name, help)
        sub.add_argument("paper_id", metavar="PAPER_ID")
        sub.add_argument("tags", nargs="+", metavar="TAG")
    for name, help in (("bookmark", "bookmark a paper"), ("unbookmark", "remove a bookmark")):
        command(name, help).add_argument("paper_id", metavar="PAPER_ID")
    command("tags", "list every tag with the number of papers that have it")
    listing = command("list", "list papers with their tags and bookmarks")
    _add_selection_options(listing)
    add_load_filter_options(listing, "only papers")
    listing.add_argument("--format", choices=("text", "jsonl"), default="text")
    export = command("export", "write papers as a reading list, BibTeX, JSON or CSV")
    _add_selection_options(export)
    add_load_filter_options(export, "only papers")
    export.add_argument(
        "--format",
        choices=[row.name for row in file_formats()],
        help="default: the one FILE's name ends in (.md, .bib...)",
    )
    export.add_argument("-o", "--output", type=Path, metavar="FILE", help="default: stdout")
    export.add_argument("--force", action="store_true", help="replace an existing FILE")
    _add_search_url_option(export)
    return parser


COMMANDS = ("tag", "untag", "bookmark", "unbookmark", "tags", "list", "export", "search")
# The commands of modules of their own, each a script's.
SCRIPTED = ("fetch", "resolve", "library", "cache", "searches", "digest", "recommend")


def search_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tui-reader search",
        description="Print the papers matching a filter query, best first, without the reader.",
    )
    parser.add_argument("query", metavar="QUERY")
    # A default keeps argparse from naming PATH among the arguments required.
    parser.add_argument(
        "paths", nargs="*", type=Path, default=[], metavar="PATH", help=DEFAULT_PAPERS
    )
    parser.add_argument("--limit", type=int, default=20, metavar="N", help="default: 20")
    parser.add_argument("--format", choices=("text", "jsonl"), default="text")
    add_papers_option(parser, "papers to search, as PATH")
    add_load_filter_options(parser, "only papers")
    add_library_option(parser)
    return parser


def run_search(arguments: argparse.Namespace) -> int:
    """Rank the papers for the query; state filters read the library."""
    if arguments.limit < 1:
        raise UsageError(f"--limit must be 1 or more, not {arguments.limit}")
    asked = checked_query(arguments.query)
    if not (asked.terms or asked.states or asked.metadata or asked.either):  # "((("
        raise UsageError(f"the query {arguments.query!r} has no word or filter to search for")
    paths = papers_or_default([*arguments.paths, *arguments.papers])
    options = asked_for(arguments, query_option=False)
    loaded, index = read_papers(paths, load_filter(arguments), indexed=True, asked=options)
    papers = loaded.papers
    tell_misread(asked)
    # The library is opened only when the query asks about it.
    library = open_library(arguments.library, read_only=True)[0] if asked.asks_state else None
    state: PaperState = NO_STATE if library is None else library
    found = search_papers(index, arguments.query, state, "relevance", papers)
    if found.showing:
        print(f"tui-reader: {found.showing}: no paper holds the word typed", file=sys.stderr)
    if not len(found.numbers):
        tags = {} if library is None else library.tag_counts()
        raise NoMatch(why_nothing(asked, tags, papers) or f"no paper matches {options}")
    for rank, (number, score) in enumerate(zip(found.numbers, found.scores, strict=True), 1):
        if rank > arguments.limit:
            break
        print_ranked(rank, papers[int(number)], float(score), arguments.format)
    return 0


def checked_query(text: str) -> Query:
    """The query of a command, its last word typed in full; UsageError for a filter typed
    close to one ("is:bookm is not a filter: did you mean is:bookmarked?"): searched as
    words, it would give a script the papers of two words nobody asked for."""
    asked = parse_query(text + " ")
    if asked.mistyped:
        raise UsageError(asked.mistyped[0])
    return asked


def tell_misread(asked: Query) -> None:
    """Say on stderr which words of the query name a filter but are searched as words."""
    for reason in asked.misread:
        print(f"tui-reader: {reason}: searched as words", file=sys.stderr)


def open_library(path: Path | None, read_only: bool = False) -> tuple[Library, list[str]]:
    """The library and its problems, told on stderr; the default folder is made when missing
    and the library is to be written. `read_only`: no file is repaired, moved or made."""
    if path is None:
        path = default_path()
        if ENVIRONMENT_VARIABLE not in os.environ and not read_only:
            with contextlib.suppress(OSError):  # the first save will say why it cannot save
                path.parent.mkdir(parents=True, exist_ok=True)
    library, messages = Library.open(path, read_only=read_only)
    for message in messages:
        print(f"tui-reader: {message}", file=sys.stderr)
    return library, messages


def resolve_id(paper_id: str, known: Sequence[str]) -> str:
    """The full id that `paper_id` names: itself, or the one known id it begins."""
    if paper_id in known:
        return paper_id
    if len(paper_id) < 4:
        raise UsageError(f"paper id {paper_id} is too short: use 4 or more characters")
    matches = [i for i in known if i.startswith(paper_id)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        shown = ", ".join(sorted(matches)[:5])
        more = f" and {len(matches) - 5:,} more" if len(matches) > 5 else ""
        raise UsageError(f"paper id {paper_id} is ambiguous: {shown}{more}")
    raise UsageError(f"unknown paper id: {paper_id}")


def papers_or_default(paths: Sequence[Path], config: Config | None = None) -> list[Path]:
    """The papers named, else those the reader opens when given none: the config's `paths`,
    else the collections fetched so far, else the bundled abstracts."""
    if paths:
        return list(paths)
    return list((config or settings()).paths) or fetched_collections() or [bundled("seeds")]


def settings() -> Config:
    """The config file's settings, its problems told on stderr (commands run without a screen)."""
    config, problems = load_config(config_path())
    for problem in problems:
        print(f"tui-reader: {problem}", file=sys.stderr)
    return config


def search_template(option: str | None, config: Config) -> str:
    """The search-link template: the option, else the config file's (or the default)."""
    if option is None:
        return config.search_url
    try:
        return check_search_template(option)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _required(arguments: argparse.Namespace) -> tuple[StateFilter, ...]:
    """--tag and --bookmarked, as the state filters a query must pass."""
    options = [f"#{tag}" for tag in arguments.tag] + ["is:bookmarked"] * arguments.bookmarked
    return parse_query(" ".join(options) + " ").states


def select(
    arguments: argparse.Namespace,
    papers: Sequence[Paper],
    index: SearchEngine | None,
    library: Library,
) -> list[Paper]:
    """The papers that pass --tag, --bookmarked and --query (those matching every term of
    it), best match first for a query: the options are state filters the query must pass
    (a query beginning with `|` joined them: `--tag a --query "| b"` listed either)."""
    required = _required(arguments)
    found = search_papers(index, arguments.query, library, "relevance", papers, required)
    if found.showing:
        print(f"tui-reader: {found.showing}: no paper holds the word typed", file=sys.stderr)
    return [papers[int(number)] for number in found.numbers[: found.full]]


def _nothing(arguments: argparse.Namespace, papers: Sequence[Paper], library: Library) -> str:
    """Why `select` found no paper: a tag or a field no paper has, else what was asked."""
    query = parse_query(arguments.query + " ")  # its last word typed in full
    query = replace(query, states=query.states + _required(arguments))
    why = why_nothing(query, library.tag_counts(), papers)
    return why or f"no paper matches {asked_for(arguments)}"


def _left_out(
    arguments: argparse.Namespace, papers: Sequence[Paper], library: Library, paths: list[Path]
) -> str:
    """How many papers of the library pass --tag and --bookmarked but are not among the
    papers read ("" for none): listing them needs their files (listing got nothing,
    unsaid). Not when --category or --since left papers out: naming files is no help."""
    wanted = arguments.tag
    if (not wanted and not arguments.bookmarked) or load_filter(arguments) != NO_FILTER:
        return ""
    read = papers if isinstance(papers, PaperStore) else {paper.id for paper in papers}
    left_out = [
        paper_id
        for paper_id in library.paper_ids()
        if paper_id not in read
        and all(tag in library.tags(paper_id) for tag in wanted)
        and (library.is_bookmarked(paper_id) or not arguments.bookmarked)
    ]
    if not left_out:
        return ""
    named = ", ".join(str(path) for path in paths[:3]) + (", …" if len(paths) > 3 else "")
    which = [" ".join(f"#{tag}" for tag in wanted)] if wanted else []
    which += ["bookmarked"] if arguments.bookmarked else []
    one = len(left_out) == 1
    return (
        f"{count(len(left_out), 'paper')} {', '.join(which)} "
        f"{'is' if one else 'are'} not in the papers read ({named}): name "
        f"{'its file' if one else 'their files'} with --papers"
    )


def run_command(arguments: argparse.Namespace) -> int:
    # First: bad input opens nothing.
    if hasattr(arguments, "tag"):
        arguments.tag = tags_given(arguments.tag, "--tag")
    if arguments.command in ("tag", "untag"):
        arguments.tags = tags_given(arguments.tags, to_remove=arguments.command == "untag")
    query = checked_query(getattr(arguments, "query", ""))
    paths = papers_or_default(arguments.papers)
    filtering = arguments.command in ("list", "export")
    keep = load_filter(arguments) if filtering else NO_FILTER
    # A query's search terms need the index, kept as search keeps it.
    indexed = needs_index(getattr(arguments, "query", ""))
    asked = asked_for(arguments) if filtering else ""
    loaded, index = read_papers(paths, keep, indexed, asked)
    writes = arguments.command in ("tag", "untag", "bookmark", "unbookmark")
    library, _ = open_library(arguments.library, read_only=not writes)
    papers = loaded.papers
    if isinstance(papers, PaperStore):
        show_resolutions(papers, library)
    else:
        papers = with_resolutions(papers, library)
    if arguments.command == "tags":
        for tag, number in library.tag_counts().items():
            print(f"{tag}\t{number}")
        return 0
    if filtering:
        tell_misread(query)
        selected = select(arguments, papers, index, library)
        left_out = _left_out(arguments, papers, library, paths)
        if not selected:  # the papers left out, when there are some, are why
            raise NoMatch(left_out or _nothing(arguments, papers, library))
        if left_out:
            print(f"tui-reader: {left_out}", file=sys.stderr)
        if arguments.command == "list":
            return list_papers(selected, library, arguments.format)
        return export(arguments, selected, library)
    paper_id = arguments.paper_id
    if not isinstance(papers, PaperStore) or paper_id not in papers:  # a store finds it at once
        ids = papers.texts("id") if isinstance(papers, PaperStore) else [p.id for p in papers]
        paper_id = resolve_id(paper_id, list(dict.fromkeys(ids + library.paper_ids())))
    # Said, not an error: the paper is left without them.
    removed = arguments.tags if arguments.command == "untag" else []
    if lacking := [tag for tag in dict.fromkeys(removed) if tag not in library.tags(paper_id)]:
        had_no = ", ".join(f"#{tag}" for tag in lacking)
        print(f"tui-reader: {paper_id} had no tag {had_no}", file=sys.stderr)
    changes: dict[str, Callable[[], object]] = {
        "tag": lambda: library.change_tags([paper_id], add=arguments.tags),
        "untag": lambda: library.change_tags([paper_id], remove=arguments.tags),
        "bookmark": lambda: library.set_bookmarked([paper_id], True),
        "unbookmark": lambda: library.set_bookmarked([paper_id], False),
    }
    changes[arguments.command]()
    for message in library.save():
        print(f"tui-reader: {message}", file=sys.stderr)
    star = "bookmarked" if library.is_bookmarked(paper_id) else "not bookmarked"
    tags = " ".join(f"#{tag}" for tag in library.tags(paper_id)) or "no tags"
    print(f"{paper_id}: {star}, {tags}")
    return 0


def list_papers(papers: list[Paper], library: Library, kind: str) -> int:
    for paper in papers:
        if kind == "jsonl":
            print(json.dumps(paper_record(paper, library), ensure_ascii=False))
            continue
        marks = "".join(
            mark if has else " "
            for mark, has in (
                ("*", library.is_bookmarked(paper.id)),
                ("r", library.is_read(paper.id)),
                ("n", library.note(paper.id)),
            )
        )
        tags = "".join(f"  #{tag}" for tag in library.tags(paper.id))
        print(f"{paper.id} {marks} {paper.headline}{tags}")
    return 0


def export_format(given: str | None, output: Path | None) -> str:
    """The format to write: --format, else the one the file's name asks for; both must agree."""
    named = format_of(output) if output is not None else None
    if given and named and given != named:
        raise UsageError(
            f"--format {given} does not match {output}: name the file {exporter(given).suffix}, "
            "or leave --format out"
        )
    if kind := given or named:
        return kind
    if output is None:
        names = ", ".join(row.name for row in file_formats())
        raise UsageError(f"--format is needed to write to stdout: {names}")
    endings = ", ".join(row.suffix for row in file_formats())
    raise UsageError(f"cannot tell the format of {output}: name it {endings}, or give --format")


def export(arguments: argparse.Namespace, papers: list[Paper], library: Library) -> int:
    kind = export_format(arguments.format, arguments.output)
    config = settings()
    template = search_template(arguments.search_url, config)
    if exporter(kind).reference and keyless(papers, library):
        library = keep_citation_keys(arguments.library, papers)
    text = render(kind, papers, library, template, config.include_notes)
    if arguments.output is None:
        sys.stdout.write(text)
    else:
        write_export(arguments.output, text, arguments.force)
        print(f"wrote {count(len(papers), 'paper')} to {arguments.output}", file=sys.stderr)
    return 0


def keep_citation_keys(path: Path | None, papers: Sequence[Paper]) -> Library:
    """The library, opened to be written, holding the papers' citation keys: those without
    one are given theirs and kept in it, which is said on stderr (the one change `export`
    makes). Keys that cannot be kept are said to hold for this export only."""
    library, _ = open_library(path)
    new = len(keyless(papers, library))
    try:
        messages = give_keys(papers, library)
    except LibraryError as error:
        print(
            f"tui-reader: citation keys could not be kept ({for_terminal(str(error))}); "
            "they hold for this export only",
            file=sys.stderr,
        )
        return library
    for message in messages:
        print(f"tui-reader: {message}", file=sys.stderr)
    if new:
        keys = count(new, "citation key")
        print(f"tui-reader: {keys} given, kept in {displayed(library.path or '')}", file=sys.stderr)
    return library


EXIT_GRACE = 3.0  # seconds the reader has to close after SIGTERM or SIGHUP, its data saved


def save_on_signals(library: Library, exit_app: Callable[[], object]) -> Callable[[], bool]:
    """On SIGTERM or SIGHUP (the terminal closed) save what is pending, then close the app;
    should it not close within EXIT_GRACE (a terminal that is gone can block it), save again
    and end the process. Returns what to call once the app has closed (it waits for that
    save, and says whether a signal closed the app)."""
    enders: list[threading.Timer] = []
    savers: list[threading.Thread] = []

    def finish(signum: int, _frame: object) -> None:
        # The handler runs in the main thread wherever it was, perhaps holding the library's
        # state lock that a save in a thread waits for: it must not save itself (a deadlock
        # left the reader running after SIGHUP), only start the saving and closing.
        # Imported here: asyncio costs every command a tenth of a second at start.
        import asyncio

        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: nothing else to close
            loop = None

        def save_then_end(status: int) -> None:
            # What the closing kept since (a note being written when the terminal closed), in
            # a thread of its own: a save stuck on the lock must not keep the process alive.
            last = threading.Thread(target=save, daemon=True)
            last.start()
            last.join(EXIT_GRACE)
            os._exit(status)

        def save() -> None:
            with contextlib.suppress(LibraryError):
                library.save()

        def save_then_close() -> None:
            save()
            if loop is not None:
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    loop.call_soon_threadsafe(exit_app)
            ender = threading.Timer(EXIT_GRACE, save_then_end, (128 + signum,))
            ender.daemon = True
            enders.append(ender)
            ender.start()

        saving = threading.Thread(target=save_then_close, name="save-on-signal")
        savers.append(saving)
        saving.start()

    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, finish)

    def closed() -> bool:
        for saving in savers:
            saving.join()
        for ender in enders:
            ender.cancel()
        return bool(savers)

    return closed


def run_reader(arguments: argparse.Namespace) -> int:
    startup.hold_collector()  # while Textual is imported; the app lets it go once drawn
    try:
        return _run_reader(arguments)
    finally:
        startup.release_collector()


def _run_reader(arguments: argparse.Namespace) -> int:
    startup.set_frame_rate()  # before Textual is imported
    from tui_reader.ui.app import ReaderApp
    from tui_reader.ui.keymap import check_keys, key_conflicts, theme_problem

    config, config_problems = load_config(
        config_path(), check_keys, check_theme=theme_problem, check_keymap=key_conflicts
    )
    paths = arguments.paths or list(config.paths) or fetched_collections() or [bundled("seeds")]
    bad_files: list[str] = []  # files of a folder that are not text, or cannot be read
    files = check_paths(paths, "" if arguments.paths else config.paths_origin, bad_files)
    where = session_path()
    saved = load_session(where)  # before the library: a FIFO or device there stops the reader
    stream = kept = expected = None
    stale = False  # papers kept with an index of another version
    unusable: list[str] = []  # why the entry kept for these files could not be used
    skipped: list[str] = []  # records that could not be read, told on the screen
    skipped_before: list[str] = []  # those of papers kept from before: told as a load tells
    duplicates = 0  # abstracts met again and shown once
    big = sum(file.stat().st_size for file in files) > LOAD_AT_ONCE
    keep = load_filter(arguments)
    if not big:
        loaded = load_paths(paths, keep, set(files))  # small: now, a problem stops the reader
        store = PaperStore(loaded.papers, loaded.collections)
        duplicates, skipped = loaded.duplicates, loaded.problems
    elif keep == NO_FILTER and (kept := load_cached(files, False, unusable)):  # and indexed
        store = kept.store
        duplicates, skipped_before = kept.loaded.duplicates, list(kept.loaded.problems)
    elif keep == NO_FILTER and (papers := kept_papers(files)):  # an index to build again
        store, again = papers
        duplicates, skipped_before, stale = again.duplicates, list(again.problems), True
        unusable = [
            f"The index kept in the cache could not be used ({why}): indexing again"
            for why in unusable
        ]
    else:
        store, stream = PaperStore(), stream_papers(files, keep=keep)
        unusable = [
            f"The papers kept in the cache could not be used ({why}): loading them anew"
            for why in unusable
        ]
        expected = expected_papers(files)  # at most that many, when filtered
    library, messages = open_library(arguments.library)
    if stream is None:  # each paper resolve found, with what it found
        show_resolutions(store, library)
    else:
        stream = resolving(stream, library)
    template = search_template(arguments.search_url, config)

    # What was opened, not the files it held: fetching a collection adds one to the folder.
    named = arguments.paths or list(config.paths)
    inputs = inputs_of(named or {path.parent for path in paths})
    session = None if arguments.fresh else restored(saved, inputs)
    messages += config_problems
    messages += [passed_over(problem) for problem in bad_files]
    messages += unusable
    # On the screen, by file and line: printed, they were read only after quitting.
    first, more = first_and_more(skipped, SKIPPED_SHOWN)
    messages += first
    if more:
        messages.append(f"…and {more} reading the papers")
    index = kept.index if kept else None
    # Kept when its index is built, in the background: whole files, never a filtered load.
    keep_index: Callable[..., None] | None = None
    keeping: list[threading.Thread] = []
    if (stream is not None or stale) and keep == NO_FILTER:

        def keep_index(*given: Any) -> None:
            keeping.append(keep_in_background(files, *given))

    app = ReaderApp(
        store,
        library,
        messages,
        template,
        stream=stream,
        session=session,
        config=config,
        index=index,
        duplicates=duplicates,
        keep_index=keep_index,
        expected_papers=expected,
        skipped=skipped_before,
    )
    if big:
        startup.ready_for_processes()
    app_closed = save_on_signals(library, app.exit)
    app.run()
    signalled = app_closed()
    with contextlib.suppress(OSError):  # where the reader was is a convenience only
        save_session(where, replace(app.session(), inputs=inputs))
    # The app saves after every change in the background; a change made just before quitting
    # may not have reached the file yet.
    if library.has_unsaved_changes:
        library.save()
    if not signalled:  # told to end: not waiting minutes, nor printing to a terminal gone
        _finish_keeping(keeping)
    return 0


def _finish_keeping(keeping: list[threading.Thread]) -> None:
    """Let the papers' index being kept for the next start be written (minutes of work at a
    million papers, lost if the reader quits just after building it), unless Ctrl-C says no."""
    if not keeping or not keeping[-1].is_alive():
        return
    print(
        "tui-reader: keeping the papers and their index for the next start (Ctrl-C skips)…",
        file=sys.stderr,
    )
    with contextlib.suppress(KeyboardInterrupt):
        keeping[-1].join()


def _not_a_mistyped_command(argv: Sequence[str]) -> None:
    """UsageError for a first word that is no file but a command mistyped (`serach`): the
    reader said only that no such file exists."""
    if not argv or argv[0].startswith("-") or os.path.lexists(argv[0]):
        return
    commands = [*SCRIPTED, *COMMANDS]
    if close := difflib.get_close_matches(argv[0], commands, n=1):
        raise UsageError(
            f"{argv[0]}: no such file or directory, nor a command: "
            f"did you mean `tui-reader {close[0]}`?"
        )


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    startup.release_collector()  # this module's imports are in (see __main__)
    scripted = (*SCRIPTED, *COMMANDS)
    # The reader draws on the terminal itself: only its lines before and after are filtered.
    with output_without_controls(standard_output=bool(argv) and argv[0] in scripted):
        return _main(argv)


def _main(argv: list[str]) -> int:
    try:
        if argv and argv[0] == "fetch":
            from tui_reader.fetch_command import run_fetch  # httpx only when fetching

            return run_fetch(argv[1:])
        if argv and argv[0] == "resolve":
            from tui_reader.resolve_command import run_resolve  # httpx only when looking up

            return run_resolve(argv[1:])
        if argv and argv[0] == "library":
            return run_library(argv[1:])
        if argv and argv[0] == "cache":
            from tui_reader.cache_command import run_cache  # the cache's modules when asked

            return run_cache(argv[1:])
        if argv and argv[0] in ("searches", "digest"):
            from tui_reader.searches_command import run_searches  # it reuses this module

            return run_searches(argv)
        if argv and argv[0] == "recommend":
            from tui_reader.recommend_command import run_recommend  # it reuses this module

            return run_recommend(argv[1:])
        if argv and argv[0] == "search":
            return run_search(search_parser().parse_args(argv[1:]))
        if argv and argv[0] in COMMANDS:
            return run_command(commands_parser().parse_args(argv))
        _not_a_mistyped_command(argv)
        return run_reader(reader_parser().parse_args(argv))
    except NoMatch as error:  # as grep and `fzf --filter` say nothing matched
        print(f"tui-reader: {for_terminal(str(error))}", file=sys.stderr)
        return 1
    except (
        LoadError,
        UsageError,
        ExportError,
        LibraryPathError,
        ConfigError,
        SessionError,
    ) as error:
        print(f"tui-reader: {for_terminal(str(error))}", file=sys.stderr)
        return 2
    except LibraryError as error:
        print(
            f"tui-reader: changes could not be saved: {for_terminal(str(error))}", file=sys.stderr
        )
        return 1
    except BrokenPipeError:
        return 0
