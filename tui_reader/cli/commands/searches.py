"""`tui-reader searches`: each saved search with how many papers it finds and how many of
those are unread, as the reader's feeds panel and `list --query` count them (the papers
matching the query in full)."""

import argparse
import json
from collections.abc import Collection, Sequence
from pathlib import Path

from tui_reader.cli.papers import read_papers
from tui_reader.cli.selection import library_elsewhere
from tui_reader.cli.shared import (
    add_library_option,
    add_papers_option,
    open_library,
    papers_or_default,
    settings,
    warn,
)
from tui_reader.core.config import Config
from tui_reader.core.feeds import FeedCount, FeedCounter
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.search_service import needs_index
from tui_reader.core.store import PaperStore
from tui_reader.core.text import clean

NO_SEARCHES = "no saved searches yet: S in the reader saves the filter under a name"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "List the saved searches: name, unread papers, papers found, query."
    parser.add_argument("--format", choices=("text", "jsonl"), default="text")
    add_searched_options(parser)


def add_searched_options(parser: argparse.ArgumentParser) -> None:
    add_library_option(parser)
    add_papers_option(parser, "the papers to search")


def searched_papers(paths: Sequence[Path], queries: Collection[str], config: Config) -> Opening:
    """The papers the saved searches look among, indexed when a query needs it."""
    indexed = any(needs_index(query) for query in queries)
    return read_papers(papers_or_default(paths, config), indexed=indexed)


def run(arguments: argparse.Namespace) -> int:
    library, _ = open_library(arguments.library, read_only=True)
    searches = library.saved_searches()
    if not searches:
        warn(NO_SEARCHES)
        return 0
    config = settings()
    opened = searched_papers(arguments.papers, searches.values(), config)
    feeds = FeedCounter().count(searches, opened.index, library, opened.store)
    width = max(len(clean(feed.name)) for feed in feeds)
    for feed in feeds:
        print(_line(feed, width, arguments.format))
    if not any(feed.total for feed in feeds):
        tell_elsewhere(arguments.papers, opened.store, library, config)
    return 0


def tell_elsewhere(
    paths: Sequence[Path], papers: PaperStore, library: Library, config: Config
) -> None:
    """Said when the saved searches find nothing: the papers of the library that are not
    among those read (the reader was given other files), and how to name them."""
    if elsewhere := library_elsewhere(papers, library, papers_or_default(paths, config).paths):
        warn(elsewhere)


def _line(feed: FeedCount, width: int, kind: str) -> str:
    """A saved search's line: its name, unread and total counts, and its query."""
    if kind == "jsonl":
        record = {"name": feed.name, "query": feed.query}
        return json.dumps(record | {"unread": feed.unread, "total": feed.total})
    counts = f"{feed.unread or 0:>5,} unread of {feed.total or 0:<6,}"
    return f"{clean(feed.name):<{width}}  {counts}  {clean(feed.query)}"
