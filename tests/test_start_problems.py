"""Config problems are complete and readable: each with its line, all in one dialog at start."""

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Static

from tests.pilot_helpers import store_from, wait_until
from tui_reader.cli.program import main
from tui_reader.core.config import Config, load_config
from tui_reader.core.opening import Opening
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.keymap import check_keys, key_conflicts, theme_problem
from tui_reader.ui.problems_screen import ProblemsScreen

CONFIG = """\
theme = "nosuch"
colour = "red"
paths = 3
search_url = "https://s.org/"
[keys]
quit = "b"
next-paper = "b"
teleport = "x"
undo = 5
"""

pytestmark = pytest.mark.usefixtures("unhurried_reading")


def read(path: Path) -> tuple[Config, list[str]]:
    return load_config(path, check_keys, check_theme=theme_problem, check_keymap=key_conflicts)


def test_every_problem_has_its_line_and_every_key_conflict_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    config, problems = read(path)
    assert config.theme is None and config.keys == {"quit": "b", "next-paper": "b"}
    assert all(problem.startswith(f"{path}, line ") for problem in problems), problems
    assert problems[0].startswith(f"{path}, line 1: there is no theme 'nosuch'; try ansi-dark")
    assert problems[-2:] == [
        f"{path}, line 6: keys.quit: 'b' is the key of both Bookmark and Quit app-wide, but "
        "only one can have it; Bookmark has no other key",
        f"{path}, line 7: keys.next-paper: 'b' is the key of Bookmark, Quit and Next paper in "
        "the paper list, but only one can have it; Bookmark has no other key",
    ]


def test_key_conflicts_in_each_place() -> None:
    assert key_conflicts({"bookmark": "B", "next-paper": "ctrl+n"}) == []
    assert key_conflicts({"quit": "q"}) == []  # its own key
    assert [why for _, why in key_conflicts({"scroll-down": "k"})] == [
        "'k' is the key of both Scroll down and Scroll up in the detail pane, but only one can "
        "have it; Scroll up has no other key"
    ]
    # next-paper keeps "down": no action is left without a key, but "n" is still shared.
    assert key_conflicts({"next-paper": "down,n"}) == [
        ("next-paper", "'n' is the key of both Note and Next paper in the paper list, but only "
         "one can have it; Note has no other key"),
    ]  # fmt: skip
    assert [blame for blame, _ in key_conflicts({"copied": "x", "sort": "x"})] == ["sort"]
    # The saved searches panel undoes with the reader's key: d deletes there.
    assert key_conflicts({"undo": "d"}) == [
        ("undo", "'d' is the key of both Delete the search and Undo in the saved searches "
         "panel, but only one can have it"),
    ]  # fmt: skip


def test_the_reader_is_given_every_problem_with_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    monkeypatch.setenv("TUI_READER_CONFIG", str(path))
    opened: list[ReaderApp] = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: opened.append(app))
    assert main([]) == 0
    assert opened[0].workspace._messages == read(path)[1]
    assert len(opened[0].workspace._messages) == 8


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_all_problems_are_shown_together_and_escape_closes(
    tmp_path: Path, write_seed: Callable[..., Path], size: tuple[int, int]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    config, problems = read(path)
    problems.append("Skipped 2 records that could not be read")
    app = ReaderApp(Opening(store_from(write_seed("One paper.")), messages=problems), config=config)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ProblemsScreen)
        box = screen.query_one("ProblemsScreen > Vertical")
        assert box.border_title == "9 problems at start"
        width, height = size
        assert box.region.right <= width and box.region.bottom <= height
        texts = [str(static.content) for static in screen.query(Static)]
        assert texts.count(str(path)) == 1  # the file once, its problems under it
        assert "line 7" in texts and "Skipped 2 records that could not be read" in texts
        for problem in problems[:-1]:
            what = problem.split(": ", 1)[1]
            assert what in texts, what
        scroll = screen.query_one(VerticalScroll)
        await pilot.press(*"j" * 20)
        await wait_until(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y, "the last ones")
        await pilot.press("escape")
        assert not isinstance(app.screen, ProblemsScreen)
        assert not app._notifications  # nothing stacked behind it


