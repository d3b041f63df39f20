import gzip
import json
from pathlib import Path

import pytest

from tui_reader.core import loading
from tui_reader.core.formats import csv_table
from tui_reader.core.loading import LoadError, load_paths
from tui_reader.core.store import papers_of

ONE = {"title": "Deep Nets", "abstract": "We study deep nets.", "authors": ["A. B", "C D"]}
TWO = {
    "title": "Shallow",
    "abstract": "Shallow ones.",
    "authors": "E F and G H",
    "url": "https://x.org/2",
}


def test_json_lines_with_a_bad_line_and_a_record_without_abstract(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    lines = [json.dumps(ONE), "{not json", json.dumps({"title": "no abstract"}), json.dumps(TWO)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    loaded = load_paths([path])
    assert [p.headline for p in loaded.papers] == ["Deep Nets", "Shallow"]
    assert loaded.papers[0].authors == ("A. B", "C D")
    assert loaded.papers[1].authors == ("E F", "G H")
    assert loaded.papers[1].url == "https://x.org/2"
    assert loaded.problems == [
        f"{path}:2: not valid JSON (Expecting property name enclosed in double quotes)",
        f"{path}:3: no abstract",
    ]


def test_fields_are_read_whatever_the_case_of_their_keys(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    records = [
        {"Title": "Shouted", " ABSTRACT ": "An abstract.", "Year": 2024, "DOI": "10.1/x"},
        {"title": "Plain", "abstract": "Another abstract.", "year": 2023, "doi": "10.1/y"},
        {"title": "Bare", "abstract": "A third abstract."},
    ]
    path.write_text("\n".join(map(json.dumps, records)) + "\n", encoding="utf-8")
    papers = load_paths([path]).papers
    assert [(p.title, p.year, p.doi) for p in papers] == [
        ("Shouted", 2024, "10.1/x"),
        ("Plain", 2023, "10.1/y"),
        ("Bare", None, ""),
    ]


def test_gzipped_json_lines_and_a_line_separator_inside_a_string(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl.gz"
    record = dict(ONE, abstract="Line\u2028separator inside.")
    with gzip.open(path, "wt", encoding="utf-8") as file:
        file.write(json.dumps(record, ensure_ascii=False) + "\n" + json.dumps(TWO) + "\n")
    loaded = load_paths([path])
    assert [p.abstract for p in loaded.papers] == ["Line separator inside.", "Shallow ones."]
    assert loaded.problems == []


def test_json_array(tmp_path: Path) -> None:
    path = tmp_path / "papers.json"
    path.write_text(json.dumps([ONE, "oops", TWO]), encoding="utf-8")
    loaded = load_paths([path])
    assert len(loaded.papers) == 2
    assert loaded.problems == [f"{path}:1: item 2: not a JSON object"]  # the line it is on


def test_csv_with_header_and_a_row_without_abstract(tmp_path: Path) -> None:
    path = tmp_path / "papers.csv"
    path.write_text(
        'Title,Abstract,Authors,URL\n"A, with comma","First, abstract.","X Y; Z W",https://a\n'
        "Empty,,Q,\nThird,Third abstract.,,\n",
        encoding="utf-8",
    )
    loaded = load_paths([path])
    assert [p.headline for p in loaded.papers] == ["A, with comma", "Third"]
    assert loaded.papers[0].authors == ("X Y", "Z W")
    assert loaded.problems == [f"{path}:3: no abstract"]


def test_csv_is_read_as_it_goes_past_the_limit_of_a_file_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loading, "MAX_TEXT_BYTES", 100_000)
    path = tmp_path / "papers.csv"
    rows = "".join(f'T{n},"Abstract {n},\nover two lines."\r\n' for n in range(5000))
    path.write_bytes(
        b"\xef\xbb\xbfTitle,Abstract\r\n"
        + rows.encode()
        + b"Latin,Caf\xe9 au lait.\r\nLast,The last one.\r\n"
    )
    loaded = load_paths([path])
    assert len(loaded.papers) == 5001
    assert loaded.papers[4999].abstract == "Abstract 4999, over two lines."
    assert loaded.papers[-1].title == "Last"
    assert loaded.problems == [f"{path}:10002: not UTF-8 text (byte 0xe9)"]


def test_a_csv_field_too_long_stops_the_file_without_rows_made_of_its_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(csv_table, "MAX_FIELD_CHARACTERS", 1000)
    path = tmp_path / "papers.csv"
    lines = "".join(f"line {n} of a long field\n" for n in range(100))
    path.write_text(f'title,abstract\nT0,First.\nT1,"{lines}"\nT2,After.\n', encoding="utf-8")
    with pytest.raises(LoadError) as raised:
        load_paths([path])
    assert str(raised.value) == f"{path}: a field holds over 1,000 characters on line 3"
    titles = []
    with pytest.raises(LoadError):  # the reader keeps the papers read before
        for item in loading.iter_file(path):
            titles += [item] if isinstance(item, str) else [p.title for p in papers_of(item)]
    assert titles == ["T0"]


def test_csv_without_an_abstract_column(tmp_path: Path) -> None:
    path = tmp_path / "papers.csv"
    path.write_text("title,year\nA,2020\n", encoding="utf-8")
    with pytest.raises(LoadError, match="holds no abstracts"):
        load_paths([path])


def test_bibtex_entries_bad_blocks_and_missing_abstracts(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(
        "@article{a1,\n  title = {Graph {N}ets},\n  author = {Doe, Jane and Roe, Rick},\n"
        "  journal = {JMLR},\n  abstract = {Graphs are everywhere.},\n}\n\n"
        "@misc{b2,\n  title = {No abstract here},\n}\n\n"
        "@article{broken,\n  title = {Unclosed\n\n",
        encoding="utf-8",
    )
    loaded = load_paths([path])
    assert [p.headline for p in loaded.papers] == ["Graph Nets"]
    assert loaded.papers[0].venue == "JMLR"
    assert loaded.papers[0].authors == ("Jane Doe", "Rick Roe")
    assert any(
        problem.startswith(f"{path}:8: entry b2: no abstract") for problem in loaded.problems
    )
    assert any("not a valid BibTeX entry" in problem for problem in loaded.problems)


def test_format_is_recognised_by_content(tmp_path: Path) -> None:
    (tmp_path / "lines.data").write_text(json.dumps(ONE) + "\n", encoding="utf-8")
    (tmp_path / "array.data").write_text(json.dumps([TWO]), encoding="utf-8")
    loaded = load_paths([tmp_path / "lines.data", tmp_path / "array.data"])
    assert [p.headline for p in loaded.papers] == ["Deep Nets", "Shallow"]


def test_several_formats_in_one_run(tmp_path: Path, write_seed) -> None:
    (tmp_path / "a.jsonl").write_text(json.dumps(ONE) + "\n", encoding="utf-8")
    (tmp_path / "b.csv").write_text("title,abstract\nC,Csv abstract.\n", encoding="utf-8")
    seed = write_seed("A seed abstract without a title.", name="c.txt")
    loaded = load_paths([tmp_path / "a.jsonl", tmp_path / "b.csv", seed])
    assert [p.headline for p in loaded.papers] == [
        "Deep Nets",
        "C",
        "A seed abstract without a title",
    ]
    assert loaded.collections == ["a", "b", "Test Papers"]


def test_a_directory_reads_every_format(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(json.dumps(ONE) + "\n", encoding="utf-8")
    with gzip.open(tmp_path / "b.json.gz", "wt", encoding="utf-8") as file:
        file.write(json.dumps([TWO]))
    (tmp_path / "notes.md").write_text("ignored", encoding="utf-8")
    assert len(load_paths([tmp_path]).papers) == 2


def test_a_broken_gzip_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl.gz"
    path.write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(LoadError, match=r"papers\.jsonl\.gz"):
        load_paths([path])


@pytest.mark.slow
def test_a_broken_bibtex_entry_is_one_line_on_stderr(tmp_path: Path) -> None:
    # Its own process: pytest would catch what logging prints.
    from tests.cli_helpers import run_process

    path = tmp_path / "refs.bib"
    path.write_text("@misc{a,\n  abstract = {Fine.},\n}\n\n@article{broken,\n  title = {Unclosed\n")
    result = run_process("list", "--papers", str(path))
    assert result.returncode == 0
    assert result.stderr == f"tui-reader: skipped {path}:5: not a valid BibTeX entry\n"


def test_a_json_array_may_begin_with_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "papers.json"
    path.write_bytes(b'\xef\xbb\xbf[{"abstract": "After a BOM."}]')
    loaded = load_paths([path])
    assert [p.abstract for p in loaded.papers] == ["After a BOM."] and loaded.problems == []
