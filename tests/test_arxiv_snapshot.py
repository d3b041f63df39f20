"""The arXiv metadata snapshot opens as a path like any other, streamed, its keys read."""

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_reader.cli.reader import reader_parser
from tui_reader.cli.shared import UsageError
from tui_reader.core import loading
from tui_reader.core.formats import input_format
from tui_reader.core.formats.arxiv_snapshot import _first_date, _names, snapshot_record
from tui_reader.core.formats.records import Problem, Record, record_from
from tui_reader.core.loading import LoadError, LoadFilter, load_paths
from tui_reader.core.sources.record import arxiv_links, split_arxiv_id
from tui_reader.core.text import token

# Lines as the snapshot writes them (keys and forms from its documentation on Kaggle).
FIRST = {
    "id": "0704.0001",
    "submitter": "Pavel Nadolsky",
    "authors": "C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan",
    "title": "Calculation of prompt diphoton production cross sections at Tevatron and\n"
    "  LHC energies",
    "comments": "37 pages, 15 figures",
    "journal-ref": "Phys.Rev.D76:013009,2007",
    "doi": "10.1103/PhysRevD.76.013009",
    "report-no": "ANL-HEP-PR-07-12",
    "categories": "hep-ph",
    "license": None,
    "abstract": "  A fully differential calculation in perturbative quantum chromodynamics is\n"
    "presented [/b] \x1b]52;c;aGk=\x07 here.\n",
    "versions": [
        {"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"},
        {"version": "v2", "created": "Tue, 24 Jul 2007 20:10:27 GMT"},
    ],
    "update_date": "2008-11-13",
    "authors_parsed": [["Balázs", "C.", ""], ["Berger", "E. L.", ""], ["Yuan", "C. -P.", ""]],
}
SECOND = {
    "id": "math/0309136",
    "submitter": "Someone",
    "authors": "A. Author and B. Writer",
    "title": "Old style",
    "comments": None,
    "journal-ref": None,
    "doi": None,
    "report-no": None,
    "categories": "math.GT cs.LG",
    "license": None,
    "abstract": "An old-style identifier.",
    "versions": [{"version": "v1", "created": "Mon, 8 Sep 2003 12:00:00 GMT"}],
    "update_date": "2003-09-09",
    "authors_parsed": [],
}


def write(path: Path, *records: dict[str, object]) -> Path:
    text = "".join(json.dumps(r) + "\n" for r in records)
    if path.name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_the_snapshot_is_read_with_its_metadata(tmp_path: Path) -> None:
    odd = ({"id": "hep-th/96041000"}, {"title": "No id"})
    path = write(tmp_path / "arxiv-metadata-oai-snapshot.json", FIRST, SECOND, *odd)
    loaded = load_paths([path])
    assert loaded.problems == [
        f"{path}:3: 'hep-th/96041000' is not an arXiv id",
        f"{path}:4: no arXiv id",
    ]
    first, second = loaded.papers
    assert first.id == first.arxiv_id == "0704.0001" and first.arxiv_version == 2
    assert first.title.startswith("Calculation of prompt diphoton production cross sections at")
    assert first.authors == ("C. Balázs", "E. L. Berger", "C. -P. Yuan")
    assert first.abstract.startswith("A fully differential") and "\x1b" not in first.abstract
    assert "[/b]" in first.abstract
    assert (first.year, first.published, first.updated) == (2007, "2007-04-02", "2008-11-13")
    assert (first.doi, first.categories) == ("10.1103/PhysRevD.76.013009", ("hep-ph",))
    assert first.venue == "Phys.Rev.D76:013009,2007"
    assert first.url == "https://arxiv.org/abs/0704.0001"
    assert dict(first.kind_links)["doi"] == "https://doi.org/10.1103/PhysRevD.76.013009"
    assert second.id == "math/0309136" and second.authors == ("A. Author", "B. Writer")
    assert (second.venue, second.categories) == ("arXiv", ("math.GT", "cs.LG"))


def test_the_snapshot_is_told_by_its_keys_whatever_its_name(tmp_path: Path) -> None:
    start = json.dumps(FIRST)[:4096]
    assert input_format("snapshot.json", start).name == "arxiv-snapshot"
    assert input_format("snapshot.jsonl", start).name == "arxiv-snapshot"
    assert input_format("papers.jsonl", '{"abstract": "x", "id": 1}').name == "jsonl"
    gz = write(tmp_path / "snapshot.json.gz", SECOND)
    assert [p.id for p in load_paths([gz]).papers] == ["math/0309136"]


def test_category_and_since_filters_at_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "snapshot.json", FIRST, SECOND)
    assert [p.id for p in load_paths([path], LoadFilter(("cs",))).papers] == ["math/0309136"]
    assert [p.id for p in load_paths([path], LoadFilter(("hep-ph", "cs.LG"))).papers] == [
        "0704.0001",
        "math/0309136",
    ]
    assert [p.id for p in load_paths([path], LoadFilter(since="2007-04")).papers] == ["0704.0001"]
    with pytest.raises(LoadError, match="holds no papers of the categories or dates asked for"):
        load_paths([path], LoadFilter(("astro-ph",), "2001"))
    # Papers left out do not count towards the most a file may hold.
    monkeypatch.setattr(loading, "MAX_RECORDS", 1)
    assert len(load_paths([path], LoadFilter(since="2005")).papers) == 1
    with pytest.raises(LoadError, match="holds more than 1 record"):
        load_paths([path])


