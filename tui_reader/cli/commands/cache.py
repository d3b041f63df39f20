"""`tui-reader cache`: what the cache folder keeps, and pruning it.

    tui-reader cache [list] [--format text|jsonl]
    tui-reader cache prune [--unused-for DAYS | --all]

`list` gives each entry kept (the papers of a list of files and their index): its files, its
parts (the ranges of files each holds), papers, size, and when it was last used; `prune`
removes entries until the folder keeps under the `[cache] limit` setting, those not used for
DAYS, or all of them. Exit status 0; 2 for a mistake in the command.
"""

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from tui_reader.cli.shared import settings
from tui_reader.core.loading import LoadFilter
from tui_reader.core.locations import cache_folder
from tui_reader.core.segments.filtered import as_json
from tui_reader.core.segments.kept import prune
from tui_reader.core.segments.listing import (
    EntrySummary,
    Unfinished,
    ago,
    cache_size,
    kept_entries,
    unfinished,
)
from tui_reader.core.wording import count


def _days(text: str) -> float:
    try:
        days = float(text)
    except ValueError:
        days = -1.0
    if days < 0:
        raise argparse.ArgumentTypeError(f"not a number of days: {text!r}")
    return days


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "What the cache folder keeps (the papers of each list of files opened, "
        "and their index, in parts), and pruning it."
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    listing = actions.add_parser("list", help="each entry: its files, parts, papers, size, age")
    listing.add_argument("--format", choices=("text", "jsonl"), default="text")
    pruning = actions.add_parser(
        "prune", help="remove entries, least recently used first, to keep under [cache] limit"
    )
    chosen = pruning.add_mutually_exclusive_group()
    chosen.add_argument(
        "--unused-for", type=_days, metavar="DAYS", help="and those not used for DAYS"
    )
    chosen.add_argument("--all", action="store_true", help="every entry")


def size(number: int) -> str:
    """Bytes as the listing says them: 3.1 GB, 420 MB, 12 kB."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if number >= scale:
            return f"{number / scale:.3g} {unit}"
    return f"{number} bytes"


def _options(load_filter: LoadFilter) -> str:
    """A filter as the options that give it: `--category cs.LG --since 2026-11-02`."""
    options = [f"--category {name}" for name in load_filter.categories]
    return " ".join(options + ([f"--since {load_filter.since}"] if load_filter.since else []))


def list_entries(entries: Sequence[EntrySummary], kind: str, stream: TextIO) -> None:
    for kept in entries:
        if kind == "jsonl":
            record = {
                "entry": kept.folder.name,
                "files": kept.files,
                "filter": as_json(kept.load_filter),
                "papers": kept.papers,
                "bytes": kept.size,
                "own_bytes": kept.own,
                "used": kept.used,
                "parts": [
                    {
                        "part": part.name,
                        "papers": part.papers,
                        "made": part.made,
                        "ranges": [[r.path, r.start, r.end] for r in part.ranges],
                    }
                    for part in kept.parts
                ],
            }
            if kept.problem:
                record["problem"] = kept.problem
            print(json.dumps(record, ensure_ascii=False), file=stream)
            continue
        shared = f", {size(kept.own)} its own" if kept.own != kept.size else ""
        if kept.problem:
            print(f"{kept.folder.name}: {size(kept.size)}{shared}, cannot be read", file=stream)
            print(f"  {kept.problem}", file=stream)
            continue
        parts = count(len(kept.parts), "part")
        print(
            f"{kept.folder.name}: {count(kept.papers, 'paper')} in {parts}, "
            f"{size(kept.size)}{shared}, used {ago(kept.used)} ago",
            file=stream,
        )
        for file in kept.files:
            print(f"  {file}", file=stream)
        if only := _options(kept.load_filter):
            print(f"  only {only}", file=stream)
        for part in kept.parts:
            ranges = ", ".join(f"{r.start:,}-{r.end:,}" for r in part.ranges)
            print(
                f"    part {part.name}: {count(part.papers, 'paper')}, bytes {ranges}, "
                f"made {ago(part.made)} ago",
                file=stream,
            )


def _tell_unfinished(found: Unfinished) -> None:
    """The writes not finished, apart from the entries (their size is in the folder's)."""
    if found.writing:
        print(f"  {count(found.writing, 'entry')} being written now, {size(found.writing_size)}")
    if found.left:
        print(
            f"  {count(found.left, 'unfinished write')} left over, {size(found.left_size)}: "
            "`tui-reader cache prune` removes " + ("it" if found.left == 1 else "them")
        )


def run(arguments: argparse.Namespace) -> int:
    """`tui-reader cache ...`; the exit status."""
    root, limit = cache_folder(), settings().cache_limit  # a bad setting told, as ever
    if arguments.action == "prune":
        if root.is_dir():
            seconds = None if arguments.unused_for is None else arguments.unused_for * 86_400
            removed = prune(root, 0 if arguments.all else limit, unused_for=seconds)
            for folder in removed:
                print(f"removed {folder.name}", file=sys.stderr)
        print(f"{root}: {size(cache_size(root))} kept, of {size(limit)} at most")
        return 0
    entries = kept_entries(root)
    if getattr(arguments, "format", "text") == "text":
        print(
            f"{root}: {count(len(entries), 'entry', 'entries')}, {size(cache_size(root))} "
            f"of {size(limit)} at most"
        )
        _tell_unfinished(unfinished(root))
    list_entries(entries, getattr(arguments, "format", "text"), sys.stdout)
    return 0
