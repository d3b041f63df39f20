"""A new format is a function and one row of a table: an input format a reader and a row of
core.formats.INPUT_FORMATS (loading, folders, gzip, sniffing and every command take it from
there), an export format a render function and a row of core.export.EXPORTERS (the command
line, the reader's E and its copy picker)."""

import gzip
import io
from collections.abc import Iterator, Sequence
from pathlib import Path

import pyperclip
import pytest

from tui_reader.cli.program import main
from tui_reader.core import export, formats
from tui_reader.core.export import Exporter, copy_forms, file_formats, format_of, render
from tui_reader.core.formats import InputFormat, Problem, Record, input_format
from tui_reader.core.loading import load_paths
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.copy_picker import CopyPicker
from tui_reader.ui.dialogs import PromptScreen


def read_pipes(file: io.BufferedIOBase) -> Iterator[Record | Problem]:
    """The toy input format: `title|abstract` a line, read as it goes."""
    for number, line in enumerate(file, 1):
        title, bar, abstract = line.decode("utf-8").strip().partition("|")
        yield Record(abstract, title=title) if bar and abstract else Problem(number, "no bar")


PIPES = InputFormat("pipes", (".psv",), read_stream=read_pipes, sniff=lambda s: "|" in s[:80])


@pytest.fixture
def pipes_format(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formats, "INPUT_FORMATS", [*formats.INPUT_FORMATS, PIPES])


def test_the_built_in_input_formats_by_name_and_by_text() -> None:
    named = ["a.json", "a.jsonl.gz", "a.NDJSON", "a.bib", "a.csv", "a.txt", "a.json"]
    starts = ["[{}]", "", "", "", "", "{", "\ufeff{}"]
    kinds = [input_format(name, start).name for name, start in zip(named, starts, strict=True)]
    assert kinds == ["json", "jsonl", "jsonl", "bib", "csv", "txt", "jsonl"]
    assert input_format("a.json", "nonsense").name == "jsonl"  # the last to claim .json
    texts = ["  [1]", "\ufeff{}", "@misc{", "title,abstract\n", "Papers\n\nOne.", "x|y"]
    kinds = [input_format("papers.data", text).name for text in texts]
    assert kinds == ["json", "jsonl", "bib", "csv", "txt", "txt"]


def test_a_toy_input_format_loads_from_files_folders_and_gzip(
    pipes_format: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.psv").write_text("First|One abstract.\nno bar here\n", encoding="utf-8")
    with gzip.open(folder / "b.psv.gz", "wt", encoding="utf-8") as file:
        file.write("Second|Another abstract.\n")
    (folder / "c.data").write_text("Third|Told by its text.\n", encoding="utf-8")
    (folder / "d.md").write_text("Not|a paper file.\n", encoding="utf-8")
    loaded = load_paths([folder])
    assert [paper.title for paper in loaded.papers] == ["First", "Second"]
    assert loaded.problems == [f"{folder / 'a.psv'}:2: no bar"]
    assert load_paths([folder / "c.data"]).papers[0].title == "Third"
    assert main(["list", "--papers", str(folder), "--query", "another"]) == 0
    out, err = capsys.readouterr()
    assert "Second" in out and "First" not in out
    assert err == f"tui-reader: skipped {folder / 'a.psv'}:2: no bar\n"


def toy_lines(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    """The toy format: a line a paper, its id, tags and headline."""
    return "".join(
        f"TOY {paper.id} {','.join(state.tags(paper.id))} {paper.headline}\n" for paper in papers
    )


TOY = Exporter("toy", "Toy lines", toy_lines, suffix=".toy", copied=("toy line", "toy lines"))


@pytest.fixture
def toy_exporter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export, "EXPORTERS", [*export.EXPORTERS, TOY])


def test_the_built_in_exporters_in_their_order() -> None:
    assert [row.name for row in file_formats()] == ["md", "bib", "json", "csv", "ris", "csl-json"]
    assert [row.name for row in copy_forms()] == [
        "markdown-link", "citation", "bib", "abstract", "ris", "csl-json"
    ]  # fmt: skip
    assert [format_of(Path(name)) for name in ("a.tar.md", "refs.csv", ".md", "md")] == [
        "md",
        "csv",
        None,
        None,
    ]


def test_a_toy_exporter_writes_files_from_the_command_line(
    toy_exporter: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert format_of(Path("list.TOY")) == "toy" and TOY in copy_forms()
    assert main(["tag", "28f1d9d7a354", "x"]) == 0
    out = tmp_path / "papers.toy"
    assert main(["export", "--tag", "x", "-o", str(out)]) == 0
    assert out.read_text().startswith("TOY 28f1d9d7a354 x LOAM")
    assert capsys.readouterr().err == f"wrote 1 paper to {out}\n"
    assert main(["export", "--format", "toy", "--query", "#x"]) == 0
    assert capsys.readouterr().out == out.read_text()
    assert main(["export", "-o", str(tmp_path / "papers.txt")]) == 2
    assert ".csl.json, .toy" in capsys.readouterr().err


async def test_a_toy_exporter_is_offered_by_e_and_the_copy_picker(
    toy_exporter: None,
    seed_store: PaperStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    monkeypatch.chdir(tmp_path)
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("Y")
        assert isinstance(app.screen, CopyPicker)
        await pilot.press("8")  # after the link and the six built-in copies
        assert copied == [render("toy", list(seed_store)[:1], app.library)]
        await pilot.press("E")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press("end", *["backspace"] * 2, *"toy", "enter")
        assert (tmp_path / "reading-list.toy").read_text() == render("toy", seed_store, app.library)