def test_a_filtered_load_of_paths_of_which_one_holds_none_it_keeps_reads_the_others(
    tmp_path: Path,
) -> None:
    """The first path holding no paper of the category stopped the load: with two fetched
    collections, `--category` of one of them could not start the reader."""
    first, second = write(tmp_path / "a.json", FIRST), write(tmp_path / "b.json", SECOND)
    keep = LoadFilter(("math",))
    assert [p.id for p in load_paths([first, second], keep).papers] == ["math/0309136"]
    with pytest.raises(LoadError, match=r"a\.json: holds no papers of .* \(nor do the other"):
        load_paths([first, second], LoadFilter(("astro-ph",)))


def test_the_reader_takes_category_and_since() -> None:
    arguments = reader_parser().parse_args(["x.json", "--category", "cs.LG", "--since", "2025-06"])
    assert (arguments.category, arguments.since) == (["cs.LG"], "2025-06")
    assert reader_parser().parse_args([]).since is None
    for not_a_date in ("June", "2025-13", "2025-02-30"):
        with pytest.raises(UsageError, match="not a date"):
            reader_parser().parse_args(["--since", not_a_date])


@pytest.mark.parametrize(
    ("created", "day"),
    [
        ("Mon, 2 Apr 2007 19:18:42 GMT", "2007-04-02"),
        ("Mon, 02 Dec 2019 23:59:59 GMT", "2019-12-02"),
        ("Tue, 31 Feb 2007 19:18:42 GMT", ""),  # no such day
        ("Mon, x Apr 2007 19:18:42 GMT", ""),
        ("2 Apr 2007 19:18:42 +0000", "2007-04-02"),  # another form: read by email.utils
        ("yesterday", ""),
        ("Mon, 2 Apr 99999999999999999999 19:18:42 GMT", ""),  # stopped the file's load
    ],
)
def test_the_first_version_gives_the_day_it_was_submitted(created: str, day: str) -> None:
    assert _first_date([{"version": "v1", "created": created}]) == day


def test_authors_parsed_with_parts_that_are_not_text_are_left_out() -> None:
    parsed = [["Schrödinger", "Erwin", ""], ["Li"], ["Doe", "J.", "Jr."], ["X", 3], [], [" ", "A"]]
    assert _names(parsed) == ["Erwin Schrödinger", "Li", "J. Doe Jr.", "A"]


def _as_record_from_reads_it(data: dict[str, object]) -> Record | Problem:
    """The snapshot's line in our field names, read by the reader of every format."""
    ident = data.get("id")
    arxiv = split_arxiv_id(ident) if isinstance(ident, str) else None
    if arxiv is None:
        return snapshot_record(data, 1)  # its problems are its own
    versions = data.get("versions")
    doi = data.get("doi") if isinstance(data.get("doi"), str) else ""
    published = _first_date(versions)
    fields: dict[str, object] = {
        "title": data.get("title"),
        "abstract": data.get("abstract"),
        "authors": _names(data.get("authors_parsed")) or data.get("authors"),
        "url": f"https://arxiv.org/abs/{arxiv[0]}",
        "venue": data.get("journal-ref") or "arXiv",
        "year": published[:4],
        "published": published,
        "updated": data.get("update_date"),
        "arxiv_id": arxiv[0],
        "arxiv_version": len(versions) if isinstance(versions, list) and versions else None,
        "doi": doi,
        "categories": data.get("categories"),
        "comments": data.get("comments"),
        "links": arxiv_links(arxiv[0], token((str(doi).split() or [""])[0])),
    }
    return record_from(fields, 1)


_ODD = st.text(alphabet=st.sampled_from("ab \n\t\x1b\x0b\xa0é[/"), max_size=8)
_VALUE = st.one_of(_ODD, st.one_of(st.none(), st.integers(-5, 2025), st.lists(_ODD, max_size=3)))


@settings(max_examples=500)
@given(
    st.fixed_dictionaries(
        {
            "id": st.one_of(*[st.just(i) for i in ("0704.0001v2", "math/0309136")], _VALUE),
            "abstract": st.one_of(_ODD.map(lambda text: text + "x"), _VALUE),
            "title": _VALUE,
            "authors": _VALUE,
            "authors_parsed": st.one_of(_VALUE, st.lists(st.lists(_VALUE, max_size=3))),
            "journal-ref": _VALUE,
            "doi": _VALUE,
            "categories": _VALUE,
            "update_date": _VALUE,
            "versions": st.one_of(
                _VALUE,
                st.lists(
                    st.fixed_dictionaries(
                        {"created": st.sampled_from(["Mon, 2 Apr 2007 19:18:42 GMT", "x", ""])}
                    ),
                    max_size=3,
                ),
            ),
        }
    )
)
def test_a_snapshot_line_is_read_as_the_reader_of_every_format_reads_its_fields(
    data: dict[str, object],
) -> None:
    assert snapshot_record(data, 1) == _as_record_from_reads_it(data)
