"""`tui-reader tag PAPER_ID TAG...`."""

import argparse

from tui_reader.cli.paper_change import add_paper_arguments, paper_to_change, saved
from tui_reader.cli.shared import tags_given


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "add tags to a paper"
    add_paper_arguments(parser)
    parser.add_argument("tags", nargs="+", metavar="TAG")


def run(arguments: argparse.Namespace) -> int:
    tags = tags_given(arguments.tags)  # first: bad input opens nothing
    library, paper_id = paper_to_change(arguments)
    library.change_tags([paper_id], add=tags)
    return saved(library, paper_id)
