"""`tui-reader search QUERY [PATH...]`: the papers matching a filter query, best first, a
line of text or a JSON object each; the library is opened only when the query asks about it."""

import argparse
from pathlib import Path

from tui_reader.cli.papers import print_ranked, read_papers
from tui_reader.cli.shared import (
    DEFAULT_PAPERS,
    NoMatch,
    UsageError,
    add_library_option,
    add_load_filter_options,
    add_papers_option,
    asked_for,
    checked_query,
    load_filter,
    open_library,
    papers_or_default,
    settings,
    tell_misread,
    warn,
)
from tui_reader.core.nothing_found import why_nothing
from tui_reader.core.paper_state import NO_STATE, PaperState
from tui_reader.core.search_service import search_papers


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "Print the papers matching a filter query, best first, without the reader."
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


def run(arguments: argparse.Namespace) -> int:
    """Rank the papers for the query; state filters read the library."""
    if arguments.limit < 1:
        raise UsageError(f"--limit must be 1 or more, not {arguments.limit}")
    asked = checked_query(arguments.query)
    named = papers_or_default([*arguments.paths, *arguments.papers], settings())
    options = asked_for(arguments, query_option=False)
    # The library is opened only when the query asks about it, first: a misplaced --library
    # is said before any paper file's problem.
    library = open_library(arguments.library, read_only=True)[0] if asked.asks_state else None
    opened = read_papers(named, load_filter(arguments), indexed=True, asked=options)
    papers = opened.store
    tell_misread(asked)
    state: PaperState = NO_STATE if library is None else library
    # A phrase's first papers alone where finding all of them takes long (0.9 s at a million
    # papers): the first `--limit` are how the whole ranking begins.
    found = search_papers(
        opened.index, arguments.query, state, "relevance", papers, first=arguments.limit
    )
    if found.counting and len(found.numbers) < arguments.limit:  # fewer read than asked
        found = search_papers(opened.index, arguments.query, state, "relevance", papers)
    if found.told:
        warn(found.told)
    if not found.full:  # the close papers the reader dims after the others are not matches
        tags = {} if library is None else library.tag_counts()
        raise NoMatch(why_nothing(asked, tags, papers) or f"no paper matches {options}")
    matched = zip(found.numbers[: found.full], found.scores[: found.full], strict=True)
    for rank, (number, score) in enumerate(matched, 1):
        if rank > arguments.limit:
            break
        print_ranked(rank, papers[int(number)], float(score), arguments.format)
    return 0
