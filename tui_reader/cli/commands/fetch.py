"""`tui-reader fetch`: papers from arXiv or an OpenReview venue into a collection file.

Exit status: 0 when the fetch completed, 2 with one line for a mistake in the command, 1 with
one line when it failed (offline, a service that kept failing, a page that could not be read),
saying what the file keeps, and 130 after Ctrl+C. Run again, a fetch goes on where it stopped.
"""

import argparse
import functools
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Protocol, TextIO

from tui_reader.cli.shared import (
    DATES,
    INTERRUPTED,
    UsageError,
    date_text,
    first_day,
    open_library,
    papers_or_default,
    settings,
    warn,
)
from tui_reader.core.config import Config
from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.index_cache import refresh_kept
from tui_reader.core.library import LibraryError
from tui_reader.core.loading import LoadError, check_paths
from tui_reader.core.paper import paper_id
from tui_reader.core.sources import arxiv, openreview
from tui_reader.core.sources.collection import (
    FetchFailed,
    Tally,
    fetch_into,
    state_path,
)
from tui_reader.core.sources.folder import collections_folder, fetched_collections
from tui_reader.core.sources.pages import Cursor, Page, Pages
from tui_reader.core.sources.polite import PoliteClient, Service
from tui_reader.core.text import strip_controls
from tui_reader.core.wording import count


class Request(Protocol):
    def key(self) -> dict[str, object]: ...
    def name(self) -> str: ...
    def label(self) -> str: ...
    def service(self) -> Service: ...
    def pages(self, client: PoliteClient, cursor: Cursor | None) -> Iterator[Page]: ...


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a number of papers: {text!r}")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Fetch papers from arXiv or an OpenReview venue into a collection file (JSON Lines, by "
        f"default in {collections_folder()}). Run again after an interruption, a fetch goes on "
        "where it stopped."
    )
    sources = parser.add_subparsers(dest="source", required=True, metavar="SOURCE")
    fetch = sources.add_parser(
        "arxiv",
        help="papers from arXiv by category, words or date",
        description="The newest papers first, from the arXiv API; with --since and neither "
        "--query nor --max, every paper since DATE, harvested with OAI-PMH.",
    )
    fetch.add_argument(
        "--category",
        action="append",
        default=[],
        metavar="C",
        help="an arXiv category such as cs.LG or hep-th (repeatable: papers in any of them)",
    )
    fetch.add_argument(
        "--query",
        default="",
        metavar="Q",
        help="words the papers contain, or a query in the API's syntax (ti:, au:, abs:, AND...)",
    )
    fetch.add_argument(
        "--since",
        type=date_text,
        metavar="DATE",
        help=f"papers first submitted on or after DATE ({DATES})",
    )
    fetch.add_argument(
        "--max",
        type=_count,
        metavar="N",
        help=f"at most N papers (default: {arxiv.DEFAULT_MAX:,}, or every one for a harvest)",
    )
    fetch.add_argument("-o", "--output", type=Path, metavar="FILE", help="the collection file")
    venue = sources.add_parser(
        "openreview",
        help="a venue's papers from OpenReview",
        description="Every public submission to an OpenReview venue, or its accepted papers.",
    )
    venue.add_argument("venue_id", metavar="VENUE_ID", help="such as ICML.cc/2026/Conference")
    venue.add_argument("--accepted", action="store_true", help="only the accepted papers")
    venue.add_argument("-o", "--output", type=Path, metavar="FILE", help="the collection file")
    sources.add_parser("list", help="the fetched collections and how many papers each holds")


def _request(arguments: argparse.Namespace, addresses: Mapping[str, str]) -> Request:
    """What the command asks for, checked (UsageError when it is wrong); `addresses` are the
    config's [sources]."""
    request: Request
    try:
        if arguments.source == "arxiv":
            categories = tuple(arxiv.check_category(c) for c in arguments.category)
            query = arguments.query.strip()
            if not (categories or query or arguments.since):
                raise UsageError("say what to fetch: --category, --query or --since")
            since = first_day(arguments.since) if arguments.since else None
            request = arxiv.ArxivRequest(categories, query, since, arguments.max, addresses)
        else:
            venue_id = openreview.check_venue_id(arguments.venue_id)
            request = openreview.VenueRequest(venue_id, arguments.accepted, addresses)
        request.service()  # a base URL from the environment is checked here
    except ValueError as error:
        raise UsageError(str(error)) from None
    return request


def _output(arguments: argparse.Namespace, request: Request) -> Path:
    path: Path = arguments.output or collections_folder() / f"{request.name()}.jsonl"
    if path.is_dir():
        raise UsageError(f"{path}: is a folder, not a file")
    if problem := special_file_problem(path):
        raise UsageError(f"{path}: {problem}")
    return path


