"""The query language's filters on a paper's metadata: `cat:`, `year:`, `after:`, `before:`."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reader.core.metadata_filter import NO_DATE, UNSURE, MetadataFilter, date_key
from tui_reader.core.nothing_found import why_nothing
from tui_reader.core.paper import Metadata, Paper
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.query import parse_query
from tui_reader.core.search_service import build_index, needs_index, search_papers
from tui_reader.core.store import PaperStore


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
    store = PaperStore(PAPERS)
    index = build_index(store) if needs_index(query) else None
    results = search_papers(index, query, NO_STATE, "relevance", store)
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
        ("year:2024..2025", ["June", "May", "Year"]),
        ("year:2024-2025", ["June", "May", "Year"]),
        ("year:2025..2024", ["June", "May", "Year"]),
        ("year:2025..", ["June", "May"]),
        ("year:..2024", ["Year"]),
        ("!year:..2024", ["Bare", "June", "May", "Month"]),
        ("after:2025-06", ["June", "Month"]),
        ("after:2025-06-01", ["June"]),  # "2025-06" cannot say it is on or after the 1st
        ("after:2025", ["June", "May", "Month"]),
        ("before:2025-06", ["May", "Year"]),
        ("before:2025", ["Year"]),
        ("after:2025-01 before:2025-06", ["May"]),
        ("!cat:cs.LG", ["Bare", "May", "Month", "Year"]),
        ("graphs year:2025", ["June", "May"]),  # with search terms
        ("year:2024 | cat:math", ["May", "Year"]),
        ("bare | year:2024 ", ["Bare", "Year"]),
    ],
)
def test_metadata_filters(query: str, names: list[str]) -> None:
    assert found(query) == names


def test_metadata_filters_need_no_index_nor_state() -> None:
    query = parse_query("cat:cs.LG year:2025 after:2025-06 before:2026")
    assert (query.terms, query.states, len(query.metadata)) == ((), (), 4)
    assert not needs_index("cat:cs.LG year:2025")


def test_a_malformed_filter_is_searched_as_words_and_says_so() -> None:
    for text in ("year:25", "after:june", "before:2025-6", "after:2020-13", "before:2015-02-30"):
        query = parse_query(text + " ")
        assert query.metadata == () and query.terms != ()
    assert parse_query("graphs Year:20199 !after:2025-13 ").misread == (
        "Year:20199 is not a year (2025, 2019..2021)",
        "!after:2025-13 is not a date (2025, 2025-06, 2025-06-15)",
    )
    assert parse_query("year:2025 title:graphs graphs: year:.. year:.. ").misread == (
        "year:.. is not a year (2025, 2019..2021)",
    )


@pytest.mark.parametrize(
    ("typed", "told"),
    [
        ("year:", False),
        ("year:20", False),
        ("year:2019.", False),
        ("year:abc", True),
        ("year:20199", True),
        ("after:2025-", False),
        ("after:2025-1", False),
        ("after:2025-13", True),
        ("before:2025-02-3", True),  # no day of February begins so
        ("cat:", False),
        ("after:9999-13", True),  # the last year of the calendar: no day after it to try
        ("year:2019.2", True),
        ("year:2019..20", False),
    ],
)
def test_a_filter_being_typed_is_told_only_when_no_key_can_mend_it(typed: str, told: bool) -> None:
    assert bool(parse_query(typed).misread) == told
    assert bool(parse_query(typed + " ").misread), "once typed, it is told"


DATES = st.one_of(
    st.from_regex(r"\A[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?\Z"),
    st.from_regex(r"\A(19|20)[0-9]{2}-(0[0-9]|1[0-2])-[0-3][0-9]T[0-9:]{0,8}Z?\Z"),
    st.text(alphabet="0129-T ", max_size=12),
)
BOUNDS = st.from_regex(r"\A[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?\Z")


@given(dates=st.lists(DATES, max_size=20), bound=BOUNDS, scope=st.sampled_from(["after", "before"]))
def test_dates_as_numbers_pass_as_dates_as_text(dates: list[str], bound: str, scope: str) -> None:
    """A store compares its papers' dates as numbers (date_key); each passes as its text does,
    or its number says the text must be read."""
    test = MetadataFilter(scope, bound)
    keys = np.array([date_key(date) for date in dates], dtype=np.int32)
    passing = test.fits_dates(keys).tolist()
    for date, key, fits in zip(dates, keys.tolist(), passing, strict=True):
        if key != UNSURE:
            assert fits == test.fits_date(date), (date, bound)
        else:
            assert not fits


def test_dates_in_the_form_of_the_filters_are_numbers() -> None:
    assert [date_key(d) for d in ("2025", "2025-06", "2025-06-03", "2025-06-03T10:00")] == [
        20250000,
        20250600,
        20250603,
        20250603,
    ]
    assert date_key("") == NO_DATE
    for other in ("June 2025", "2025-6", "2025-00", "2025-06-00", "0000", "２０２５", "202506"):
        assert date_key(other) == UNSURE, other


@pytest.mark.parametrize(
    ("query", "why"),
    [
        ("year:1990", ""),  # some papers have a year: the query itself found none
        ("cat:hep-th after:2030", ""),
        ("!year:2025 year:1990", ""),
        ("#nosuchtag year:1990", "no paper has the tag #nosuchtag"),
    ],
)
def test_why_nothing_names_a_tag_or_field_no_paper_has(query: str, why: str) -> None:
    papers = PaperStore(PAPERS)
    assert why_nothing(parse_query(query + " "), {"kept": 1}, papers) == why
    bare = PaperStore(PAPERS[3:4])  # no year, date, categories
    for text, field in (("year", "a year"), ("cat", "a category"), ("after", "a date")):
        value = "cs" if text == "cat" else "2025"
        told = why_nothing(parse_query(f"{text}:{value} {text}:{value} "), {}, bare)
        assert told == f"no paper has {field}"  # once, however many filters name it
        assert why_nothing(parse_query(f"!{text}:{value} "), {}, bare) == ""
