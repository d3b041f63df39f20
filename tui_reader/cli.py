"""The `tui-reader` command: the reader, and commands for scripts that share its library."""

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from tui_reader import __version__
from tui_reader.core.library import ENVIRONMENT_VARIABLE, Library, LibraryError, default_path
from tui_reader.core.loading import LoadError, load_paths
from tui_reader.core.paper import Paper
from tui_reader.core.store import PaperStore
from tui_reader.resources import bundled


class UsageError(Exception):
    """A mistake in what the user asked for; the message says what."""


def _add_library_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--library",
        type=Path,
        metavar="FILE",
        help=f"the library file (default: ${ENVIRONMENT_VARIABLE}, else {default_path()})",
    )


def reader_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tui-reader",
        description="Read, filter and triage research-paper abstracts in the terminal.",
        epilog="commands for scripts: tag, untag, bookmark, unbookmark, tags, list "
        "(tui-reader COMMAND --help)",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="a seed-format file or a directory of them (default: the bundled ICML 2026 abstracts)",
    )
    _add_library_option(parser)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def commands_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tui-reader")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        _add_library_option(sub)
        sub.add_argument(
            "--papers",
            type=Path,
            action="append",
            metavar="PATH",
            help="papers whose ids are known (repeatable; default: the bundled abstracts)",
        )
        return sub

    for name, help in (("tag", "add tags to a paper"), ("untag", "remove tags from a paper")):
        sub = command(name, help)
        sub.add_argument("paper_id", metavar="PAPER_ID")
        sub.add_argument("tags", nargs="+", metavar="TAG")
    for name, help in (("bookmark", "bookmark a paper"), ("unbookmark", "remove a bookmark")):
        command(name, help).add_argument("paper_id", metavar="PAPER_ID")
    command("tags", "list every tag with the number of papers that have it")
    listing = command("list", "list papers with their tags and bookmarks")
    listing.add_argument("--tag", action="append", default=[], help="only papers with this tag")
    listing.add_argument("--bookmarked", action="store_true", help="only bookmarked papers")
    listing.add_argument("--format", choices=("text", "jsonl"), default="text")
    return parser


COMMANDS = ("tag", "untag", "bookmark", "unbookmark", "tags", "list")


def open_library(path: Path | None) -> tuple[Library, list[str]]:
    """The library and its problems, told on stderr; the default folder is made when missing."""
    if path is None:
        path = default_path()
        if ENVIRONMENT_VARIABLE not in os.environ:
            with contextlib.suppress(OSError):  # the first save will say why it cannot save
                path.parent.mkdir(parents=True, exist_ok=True)
    library, messages = Library.open(path)
    for message in messages:
        print(f"tui-reader: {message}", file=sys.stderr)
    return library, messages


def resolve_id(paper_id: str, known: Sequence[str]) -> str:
    """The full id that `paper_id` names: itself, or the one known id it begins."""
    if paper_id in known:
        return paper_id
    matches = [i for i in known if i.startswith(paper_id)] if len(paper_id) >= 4 else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UsageError(f"paper id {paper_id} is ambiguous: {', '.join(sorted(matches)[:5])}")
    raise UsageError(f"unknown paper id: {paper_id}")


def paper_record(paper: Paper, library: Library) -> dict[str, object]:
    return {
        "id": paper.id,
        "headline": paper.headline,
        "abstract": paper.abstract,
        "collection": paper.collection,
        "source": str(paper.source),
        "links": list(paper.links),
        "tags": library.tags(paper.id),
        "bookmarked": library.is_bookmarked(paper.id),
        "read": library.is_read(paper.id),
        "note": library.note(paper.id),
    }


def run_command(arguments: argparse.Namespace) -> int:
    library, _ = open_library(arguments.library)
    papers = load_paths(arguments.papers or [bundled("seeds")]).papers
    if arguments.command == "tags":
        for tag, count in library.tag_counts().items():
            print(f"{tag}\t{count}")
        return 0
    if arguments.command == "list":
        return list_papers(arguments, papers, library)
    known = list(dict.fromkeys([paper.id for paper in papers] + library.paper_ids()))
    paper_id = resolve_id(arguments.paper_id, known)
    changes: dict[str, Callable[[], object]] = {
        "tag": lambda: library.change_tags([paper_id], add=arguments.tags),
        "untag": lambda: library.change_tags([paper_id], remove=arguments.tags),
        "bookmark": lambda: library.set_bookmarked([paper_id], True),
        "unbookmark": lambda: library.set_bookmarked([paper_id], False),
    }
    try:
        changes[arguments.command]()
    except ValueError as error:
        raise UsageError(str(error)) from None
    for message in library.save():
        print(f"tui-reader: {message}", file=sys.stderr)
    star = "bookmarked" if library.is_bookmarked(paper_id) else "not bookmarked"
    tags = " ".join(f"#{tag}" for tag in library.tags(paper_id)) or "no tags"
    print(f"{paper_id}: {star}, {tags}")
    return 0


def list_papers(arguments: argparse.Namespace, papers: list[Paper], library: Library) -> int:
    wanted = [tag.lower() for tag in arguments.tag]
    for paper in papers:
        tags = library.tags(paper.id)
        if any(tag not in tags for tag in wanted):
            continue
        if arguments.bookmarked and not library.is_bookmarked(paper.id):
            continue
        if arguments.format == "jsonl":
            print(json.dumps(paper_record(paper, library), ensure_ascii=False))
        else:
            star = "*" if library.is_bookmarked(paper.id) else " "
            tag_text = "".join(f"  #{tag}" for tag in tags)
            print(f"{paper.id} {star} {paper.headline}{tag_text}")
    return 0


def run_reader(arguments: argparse.Namespace) -> int:
    loaded = load_paths(arguments.paths or [bundled("seeds")])
    library, messages = open_library(arguments.library)
    from tui_reader.ui.app import ReaderApp

    ReaderApp(PaperStore(loaded.papers, loaded.collections), library, messages).run()
    # The app saves after every change in the background; a change made just before quitting
    # may not have reached the file yet.
    if library.has_unsaved_changes:
        library.save()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in COMMANDS:
            return run_command(commands_parser().parse_args(argv))
        return run_reader(reader_parser().parse_args(argv))
    except (LoadError, UsageError) as error:
        print(f"tui-reader: {error}", file=sys.stderr)
        return 2
    except LibraryError as error:
        print(f"tui-reader: changes could not be saved: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
