"""`tui-reader tags`: every tag with how many papers have it, tab-separated."""

import argparse

from tui_reader.cli.paper_change import add_papers_and_library_options
from tui_reader.cli.papers import read_papers
from tui_reader.cli.shared import open_library, papers_or_default, settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "list every tag with the number of papers that have it"
    add_papers_and_library_options(parser)


def run(arguments: argparse.Namespace) -> int:
    # The library first: a misplaced --library is said before any paper file's problem.
    library, _ = open_library(arguments.library, read_only=True)
    # What cannot be read is said, as ever.
    read_papers(papers_or_default(arguments.papers, settings()))
    for tag, number in library.tag_counts().items():
        print(f"{tag}\t{number}")
    return 0
