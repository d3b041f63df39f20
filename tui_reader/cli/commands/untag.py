"""`tui-reader untag PAPER_ID TAG...`: a tag the paper does not have is named on stderr (exit
status 0: the paper is left without it)."""

import argparse

from tui_reader.cli.paper_change import add_paper_arguments, paper_to_change, saved
from tui_reader.cli.shared import tags_given, warn


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "remove tags from a paper"
    add_paper_arguments(parser)
    parser.add_argument("tags", nargs="+", metavar="TAG")


def run(arguments: argparse.Namespace) -> int:
    tags = tags_given(arguments.tags, to_remove=True)  # first: bad input opens nothing
    library, paper_id = paper_to_change(arguments)
    if lacking := [tag for tag in dict.fromkeys(tags) if tag not in library.tags(paper_id)]:
        warn(f"{paper_id} had no tag {', '.join(f'#{tag}' for tag in lacking)}")
    library.change_tags([paper_id], remove=tags)
    return saved(library, paper_id)