async def test_no_dialog_when_nothing_is_wrong(write_seed: Callable[..., Path]) -> None:
    app = ReaderApp(Opening(store_from(write_seed("One paper."))))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, ProblemsScreen)


async def test_problems_are_shown_as_written(
    tmp_path: Path, write_seed: Callable[..., Path]
) -> None:
    folder = tmp_path / "[bold]odd [$accent]"
    folder.mkdir()
    path = folder / "config.toml"
    path.write_text('[keys]\n"[/b]" = "x"\n', encoding="utf-8")
    config, problems = read(path)
    app = ReaderApp(Opening(store_from(write_seed("One paper.")), messages=problems), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        texts = [str(static.content) for static in app.screen.query(Static)]
        assert str(path) in texts
        assert "keys.[/b]: no such action (the README lists them); it is ignored" in texts


async def test_records_skipped_are_shown_under_their_file_by_line(
    tmp_path: Path, write_seed: Callable[..., Path]
) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text("{}\n", encoding="utf-8")
    problems = [f"{path}:5: not a JSON object", f"{path}:12: no abstract"]
    problems.append(f"{path}: 3 more records that could not be read")
    app = ReaderApp(Opening(store_from(write_seed("One paper.")), messages=problems))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        texts = [str(static.content) for static in app.screen.query(Static)]
        assert texts == [
            *(str(path), "line 5", "not a JSON object", "line 12", "no abstract"),
            *("", "3 more records that could not be read"),  # last, with no line
        ]


async def test_typing_while_the_problems_open_goes_on_to_the_reader(
    write_seed: Callable[..., Path],
) -> None:
    """Keys sent at start land in the dialog: a key it has no use for closes it and acts
    where the reader was, the rest of the burst after it (`/homoph graph` typed into
    it, then Escape, and the letters after bookmarked a paper)."""
    papers = store_from(write_seed("Satisficing bandits.", "Homophily in graphs."))
    app = ReaderApp(Opening(papers, messages=["Skipped 2 records that could not be read"]))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ProblemsScreen)
        await pilot.press(*"/homoph")
        assert not isinstance(app.screen, ProblemsScreen)
        assert app.workspace.filter_input.value == "homoph"
        await wait_until(pilot, lambda: len(app.workspace.paper_list.papers) == 1, "found")


async def test_typing_in_the_filter_under_the_problems_goes_on_with_their_own_keys(
    write_seed: Callable[..., Path],
) -> None:
    """The filter typed into as the reader starts, then the dialog opened over it: "quantum"
    lost its "q" (the dialog's Close) and "jazz" its "j" (its scroll)."""
    papers = store_from(write_seed("Quantum jazz.", "Homophily in graphs."))
    app = ReaderApp(Opening(papers, messages=["Skipped 2 records that could not be read"]))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ProblemsScreen)
        app.workspace.set_focus(app.workspace.filter_input)  # as "/" handled before it opened
        await pilot.press(*"quantum jk")
        assert not isinstance(app.screen, ProblemsScreen)
        assert app.workspace.filter_input.value == "quantum jk"


async def test_records_skipped_before_are_told_in_a_notice_not_the_dialog(
    tmp_path: Path, write_seed: Callable[..., Path]
) -> None:
    """The papers kept from before come with the records their file skipped, the same at
    every start: a notice, as loading the file gives, not the dialog to close each time."""
    path = tmp_path / "papers.jsonl"
    skipped = [f"{path}:{line}: no abstract" for line in range(2, 9)]
    app = ReaderApp(Opening(store_from(write_seed("One paper.")), skipped=skipped))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, ProblemsScreen)
        (notice,) = [n.message for n in app._notifications]
        listed = "\n".join(skipped[:5])
        assert notice == f"Skipped 7 records that could not be read:\n{listed}\n…"
