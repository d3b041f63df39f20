"""What the reader and the commands for scripts share: their two outcomes besides success (a
mistake, and nothing found), one way to warn on stderr, the options they take alike
(`--library`, `--papers`, `--category`, `--since`, tags, a query), the settings, and the
library and papers they open when given none."""

import argparse
import contextlib
import os
import shlex
import sys
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import NamedTuple, NoReturn

from tui_reader.core.config import Config, load_config
from tui_reader.core.formats import paper_suffixes
from tui_reader.core.library import (
    ENVIRONMENT_VARIABLE,
    Library,
    LibraryPathError,
    default_path,
    normalise_tag,
    valid_tags,
)
from tui_reader.core.links import check_search_template
from tui_reader.core.loading import LoadFilter
from tui_reader.core.locations import (
    LIBRARY_VARIABLE,
    config_is_named,
    config_path,
    library_path,
)
from tui_reader.core.metadata_filter import is_date
from tui_reader.core.query import Query, parse_query
from tui_reader.core.sources.folder import fetched_collections
from tui_reader.resources import bundled

DEFAULT_PAPERS = "default: the config's paths, else the fetched collections, else the seeds"
INTERRUPTED = 128 + 2  # SIGINT's number: the status a shell gives a program Ctrl-C ended


class UsageError(Exception):
    """A mistake in what the user asked for; the message says what (exit status 2). With
    `command` (`tui-reader cache prune`), the line told names it and its help."""

    def __init__(self, message: str, command: str = "") -> None:
        super().__init__(message)
        self.command = command

    def line(self) -> str:
        """The one line told on stderr: `tui-reader: what`, or `tui-reader search: what (see
        tui-reader search --help)`."""
        if not self.command:
            return f"tui-reader: {self}"
        return f"{self.command}: {self} (see {self.command} --help)"


PARSED_BY = "parsed_by"  # the arguments parsed: which command's parser parsed them last


class OneLineParser(argparse.ArgumentParser):
    """A parser whose mistakes are a UsageError naming its command, never argparse's usage
    and exit (its subcommands' parsers are of its class too: argparse makes them so). A
    subcommand's own mistakes name it (`tui-reader library merge`), an argument it does not
    know too (argparse leaves those to the command's parser), and one not known is told
    before one missing, which argparse tells first. The arguments parsed name, as PARSED_BY,
    the subcommand they are of, for a mistake found as it runs."""

    _lenient = False  # parsing again with nothing required, to find an argument not known

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.prog)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        arguments = sys.argv[1:] if args is None else list(args)
        try:
            parsed, unknown = super().parse_known_args(arguments, namespace)
        except UsageError:
            if not self._lenient:
                self._unknown_first(arguments)
            raise
        if unknown:
            self.error(f"unrecognized arguments: {' '.join(unknown)}")
        if not hasattr(parsed, PARSED_BY):  # a subcommand's parser named it first
            setattr(parsed, PARSED_BY, self.prog)
        return parsed, []

    def _unknown_first(self, arguments: list[str]) -> None:
        """The UsageError of an argument not known, if one is: the arguments parsed again
        with nothing required (argparse tells a missing one before it has looked at all)."""
        parsers = list(_parsers(self))
        items: list[argparse.Action | argparse._MutuallyExclusiveGroup] = [
            *(action for parser in parsers for action in parser._actions),
            *(group for parser in parsers for group in parser._mutually_exclusive_groups),
        ]
        required = [(item, item.required) for item in items]
        try:
            for parser in parsers:
                parser._lenient = True
            for item, _ in required:
                item.required = False
            self.parse_known_args(arguments)
        finally:
            for parser in parsers:
                parser._lenient = False
            for item, was in required:
                item.required = was


def _parsers(parser: argparse.ArgumentParser) -> Iterator[OneLineParser]:
    """The parser and its subcommands' parsers, theirs too."""
    if isinstance(parser, OneLineParser):
        yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subcommand in action.choices.values():
                yield from _parsers(subcommand)


class NoMatch(Exception):
    """No paper matches what the user asked for; the message says why (exit status 1, as grep
    and `fzf --filter` say it)."""


def warn(message: str) -> None:
    """One line on stderr, as every problem and remark of the commands is told."""
    sys.stderr.write(f"tui-reader: {message}\n")  # one write: a line of another thread waits


SLOW = 1.0  # seconds of work a terminal waits in silence
# What takes seconds: a first run over new papers makes their rows (kept), new decisions train.
LEARNING = "learning from your decisions"


def on_terminal() -> bool:
    return sys.stderr.isatty()


@contextlib.contextmanager
def told_if_slow(what: str) -> Iterator[None]:
    """Say `what` is being done, on stderr, should it take SLOW seconds or more and stderr be
    a terminal: a first run over new papers (their index built, their rows for the model)
    takes seconds, which a script or a cron's mail need not hear of."""
    if not on_terminal():
        yield
        return
    timer = threading.Timer(SLOW, warn, [f"{what}…"])
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()  # a line being said is said whole, before anything after the work


DATES = "YYYY-MM-DD, YYYY-MM or YYYY, or today or yesterday"  # what date_text takes


