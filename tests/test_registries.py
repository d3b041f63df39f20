"""A new export format is a render function and one row of core.export.EXPORTERS: the
command line, the reader's E and its copy picker take it from there."""

from collections.abc import Sequence
from pathlib import Path

import pyperclip
import pytest

from tui_reader import cli
from tui_reader.core import export
from tui_reader.core.export import Exporter, copy_forms, file_formats, format_of, render
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.copy_picker import CopyPicker
from tui_reader.ui.dialogs import PromptScreen


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
    assert [row.name for row in file_formats()] == ["md", "bib", "json", "csv"]
    assert [row.name for row in copy_forms()] == ["markdown-link", "citation", "bib", "abstract"]
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
    assert cli.main(["tag", "28f1d9d7a354", "x"]) == 0
    out = tmp_path / "papers.toy"
    assert cli.main(["export", "--tag", "x", "-o", str(out)]) == 0
    assert out.read_text().startswith("TOY 28f1d9d7a354 x LOAM")
    assert capsys.readouterr().err == f"wrote 1 paper to {out}\n"
    assert cli.main(["export", "--format", "toy", "--query", "#x"]) == 0
    assert capsys.readouterr().out == out.read_text()
    assert cli.main(["export", "-o", str(tmp_path / "papers.txt")]) == 2
    assert ".csv, .toy" in capsys.readouterr().err


async def test_a_toy_exporter_is_offered_by_e_and_the_copy_picker(
    toy_exporter: None,
    seed_store: PaperStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    monkeypatch.chdir(tmp_path)
    app = ReaderApp(seed_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("Y")
        assert isinstance(app.screen, CopyPicker)
        await pilot.press("6")  # after the link and the four built-in copies
        assert copied == [render("toy", seed_store[:1], app.library)]
        await pilot.press("E")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*["backspace"] * 2, *"toy", "enter")
        assert (tmp_path / "reading-list.toy").read_text() == render("toy", seed_store, app.library)
