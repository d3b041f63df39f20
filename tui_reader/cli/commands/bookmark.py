"""`tui-reader bookmark PAPER_ID`."""

import argparse

from tui_reader.cli.paper_change import add_paper_arguments, paper_to_change, saved


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "bookmark a paper"
    add_paper_arguments(parser)


def run(arguments: argparse.Namespace) -> int:
    library, paper_id = paper_to_change(arguments)
    library.bookmark([paper_id])
    return saved(library, paper_id)
