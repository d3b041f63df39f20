"""`tui-reader digest`: the unread papers of each saved search (or of those named), as
Markdown or plain text for an email or as JSON Lines for a script, to run from cron."""

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from tui_reader.cli.commands.searches import (
    NO_SEARCHES,
    add_searched_options,
    searched_papers,
    tell_elsewhere,
)
from tui_reader.cli.selection import library_elsewhere
from tui_reader.cli.shared import (
    DATES,
    LEARNING,
    UsageError,
    date_text,
    first_day,
    open_library,
    papers_or_default,
    settings,
    told_if_slow,
    warn,
)
from tui_reader.core.feeds import feed_numbers, unread_papers
from tui_reader.core.latex_text import plain_text
from tui_reader.core.library import Library
from tui_reader.core.locations import cache_folder
from tui_reader.core.paper import Paper
from tui_reader.core.recommend import Recommender, open_recommender
from tui_reader.core.references import (
    headline_text,
    markdown_link,
    markdown_text,
    paper_record,
    primary_link,
)
from tui_reader.core.store import PaperStore
from tui_reader.core.text import clean, without_debris
from tui_reader.core.wording import count


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Print the unread papers of each saved search (or of those named), for a cron job or an "
        "email."
    )
    parser.add_argument(
        "--search",
        action="append",
        default=[],
        metavar="NAME",
        help="only this saved search (repeatable)",
    )
    parser.add_argument(
        "--since",
        type=date_text,
        metavar="DATE",
        help=f"only papers published on or after DATE ({DATES}); a paper without a "
        "publication date is always kept",
    )
    parser.add_argument(
        "--format",
        choices=("md", "text", "jsonl"),
        default="md",
        help="Markdown (the default), plain text for a mail read as it is, or JSON Lines",
    )
    parser.add_argument(
        "--for-you",
        action="store_true",
        help="each search's papers best first by what you kept and skipped (`recommend`)",
    )
    add_searched_options(parser)


def run(arguments: argparse.Namespace) -> int:
    library, _ = open_library(arguments.library, read_only=True)
    searches = library.saved_searches()
    if arguments.search:
        if unknown := [name for name in arguments.search if name not in searches]:
            known = ", ".join(searches) or "none"
            raise UsageError(f"no saved search {unknown[0]!r} (saved: {known})")
        searches = {name: searches[name] for name in arguments.search}
    if not searches:
        warn(NO_SEARCHES)
        return 0
    config = settings()
    opened = searched_papers(arguments.papers, searches.values(), config)
    papers, index = opened.store, opened.index
    since = first_day(arguments.since) if arguments.since else None
    digest: list[tuple[str, str, list[Paper]]] = []
    liked = None
    if arguments.for_you:
        liked = _for_you(papers, library, papers_or_default(arguments.papers, config).paths)
    found = False  # by any search: read or not, of any date
    for name, query in searches.items():
        numbers = feed_numbers(index, query, library, papers)
        found = found or bool(len(numbers))
        if liked is not None:
            numbers = numbers[liked.order(numbers)]
        unread = unread_papers(numbers, library, papers)
        if since is not None:
            unread = [paper for paper in unread if _published_since(paper, since)]
        digest.append((name, query, unread))
    if not found and (liked is None or liked.cold_start is None):  # else said with it
        tell_elsewhere(arguments.papers, papers, library, config)
    if arguments.format == "jsonl":
        for name, query, unread in digest:
            for paper in unread:
                record = {"search": name, "query": query} | paper_record(paper, library)
                print(json.dumps(record, ensure_ascii=False))
    elif arguments.format == "text":
        sys.stdout.write(text_digest(digest, library, config.search_url))
    else:
        sys.stdout.write(markdown_digest(digest, library, config.search_url))
    return 0


def _for_you(papers: PaperStore, library: Library, paths: list[Path]) -> Recommender:
    """The model of the reader's keeps and skips; without one (said on stderr, first the
    papers of the library not among those read from `paths`) the papers keep the searches'
    order, the decided after the others, as the reader's for-you order puts them."""
    with told_if_slow(LEARNING):
        found = open_recommender(papers, library, None, cache_folder())
    if found.cold_start is not None:
        elsewhere = library_elsewhere(papers, library, paths)
        cold = f"{elsewhere}; {found.cold_start}" if elsewhere else found.cold_start
        warn(f"{cold}; the papers are in the searches' order, the kept last")
    return found


def _published_since(paper: Paper, since: date) -> bool:
    """Whether the paper was published on or after `since` (fetched papers and the arXiv
    snapshot carry the date); a paper without one is kept."""
    return not paper.published or paper.published[:10] >= since.isoformat()


def markdown_digest(
    feeds: Sequence[tuple[str, str, list[Paper]]], library: Library, template: str
) -> str:
    """The unread papers of each saved search, as Markdown: a heading per search, a link and
    the abstract per paper (its LaTeX as written, for Markdown's math; what PDF extraction
    broke mended; never a link or HTML of its own: `markdown_text`)."""
    papers = sum(len(unread) for _, _, unread in feeds)
    lines = [
        f"# tui-reader digest: {count(papers, 'unread paper')} in "
        f"{count(len(feeds), 'saved search', 'saved searches')}"
    ]
    for name, query, unread in feeds:
        heading = markdown_text(clean(name))  # a name is as written, never a link nor HTML
        lines += ["", f"## {heading} ({count(len(unread), 'unread paper')})", ""]
        shown = clean(query).replace("`", "'")
        lines.append(f"Query: `{shown}`")
        for paper in unread:
            line = f"- {markdown_link(paper, primary_link(paper, template))}"
            if tags := library.tags(paper.id):
                line += " — " + " ".join(f"`#{tag}`" for tag in tags)
            lines += ["", line, "", f"  {markdown_text(without_debris(paper.abstract))}"]
    return "\n".join(lines) + "\n"


def text_digest(
    feeds: Sequence[tuple[str, str, list[Paper]]], library: Library, template: str
) -> str:
    """The unread papers of each saved search as plain text, for a mail read as it is: no
    Markdown's escapes (`d \\> 1`), LaTeX as the screen shows it (`$x^2$`: x²), what PDF
    extraction broke mended, each abstract wrapped and indented under its paper's name, link
    and tags."""
    papers = sum(len(unread) for _, _, unread in feeds)
    lines = [
        f"tui-reader digest: {count(papers, 'unread paper')} in "
        f"{count(len(feeds), 'saved search', 'saved searches')}"
    ]
    for name, query, unread in feeds:
        heading = f"{clean(name)} ({count(len(unread), 'unread paper')})"
        lines += ["", heading, "=" * len(heading), f"Query: {clean(query)}"]
        for paper in unread:
            lines += ["", f"* {clean(headline_text(paper))}", f"  {primary_link(paper, template)}"]
            if tags := library.tags(paper.id):
                lines.append("  " + " ".join(f"#{tag}" for tag in tags))
            abstract = clean(plain_text(paper.abstract))
            lines += ["", _ABSTRACT.fill(abstract)]
    return "\n".join(lines) + "\n"


_ABSTRACT = textwrap.TextWrapper(
    72,  # a plain-text mail's lines
    initial_indent="  ",
    subsequent_indent="  ",
    break_long_words=False,  # a link stays whole
    break_on_hyphens=False,
)
