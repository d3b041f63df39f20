"""The commands for scripts agree: `search`, `list` and `export` take the same options and say
alike that nothing matched; a tag is written as the reader writes it; a folder is read as the
reader reads it."""

import json
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.test_cli_commands import LOAM
from tui_reader.core.library import Library, default_path

Capsys = pytest.CaptureFixture[str]


def write_lines(path: Path, *records: dict[str, object]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def graphs(tmp_path: Path) -> Path:
    return write_lines(
        tmp_path / "graphs.jsonl",
        {
            "title": "Graph kernels",
            "abstract": "Kernels on graphs.",
            "categories": "cs.LG stat.ML",
            "published": "2025-06-03",
        },
        {
            "title": "Graph colouring",
            "abstract": "Colouring graphs.",
            "categories": "math.CO",
            "published": "2019-02-01",
        },
    )


def test_search_takes_papers_as_every_command_does(capsys: Capsys, tmp_path: Path) -> None:
    path = graphs(tmp_path)
    status, out, _ = run(capsys, "search", "kernels", "--papers", str(path))
    assert status == 0 and out.split()[-2:] == ["Graph", "kernels"]


def test_a_tag_given_with_its_mark_is_the_tag(capsys: Capsys) -> None:
    """`tag ID '#x'` was refused as no tag, and `untag ID '#x'` looked for `##x`."""
    assert run(capsys, "tag", LOAM, "#later") == (0, f"{LOAM}: not bookmarked, #later\n", "")
    assert run(capsys, "list", "--tag", "#later")[1].startswith(LOAM)
    assert run(capsys, "untag", LOAM, "#later") == (0, f"{LOAM}: not bookmarked, no tags\n", "")


def test_tags_folded_to_lower_case_are_said_once(capsys: Capsys) -> None:
    status, out, err = run(capsys, "tag", LOAM, "Later", "To-Read", "later")
    assert (status, out) == (0, f"{LOAM}: not bookmarked, #later #to-read\n")
    assert err == "tui-reader: tags are kept in lower case: #later, #to-read\n"
    status, out, err = run(capsys, "list", "--tag", "LATER", "--tag", "#To-Read")
    assert status == 0 and out.startswith(LOAM)
    assert err == "tui-reader: tags are kept in lower case: #later, #to-read\n"
    assert run(capsys, "list", "--tag", "later")[2] == ""


@pytest.mark.parametrize(
    ("command", "asked"),
    [
        (["search", "zzyzx qwxv"], "'zzyzx qwxv'"),
        (["list", "--query", "zzyzx qwxv"], "--query 'zzyzx qwxv'"),
        (["export", "--query", "zzyzx qwxv", "--format", "md"], "--query 'zzyzx qwxv'"),
    ],
)
def test_no_match_exits_with_one_and_says_so_on_one_line(
    capsys: Capsys, command: list[str], asked: str
) -> None:
    """`list` and `export` printed nothing (export: an empty reading list) with exit status
    0, and `search` exit status 1, unsaid."""
    assert run(capsys, *command) == (1, "", f"tui-reader: no paper matches {asked}\n")


def test_an_export_that_matches_nothing_writes_no_file(capsys: Capsys, tmp_path: Path) -> None:
    out = tmp_path / "none.bib"
    status, _, err = run(capsys, "export", "--tag", "nothing-has-it", "-o", str(out))
    assert (status, err) == (1, "tui-reader: no paper has the tag #nothing-has-it\n")
    assert not out.exists()


@pytest.mark.parametrize(
    ("query", "field"),
    [("year:2020", "a year"), ("cat:cs.LG", "a category"), ("after:2020", "a date")],
)
@pytest.mark.parametrize("command", ["search", "list", "export"])
def test_a_filter_on_a_field_no_paper_has_says_so(
    capsys: Capsys, command: str, query: str, field: str
) -> None:
    """The seeds have no year, date or categories: `year:2020` found nothing, unsaid."""
    arguments = [query] if command == "search" else ["--query", query]
    arguments += ["--format", "md"] if command == "export" else []
    assert run(capsys, command, *arguments) == (1, "", f"tui-reader: no paper has {field}\n")
    assert len(run(capsys, "list", "--query", f"!{query}")[1].splitlines()) == 38


def test_a_filter_on_a_field_some_papers_have_names_the_query(
    capsys: Capsys, tmp_path: Path
) -> None:
    path = graphs(tmp_path)
    assert run(capsys, "search", "cat:hep-th", str(path)) == (
        1,
        "",
        "tui-reader: no paper matches cat:hep-th\n",
    )


def folder_with_a_binary_file(tmp_path: Path) -> Path:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.txt").write_text("A\n\nDiffusion models for tabular data.", encoding="utf-8")
    (folder / "b.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (folder / "c.txt").write_text("", encoding="utf-8")  # no abstracts: read past, as the reader
    return folder


@pytest.mark.parametrize(
    "command",
    [
        ["search", "diffusion", "{folder}"],
        ["list", "--papers", "{folder}"],
        ["export", "--papers", "{folder}", "--format", "md"],
        ["tags", "--papers", "{folder}"],
    ],
)
def test_a_folders_unreadable_file_is_passed_over_and_said_once(
    capsys: Capsys, tmp_path: Path, command: list[str]
) -> None:
    """The commands stopped at it (exit status 2), where the reader reads the rest."""
    folder = folder_with_a_binary_file(tmp_path)
    arguments = [argument.replace("{folder}", str(folder)) for argument in command]
    status, out, err = run(capsys, *arguments)
    assert status == 0
    assert "Diffusion models" in out or command[0] == "tags"
    assert err == (
        f"tui-reader: {folder / 'b.txt'}: is a binary file, not UTF-8 text: passed over, "
        "the folder's other files are read\n"
    )


@pytest.mark.parametrize(
    ("options", "found"),
    [
        (["--category", "cs.LG"], ["Graph kernels"]),
        (["--category", "math", "--category", "cs.LG"], ["Graph kernels", "Graph colouring"]),
        (["--since", "2020"], ["Graph kernels"]),
        (["--category", "math", "--since", "2020-01"], []),
    ],
)
@pytest.mark.parametrize("command", ["search", "list", "export"])
def test_search_list_and_export_take_category_and_since_as_the_reader(
    capsys: Capsys, tmp_path: Path, command: str, options: list[str], found: list[str]
) -> None:
    path = str(graphs(tmp_path))
    arguments = {
        "search": ["search", "graphs", path],
        "list": ["list", "--papers", path],
        "export": ["export", "--papers", path, "--format", "json"],
    }[command]
    status, out, err = run(capsys, *arguments, *options)
    if not found:
        asked = "graphs" if command == "search" else ""
        assert (status, out) == (1, "")
        assert err == f"tui-reader: no paper matches {' '.join([asked, *options]).strip()}\n"
        return
    assert status == 0
    assert [title for title in ("Graph kernels", "Graph colouring") if title in out] == found


def test_a_category_one_collection_lacks_leaves_the_others_read(
    capsys: Capsys, tmp_path: Path
) -> None:
    """A load filtered by category stopped at the first path holding none of it: with two
    fetched collections, `--category` of one found nothing."""
    other = write_lines(
        tmp_path / "physics.jsonl",
        {"title": "Strings", "abstract": "On strings.", "categories": "hep-th"},
    )
    status, out, _ = run(
        capsys,
        "list",
        "--papers",
        str(other),
        "--papers",
        str(graphs(tmp_path)),
        "--category",
        "cs",
    )
    assert status == 0 and "Graph kernels" in out and "Strings" not in out


def test_a_load_filter_that_keeps_nothing_is_no_match_naming_every_option(
    capsys: Capsys,
) -> None:
    library, _ = Library.open(default_path())
    library.change_tags([LOAM], add=["later"])
    library.save()
    assert run(capsys, "export", "--tag", "later", "--category", "cs", "--format", "md") == (
        1,
        "",
        "tui-reader: no paper matches --tag later --category cs\n",
    )


def test_papers_a_category_leaves_out_are_not_said_to_need_their_files(
    capsys: Capsys, tmp_path: Path
) -> None:
    path = str(graphs(tmp_path))
    listed = run(capsys, "list", "--papers", path, "--format", "jsonl")[1].splitlines()
    colouring = json.loads(listed[1])["id"]
    assert run(capsys, "tag", colouring, "later", "--papers", path)[0] == 0
    assert run(capsys, "list", "--papers", path, "--tag", "later", "--category", "cs") == (
        1,
        "",
        "tui-reader: no paper matches --tag later --category cs\n",
    )
