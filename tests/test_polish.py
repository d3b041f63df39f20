"""Polish: what the reader shows around the text never gets in the way of reading it."""

import re
from collections.abc import Callable
from pathlib import Path

import pyperclip
import pytest
from textual.widget import Widget
from textual.widgets import OptionList, Static

from tests.pilot_helpers import ready, store_from, wait_until
from tui_reader.core.loading import check_paths, load_paths, stream_papers
from tui_reader.core.opening import Opening
from tui_reader.core.session import Session
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.detail_pane import DetailPane
from tui_reader.ui.paper_list import PaperList

pytestmark = pytest.mark.usefixtures("unhurried_reading")


def notices(app: ReaderApp) -> list[str]:
    return [notification.message for notification in app._notifications]


def texts(app: ReaderApp) -> list[str]:
    """The text of every Static on the screen on top."""
    return [str(static.content) for static in app.screen.query(Static)]


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_reading_mode_has_no_stray_border(
    seed_store: PaperStore, size: tuple[int, int]
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=size) as pilot:
        await pilot.press("z")
        await pilot.pause()
        detail = app.query_one(DetailPane)
        assert detail.region.x == 0 and detail.region.width == size[0]
        assert detail.styles.border_left[0] in ("", "none")
        assert detail.styles.border_top[0] in ("", "none")


async def test_the_abstract_keeps_a_readable_measure_at_200_columns(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        body = app.query_one("#detail-body", Widget)
        assert app.query_one(DetailPane).size.width > 110
        assert body.size.width <= 100
        lines = [line.text for line in body.render_lines(body.region.reset_offset)]
        assert max(len(line.rstrip()) for line in lines) <= 100
        assert any(line.lstrip().startswith("1 https://") for line in lines)  # not wrapped


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_a_short_notice_sits_on_the_footer_row(
    seed_store: PaperStore, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.setattr(pyperclip, "copy", lambda text: None)
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen.query("Toast"), "the notice")
        toasts = list(app.screen.query("Toast"))
        assert len(toasts) == 1
        assert toasts[0].region.height == 1 and toasts[0].region.bottom == size[1]
        assert toasts[0].region.right == size[0]  # over the end of the footer, not beside it
        assert not toasts[0].region.overlaps(app.query_one(DetailPane).region)


async def test_one_paper_is_one_paper_everywhere(write_seed: Callable[..., Path]) -> None:
    app = ReaderApp(Opening(store_from(write_seed("The only paper."))))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        assert app.workspace.sub_title == "1 paper"
        app.library.change_tags([app.store[0].id], add=["solo"])
        await pilot.press("T")
        prompt = str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert re.fullmatch(r"#solo +1 paper", prompt), prompt
        await pilot.press("d")
        assert "Delete #solo from 1 paper?" in texts(app)
        await pilot.press("n", "E")
        assert any(text.startswith("Export 1 paper to a file") for text in texts(app))


def test_no_count_in_the_code_is_written_with_a_fixed_plural() -> None:
    """A count goes through core.wording.count ("1 paper", "2 papers"), never "{n} papers"."""
    fixed = re.compile(r"\{[^{}]*\}\s+(papers|records|tags|links|entries|abstracts)\b")
    package = Path(__file__).parent.parent / "tui_reader"
    found = [
        f"{path.name}: {line.strip()}"
        for path in package.rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if fixed.search(line)
    ]
    assert found == []


async def test_m_says_in_the_header_that_the_raw_text_is_shown(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        assert app.workspace.sub_title.endswith(" · raw text")
        await pilot.press("m")
        assert "raw" not in app.workspace.sub_title


async def test_the_split_is_remembered(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("greater_than_sign", "greater_than_sign")
        assert app.session().split == 6
    again = ReaderApp(Opening(seed_store, session=app.session()))
    async with again.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        assert again.query_one(PaperList).region.width == 72  # 6 tenths of 120
    for strange in (0, 11, -3):
        odd = ReaderApp(Opening(seed_store, session=Session(split=strange)))
        async with odd.run_test(size=(120, 30)):
            assert odd.session().split == 4


async def test_the_palette_names_each_command_once(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(80, 24)):
        commands = [command.title for command in app.get_system_commands(app.screen)]
        assert len(commands) == len(set(commands)), sorted(commands)
        assert {"Keys", "Quit", "Theme"} <= set(commands)


def test_duplicate_abstracts_are_counted_when_loaded(write_seed: Callable[..., Path]) -> None:
    loaded = load_paths([write_seed("Same paper.", "Other paper.", "Same  paper.", "Same paper.")])
    assert len(loaded.papers) == 2 and loaded.duplicates == 2


async def test_duplicates_merged_are_said_once_at_start(
    write_seed: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui_reader.cli.program import main

    path = write_seed("Same paper.", "Other paper.", "Same paper.", "Same paper.")
    opened: list[ReaderApp] = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: opened.append(app))
    assert main([str(path)]) == 0
    assert opened[0].workspace.loader.duplicates == 2
    app = ReaderApp(Opening(opened[0].store, duplicates=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert notices(app) == ["2 duplicate abstracts shown once"]
    # Loaded in the background: counted as they arrive, said when all are in.
    big = tmp_path / "big.jsonl"
    big.write_text("".join(f'{{"abstract": "Paper {n % 3}."}}\n' for n in range(7)))
    app = ReaderApp(Opening(PaperStore(), stream=stream_papers(check_paths([big]))))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        assert len(app.store) == 3 and app.workspace.loader.duplicates == 4
        assert notices(app) == ["4 duplicate abstracts shown once"]
