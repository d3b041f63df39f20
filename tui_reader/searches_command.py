"""`tui-reader searches` and `tui-reader digest`: saved searches as feeds, without the reader.

`searches` lists each saved search with how many papers it finds and how many of those are
unread; `digest` prints the unread papers of each (or of those named), as Markdown for an
email or as JSON Lines for a script, to run from cron. The counts are those of the reader's
feeds panel and of `list --query`: the papers matching the query in full.
"""

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import date

from tui_reader.cli import open_library, papers_or_default, settings
from tui_reader.command_options import UsageError, add_library_option, add_papers_option
from tui_reader.command_papers import read_papers
from tui_reader.core.feeds import FeedCount, FeedCounter, feed_numbers, unread_papers
from tui_reader.core.library import Library
from tui_reader.core.locations import cache_folder
from tui_reader.core.paper import Paper
from tui_reader.core.recommend import ColdStart, Recommender, recommender
from tui_reader.core.references import markdown_link, paper_record, primary_link
from tui_reader.core.search_service import needs_index
from tui_reader.core.store import PaperStore
from tui_reader.core.text import clean, without_debris
from tui_reader.core.wording import count

NAMES = ("searches", "digest")
NO_SEARCHES = "no saved searches yet: S in the reader saves the filter under a name"


def _since(text: str) -> date:
    """A date given as YYYY-MM-DD, YYYY-MM or YYYY (the first day of the month or year)."""
    padded = text + {4: "-01-01", 7: "-01"}.get(len(text), "")
    try:
        return date.fromisoformat(padded)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (like 2026-06-01)") from None


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tui-reader")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser(
        "searches",
        help="list the saved searches with their unread and total counts",
        description="List the saved searches: name, unread papers, papers found, query.",
    )
    listing.add_argument("--format", choices=("text", "jsonl"), default="text")
    digest = commands.add_parser(
        "digest",
        help="print the unread papers of each saved search",
        description="Print the unread papers of each saved search (or of those named), for "
        "a cron job or an email.",
    )
    digest.add_argument(
        "--search",
        action="append",
        default=[],
        metavar="NAME",
        help="only this saved search (repeatable)",
    )
    digest.add_argument(
        "--since",
        type=_since,
        metavar="DATE",
        help="only papers published on or after DATE (YYYY-MM-DD); a paper without a "
        "publication date is always kept",
    )
    digest.add_argument("--format", choices=("md", "jsonl"), default="md")
    digest.add_argument(
        "--for-you",
        action="store_true",
        help="each search's papers best first by what you kept and skipped (`recommend`)",
    )
    for sub in (listing, digest):
        add_library_option(sub)
        add_papers_option(sub, "the papers to search")
    return parser


def run_searches(argv: Sequence[str]) -> int:
    arguments = parser().parse_args(argv)
    library, _ = open_library(arguments.library, read_only=True)
    searches = library.saved_searches()
    if arguments.command == "digest" and arguments.search:
        if unknown := [name for name in arguments.search if name not in searches]:
            known = ", ".join(searches) or "none"
            raise UsageError(f"no saved search {unknown[0]!r} (saved: {known})")
        searches = {name: searches[name] for name in arguments.search}
    if not searches:
        print(f"tui-reader: {NO_SEARCHES}", file=sys.stderr)
        return 0
    paths = papers_or_default(arguments.papers or [])
    indexed = any(needs_index(query) for query in searches.values())
    loaded, index = read_papers(paths, indexed=indexed)
    papers = loaded.papers
    if arguments.command == "searches":
        list_searches(FeedCounter().count(searches, index, library, papers), arguments.format)
        return 0
    digest: list[tuple[str, str, list[Paper]]] = []
    liked = _for_you(papers, library) if arguments.for_you else None
    for name, query in searches.items():
        numbers = feed_numbers(index, query, library, papers)
        if liked is not None:
            numbers = numbers[liked.order(numbers)]
        unread = unread_papers(numbers, library, papers)
        if arguments.since is not None:
            unread = [paper for paper in unread if _published_since(paper, arguments.since)]
        digest.append((name, query, unread))
    if arguments.format == "jsonl":
        for name, query, unread in digest:
            for paper in unread:
                record = {"search": name, "query": query} | paper_record(paper, library)
                print(json.dumps(record, ensure_ascii=False))
    else:
        sys.stdout.write(markdown_digest(digest, library, settings().search_url))
    return 0


def _for_you(papers: PaperStore, library: Library) -> Recommender | None:
    """The model of the reader's keeps and skips; None, said on stderr, when there is none."""
    try:
        return recommender(papers, library, None, cache_folder())
    except ColdStart as error:
        print(f"tui-reader: {error}; the papers are in the searches' order", file=sys.stderr)
        return None


def list_searches(feeds: list[FeedCount], kind: str) -> None:
    """One line per saved search: its name, unread and total counts, and its query."""
    width = max(len(clean(feed.name)) for feed in feeds)
    for feed in feeds:
        if kind == "jsonl":
            record = {"name": feed.name, "query": feed.query}
            print(json.dumps(record | {"unread": feed.unread, "total": feed.total}))
        else:
            counts = f"{feed.unread or 0:>5,} unread of {feed.total or 0:<6,}"
            print(f"{clean(feed.name):<{width}}  {counts}  {clean(feed.query)}")


def _published_since(paper: Paper, since: date) -> bool:
    """Whether the paper was published on or after `since` (fetched papers and the arXiv
    snapshot carry the date); a paper without one is kept."""
    return not paper.published or paper.published[:10] >= since.isoformat()


def markdown_digest(
    feeds: Sequence[tuple[str, str, list[Paper]]], library: Library, template: str
) -> str:
    """The unread papers of each saved search, as Markdown: a heading per search, a link and
    the abstract per paper (its LaTeX as written, for Markdown's math; what PDF extraction
    broke mended)."""
    papers = sum(len(unread) for _, _, unread in feeds)
    lines = [
        f"# tui-reader digest: {count(papers, 'unread paper')} in "
        f"{count(len(feeds), 'saved search', 'saved searches')}"
    ]
    for name, query, unread in feeds:
        lines += ["", f"## {clean(name)} ({count(len(unread), 'unread paper')})", ""]
        shown = clean(query).replace("`", "'")
        lines.append(f"Query: `{shown}`")
        for paper in unread:
            line = f"- {markdown_link(paper, primary_link(paper, template))}"
            if tags := library.tags(paper.id):
                line += " — " + " ".join(f"`#{tag}`" for tag in tags)
            lines += ["", line, "", f"  {without_debris(paper.abstract)}"]
    return "\n".join(lines) + "\n"
