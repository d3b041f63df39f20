"""A record without a year field has the year its venue names ("ICLR 2021"), for `year:`,
`after:`, `before:`, a load's `--since` and the exports alike."""

import json
from pathlib import Path

import bibtexparser
import pytest

from tests.cli_helpers import run
from tui_reader.core.export import render
from tui_reader.core.library import Library
from tui_reader.core.loading import LoadFilter, load_paths
from tui_reader.core.paper import Paper, paper_year
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.search_service import search_papers


@pytest.mark.parametrize(
    ("venue", "year"),
    [
        ("ICLR 2021", 2021),
        ("NeurIPS 2019 Workshop", 2019),
        ("Proceedings of ICML 2020", 2020),
        ("Proc. of the 36th Conference (ICML 2019), Long Beach", 2019),
        ("Journal of Things, 1998.", 1998),
        ("arXiv:2012.01234", None),  # an arXiv id, not a year
        ("ICLR2021", None),
        ("Vol. 12019", None),
        ("pages 2019-2031", None),
        ("ICML 3020", None),
        ("", None),
    ],
)
def test_a_year_standing_in_a_venue_as_a_word_is_the_papers(venue: str, year: int | None) -> None:
    assert paper_year(None, venue) == year


def test_the_year_field_wins_over_the_venue() -> None:
    assert paper_year(2018, "ICML 2020") == 2018


def dump(tmp_path: Path) -> Path:
    path = tmp_path / "dump.jsonl"
    records = [
        {"title": "Deep graphs", "abstract": "Deep graphs.", "venue": "ICLR 2021"},
        {"title": "Old nets", "abstract": "Old nets.", "venue": "NeurIPS 2019 Workshop"},
        {"title": "Field wins", "abstract": "Fields.", "venue": "ICML 2020", "year": 2018},
        {"title": "No venue", "abstract": "Nothing."},
    ]
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("query", "titles"),
    [
        ("year:2021", ["Deep graphs"]),
        ("year:2019..2020", ["Old nets"]),
        ("after:2020", ["Deep graphs"]),
        ("before:2020", ["Old nets", "Field wins"]),
    ],
)
def test_the_filters_read_the_venues_year(tmp_path: Path, query: str, titles: list[str]) -> None:
    """`year:2021` found no paper of a dump whose records give the year only in the venue."""
    papers = load_paths([dump(tmp_path)]).papers
    found = search_papers(None, query, NO_STATE, "file", papers)
    assert [papers[int(number)].title for number in found.numbers] == titles


def test_a_load_since_a_year_keeps_the_papers_of_that_years_venue(tmp_path: Path) -> None:
    papers = load_paths([dump(tmp_path)], LoadFilter(since="2021")).papers
    assert [paper.title for paper in papers] == ["Deep graphs"]


def test_a_bibtex_booktitle_gives_its_year_to_filters_and_exports(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(
        "@inproceedings{a, title={Deep graphs}, abstract={Deep graphs.}, "
        "booktitle={Proceedings of ICML 2020}}\n",
        encoding="utf-8",
    )
    (paper,) = load_paths([path]).papers
    assert paper.year == 2020
    text = render("bib", [paper], Library(None))
    assert bibtexparser.parse_string(text).entries[0].fields_dict["year"].value == "2020"


def test_exports_and_year_agree_on_a_paper_without_one(tmp_path: Path) -> None:
    """A seed's collection names a year ("ICML 2026 Papers"), which the exports took and
    `year:` did not: it is no venue, and neither takes it."""
    paper = Paper.from_abstract("Loam. An abstract.", "ICML 2026 Papers", Path("seeds.txt"))
    assert paper.year is None
    entry = bibtexparser.parse_string(render("bib", [paper], Library(None))).entries[0]
    assert "year" not in entry.fields_dict


def test_the_commands_find_by_the_venues_year_from_the_kept_papers_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = str(dump(tmp_path))
    for _ in range(2):  # loaded and kept, then read back from the cache
        status, out, _ = run(capsys, "search", "year:2021", path)
        assert status == 0 and out.split()[-2:] == ["Deep", "graphs"]
    assert list((tmp_path / "cache").glob("papers-v*"))
