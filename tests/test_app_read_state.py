"""Read state: a paper is read once the reader has rested on it after moving to it, opening it
or jumping to it (never only because it was under the cursor at start), after the config's
read_after, and at once when the reader bookmarks, tags, annotates, copies from or opens it;
R reads every paper shown, and u undoes that."""

import webbrowser
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pyperclip
import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.pilot_helpers import lines, related_shown, type_filter, wait_until, work_done
from tui_reader.core.config import Config
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.session import Session
from tui_reader.core.store import PaperStore
from tui_reader.ui import app as app_module
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.triage_screen import TriageScreen

QUICK = 0.1  # seconds: read_after in these tests
LONGER = 0.6  # seconds: several times QUICK, for what must not happen
UNREAD_LM = "is:unread language models"  # more than the screen's rows, some close papers
CLOSE_TOO = "difusion tabular"  # 1 of 38 papers (+4 close)


@pytest.fixture(autouse=True)
def quick_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The delay of a reader given no config."""
    monkeypatch.setattr(app_module, "READ_AFTER", QUICK)


def reader(
    store: PaperStore, path: Path, read_after: float | None = None, session: Session | None = None
) -> ReaderApp:
    """A reader over its own library; with the config's `read_after` when one is given."""
    library, messages = Library.open(path)
    config = None if read_after is None else Config(read_after=read_after)
    return ReaderApp(Opening(store, messages=messages, session=session), library, config)


@asynccontextmanager
async def filtered(
    store: PaperStore, path: Path, query: str
) -> AsyncIterator[tuple[ReaderApp, Pilot[None], PaperList]]:
    """A reader over its own library that reads no paper by resting on it (not within a
    test), `query` typed in its filter: the reader, its pilot and its list."""
    app = reader(store, path, read_after=60)
    async with app.run_test(size=(100, 30)) as pilot:
        await type_filter(pilot, query)
        yield app, pilot, app.workspace.paper_list


async def rest_on_the_second_unread(app: ReaderApp, pilot: Pilot[None]) -> Paper:
    """Under `is:unread`, the list's second paper, once resting on it has read it (the first
    is not read by the start)."""
    await type_filter(pilot, "is:unread")
    await pilot.press("enter", "j")
    rested = app.workspace.paper_list.current
    assert rested is not None
    await wait_until(pilot, lambda: app.library.is_read(rested.id), "paper 2 read")
    return rested


