"""The query language's filters on a paper's metadata: `cat:`, `year:`, `after:`, `before:`."""

from pathlib import Path

import pytest

from tui_reader.core.paper import Metadata, Paper
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.query import parse_query
from tui_reader.core.search_service import build_index, needs_index, search_papers


def paper(text: str, metadata: Metadata) -> Paper:
    return Paper.from_abstract(f"{text} learns graphs.", "c", Path("c.jsonl"), metadata=metadata)


PAPERS = [
    paper("June", {"year": 2025, "published": "2025-06-03", "categories": ("cs.LG", "stat.ML")}),
    paper("May", {"year": 2025, "published": "2025-05-31", "categories": ("math.OC",)}),
    paper("Year only", {"year": 2024, "categories": ("stat.ML",)}),
    paper("Bare", {}),  # no metadata: no metadata filter matches it
    paper("Month", {"published": "2025-06"}),
]


def found(query: str) -> list[str]:
    index = build_index(PAPERS) if needs_index(query) else None
    results = search_papers(index, query, NO_STATE, "relevance", PAPERS)
    return sorted(PAPERS[int(n)].abstract.split()[0] for n in results.numbers)


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("cat:cs.LG", ["June"]),
        ("cat:CS.lg", ["June"]),
        ("cat:stat.ML", ["June", "Year"]),
        ("cat:math", ["May"]),  # an archive: any of its categories
        ("cat:cs.L", []),  # not a category
        ("year:2025", ["June", "May"]),
        ("year:2024", ["Year"]),
        ("after:2025-06", ["June", "Month"]),
        ("after:2025-06-01", ["June"]),  # "2025-06" cannot say it is on or after the 1st
        ("after:2025", ["June", "May", "Month"]),
        ("before:2025-06", ["May", "Year"]),
        ("before:2025", ["Year"]),
        ("after:2025-01 before:2025-06", ["May"]),
        ("!cat:cs.LG", ["Bare", "May", "Month", "Year"]),
        ("graphs year:2025", ["June", "May"]),  # with search terms
    ],
)
def test_metadata_filters(query: str, names: list[str]) -> None:
    assert found(query) == names


def test_metadata_filters_need_no_index_nor_state() -> None:
    query = parse_query("cat:cs.LG year:2025 after:2025-06 before:2026")
    assert (query.terms, query.states, len(query.metadata)) == ((), (), 4)
    assert not needs_index("cat:cs.LG year:2025")


def test_a_malformed_filter_is_searched_as_words() -> None:
    for text in ("year:25", "after:june", "before:2025-6"):
        query = parse_query(text + " ")
        assert query.metadata == () and query.terms != ()