class Progress:
    """The fetch's progress on stderr: one line redrawn in place on a terminal, else a line
    a page."""

    WIDTH = 24

    def __init__(self, label: str, stream: TextIO) -> None:
        self.label = label
        self.stream = stream
        self.live = stream.isatty()
        self.drawn = False

    def __call__(self, tally: Tally) -> None:
        text = f"{self.label}: {papers(tally.papers)}"
        if tally.position is not None and tally.total:
            done = min(tally.position, tally.total)
            filled = round(self.WIDTH * done / tally.total)
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            text = f"{self.label}: [{bar}] {done:,} of {tally.total:,}, {papers(tally.papers)}"
        text += f" ({tally.added:,} new, {tally.updated:,} updated)"
        if self.live:
            self.stream.write(f"\r\x1b[K{text}")
            self.drawn = True
        else:
            self.stream.write(f"{text}\n")
        self.stream.flush()

    def note(self, message: str) -> None:
        """A message on a line of its own (a retry, a wait), above the progress line."""
        self.end()
        self.stream.write(f"{strip_controls(message)}\n")
        self.stream.flush()

    def end(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.drawn = False


def papers(number: int) -> str:
    return count(number, "paper")


def _summary(label: str, tally: Tally) -> str:
    if not tally.papers:
        return f"{label}: no papers found; nothing was written"
    text = (
        f"{label}: {tally.added:,} new {papers(tally.added).split(' ')[1]}, "
        f"{tally.updated:,} updated; {tally.path} holds {tally.papers:,}"
    )
    left = []
    if tally.unreadable:
        left.append(f"{count(tally.unreadable, 'entry', 'entries')} that could not be read")
    if tally.without_abstract:
        left.append(f"{count(tally.without_abstract, 'paper')} without an abstract")
    return f"{text} (left out {' and '.join(left)})" if left else text


VERSIONS_SHOWN = 10  # papers with a new version named; then a count


def _new_versions(tally: Tally) -> str | None:
    """Which papers came back with a newer version than the file kept."""
    found = tally.new_versions
    if not found:
        return None
    named = ", ".join(found[:VERSIONS_SHOWN])
    if len(found) > VERSIONS_SHOWN:
        named += f" and {len(found) - VERSIONS_SHOWN:,} more"
    verb = "has" if len(found) == 1 else "have"
    return f"{papers(len(found))} {verb} a new version: {named}"


def watched(pages: Pages, arxiv_ids: dict[str, str]) -> Pages:
    """The pages, noting each arXiv paper fetched under the id its text alone would give it
    (`paper_id` of its abstract -> its arXiv id)."""

    def pages_seen(cursor: Cursor | None) -> Iterator[Page]:
        for page in pages(cursor):
            for record in page.records:
                if record.arxiv_id:
                    arxiv_ids[paper_id(record.abstract)] = record.arxiv_id
            yield page

    return pages_seen


def follow_papers(arxiv_ids: dict[str, str]) -> int:
    """What the user made of papers known by their text (a plain file's abstract, tagged) or
    resolved to an arXiv paper moves to the arXiv id of the paper fetched: once, journaled.
    The exit status: 1 when the library cannot be saved."""
    if not arxiv_ids:
        return 0
    library, _ = open_library(None)
    fetched = set(arxiv_ids.values())
    moves = dict(arxiv_ids)
    for known in library.paper_ids():
        resolved = library.resolved(known).get("arxiv_id")
        if resolved in fetched and known not in fetched:
            moves.setdefault(known, resolved)
    moved = library.move_papers(moves)
    if not moved:
        return 0
    try:
        for message in library.save():
            warn(message)
    except LibraryError as error:
        warn(f"changes could not be saved: {error}")
        return 1
    print(
        f"the tags, bookmarks, read marks and notes of {papers(moved)} now follow their arXiv ids",
        file=sys.stderr,
    )
    return 0


def list_collections(stream: TextIO) -> int:
    folder = collections_folder()
    files = fetched_collections()
    if not files:
        print(f"no collections in {folder} yet: tui-reader fetch --help", file=stream)
    for path in files:
        with open(path, "rb") as file:
            count = sum(1 for line in file if line.strip())
        unfinished = "  (unfinished: fetch again to go on)" if state_path(path).exists() else ""
        print(f"{path}\t{papers(count)}{unfinished}", file=stream)
    return 0


def _opened_by_default(config: Config) -> list[Path]:
    """The files the reader and the commands open when they are named none (the fetched
    collections, unless the config names paths); none when they cannot be read."""
    try:
        return check_paths(papers_or_default([], config).paths, passed_over=[])
    except LoadError:
        return []


def run(arguments: argparse.Namespace) -> int:
    """`tui-reader fetch ...`; the exit status (a UsageError: 2, see the registry)."""
    if arguments.source == "list":
        return list_collections(sys.stdout)
    config = settings()
    request = _request(arguments, config.sources)
    path = _output(arguments, request)
    label = request.label()
    progress = Progress(label, sys.stderr)
    arxiv_ids: dict[str, str] = {}
    try:
        with PoliteClient(on_wait=progress.note) as client:
            pages = watched(functools.partial(request.pages, client), arxiv_ids)
            tally = fetch_into(path, request.key(), pages, progress)
    except FetchFailed as failure:
        progress.end()
        warn(strip_controls(str(failure)))
        follow_papers(arxiv_ids)  # of the pages kept
        return INTERRUPTED if failure.interrupted else 1
    progress.end()
    print(_summary(label, tally), file=sys.stderr)
    not_kept: list[str] = []
    refresh_kept(path, _opened_by_default(config), not_kept)  # the papers kept take in the new ones
    for told in not_kept:
        warn(told)
    if versions := _new_versions(tally):
        print(versions, file=sys.stderr)
    return follow_papers(arxiv_ids)
