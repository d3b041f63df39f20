"""The papers the commands for scripts read, opened as core.opening opens them: a file of a
folder that is not text or cannot be opened is passed over and said, the records that cannot
be read are said (the first few), a filter (`--category`, `--since`) keeps papers as it does
at the reader's start, and the papers read whole are read from the cache when they were
written to it."""

import json
from collections.abc import Sequence

from tui_reader.cli.shared import NamedPapers, NoMatch, told_if_slow, warn
from tui_reader.core.loading import NO_FILTER, LoadFilter, NothingAdmitted, check_paths
from tui_reader.core.opening import Opening, open_papers
from tui_reader.core.paper import Paper
from tui_reader.core.references import headline_text, reference_title
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
        warn(f"skipped {problem}")
    if more:
        warn(f"{more} reading the papers (the reader lists them)")


def read_papers(
    named: NamedPapers,
    load_filter: LoadFilter = NO_FILTER,
    indexed: bool = False,
    asked: str = "",
) -> Opening:
    """The papers named (with `indexed`, their index too), what was passed over and skipped
    told on stderr, and where the config named a path that cannot be read. NoMatch when
    `load_filter` admits no paper (`asked`: the options as typed, to say so)."""
    bad: list[str] = []
    files = check_paths(named.paths, named.origin, passed_over=bad)
    work = "reading the papers (a first run indexes them, and keeps the index in the cache)"
    try:
        with told_if_slow(work if indexed else "reading the papers"):
            opening = open_papers(named.paths, files, load_filter, indexed=indexed, passed_over=bad)
    except NothingAdmitted:
        raise NoMatch(f"no paper matches {asked}") from None
    finally:
        for problem in bad:
            warn(passed_over(problem))
    for problem in opening.cache_problems:
        warn(problem)
    tell_skipped(opening.skipped)
    return opening


def print_ranked(
    rank: int, paper: Paper, score: float, kind: str, why: Sequence[str] | None = None
) -> None:
    """One paper of a ranking (`search`, `recommend`): a line of text, or an object of JSON
    Lines with its rank, id, score (and why, when given), headline, title and abstract."""
    if kind != "jsonl":
        print(f"{rank:>3}. {paper.id}  {headline_text(paper)}")
        return
    record: dict[str, object] = {"rank": rank, "id": paper.id, "score": round(score, 3)}
    if why is not None:
        record["why"] = list(why)
    record |= {"headline": reference_title(paper), "title": paper.title, "abstract": paper.abstract}
    print(json.dumps(record, ensure_ascii=False))
