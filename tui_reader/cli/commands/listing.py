"""`tui-reader list`: papers with their state, a line of text or a JSON object each."""

import argparse
import json

from tui_reader.cli.selection import add_selection_options, selected_papers
from tui_reader.cli.shared import settings
from tui_reader.core.references import headline_text, paper_record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "list papers with their tags and bookmarks"
    add_selection_options(parser)
    parser.add_argument("--format", choices=("text", "jsonl"), default="text")


def run(arguments: argparse.Namespace) -> int:
    papers, library, _ = selected_papers(arguments, settings())
    for paper in papers:
        if arguments.format == "jsonl":
            print(json.dumps(paper_record(paper, library), ensure_ascii=False))
            continue
        marks = "".join(
            mark if has else " "
            for mark, has in (
                ("*", library.is_bookmarked(paper.id)),
                ("r", library.is_read(paper.id)),
                ("n", library.note(paper.id)),
            )
        )
        tags = "".join(f"  #{tag}" for tag in library.tags(paper.id))
        print(f"{paper.id} {marks} {headline_text(paper)}{tags}")
    return 0
