"""Small parts merged, so that an entry a day's papers are added to every day stays of few
parts (each part costs its opening and a look-up a word of each search).

Parts are merged as Lucene's merge policy by size merges segments: a part's tier is how many
times MERGE_AT its papers are; MERGE_AT parts of one tier side by side (their papers
numbered one after the other: only neighbours merge) become one part of about the next
tier. A day's part is merged with five others, those with five others of their size...: an
entry holds a few parts of each size, and a paper is merged again a few times only. The
merged part holds their ranges, papers, index (core.flat.merge) and what they counted.
"""

import math
import secrets
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import cast

import numpy as np

from tui_reader.core.columns import Chunk
from tui_reader.core.flat.merge import joined_offsets, merged
from tui_reader.core.paper_columns import TEXTS
from tui_reader.core.segments.papers_view import joined_store, merged_ranks, names_of
from tui_reader.core.segments.part import FRAMED, OpenPart, PartFacts, open_part, write_part

MERGE_AT = 6
# No part of more papers is made by a merge: merging a few million papers' postings would hold
# a start for minutes (100,000: a few seconds).
MERGED_AT_MOST = 100_000


def tier(count: int) -> int:
    """A part's tier; -1 for a part too big to merge."""
    return int(math.log(max(count, 1), MERGE_AT)) if count <= MERGED_AT_MOST else -1


def runs(parts: Sequence[OpenPart]) -> list[tuple[int, int]]:
    """The runs of parts to merge (first, stop): MERGE_AT neighbours of one tier or more,
    of MERGED_AT_MOST papers at most together."""
    found: list[tuple[int, int]] = []
    first = 0
    for place in range(1, len(parts) + 1):
        level = tier(parts[first].facts.count)
        if place < len(parts) and tier(parts[place].facts.count) == level:
            continue
        papers = sum(part.facts.count for part in parts[first:place])
        if place - first >= MERGE_AT and level >= 0 and papers <= MERGED_AT_MOST:
            found.append((first, place))
        first = place
    return found


def merge_runs(folder: Path, parts: list[OpenPart]) -> list[OpenPart]:
    """The parts with each run to merge merged into a new part in the folder of parts (the
    parts merged are left where they are)."""
    merging = runs(parts)
    if not merging:
        return parts
    result: list[OpenPart] = []
    done = 0
    for first, stop in merging:
        result += parts[done:first]
        name = secrets.token_hex(8)
        write_merged(folder / name, name, parts[first:stop])
        result.append(open_part(folder / name, name))
        done = stop
    return result + parts[done:]


def write_merged(folder: Path, name: str, parts: Sequence[OpenPart]) -> None:
    """Write the part of these parts' papers, one part after the other."""
    indexes = [part.index for part in parts]
    if any(index is None for index in indexes):
        raise OSError("a part without its index cannot be merged")
    stores = [part.store() for part in parts]
    biggest = max(range(len(parts)), key=lambda place: parts[place].facts.count)
    ranks_of, ranked = merged_ranks(
        np.asarray(parts[biggest].arrays["headline_ranks"], dtype=np.int64),
        stores[biggest].headline_of,
        [store.texts("headline") for place, store in enumerate(stores) if place != biggest],
    )
    ranked.insert(biggest, ranks_of)
    columns, collections = joined_store(parts, np.concatenate(ranked))
    read = [store.arrays()[0] for store in stores]  # frames read back: kept with one dictionary
    for text in TEXTS:
        if text in FRAMED:
            offsets = [np.asarray(named[f"{text}_offsets"]) for named in read]
            columns[f"{text}_offsets"] = joined_offsets(offsets)
            chunks = [cast(Iterator[Chunk], named[text]) for named in read]
            columns[text] = np.frombuffer(b"".join(b for c in chunks for b in c), dtype=np.uint8)
        else:
            columns[text] = np.concatenate([np.asarray(part.arrays[text]) for part in parts])
    counted = [part.facts.duplicates for part in parts]
    met = [part.facts.met_before for part in parts]
    counts = [part.facts.counts for part in parts]
    facts = PartFacts(
        name,
        [kept for part in parts for kept in part.facts.ranges],
        sum(part.facts.count for part in parts),
        collections,
        names_of(parts),
        [problem for part in parts for problem in part.facts.problems],
        -1 if min(counted) < 0 else sum(counted),
        -1 if min(met) < 0 else sum(met),
        counts=None if None in counts else [n for known in counts for n in known or []],
    )
    write_part(folder, facts, columns, merged([index for index in indexes if index is not None]))
