"""`tui-reader recommend`: the papers not yet decided, best first by a model of the reader's
keeps and skips (core.recommend), for scripts and cron.

One line a paper as `search` prints them, or JSON Lines with the score and why (the words that
weigh most). Exit status 1 with one line when there is no model yet (it says how many more
decisions it needs) or no paper is left to recommend; 2 for a mistake in the options.
"""

import argparse

from tui_reader.cli.papers import print_ranked, read_papers
from tui_reader.cli.selection import library_elsewhere
from tui_reader.cli.shared import (
    LEARNING,
    NoMatch,
    UsageError,
    add_library_option,
    add_papers_option,
    checked_query,
    open_library,
    papers_or_default,
    settings,
    tags_given,
    tell_misread,
    told_if_slow,
)
from tui_reader.core.feeds import feed_numbers
from tui_reader.core.locations import cache_folder
from tui_reader.core.recommend import ColdStart, recommender


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Print the papers not yet decided (not read, not bookmarked, not carrying the tag), best "
        "first by what you kept and skipped."
    )
    parser.add_argument(
        "--tag",
        metavar="TAG",
        help="learn from the papers carrying TAG (else from those kept: bookmarked or tagged)",
    )
    parser.add_argument("--limit", type=int, default=20, metavar="N", help="default: 20")
    parser.add_argument("--format", choices=("text", "jsonl"), default="text")
    parser.add_argument("--query", help="only papers matching this filter query")
    add_papers_option(parser, "papers to recommend from")
    add_library_option(parser)


def run(arguments: argparse.Namespace) -> int:
    if arguments.limit < 1:
        raise UsageError(f"--limit must be 1 or more, not {arguments.limit}")
    tag = tags_given([arguments.tag], "--tag")[0] if arguments.tag is not None else None
    query = arguments.query
    asked = checked_query(query) if query is not None else None  # as `search` checks it
    named = papers_or_default(arguments.papers, settings())
    library, _ = open_library(arguments.library, read_only=True)  # a misplaced one said first
    opened = read_papers(named, indexed=True)  # from the cache once written: read at once
    papers, index = opened.store, opened.index
    if asked is not None:
        tell_misread(asked)
    if tag is not None and tag not in library.tag_counts():  # as `list` and `search` say it
        raise NoMatch(f"no paper has the tag #{tag}")
    among = feed_numbers(index, query, library, papers) if query is not None else None
    if among is not None and not len(among):  # said before a model is made for nothing
        raise NoMatch(f"no paper matches {query!r}")
    try:
        with told_if_slow(LEARNING):
            found = recommender(papers, library, tag, cache_folder())
    except ColdStart as error:  # the decisions may be on papers not read here: said first
        elsewhere = library_elsewhere(papers, library, named.paths)
        raise NoMatch(f"{elsewhere}; {error}" if elsewhere else str(error)) from None
    best = found.best(among, arguments.limit)
    if not len(best):
        matching = f" matching {query!r}" if query is not None else ""
        raise NoMatch(f"no paper{matching} is left undecided to recommend")
    for rank, number in enumerate(best.tolist(), 1):
        why = found.why(number) if arguments.format == "jsonl" else None
        print_ranked(rank, papers[number], float(found.scores[number]), arguments.format, why)
    return 0
