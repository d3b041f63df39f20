"""The papers the commands for scripts read, as the reader reads them: a file of a folder that
is not text or cannot be opened is passed over and said, the records that cannot be read are
said (the first few), a filter (`--category`, `--since`) keeps papers as it does at the
reader's start, and the papers read whole are kept in the cache for the next run."""

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from tui_reader.command_options import NoMatch
from tui_reader.core.engine import SearchEngine
from tui_reader.core.index_cache import indexed_papers, kept_papers
from tui_reader.core.loading import (
    NO_FILTER,
    LoadFilter,
    LoadResult,
    NothingAdmitted,
    check_paths,
    load_paths,
)
from tui_reader.core.paper import Paper
from tui_reader.core.references import reference_title
from tui_reader.core.search_service import build_index
from tui_reader.core.wording import count

SKIPPED_TOLD = 5  # problems reading the papers a command prints; the rest counted


def first_and_more(problems: Sequence[str], shown: int) -> tuple[Sequence[str], str]:
    """The first `shown` problems, and how many more there are ("" for none)."""
    rest = len(problems) - shown
    return problems[:shown], count(rest, "more problem") if rest > 0 else ""


def passed_over(problem: str) -> str:
    """What the reader and the commands say of a folder's file that they pass over."""
    return f"{problem}: passed over, the folder's other files are read"


def tell_skipped(problems: Sequence[str]) -> None:
    """The records the papers' files hold that could not be read, on stderr: the first few,
    then how many more (a command run again and again said the same 29 lines each time)."""
    first, more = first_and_more(problems, SKIPPED_TOLD)
    for problem in first:
        print(f"tui-reader: skipped {problem}", file=sys.stderr)
    if more:
        print(f"tui-reader: {more} reading the papers (the reader lists them)", file=sys.stderr)


def read_papers(
    paths: Sequence[Path], keep: LoadFilter = NO_FILTER, indexed: bool = False, asked: str = ""
) -> tuple[LoadResult, SearchEngine | None]:
    """The papers the paths name, and with `indexed` their index (else None), what was
    passed over and skipped told on stderr. NoMatch when `keep` leaves no paper (`asked`:
    the options as typed, to say so)."""
    bad: list[str] = []
    files = check_paths(paths, passed_over=bad)
    for problem in bad:
        print(f"tui-reader: {passed_over(problem)}", file=sys.stderr)
    index: SearchEngine | None = None
    if keep != NO_FILTER:  # as the reader: a load filtered is not kept
        try:
            loaded = load_paths(paths, keep, set(files))
        except NothingAdmitted:
            raise NoMatch(f"no paper matches {asked}") from None
        if indexed:
            index = build_index(loaded.papers)
    elif indexed:
        found = indexed_papers(paths, files)
        if found.unusable:
            print(f"tui-reader: {found.unusable}", file=sys.stderr)
        loaded, index = found.loaded, found.index
    elif kept := kept_papers(files):  # read back at once: a million took minutes
        loaded = kept[1]
    else:
        loaded = load_paths(paths, only=set(files))
    tell_skipped(loaded.problems)
    return loaded, index


def print_ranked(
    rank: int, paper: Paper, score: float, kind: str, why: Sequence[str] | None = None
) -> None:
    """One paper of a ranking (`search`, `recommend`): a line of text, or an object of JSON
    Lines with its rank, id, score (and why, when given), headline, title and abstract."""
    if kind != "jsonl":
        print(f"{rank:>3}. {paper.id}  {paper.headline}")
        return
    record: dict[str, object] = {"rank": rank, "id": paper.id, "score": round(score, 3)}
    if why is not None:
        record["why"] = list(why)
    record |= {"headline": reference_title(paper), "title": paper.title, "abstract": paper.abstract}
    print(json.dumps(record, ensure_ascii=False))
