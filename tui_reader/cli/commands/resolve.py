"""`tui-reader resolve`: find the paper behind each abstract that has no title (core.resolve).

Exit status: 0 when every paper to look up was looked up, 2 with one line for a mistake in
the command or papers that cannot be read, 1 with one line when a service failed or the
machine is offline (what was found so far is kept), 130 after Ctrl+C. Run again, it goes on
with the papers not looked up yet.
"""

import argparse
import sys
from typing import TextIO

from tui_reader.cli.papers import read_papers
from tui_reader.cli.shared import (
    INTERRUPTED,
    UsageError,
    add_library_option,
    add_papers_option,
    open_library,
    papers_or_default,
    settings,
    warn,
)
from tui_reader.core.library import LibraryError
from tui_reader.core.resolve import Outcome, needs_lookup, resolve_online
from tui_reader.core.sources import arxiv
from tui_reader.core.sources.lookup import search_service
from tui_reader.core.sources.polite import FetchError
from tui_reader.core.text import strip_controls
from tui_reader.core.wording import count


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Look each paper that has no title up on OpenReview and arXiv by its abstract, and "
        "keep the title, authors and links of a certain match in the library: the reader, list "
        "and export show them from then on."
    )
    add_papers_option(parser, "papers to look up")
    add_library_option(parser)
    parser.add_argument(
        "--again",
        action="store_true",
        help="look up again the papers looked up before without a certain match",
    )


class Progress:
    """How far the run is, redrawn in place on a terminal (nothing elsewhere)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.outcome = Outcome()

    def __call__(self, outcome: Outcome) -> None:
        self.outcome = outcome
        if self.live:
            self.stream.write(f"\r\x1b[K{_done(outcome)}")
            self.stream.flush()

    def end(self) -> None:
        if self.live and self.outcome.looked_up:
            self.stream.write("\n")


def _done(outcome: Outcome) -> str:
    return (
        f"resolve: {outcome.looked_up:,} of {count(outcome.to_look_up, 'paper')} looked up, "
        f"{len(outcome.found):,} found"
    )


def run(arguments: argparse.Namespace) -> int:
    """`tui-reader resolve ...`; the exit status (a UsageError: 2, see the registry)."""
    config = settings()
    try:
        search_service(config.sources)  # a base URL from the environment is checked here
        arxiv.atom_service(config.sources.get("arxiv_api", ""))
    except ValueError as error:
        raise UsageError(str(error)) from None
    library, _ = open_library(arguments.library)  # a misplaced --library said first
    if library.blocked:  # before anything is looked up, as a save would say it after
        raise LibraryError(library.blocked)
    papers = read_papers(papers_or_default(arguments.papers, config)).store
    if not any(needs_lookup(paper, library, arguments.again) for paper in papers):
        again = "" if arguments.again else " (--again looks up those found without a match)"
        print(f"resolve: every paper has a title or was looked up{again}", file=sys.stderr)
        return 0
    progress = Progress(sys.stderr)
    try:
        outcome = resolve_online(
            papers, library, config.sources, again=arguments.again, progress=progress
        )
    except (FetchError, KeyboardInterrupt) as error:
        progress.end()
        problem = "interrupted" if isinstance(error, KeyboardInterrupt) else str(error)
        looked_up = progress.outcome.looked_up
        left = (
            "nothing was changed"
            if not looked_up
            else f"the {count(looked_up, 'paper')} looked up so far "
            f"{'is' if looked_up == 1 else 'are'} kept: run the same command again to go on"
        )
        warn(f"{strip_controls(problem)}; {left}")
        return INTERRUPTED if isinstance(error, KeyboardInterrupt) else 1
    progress.end()
    print(
        f"{_done(outcome)} (title, authors and links kept in the library), "
        f"{outcome.unmatched:,} without a certain match",
        file=sys.stderr,
    )
    return 0