async def test_the_paper_under_the_cursor_at_start_is_not_read(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(LONGER)
        assert not app.library.is_read(seed_store[0].id)


async def test_nor_the_paper_a_restored_session_puts_there(
    seed_store: PaperStore, private_library: Path
) -> None:
    session = Session("", seed_store[5].id, "relevance", "textual-dark")
    app = reader(seed_store, private_library, session=session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(
            pilot, lambda: app.workspace.paper_list.cursor == 5, "the session restored"
        )
        await pilot.pause(LONGER)
        assert not app.library.is_read(seed_store[5].id)


async def test_a_restored_query_keeps_the_paper_left_on_though_read_by_resting_on_it(
    seed_store: PaperStore, private_library: Path
) -> None:
    """Back under `is:unread`, the reader opened at its top: the paper it had left on was read
    by resting on it, so the restored query's results no longer held it."""
    left_on = seed_store[5]
    library, _ = Library.open(private_library)
    library.set_read([p.id for p in seed_store[:6]], True)
    library.save()
    session = Session("is:unread", left_on.id, "relevance", "textual-dark", paper_read_there=True)
    app = reader(seed_store, private_library, session=session)
    async with app.run_test(size=(100, 30)) as pilot:
        await work_done(app)
        paper_list = app.workspace.paper_list
        following = app.workspace.following
        await wait_until(pilot, lambda: following.last_paper_id == left_on.id, "restored")
        assert paper_list.current == left_on
        assert seed_store[4] not in paper_list.papers  # read before, not left on
        assert app.workspace.session("").paper_read_there  # and kept so at the next quit
        await pilot.press("r")  # marked unread, then read again: it leaves the list
        await pilot.press("r")
        await work_done(app)
        assert left_on not in paper_list.papers
        assert not app.workspace.session("").paper_read_there


async def test_the_session_keeps_a_paper_in_its_query_only_when_read_there(
    seed_store: PaperStore, private_library: Path
) -> None:
    """A paper read before `is:read` was typed, restored as read in it, left the results; a
    paper marked read with r, the list left empty, came back."""
    app = reader(seed_store, private_library, read_after=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        paper_list, rested = app.workspace.paper_list, seed_store[1]
        await pilot.press("j")
        await wait_until(pilot, lambda: app.library.is_read(rested.id), "paper 2 read")
        await type_filter(pilot, "is:read")
        assert list(paper_list.papers) == [rested]
        assert not app.workspace.session("").paper_read_there
        await pilot.press("ctrl+u", *"is:unread AugMask")
        await work_done(app)
        assert list(paper_list.papers) == [seed_store[2]]
        await pilot.press("enter", "enter")  # opened: read once rested on
        await wait_until(pilot, lambda: app.library.is_read(seed_store[2].id), "AugMask read")
        assert app.workspace.session("").paper_read_there
        await pilot.press("r", "r")
        await work_done(app)
        assert not paper_list.papers
        assert not app.workspace.session("").paper_read_there


async def test_nor_the_first_result_of_a_filter(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await type_filter(pilot, "diffusion")
        await pilot.pause(LONGER)
        assert not any(app.library.is_read(paper.id) for paper in seed_store)


async def test_a_paper_moved_to_is_read_after_the_configs_read_after(
    seed_store: PaperStore, private_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "READ_AFTER", 60.0)
    app = reader(seed_store, private_library, read_after=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j")
        await wait_until(pilot, lambda: app.library.is_read(seed_store[1].id), "paper 2 read")
        await wait_until(pilot, lambda: lines(app)[1][2] == " ", "its unread dot gone")
        assert not app.library.is_read(seed_store[0].id)


@pytest.mark.parametrize("key", ["enter", "z"])  # z: read for a minute, it stayed unread
async def test_the_paper_under_the_cursor_at_start_is_read_once_opened(
    seed_store: PaperStore, private_library: Path, key: str
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(LONGER)
        assert not app.library.is_read(seed_store[0].id)
        await pilot.press(key)
        await wait_until(pilot, lambda: app.library.is_read(seed_store[0].id), "paper 1 read")


@pytest.fixture
def no_outside_world(monkeypatch: pytest.MonkeyPatch) -> None:
    """Copies and links go nowhere."""
    monkeypatch.setattr(pyperclip, "copy", lambda text: None)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(webbrowser, "open", lambda url, new=0: True)


USES = {
    "bookmark": ["b"],
    "tag": ["t", *"kernels", "enter"],
    "note": ["n", *"seen", "escape"],
    "copy its link": ["y"],
    "copy from it": ["Y", "2"],
    "open it": ["o"],
}


@pytest.mark.usefixtures("no_outside_world")
async def test_read_after_0_never_reads_by_itself(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library, read_after=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j", "enter", *(key for keys in USES.values() for key in keys))
        await pilot.pause(LONGER)
        assert not any(app.library.is_read(paper.id) for paper in seed_store)
        await pilot.press("r")
        assert app.library.is_read(seed_store[1].id)


async def test_capital_r_reads_every_paper_shown_and_u_undoes_it(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library, read_after=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j", "r")  # one read before
        await type_filter(pilot, "diffusion")
        await pilot.press("enter", "r", "R")  # the first read before R
        shown = list(app.workspace.paper_list.papers)
        assert shown and all(app.library.is_read(paper.id) for paper in shown)
        others = [paper for paper in seed_store if paper not in shown and paper != seed_store[1]]
        assert not any(app.library.is_read(paper.id) for paper in others)
        assert app._notifications and list(app._notifications)[-1].message == (
            f"Marked {len(shown) - 1} papers read (u undoes)"
        )
        await wait_until(pilot, lambda: all(line[2] == " " for line in lines(app)), "no dots")
        await pilot.press("u")
        assert [paper for paper in shown if app.library.is_read(paper.id)] == [shown[0]]
        assert app.library.is_read(seed_store[1].id)


async def test_mark_all_read_all_and_export_take_the_papers_the_header_counts(
    seed_store: PaperStore, private_library: Path
) -> None:
    """Not the close papers dimmed after them: `difusion tabular` is 1 of 38 (+4 close)."""
    async with filtered(seed_store, private_library, CLOSE_TOO) as (app, pilot, paper_list):
        assert (paper_list.full, len(paper_list.papers)) == (1, 5)
        counted = paper_list.papers[0].id
        await pilot.press("enter", "A")
        assert paper_list.marked == {counted}
        await pilot.press("E")  # the dialog says the papers are the marked ones
        titles = [str(static.content) for static in app.screen.query(Static)]
        assert any(title.startswith("Export the 1 marked paper to") for title in titles), titles
        await pilot.press("escape", "escape", "R")  # the marks cleared: R reads those shown
        assert [paper.id for paper in seed_store if app.library.is_read(paper.id)] == [counted]
        await pilot.press("E")
        titles = [str(static.content) for static in app.screen.query(Static)]
        assert any(title.startswith("Export 1 paper to a file") for title in titles), titles


@pytest.mark.parametrize("key", ["A", "R", "E", "I"])
async def test_keys_for_the_papers_shown_leave_the_close_ones_when_none_matches_in_full(
    seed_store: PaperStore, private_library: Path, key: str
) -> None:
    async with filtered(seed_store, private_library, "tabular zzqxyw") as (app, pilot, paper_list):
        assert paper_list.full == 0 and len(paper_list.papers) > 0
        screen = app.screen
        await pilot.press("enter", key)
        await pilot.pause()
        assert app.screen is screen and not paper_list.marked  # no dialog, no triage
        assert not any(app.library.is_read(paper.id) for paper in seed_store)
        assert [notification.message for notification in app._notifications][-1] == (
            "No paper matches every term: the close ones after them are left as they are"
        )


async def test_a_paper_tagged_later_is_put_off_unread_as_triage_puts_it_off(
    seed_store: PaperStore, private_library: Path
) -> None:
    """Tagged `later` in the list, it was read at once, and left `is:unread` and the digest."""
    app = reader(seed_store, private_library, read_after=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        rested, unread = await rest_on_the_second_unread(app, pilot), seed_store[2]
        await pilot.press("t", *"later", "enter", "j", "t", *"later", "enter")
        await pilot.pause(LONGER)
        assert app.library.tags(rested.id) == app.library.tags(unread.id) == ["later"]
        assert not app.library.is_read(rested.id) and not app.library.is_read(unread.id)
        await pilot.press("u", "u")  # each tag and the read it took back, in one step
        await work_done(app)
        assert not app.library.tags(rested.id) and not app.library.tags(unread.id)
        assert app.library.is_read(rested.id)


async def test_a_later_paper_bookmarked_is_kept_and_put_off_no_more(
    seed_store: PaperStore, private_library: Path
) -> None:
    """Bookmarked in the list, it stayed #later: the later feed counted it, triage did not
    count it kept, and exports gave Zotero a `later` tag on a kept paper."""
    app = reader(seed_store, private_library, read_after=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("t", *"later theory", "enter")
        await work_done(app)
        first = app.workspace.paper_list.current.id  # type: ignore[union-attr]
        assert app.library.tags(first) == ["later", "theory"]
        await pilot.press("b")
        await work_done(app)
        assert app.library.is_bookmarked(first)
        assert app.library.tags(first) == ["theory"]
        await pilot.press("u")  # one step: the bookmark and the tag back
        await work_done(app)
        assert not app.library.is_bookmarked(first)
        assert sorted(app.library.tags(first)) == ["later", "theory"]


@pytest.mark.usefixtures("no_outside_world")
@pytest.mark.parametrize("keys", USES.values(), ids=USES.keys())
async def test_a_paper_used_is_read_at_once(
    seed_store: PaperStore, private_library: Path, keys: list[str]
) -> None:
    """The paper under the cursor at start, never read by resting on it: bookmarked, it
    stayed unread."""
    app = reader(seed_store, private_library, read_after=60)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*keys)
        first = seed_store[0].id
        await wait_until(pilot, lambda: app.library.is_read(first), "paper 1 read")
        await wait_until(pilot, lambda: lines(app)[0][2] == " ", "its unread dot gone")


async def test_a_paper_bookmarked_among_the_unread_is_read_and_stays_in_sight(
    seed_store: PaperStore, private_library: Path
) -> None:
    """As one read by resting on it: gone at the next search, not under the reader's eyes."""
    app = reader(seed_store, private_library, read_after=60)
    async with app.run_test(size=(100, 30)) as pilot:
        await type_filter(pilot, "is:unread")
        await pilot.press("enter", "j", "j", "b")
        paper = seed_store[2]
        await wait_until(pilot, lambda: app.library.is_read(paper.id), "paper 3 read")
        await work_done(app)
        assert app.workspace.paper_list.current is paper
        assert app.library.is_bookmarked(paper.id)
        await type_filter(pilot, " ")
        assert paper not in app.workspace.paper_list.papers


@pytest.mark.usefixtures("no_outside_world")
async def test_papers_read_since_the_search_stay_among_the_unread_when_one_is_bookmarked(
    seed_store: PaperStore, private_library: Path
) -> None:
    """One read by resting on it, the next by copying its link, then bookmarked: the list
    searched again on the bookmark keeps both, and the cursor on its paper."""
    app = reader(seed_store, private_library, read_after=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        rested, copied = await rest_on_the_second_unread(app, pilot), seed_store[2]
        await pilot.press("j", "y")
        await wait_until(pilot, lambda: app.library.is_read(copied.id), "paper 3 read")
        await pilot.press("b")
        await wait_until(pilot, lambda: app.library.is_bookmarked(copied.id), "bookmarked")
        await work_done(app)
        paper_list = app.workspace.paper_list
        assert list(paper_list.papers) == list(seed_store)
        assert paper_list.current is copied
        await type_filter(pilot, " ")
        assert rested not in paper_list.papers and copied not in paper_list.papers


async def test_r_marks_a_paper_read_since_the_search_out_of_the_unread(
    seed_store: PaperStore, private_library: Path
) -> None:
    """The reader's own mark, unlike reading: r makes the paper rested on unread, and r
    again read, which takes it out of the list at once."""
    app = reader(seed_store, private_library, read_after=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        rested = await rest_on_the_second_unread(app, pilot)
        await pilot.press("r")
        await work_done(app)
        assert not app.library.is_read(rested.id)
        assert rested in app.workspace.paper_list.papers
        await pilot.press("r")
        await work_done(app)
        assert app.library.is_read(rested.id)
        assert rested not in app.workspace.paper_list.papers
        assert app.workspace.paper_list.current == seed_store[2]  # on its row, not the top
        await pilot.press("u")  # one paper's mark, a step as many papers' is
        await work_done(app)
        assert not app.library.is_read(rested.id)
        assert rested in app.workspace.paper_list.papers


async def test_the_full_matches_marked_read_leave_the_cursor_on_the_first_close_one(
    seed_store: PaperStore, private_library: Path
) -> None:
    async with filtered(seed_store, private_library, UNREAD_LM) as (app, pilot, paper_list):
        assert paper_list.full > 2 and len(paper_list.papers) > paper_list.full + 2
        await pilot.press("enter", "j", "j")
        await pilot.press("R")
        await work_done(app)
        assert paper_list.full == 0 and len(paper_list.papers) > 2
        assert paper_list.cursor == 0


async def test_marked_papers_marked_read_out_of_the_unread_are_no_longer_marked(
    seed_store: PaperStore, private_library: Path
) -> None:
    """Their marks stayed, unseen: the next b bookmarked them, not the paper in sight."""
    async with filtered(seed_store, private_library, UNREAD_LM) as (app, pilot, paper_list):
        marked = [paper.id for paper in paper_list.papers[:2]]
        await pilot.press("enter", "space", "space", "r")
        await work_done(app)
        assert all(app.library.is_read(i) for i in marked)
        assert paper_list.marked == set() and "marked" not in app.workspace.sub_title
        current = paper_list.current
        assert current is not None and current.id not in marked
        await pilot.press("b")
        assert app.library.is_bookmarked(current.id)
        assert not any(app.library.is_bookmarked(i) for i in marked)


@pytest.mark.parametrize("keys", [["b"], ["t", *"kernels", "enter"]], ids=["b", "t"])
async def test_undoing_a_bookmark_or_tag_makes_the_paper_it_read_unread_again(
    seed_store: PaperStore, private_library: Path, keys: list[str]
) -> None:
    """Read by the bookmark, it stayed read once the bookmark was undone, and left the
    unread at the next search."""
    async with filtered(seed_store, private_library, UNREAD_LM) as (app, pilot, paper_list):
        await pilot.press("enter", "j")
        paper = paper_list.current
        assert paper is not None
        await pilot.press(*keys)
        await wait_until(pilot, lambda: app.library.is_read(paper.id), "the paper read")
        await pilot.press("u")
        await work_done(app)
        assert not app.library.is_read(paper.id)
        assert not app.library.is_bookmarked(paper.id) and app.library.tags(paper.id) == []
        await type_filter(pilot, " ")  # searched again
        await work_done(app)
        assert paper in paper_list.papers


async def test_a_paper_read_before_a_triage_that_decides_it_leaves_the_unread_after_it(
    seed_store: PaperStore, private_library: Path
) -> None:
    """Read by resting on it, a paper stays among the unread until the next query; decided
    in a triage, it leaves them as the triage ends, as one marked with r does."""
    app = reader(seed_store, private_library, read_after=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        await type_filter(pilot, "is:unread reinforcement")
        await pilot.press("enter", "j")
        rested = app.workspace.paper_list.current
        assert rested is not None
        await wait_until(pilot, lambda: app.library.is_read(rested.id), "the paper read")
        await pilot.press("I")
        triage = app.screen
        assert isinstance(triage, TriageScreen)
        walk = triage.triage
        for _ in range(len(walk.papers)):  # the papers read come last
            current = walk.current
            assert current is not None
            await pilot.press("x")
            await wait_until(pilot, lambda paper=current: paper.id in walk.decisions, "a skip")
            if current == rested:
                break
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not triage, "the triage to close")
        await work_done(app)
        assert walk.decisions[rested.id] == "skipped"
        assert rested not in app.workspace.paper_list.papers


async def test_marked_papers_bookmarked_together_stay_unread_a_paper_alone_is_read(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library, read_after=60)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "space", "b")
        assert app.library.is_bookmarked(seed_store[0].id)
        assert not any(app.library.is_read(paper.id) for paper in seed_store)
        await pilot.press("escape", "b")  # the marks cleared: the paper under the cursor
        assert app.library.is_read(seed_store[2].id)
        assert not app.library.is_read(seed_store[0].id)


async def test_a_paper_jumped_to_is_read_once_the_reader_stays(
    seed_store: PaperStore, private_library: Path
) -> None:
    """A related paper not among those shown, and a place gone back to: each came under the
    cursor with a new list, and stayed unread."""
    app = reader(seed_store, private_library, read_after=QUICK)
    async with app.run_test(size=(100, 40)) as pilot:
        await type_filter(pilot, "vericoding")
        await pilot.press("enter")
        found = app.workspace.paper_list.current
        await related_shown(pilot, found.id)
        target = app.workspace.detail_pane.related[1][0]
        assert app.workspace.paper_list.position_of(target.id) is None
        await pilot.pause(LONGER)
        assert not app.library.is_read(found.id), "put there by the filter's list"
        await pilot.press("1")
        await wait_until(pilot, lambda: app.library.is_read(target.id), "the related paper read")
        await pilot.press("left_square_bracket")
        await wait_until(pilot, lambda: app.library.is_read(found.id), "the paper gone back to")


async def test_a_paper_named_by_its_link_in_the_filter_is_read_once_the_reader_stays(
    seed_store: PaperStore, private_library: Path
) -> None:
    """Not the paper of a link restored from the last session: it was not jumped to."""
    session = Session(seed_store[9].id, seed_store[9].id, "relevance", "textual-dark")
    app = reader(seed_store, private_library, read_after=QUICK, session=session)
    async with app.run_test(size=(100, 30)) as pilot:
        paper_list = app.workspace.paper_list
        await wait_until(pilot, lambda: list(paper_list.papers) == [seed_store[9]], "the link")
        await pilot.pause(LONGER)
        assert not app.library.is_read(seed_store[9].id)
        await pilot.press("slash", "ctrl+u")
        await type_filter(pilot, seed_store[12].id)
        assert list(paper_list.papers) == [seed_store[12]]
        await wait_until(pilot, lambda: app.library.is_read(seed_store[12].id), "paper 13 read")
        assert not app.library.is_read(seed_store[9].id)
