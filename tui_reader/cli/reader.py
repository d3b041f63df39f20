"""`tui-reader [PATH...]`: the reader, over the papers opened as core.opening decides; where it
was left is restored, and saved again when it quits."""

import argparse
from dataclasses import replace
from pathlib import Path

from tui_reader import __version__, startup
from tui_reader.cli.papers import first_and_more, passed_over
from tui_reader.cli.registry import listing
from tui_reader.cli.shared import (
    OneLineParser,
    add_library_option,
    add_load_filter_options,
    add_search_url_option,
    load_filter,
    open_library,
    papers_or_default,
    search_template,
    warn,
)
from tui_reader.cli.signals import save_on_signals
from tui_reader.core.config import load_config
from tui_reader.core.loading import check_paths
from tui_reader.core.locations import (
    cache_folder,
    config_is_named,
    config_path,
    session_is_named,
    session_path,
)
from tui_reader.core.opening import CacheWriter, Way, open_papers, resolved
from tui_reader.core.session import (
    SessionError,
    inputs_of,
    load_own_session,
    load_session,
    restored,
    save_session,
)
from tui_reader.core.text import for_terminal
from tui_reader.core.wording import count
from tui_reader.core.writing import discard_own_writes

LOAD_AT_ONCE = 2_000_000  # bytes of input read before the reader starts; more loads behind it
SKIPPED_SHOWN = 100  # problems reading the papers at start shown on the screen; the rest counted


def reader_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="tui-reader",
        description="Read, filter and triage research-paper abstracts in the terminal.",
        epilog=listing(),
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
    add_search_url_option(parser)
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="start with no query, at the top, ignoring where the last session left off",
    )
    add_load_filter_options(parser, "load only papers")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


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
    from tui_reader.ui.textual_keys import tolerate_input_not_utf8

    config, config_problems = load_config(
        config_path(),
        check_keys,
        check_theme=theme_problem,
        check_keymap=key_conflicts,
        named=config_is_named(),
    )
    paths, origin = papers_or_default(arguments.paths, config)
    bad_files: list[str] = []  # files of a folder that are not text, or cannot be read
    files = check_paths(paths, origin, bad_files)
    where = session_path()
    # Before the library: a FIFO or device there stops the reader.
    saved, session_told = (
        (load_session(where), "") if session_is_named() else load_own_session(where)
    )
    opening = open_papers(
        paths,
        files,
        load_filter(arguments),
        stream_from=LOAD_AT_ONCE,
        taking_in=_taking_in,
        passed_over=bad_files,
    )
    library, messages = open_library(arguments.library, session=True)
    config = replace(config, search_url=search_template(arguments.search_url, config))
    # What was opened, not the files it held: fetching a collection adds one to the folder.
    named = arguments.paths or list(config.paths)
    inputs = inputs_of(named or {path.parent for path in paths})
    messages += config_problems
    messages += [session_told] if session_told else []
    messages += [passed_over(problem) for problem in bad_files]
    messages += [problem[0].upper() + problem[1:] for problem in opening.cache_problems]
    skipped = opening.skipped
    if opening.way is Way.LOADED:  # on the screen, by file and line: printed, they were read
        first, more = first_and_more(skipped, SKIPPED_SHOWN)  # only after quitting
        messages += first
        if more:
            messages.append(f"…and {more} reading the papers")
        skipped = ()  # told with the problems, not again as a load tells them
    session = None if arguments.fresh else restored(saved, inputs)
    told = restored(saved, inputs).new_told  # the papers new told of at a start before
    opening = replace(
        resolved(opening, library),
        messages=messages,
        skipped=skipped,
        session=session,
        collection=inputs,
        new=opening.new if opening.new_at > told else 0,
    )
    app = ReaderApp(opening, library, config)
    if opening.way in (Way.STREAMED, Way.CACHED_PAPERS):  # indexed while the reader runs
        startup.ready_for_processes()
    app_closed = save_on_signals(library, app.exit)
    tolerate_input_not_utf8()
    app.run()
    signalled = app_closed()
    try:
        seen = max(told, opening.new_at)
        save_session(where, replace(app.session(), inputs=inputs, new_told=seen))
    except SessionError as refused:  # a file not to replace
        warn(for_terminal(str(refused)))
    except OSError as error:  # a convenience only: said, unless the terminal is gone
        if not signalled:
            warn(f"where you left off was not kept: {where}: {error.strerror or error}")
    # The app saves after every change in the background; a change made just before quitting
    # may not have reached the file yet.
    if library.has_unsaved_changes:
        library.save()
    writer = opening.cache_writer
    # Told to end: not waiting minutes, nor printing to a terminal gone.
    if writer is not None and (signalled or not _finish_cache_write(writer)):
        discard_own_writes(cache_folder())  # what the writing thread ending with us began
    return 0


def _taking_in(papers: int) -> None:
    """Say what a big input's kept entry takes in before the reader starts: seconds, at a
    million papers kept."""
    about = f"about {count(papers, 'new paper')}" if papers else "new papers"
    warn(f"taking in {about}…")


def _finish_cache_write(writer: CacheWriter) -> bool:
    """Let the papers and index being written to the cache for the next start be written
    (minutes of work at a million papers, lost if the reader quits just after building it),
    unless Ctrl-C says no (False); and say why, if the cache could not take them (the reader
    that would have told it has closed)."""
    write = writer.unfinished()
    if write is None:
        return True
    warn("keeping the papers and their index for the next start (Ctrl-C skips)…")
    try:
        write.join()
    except KeyboardInterrupt:
        return False
    if writer.not_kept:
        warn(writer.not_kept)
    return True
