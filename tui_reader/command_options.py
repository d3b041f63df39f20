"""What the commands for scripts take alike (`--papers`, `--category`, `--since`, tags) and
the two outcomes besides success they report: a mistake, and nothing found."""

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from tui_reader.core.library import normalise_tag, valid_tags
from tui_reader.core.loading import LoadFilter
from tui_reader.core.locations import LIBRARY_VARIABLE, library_path
from tui_reader.core.metadata_filter import is_date

DEFAULT_PAPERS = "default: the config's paths, else the fetched collections, else the seeds"


class UsageError(Exception):
    """A mistake in what the user asked for; the message says what (exit status 2)."""


class NoMatch(Exception):
    """No paper matches what the user asked for; the message says why (exit status 1, as grep
    and `fzf --filter` say it)."""


def add_library_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--library",
        type=Path,
        metavar="FILE",
        help=f"the library file (default: ${LIBRARY_VARIABLE}, else {library_path()})",
    )


def add_papers_option(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument(
        "--papers",
        type=Path,
        action="append",
        default=[],
        metavar="PATH",
        help=f"{help} (repeatable; {DEFAULT_PAPERS})",
    )


def since_date(text: str) -> str:
    """A `--since` date: YYYY-MM-DD, YYYY-MM or YYYY, a day of the calendar."""
    if not is_date(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: YYYY-MM-DD, YYYY-MM or YYYY")
    return text


def add_load_filter_options(parser: argparse.ArgumentParser, only: str) -> None:
    """`--category` and `--since`, as the reader and the commands take them (`only`: "load
    only papers", "only papers")."""
    parser.add_argument(
        "--category",
        action="append",
        default=[],
        metavar="C",
        help=f"{only} in this arXiv category or archive (cs.LG, cs); repeatable: any",
    )
    parser.add_argument(
        "--since",
        type=since_date,
        metavar="DATE",
        help=f"{only} first published on or after DATE (YYYY-MM-DD, YYYY-MM or YYYY)",
    )


def load_filter(arguments: argparse.Namespace) -> LoadFilter:
    return LoadFilter(tuple(arguments.category), arguments.since or "")


def asked_for(arguments: argparse.Namespace, query_option: bool = True) -> str:
    """The filters asked for, as they are typed (`--tag later --query 'a | b'`), to say
    that no paper matches them; the query of `search` without `--query`."""
    words: list[str] = []
    for tag in getattr(arguments, "tag", []):
        words += ["--tag", tag]
    if getattr(arguments, "bookmarked", False):
        words.append("--bookmarked")
    if arguments.query:
        words += ["--query", arguments.query] if query_option else [arguments.query]
    for category in arguments.category:
        words += ["--category", category]
    if arguments.since:
        words += ["--since", arguments.since]
    return shlex.join(words)


def tags_given(texts: Sequence[str], option: str = "", to_remove: bool = False) -> list[str]:
    """Tags as the user typed them, as they are stored: a leading `#` (as the reader writes
    them) is the tag's mark, and capitals are folded, which is said once on stderr.
    UsageError names one that is no tag (`option`: the option it came with), unless the tags
    are `to_remove`: a tag a file holds that is no valid tag can still be removed."""
    bare = [text.strip().removeprefix("#") for text in texts]
    if to_remove:
        tags = [normalise_tag(text) or text for text in bare]
    else:
        try:
            tags = valid_tags(bare)
        except ValueError as error:
            raise UsageError(f"{option}: {error}" if option else str(error)) from None
    if folded := [tag for text, tag in zip(bare, tags, strict=True) if text.strip() != tag]:
        shown = ", ".join(f"#{tag}" for tag in dict.fromkeys(folded))
        print(f"tui-reader: tags are kept in lower case: {shown}", file=sys.stderr)
    return tags
