"""The papers `list` and `export` work on: those that pass `--tag`, `--bookmarked`, `--query`,
`--category` and `--since`, best match first for a query; when none does, why."""

import argparse
from dataclasses import replace
from pathlib import Path

from tui_reader.cli.paper_change import add_papers_and_library_options
from tui_reader.cli.papers import read_papers
from tui_reader.cli.shared import (
    NoMatch,
    add_load_filter_options,
    asked_for,
    checked_query,
    load_filter,
    open_library,
    papers_or_default,
    tags_given,
    tell_misread,
    warn,
)
from tui_reader.core.config import Config
from tui_reader.core.engine import SearchEngine
from tui_reader.core.library import Library
from tui_reader.core.loading import NO_FILTER
from tui_reader.core.nothing_found import why_nothing
from tui_reader.core.opening import resolved
from tui_reader.core.paper import Paper
from tui_reader.core.query import StateFilter, parse_query
from tui_reader.core.search_service import needs_index, search_papers
from tui_reader.core.store import PaperStore
from tui_reader.core.wording import count


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    """The library and papers, and the options that select among the papers."""
    add_papers_and_library_options(parser)
    parser.add_argument("--tag", action="append", default=[], help="only papers with this tag")
    parser.add_argument("--bookmarked", action="store_true", help="only bookmarked papers")
    parser.add_argument("--query", default="", help="only papers matching this filter query")
    add_load_filter_options(parser, "only papers")


def selected_papers(
    arguments: argparse.Namespace, config: Config
) -> tuple[list[Paper], Library, list[Path]]:
    """The papers selected, the library (opened to be read) and the files the papers were read
    from. NoMatch when none is."""
    arguments.tag = tags_given(arguments.tag, "--tag")  # first: bad input opens nothing
    query = checked_query(arguments.query) if arguments.query else None
    named = papers_or_default(arguments.papers, config)
    # A query's search terms need the index, read from the cache as search reads it.
    opened = read_papers(
        named, load_filter(arguments), needs_index(arguments.query), asked_for(arguments)
    )
    library, _ = open_library(arguments.library, read_only=True)
    papers = resolved(opened, library).store
    if query is not None:
        tell_misread(query)
    selected = _select(arguments, papers, opened.index, library)
    left_out = _left_out(arguments, papers, library, named.paths)
    if not selected:  # the papers left out, when there are some, are why
        raise NoMatch(left_out or _nothing(arguments, papers, library))
    if left_out:
        warn(left_out)
    return selected, library, [*papers.source_files(), *opened.files]


def _required(arguments: argparse.Namespace) -> tuple[StateFilter, ...]:
    """--tag and --bookmarked, as the state filters a query must pass."""
    options = [f"#{tag}" for tag in arguments.tag] + ["is:bookmarked"] * arguments.bookmarked
    return parse_query(" ".join(options) + " ").states


def _select(
    arguments: argparse.Namespace,
    papers: PaperStore,
    index: SearchEngine | None,
    library: Library,
) -> list[Paper]:
    """The papers that pass --tag, --bookmarked and --query (those matching every term of
    it), best match first for a query: the options are state filters the query must pass
    (a query beginning with `|` joined them: `--tag a --query "| b"` listed either)."""
    required = _required(arguments)
    found = search_papers(index, arguments.query, library, "relevance", papers, required)
    if found.told:
        warn(found.told)
    return [papers[int(number)] for number in found.numbers[: found.full]]


def _nothing(arguments: argparse.Namespace, papers: PaperStore, library: Library) -> str:
    """Why `_select` found no paper: a tag or a field no paper has, else what was asked."""
    query = parse_query(arguments.query + " ")  # its last word typed in full
    query = replace(query, states=query.states + _required(arguments))
    why = why_nothing(query, library.tag_counts(), papers)
    return why or f"no paper matches {asked_for(arguments)}"


def _left_out(
    arguments: argparse.Namespace, papers: PaperStore, library: Library, paths: list[Path]
) -> str:
    """How many papers of the library pass --tag and --bookmarked but are not among the
    papers read ("" for none): listing them needs their files (listing got nothing,
    unsaid). Not when --category or --since left papers out: naming files is no help."""
    wanted = arguments.tag
    if (not wanted and not arguments.bookmarked) or load_filter(arguments) != NO_FILTER:
        return ""
    left_out = [
        paper_id
        for paper_id in library.paper_ids()
        if papers.position_of(paper_id) is None
        and all(tag in library.tags(paper_id) for tag in wanted)
        and (library.is_bookmarked(paper_id) or not arguments.bookmarked)
    ]
    which = [" ".join(f"#{tag}" for tag in wanted)] if wanted else []
    which += ["bookmarked"] if arguments.bookmarked else []
    return _not_read(len(left_out), ", ".join(which), paths)


def library_elsewhere(papers: PaperStore, library: Library, paths: list[Path]) -> str:
    """How many papers of the library are not among the papers read, and how to name them
    ("" for none): the reader was given files the command was not (`tui-reader FILE`)."""
    elsewhere = sum(
        papers.position_of(paper_id) is None and _holds_any(library, paper_id)
        for paper_id in library.paper_ids()
    )
    return _not_read(elsewhere, "of your library", paths)


def _holds_any(library: Library, paper_id: str) -> bool:
    """Whether the paper is bookmarked, read, tagged or annotated: not only given a key, or
    left with nothing (a bookmark taken off)."""
    return bool(
        library.is_bookmarked(paper_id)
        or library.is_read(paper_id)
        or library.tags(paper_id)
        or library.note(paper_id)
    )


def _not_read(left_out: int, which: str, paths: list[Path]) -> str:
    if not left_out:
        return ""
    named = ", ".join(str(path) for path in paths[:3]) + (", …" if len(paths) > 3 else "")
    one = left_out == 1
    return (
        f"{count(left_out, 'paper')} {which} {'is' if one else 'are'} not in the papers read"
        f" ({named}): name {'its file' if one else 'their files'} with --papers"
    )
