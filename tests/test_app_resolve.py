"""L in the reader looks the paper under the cursor up by its text and, on a certain match,
shows it with its title and links from then on (kept in the library)."""

import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.pilot_helpers import detail, ready, wait_until, work_done
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.resolve import Outcome, resolve_papers
from tui_reader.core.sources.polite import FetchError
from tui_reader.core.sources.record import SourceRecord
from tui_reader.core.store import PaperStore
from tui_reader.ui import look_up
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.paper_list import PaperList

TITLE = "Satisficing Regret Minimization in Bandits [/b]"


def answering(*records: SourceRecord) -> Any:
    """resolve_online as if the services answered these papers to every look-up."""

    def resolve_online(
        papers: Iterable[Paper],
        library: Library,
        addresses: Mapping[str, str] | None = None,
        *,
        again: bool = False,
        stop: threading.Event | None = None,
    ) -> Outcome:
        return resolve_papers(papers, library, [lambda words: list(records)], again=again)

    return resolve_online


def notices(app: ReaderApp) -> list[str]:
    return [str(notification.message) for notification in app._notifications]


async def test_l_gives_the_paper_its_title_and_keeps_it(
    seed_store: PaperStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bandit = next(p for p in seed_store if p.headline.startswith("uncertain-UCB"))
    found = SourceRecord("arxiv:2601.00001", TITLE, bandit.abstract, authors=("A. Author",))
    monkeypatch.setattr(look_up, "resolve_online", answering(found))
    library = Library(tmp_path / "library.json")
    app = ReaderApp(Opening(seed_store), library)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("slash", *"satisficing", "enter", "L")
        await wait_until(pilot, lambda: any("for certain" in n for n in notices(app)), "found")
        assert notices(app)[-1] == "Found 1 paper for certain"
        assert app.query_one(PaperList).current.title == TITLE  # type: ignore[union-attr]
        assert TITLE in detail(app) and "A. Author" in detail(app)
        await pilot.press("L")  # it has a title now: nothing to look up
        assert notices(app)[-1].startswith("These papers have titles already")
        await work_done(app)
    assert Library.open(tmp_path / "library.json")[0].resolved(bandit.id)["title"] == TITLE


async def test_offline_l_says_so_and_changes_nothing(
    seed_store: PaperStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def offline(*_: object, **__: object) -> Outcome:
        raise FetchError("offline: export.arxiv.org cannot be reached")

    monkeypatch.setattr(look_up, "resolve_online", offline)
    app = ReaderApp(Opening(seed_store), Library(tmp_path / "library.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        headline = app.query_one(PaperList).current.headline  # type: ignore[union-attr]
        await pilot.press("L")
        await wait_until(pilot, lambda: any("Stopped" in n for n in notices(app)), "the end")
        assert notices(app)[-1] == "Stopped looking up: offline: export.arxiv.org cannot be reached"
        assert app.query_one(PaperList).current.headline == headline  # type: ignore[union-attr]
    assert not (tmp_path / "library.json").exists()