def date_text(text: str) -> str:
    """A date argument (`--since`): YYYY-MM-DD, YYYY-MM or YYYY, a day of the calendar, or
    `today` or `yesterday` (for a command a cron job runs every day), given as that day."""
    if (days := {"today": 0, "yesterday": 1}.get(text.lower())) is not None:
        return (date.today() - timedelta(days=days)).isoformat()
    if not is_date(text):
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (like 2026-06-01)")
    return text


def first_day(text: str) -> date:
    """The first day a date argument names (of its month or year, for 2026-06 or 2026)."""
    return date.fromisoformat(text + {4: "-01-01", 7: "-01"}.get(len(text), ""))


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


def add_search_url_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--search-url",
        metavar="TEMPLATE",
        help="the search link every paper gets, with a {query} slot (default: the config file's "
        "search_url, else a Google Scholar search)",
    )


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
        type=date_text,
        metavar="DATE",
        help=f"{only} first published on or after DATE ({DATES})",
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
    typed = [unicodedata.normalize("NFC", text.strip()) for text in bare]  # é either way
    if folded := [tag for text, tag in zip(typed, tags, strict=True) if text != tag]:
        shown = ", ".join(f"#{tag}" for tag in dict.fromkeys(folded))
        warn(f"tags are kept in lower case: {shown}")
    return tags


def checked_query(text: str) -> Query:
    """The query of a command (`search`, `--query` of `list`, `export` and `recommend`), its
    last word typed in full. UsageError for a filter typed close to one ("is:bookm is not a
    filter: did you mean is:bookmarked?"): searched as words, it would give a script the
    papers of two words nobody asked for; and for a query with nothing to search for ("((("),
    which matched every paper."""
    asked = parse_query(text + " ")
    if asked.mistyped:
        raise UsageError(asked.mistyped[0])
    if not (asked.terms or asked.states or asked.metadata or asked.either):
        raise UsageError(f"the query {text!r} has no word or filter to search for")
    return asked


def tell_misread(asked: Query) -> None:
    """Say on stderr which words of the query name a filter but are searched as words."""
    for reason in asked.misread:
        warn(f"{reason}: searched as words")


def open_library(
    path: Path | None, read_only: bool = False, session: bool = False
) -> tuple[Library, list[str]]:
    """The library and its problems, told on stderr; the default folder is made when missing
    and the library is to be written. `read_only`: no file is repaired, moved or made.

    Why no change can be saved (Library.blocked) is told by the reader (`session`) at once,
    its changes being kept for the session; by a command that writes, by its save, which
    raises LibraryError; by a command that only reads, not at all. A library named (--library,
    $TUI_READER_LIBRARY) in a folder that does not exist is LibraryPathError (a path mistyped
    would read as a library of nothing), and so is a library's backup."""
    named = path is not None or bool(os.environ.get(ENVIRONMENT_VARIABLE))
    if path is None:
        path = default_path()
        if not named and not read_only:
            with contextlib.suppress(OSError):  # the first save will say why it cannot save
                path.parent.mkdir(parents=True, exist_ok=True)
    if named and not path.parent.is_dir():
        raise LibraryPathError(f"{path}: the folder {path.parent} does not exist")
    if named and not os.path.lexists(path) and _papers_name(path):  # --library for --papers
        raise LibraryPathError(
            f"{path}: no such library, and the name is one of papers: give papers with "
            "--papers, or name a new library .json"
        )
    # A library's backup named as one: its changes would be a journal its library reads back.
    if path.name.endswith(".bak") and (kept := path.with_name(path.name[:-4])).is_file():
        raise LibraryPathError(f"{path}: the backup of {kept}: name {kept}, or a copy of this")
    library, messages = Library.open(path, read_only=read_only)
    if library.blocked and session:
        messages.append(f"{library.blocked}: changes are kept for this session only")
    for message in messages:
        warn(message)
    return library, messages


def _papers_name(path: Path) -> bool:
    """Whether a file's name is one of papers (`x.jsonl.gz`, `refs.bib`), never a library's."""
    name = path.name.lower()
    return name.endswith(".gz") or name.endswith(tuple(set(paper_suffixes()) - {".json"}))


def settings() -> Config:
    """The config file's settings, its problems told on stderr (commands run without a screen)."""
    config, problems = load_config(config_path(), named=config_is_named())
    for problem in problems:
        warn(problem)
    return config


class NamedPapers(NamedTuple):
    """The papers to read, and where the config named them ("paths in FILE, line 3"; "" when
    it did not), told with one that cannot be read."""

    paths: list[Path]
    origin: str = ""


def papers_or_default(paths: Sequence[Path], config: Config) -> NamedPapers:
    """The papers named, else those the reader opens when given none: the config's `paths`,
    else the collections fetched so far, else the bundled abstracts. A command loads its
    `config` once (settings): its problems are told once, also when papers are named."""
    if paths:
        return NamedPapers(list(paths))
    if config.paths:
        return NamedPapers(list(config.paths), config.paths_origin)
    return NamedPapers(fetched_collections() or [bundled("seeds")])


def search_template(option: str | None, config: Config) -> str:
    """The search-link template: the option, else the config file's (or the default)."""
    if option is None:
        return config.search_url
    try:
        return check_search_template(option)
    except ValueError as error:
        raise UsageError(str(error)) from None
