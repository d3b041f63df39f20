"""What `tag`, `untag`, `bookmark` and `unbookmark` share: the paper they change, named by
its id or the id's beginning, and its state printed once the change is saved."""

import argparse
from collections.abc import Sequence

from tui_reader.cli.papers import read_papers
from tui_reader.cli.shared import (
    UsageError,
    add_library_option,
    add_papers_option,
    open_library,
    papers_or_default,
    settings,
    warn,
)
from tui_reader.core.library import Library


def add_paper_arguments(parser: argparse.ArgumentParser) -> None:
    """The library and papers to look in, and the paper's id."""
    add_papers_and_library_options(parser)
    parser.add_argument("paper_id", metavar="PAPER_ID")


def add_papers_and_library_options(parser: argparse.ArgumentParser) -> None:
    add_library_option(parser)
    add_papers_option(parser, "papers whose ids are known")


def paper_to_change(arguments: argparse.Namespace) -> tuple[Library, str]:
    """The library, opened to be written, and the full id of the paper to change."""
    papers = read_papers(papers_or_default(arguments.papers, settings())).store
    library, _ = open_library(arguments.library)
    paper_id = arguments.paper_id
    if paper_id not in papers:
        known = dict.fromkeys(papers.texts("id") + library.paper_ids())
        paper_id = resolve_id(paper_id, list(known))
    return library, paper_id


def resolve_id(paper_id: str, known: Sequence[str]) -> str:
    """The full id that `paper_id` names: itself, or the one known id it begins."""
    if paper_id in known:
        return paper_id
    if len(paper_id) < 4:
        raise UsageError(f"paper id {paper_id} is too short: use 4 or more characters")
    matches = [i for i in known if i.startswith(paper_id)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        shown = ", ".join(sorted(matches)[:5])
        more = f" and {len(matches) - 5:,} more" if len(matches) > 5 else ""
        raise UsageError(f"paper id {paper_id} is ambiguous: {shown}{more}")
    raise UsageError(f"unknown paper id: {paper_id}")


def saved(library: Library, paper_id: str) -> int:
    """Save the change and print the paper's state; the exit status."""
    for message in library.save():
        warn(message)
    star = "bookmarked" if library.is_bookmarked(paper_id) else "not bookmarked"
    tags = " ".join(f"#{tag}" for tag in library.tags(paper_id)) or "no tags"
    print(f"{paper_id}: {star}, {tags}")
    return 0
