"""The for-you order in the reader, driven by keys as a reader would: `s` to it, the order a
model of the reader's decisions gives, the order following each decision below the cursor,
triage in that order, the line saying why, and a cold start said plainly."""

import gc
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tui_reader.core import recommend
from tui_reader.core.config import Config
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.session import Session
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.timings import Timings
from tui_reader.ui.triage_screen import TriageScreen

from .pilot_helpers import (
    detail,
    lines,
    ready,
    settled,
    type_filter,
    wait_until,
    work_done,
    work_shown,
)

TOPICS = {
    "bandits": "bandit regret arms exploration exploitation reward horizon optimism confidence",
    "robots": "robot grasping manipulation gripper locomotion sim2real controller torque legged",
    "qubits": "qubit annealing hamiltonian superconducting ising entanglement decoherence",
}
FILLER = "we study a problem and give results experiments data models learning"
# The topic of each paper, in file order: bandits and robots taking turns, a few qubit papers
# among them.
LAYOUT = ["qubits" if n % 13 == 6 else ("bandits" if n % 2 else "robots") for n in range(160)]


def _paper(number: int, topic: str, author: str = "") -> Paper:
    rng = np.random.default_rng(number)
    chosen = rng.choice(TOPICS[topic].split(), 5, replace=False).tolist()
    title = f"{topic} {' '.join(chosen[:2])} {number}"
    return Paper(
        id=f"p{number:04d}", abstract=f"{' '.join(chosen)} {FILLER} {number}x", collection="c",
        source=Path("c"), headline=title, title=title,
        authors=(author or f"Author {topic[0]}{number % 7}",),  # of one topic
    )  # fmt: skip


def corpus() -> PaperStore:
    return PaperStore([_paper(number, topic) for number, topic in enumerate(LAYOUT)])


def of(topic: str) -> list[str]:
    return [f"p{n:04d}" for n, t in enumerate(LAYOUT) if t == topic]


def topic_of(paper_id: str) -> str:
    return LAYOUT[int(paper_id[1:])]


def reader(
    store: PaperStore, path: Path, kept: list[str], skipped: list[str], **timings: float
) -> ReaderApp:
    library, messages = Library.open(path)
    assert messages == []
    library.change(kept, "kept", bookmarked=True, read=True)
    library.change(skipped, "skipped", read=True)
    library.save()
    return ReaderApp(Opening(store), library, Config(read_after=0), timings=Timings(**timings))  # type: ignore[arg-type]


def one_kept_short(path: Path) -> ReaderApp:
    """A reader whose next paper kept makes the decisions a first model needs."""
    return reader(corpus(), path, of("bandits")[:2], of("robots")[:3])


@pytest.fixture
def rows_held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The papers' rows for a model (tens of seconds at 100,000 papers) built only once the
    event is set: by the test, else as it ends."""
    release = threading.Event()
    build = recommend.features.build

    def held(papers: PaperStore) -> recommend.features.Features:
        release.wait(30)
        return build(papers)

    monkeypatch.setattr(recommend.features, "build", held)
    yield release
    release.set()


async def cold_triage(pilot: Pilot[None], app: ReaderApp) -> tuple[TriageScreen, Callable[[], str]]:
    """The for-you order with no model yet, and a triage opened in it: the triage, and its
    line saying why its paper is shown."""
    await for_you(pilot, "for you · no model yet")
    triage = await open_triage(pilot, app)
    return triage, lambda: str(triage.query_one("#triage-why", Static).content)


async def learning(pilot: Pilot[None], app: ReaderApp) -> None:
    """Wait for the header to say that a model is being made."""
    await wait_until(
        pilot,
        lambda: (app.workspace.sub_title or "").endswith("· for you · learning…"),
        "learning",
    )


def shown_ids(app: ReaderApp) -> list[str]:
    papers = app.workspace.paper_list.papers
    return [papers[n].id for n in range(len(papers))]


async def for_you(pilot: Pilot[None], label: str = "for you") -> None:
    """Switch to the for-you order (s from relevance: file order, headline, recently changed,
    for you) and wait for its model's order in the list."""
    app = pilot.app
    assert isinstance(app, ReaderApp)
    await ready(pilot)
    await pilot.press("s", "s", "s", "s")
    await wait_until(
        pilot,
        lambda: (app.workspace.sub_title or "").endswith(f"· {label}"),
        f"the {label} order",
        30,
    )
    await work_done(app)
    await settled(pilot)


async def open_triage(pilot: Pilot[None], app: ReaderApp) -> TriageScreen:
    """Press I and wait for the triage to show."""
    await pilot.press("I")
    await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen), "triage")
    triage = app.screen
    assert isinstance(triage, TriageScreen)
    return triage


async def test_the_for_you_order_puts_what_is_like_the_kept_papers_first_and_says_why(
    private_library: Path,
) -> None:
    bandits, robots = of("bandits"), of("robots")
    app = reader(corpus(), private_library, bandits[:3], robots[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        order = shown_ids(app)
        undecided = [i for i in order if i not in bandits[:3] + robots[:3]]
        assert [topic_of(i) for i in undecided[:30]] == ["bandits"] * 30
        assert set(order[-6:]) == set(bandits[:3] + robots[:3])  # the decided ones last
        await wait_until(pilot, lambda: "For you: " in detail(app), "why it is recommended")
        await wait_until(pilot, lambda: "…" not in detail(app).split("For you:")[1][:3], "words")
        why = detail(app).split("For you: ")[1].split("\n")[0]
        assert set(why.replace("·", " ").split()) & set(TOPICS["bandits"].split())
        await pilot.press("s")  # relevance: no line, the file's order
        await work_done(app)
        await settled(pilot)
        assert "For you" not in detail(app)
        assert shown_ids(app)[:2] == ["p0000", "p0001"]


async def test_under_the_decisions_a_model_needs_the_reader_is_told_how_many_more(
    private_library: Path,
) -> None:
    bandits, robots = of("bandits"), of("robots")
    app = reader(corpus(), private_library, bandits[:1], robots[:3])
    told: list[str] = []  # every notice, also one gone (4 s) before a loaded machine looks
    notify = app.notify

    def recorded(message: str, **options: Any) -> None:
        told.append(message)
        notify(message, **options)

    app.notify = recorded  # type: ignore[method-assign]
    async with app.run_test(size=(130, 40), notifications=True) as pilot:
        await for_you(pilot, "for you · no model yet")
        assert any("it needs 2 more kept" in message for message in told), told
        await wait_until(pilot, lambda: "it needs 2 more kept" in detail(app), "the pane")
        assert shown_ids(app)[-4:] == sorted(bandits[:1] + robots[:3])  # decided last
        assert shown_ids(app)[:2] == ["p0003", "p0005"]  # undecided, in file order
        await pilot.press("b")  # kept
        await wait_until(pilot, lambda: "it needs 1 more kept" in detail(app), "one more")
        assert shown_ids(app)[0] == "p0003"  # it stays under the cursor
        await pilot.press("j", "b")
        await wait_until(
            pilot, lambda: (app.workspace.sub_title or "").endswith("· for you"), "a model", 30
        )
        assert any("your model's order now" in message for message in told), told


async def test_like_a_tag_orders_by_the_papers_carrying_it(private_library: Path) -> None:
    bandits, robots = of("bandits"), of("robots")
    library, _ = Library.open(private_library)
    library.change(bandits[:8], "kept", bookmarked=True, read=True)
    library.change(robots[:3], "tagged", add_tags=["robotics"], read=True)
    library.change(bandits[8:11] + robots[3:6], "skipped", read=True)
    library.save()
    app = ReaderApp(Opening(corpus()), library, Config(read_after=0))
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        assert topic_of(shown_ids(app)[0]) == "bandits"  # most kept
        await type_filter(pilot, "!#robotics ")
        await wait_until(
            pilot,
            lambda: (app.workspace.sub_title or "").endswith("· like #robotics"),
            "its model",
            30,
        )
        await work_done(app)
        await settled(pilot)
        shown = shown_ids(app)
        assert not set(shown) & set(robots[:3])  # the filter: not tagged
        assert [topic_of(i) for i in shown[:20]] == ["robots"] * 20
        await wait_until(pilot, lambda: "Like #robotics: " in detail(app), "why, by the tag")
        # In a triage of this order, a keep gives the tag too: it teaches the tag's model.
        await pilot.press("enter")  # from the filter to the list
        triage = await open_triage(pilot, app)
        assert "Enter keep #robotics" in str(triage.query_one("#triage-keys").render())
        kept = triage.triage.current
        assert kept is not None
        await pilot.press("enter", "x")
        await work_done(app)
        assert library.tags(kept.id) == ["robotics"] and library.is_bookmarked(kept.id)
        skipped = triage.triage.papers[1].id
        assert library.tags(skipped) == [] and not library.is_bookmarked(skipped)
        await pilot.press("u", "u")
        await work_done(app)
        assert library.tags(kept.id) == [] and not library.is_bookmarked(kept.id)


async def test_a_bookmark_sorts_the_papers_below_again_and_the_cursor_stays_on_its_paper(
    private_library: Path,
) -> None:
    """Kept, a qubit paper brings the other qubit papers up to just below it, at once: the
    model follows the decision (trained again from its last weights)."""
    bandits, robots, qubits = of("bandits"), of("robots"), of("qubits")
    app = reader(corpus(), private_library, bandits[:3], robots[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        before = shown_ids(app)
        first_qubit = min(before.index(i) for i in qubits)
        assert first_qubit > 20  # after the bandits
        paper_list = app.workspace.paper_list
        paper_list.choose(first_qubit)
        await pilot.pause()
        await pilot.press("b")
        await wait_until(pilot, lambda: shown_ids(app) != before, "the order to follow", 30)
        after = shown_ids(app)
        assert after[: first_qubit + 1] == before[: first_qubit + 1]  # passed: in place
        assert paper_list.cursor == first_qubit
        assert paper_list.current is not None and paper_list.current.id == before[first_qubit]
        others = len(qubits) - 1
        below = after[first_qubit + 1 : first_qubit + 1 + others]
        assert all(topic_of(i) == "qubits" for i in below), below


async def test_triage_walks_in_the_for_you_order_and_a_skip_sends_its_like_back(
    private_library: Path,
) -> None:
    bandits, robots, qubits = of("bandits"), of("robots"), of("qubits")
    app = reader(corpus(), private_library, qubits[:3] + bandits[:3], robots[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        triage = await open_triage(pilot, app)
        walk = triage.triage
        ahead = [paper.id for paper in walk.papers]
        assert ahead[:10] == shown_ids(app)[:10]  # the list's order: best first
        assert {topic_of(i) for i in ahead[:20]} <= {"qubits", "bandits"}
        current = walk.current
        assert current is not None and topic_of(current.id) == "qubits"  # the likeliest
        assert any(topic_of(i) == "qubits" for i in ahead[1:6])

        def qubits_ahead() -> list[int]:
            return [n for n, p in enumerate(walk.papers[2:]) if topic_of(p.id) == "qubits"]

        before = qubits_ahead()
        await pilot.press("x")  # not for me after all: the papers like it fall back
        await wait_until(
            pilot, lambda: qubits_ahead() != before, "the order to follow the skip", 30
        )
        assert all(now >= was for now, was in zip(qubits_ahead(), before, strict=True))
        on_screen = walk.current
        assert on_screen is not None and on_screen.id == ahead[1]  # it stayed on screen
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list")
        paper_list = app.workspace.paper_list  # back on the paper triage stopped on

        def on_it() -> bool:
            return paper_list.current is not None and paper_list.current.id == on_screen.id

        await wait_until(pilot, on_it, "the cursor on it")

        def triaged_next() -> bool:  # the list sorted whole, in the triage's order
            rest = [i for i in shown_ids(app) if i not in ahead[:2]]
            return rest[: len(walk.papers) - 2] == [p.id for p in walk.papers[2:]]

        await wait_until(pilot, triaged_next, "the list to follow", 30)
        ids = shown_ids(app)
        assert on_it() and ids.index(ahead[0]) > ids.index(ahead[1])  # the skip among the decided


async def test_an_undo_gives_back_the_order_before_it(private_library: Path) -> None:
    bandits, robots, qubits = of("bandits"), of("robots"), of("qubits")
    app = reader(corpus(), private_library, qubits[:3] + bandits[:3], robots[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        listed = shown_ids(app)
        walk = (await open_triage(pilot, app)).triage

        def order() -> list[str]:
            return [paper.id for paper in walk.papers]

        ahead = order()
        await pilot.press("x")  # a skip in triage, taken back
        await wait_until(pilot, lambda: order() != ahead, "the order to follow the skip", 30)
        await pilot.press("u")
        await wait_until(pilot, lambda: order() == ahead, "the order before the skip", 30)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list")
        await work_done(app)
        await wait_until(pilot, lambda: shown_ids(app) == listed, "the list's order before", 30)
        await pilot.press("g", *["space"] * 12, "r")  # twelve papers read in one step: skipped
        await wait_until(pilot, lambda: shown_ids(app) != listed, "the order to follow", 30)
        await pilot.press("u")
        await work_done(app)
        await wait_until(pilot, lambda: shown_ids(app) == listed, "the order before the step", 30)


async def test_what_the_why_line_names_is_shown_as_written_never_as_markup(
    private_library: Path,
) -> None:
    mallory = "[b]Mallory[/b] \x1b[31m"
    papers = [
        _paper(number, topic, mallory if topic == "qubits" else "") for number, topic in
        enumerate(LAYOUT)
    ]  # fmt: skip
    qubits, robots = of("qubits"), of("robots")
    app = reader(PaperStore(papers), private_library, qubits[:3], robots[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        await wait_until(pilot, lambda: "[b]Mallory[/b]" in detail(app), "the author named")
        assert "\x1b" not in detail(app)


async def test_the_order_opens_on_its_best_paper_and_a_restored_place_does_not_hold_it_back(
    private_library: Path,
) -> None:
    """Asked for (s) with the cursor on the last paper, the order opens on its first; asked
    for again, once decisions were made in another order, on its best paper not yet decided.
    Started in it, on a paper decided (the session's), the model's order still sorts the list."""
    bandits, robots = of("bandits"), of("robots")
    app = reader(corpus(), private_library, bandits[:3], robots[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(pilot)
        await pilot.press("G")
        await for_you(pilot)
        paper_list = app.workspace.paper_list
        assert paper_list.cursor == 0
        best = shown_ids(app)[0]
        assert topic_of(best) == "bandits"
        await pilot.press("s")  # relevance: the best one kept there
        await work_done(app)
        paper_list.choose(shown_ids(app).index(best))
        await pilot.press("b")
        await work_done(app)
        await pilot.press("s", "s", "s", "s")
        await wait_until(pilot, lambda: shown_ids(app)[0] != best, "the order to follow it", 30)
        await work_done(app)
        assert paper_list.cursor == 0
        assert best in shown_ids(app)[-7:]  # decided now
    session = Session("", robots[0], "for you", "textual-dark")
    library, _ = Library.open(private_library)
    app = ReaderApp(Opening(corpus(), session=session), library, Config(read_after=0))
    async with app.run_test(size=(130, 40)) as pilot:
        await wait_until(
            pilot, lambda: (app.workspace.sub_title or "").endswith("· for you"), "a model", 30
        )

        def undecided_first() -> list[str]:
            decided = bandits[:3] + robots[:3] + [best]
            return [topic_of(i) for i in shown_ids(app) if i not in decided][:30]

        await wait_until(pilot, lambda: undecided_first() == ["bandits"] * 30, "its order", 30)
        await work_done(app)
        current = app.workspace.paper_list.current
        assert current is not None and current.id == robots[0]  # where the reader left off


async def test_the_papers_passed_while_the_model_is_made_keep_their_places(
    private_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader moves down the list while the model is made: its first order sorts only
    the papers below the cursor."""
    bandits, robots = of("bandits"), of("robots")
    go_on = threading.Event()
    opening = recommend.open_recommender

    def held(*arguments: Any) -> recommend.Recommender:
        go_on.wait(30)
        return opening(*arguments)

    monkeypatch.setattr(recommend, "open_recommender", held)
    app = reader(corpus(), private_library, bandits[:3], robots[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(pilot)
        await pilot.press("s", "s", "s", "s")
        await wait_until(pilot, lambda: "learning" in (app.workspace.sub_title or ""), "learning")
        decided = set(bandits[:3] + robots[:3])

        def decided_last() -> bool:  # the order without a model, drawn once its search is done
            return set(shown_ids(app)[-6:]) == decided

        await wait_until(pilot, decided_last, "the decided papers last", 30)
        await work_done(app)
        await pilot.press(*"jjjjj")
        await work_done(app)
        before = shown_ids(app)
        assert decided_last()
        go_on.set()
        await wait_until(pilot, lambda: shown_ids(app)[6:] != before[6:], "the model's order", 30)
        after = shown_ids(app)
        assert after[:6] == before[:6]  # passed, and the paper under the cursor: in place
        assert app.workspace.paper_list.cursor == 5
        assert [topic_of(i) for i in after[6:30]] == ["bandits"] * 24


async def test_the_recommender_opened_is_out_of_the_garbage_collectors_sight(
    private_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What lives as long as the reader is frozen (gc.freeze) once the recommender is opened:
    the collector's full passes no longer go over it."""
    bandits, robots = of("bandits"), of("robots")
    opened: list[recommend.Recommender] = []
    opening = recommend.open_recommender

    def kept(*arguments: Any) -> recommend.Recommender:
        opened.append(opening(*arguments))
        return opened[-1]

    monkeypatch.setattr(recommend, "open_recommender", kept)
    app = reader(corpus(), private_library, bandits[:3], robots[:3])
    try:
        async with app.run_test(size=(130, 40)) as pilot:
            await for_you(pilot)
            assert len(opened) == 1
            assert not any(item is opened[0] for item in gc.get_objects())
    finally:
        gc.unfreeze()  # the other tests' objects as they were: collected


async def test_a_model_that_cannot_be_made_is_told_and_the_reader_is_not_left_learning(
    private_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> recommend.Recommender:
        raise RuntimeError("the rows are torn")

    monkeypatch.setattr(recommend, "open_recommender", broken)
    bandits, robots = of("bandits"), of("robots")
    app = reader(corpus(), private_library, bandits[:3], robots[:3])
    async with app.run_test(size=(130, 40), notifications=True) as pilot:
        await for_you(pilot, "for you · no model yet")
        told = [(notice.message, notice.severity) for notice in app._notifications]
        said = "For you: no model could be made: the rows are torn"
        assert (said, "warning") in told, told
        await wait_until(pilot, lambda: said in detail(app), "the pane to say so")
        assert set(shown_ids(app)[-6:]) == set(bandits[:3] + robots[:3])  # decided, last


async def test_a_training_that_fails_at_a_decision_is_told_and_the_order_goes_on(
    private_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model fails to learn a decision: the reader is told, the list keeps the decided
    papers last, and the decisions after it are followed still."""
    bandits, robots = of("bandits"), of("robots")
    app = reader(corpus(), private_library, bandits[:3], robots[:3])
    async with app.run_test(size=(130, 40), notifications=True) as pilot:
        await for_you(pilot)

        def broken(*_: object) -> None:
            raise MemoryError("no room for the weights")

        monkeypatch.setattr(recommend.Recommender, "decide", broken)
        first = shown_ids(app)[0]
        await pilot.press("b")
        await wait_until(
            pilot, lambda: (app.workspace.sub_title or "").endswith("· no model yet"), "told"
        )
        said = "For you: no model could be made: no room for the weights"
        assert any(said in notice.message for notice in app._notifications)
        await work_done(app)
        await wait_until(pilot, lambda: first in shown_ids(app)[-7:], "the kept paper last")
        second = shown_ids(app)[0]
        await pilot.press("r")  # read: decided, and put last as well
        await wait_until(pilot, lambda: second in shown_ids(app)[-8:], "the read paper last")


async def test_a_triage_sorts_only_the_papers_after_the_one_on_screen(
    private_library: Path,
) -> None:
    """Each decision sorts the papers still to come: those walked, and the one on screen,
    keep their places; undone, a decision's paper comes back where it was."""
    bandits, robots, qubits = of("bandits"), of("robots"), of("qubits")
    app = reader(corpus(), private_library, qubits[:3] + bandits[:3], robots[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        triage = await open_triage(pilot, app)
        walk, seen = triage.triage, []
        room = app.workspace.for_you
        for key in ("x", "enter", "x", "x"):
            before, order = [paper.id for paper in walk.papers], room.order
            seen.append(before[walk.position])
            await pilot.press(key)
            await wait_until(pilot, lambda: room.order is not order, "a new order", 30)  # noqa: B023
            await work_done(app)
            now = [paper.id for paper in walk.papers]
            assert now[: walk.position] == seen  # those walked, in the order walked
            assert now[walk.position] == before[walk.position]  # the one on screen
        await pilot.press("u")
        await work_done(app)
        await pilot.pause()
        assert [paper.id for paper in walk.papers][:4] == seen
        assert walk.current is not None and walk.current.id == seen[-1]


async def test_a_paper_only_shown_is_not_skipped_and_a_triage_opens_on_the_best_one(
    private_library: Path,
) -> None:
    """In the for-you order a paper rested on is not read: read and not kept would be a skip,
    which the model learns and the order and a triage put last. A triage opens on the best
    paper not decided, and, taken up again, on the best one left, not on a paper decided
    since in the list."""
    bandits, robots = of("bandits"), of("robots")
    library, _ = Library.open(private_library)
    library.change(bandits[:3], "kept", bookmarked=True, read=True)
    library.change(robots[:3], "skipped", read=True)
    library.save()
    app = ReaderApp(Opening(corpus()), library, Config(read_after=0.2))
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        best = shown_ids(app)[0]
        await pilot.press("j", "k")  # moved to by the reader, and rested on
        await pilot.pause(0.6)
        await work_done(app)
        assert not library.is_read(best)
        assert shown_ids(app)[0] == best
        triage = await open_triage(pilot, app)
        assert triage.triage.current is not None and triage.triage.current.id == best
        await pilot.press("l")  # later: passed, not decided
        await work_done(app)
        second = triage.triage.current
        assert second is not None
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list")
        await work_done(app)
        paper_list = app.workspace.paper_list
        await wait_until(pilot, lambda: paper_list.current is not None, "the cursor")
        paper_list.choose(shown_ids(app).index(second.id))
        await pilot.press("r")  # skipped in the list
        await wait_until(pilot, lambda: library.is_read(second.id), "the skip")
        await work_done(app)
        triage = await open_triage(pilot, app)
        order, store = app.workspace.for_you.order, app.workspace.store
        assert order is not None and len(order.scores)
        undecided = np.flatnonzero(~order.decided)
        ranked = undecided[np.argsort(-order.scores[undecided], kind="stable")]
        expected = next(i for i in map(store.id_of, ranked.tolist()) if i != best)
        current = triage.triage.current
        assert current is not None and current.id == expected


async def test_a_paper_bookmarked_in_the_order_is_read_and_no_model_takes_it_for_a_skip(
    private_library: Path,
) -> None:
    """A kept paper does not look unread (the list's dot), as elsewhere bookmarking reads it;
    it stays a positive of the for-you model and is set aside, not skipped, by a like-#tag
    one; papers only rested on stay unread."""
    bandits, robots, qubits = of("bandits"), of("robots"), of("qubits")
    library, _ = Library.open(private_library)
    library.change(bandits[:3], "kept", bookmarked=True, read=True)
    library.change(robots[:3], "tagged", add_tags=["robotics"], read=True)
    library.change(robots[3:6], "skipped", read=True)
    library.save()
    app = ReaderApp(Opening(corpus()), library, Config(read_after=0.01))
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        paper_list = app.workspace.paper_list
        before = shown_ids(app)
        place = min(before.index(i) for i in qubits)
        paper_list.choose(place)
        await pilot.pause(0.1)  # rested on: not read in this order
        chosen = before[place]
        headline = f" {corpus()[int(chosen[1:])].headline}"

        def row() -> str:
            return next(line for line in lines(app) if headline in line)

        assert not app.library.is_read(chosen)
        assert row()[1:3] == " •"
        await pilot.press("b")
        await wait_until(pilot, lambda: app.library.is_read(chosen), "the paper read", 30)
        await work_shown(pilot)
        assert app.library.is_bookmarked(chosen)
        assert row()[1:3] == "★ "
        assert not app.library.is_read(before[place + 1])  # passed on to: not read
    library, _ = Library.open(private_library)
    store = corpus()
    number = store.position_of(chosen)
    for tag, made in ((None, "kept"), ("robotics", "set aside")):
        decided = recommend.decisions(store, library, tag)
        assert number not in decided.skipped and not decided.undecided[number], made
        assert (number in decided.kept) is (tag is None)


async def test_a_triage_left_sorts_the_list_whole_the_cursor_on_the_paper_reached(
    private_library: Path,
) -> None:
    """A triage opened with no model yet, which comes as it goes: back in the list, it is
    sorted whole, the papers not decided best first, those decided (in the triage too) after
    them, not left at the top, and the cursor is on the paper the triage reached; none left
    above it in the order of the list before the triage (the file's)."""
    bandits = of("bandits")
    app = reader(corpus(), private_library, bandits[:3], [])
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot, "for you · no model yet")
        before = shown_ids(app)
        triage = await open_triage(pilot, app)
        walk = triage.triage
        for _ in range(14):
            current = walk.current
            assert current is not None
            await pilot.press("enter" if topic_of(current.id) == "bandits" else "x")
            await work_done(app)
        await wait_until(pilot, lambda: not app.workspace.for_you.cold, "a model", 30)
        await work_done(app)
        reached = walk.current
        assert reached is not None and reached.id not in walk.decisions
        decided = {*walk.decisions, *bandits[:3]}
        assert len(decided) == 17
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list")
        paper_list = app.workspace.paper_list

        def sorted_whole() -> bool:
            current = paper_list.current
            return (
                set(shown_ids(app)[-17:]) == decided
                and current is not None
                and (current.id == reached.id)
            )

        await wait_until(pilot, sorted_whole, "the list sorted whole", 30)
        await work_done(app)
        await settled(pilot)
        assert sorted_whole()
        ids = shown_ids(app)
        assert paper_list.cursor < 10 and ids[:10] != before[:10]
        assert [topic_of(i) for i in ids[:10]] == ["bandits"] * 10


async def test_a_decision_after_a_triage_left_sorts_only_the_papers_below(
    private_library: Path,
) -> None:
    """The list sorted whole once back from a triage, a bookmark in it sorts the papers
    below the cursor again, the cursor staying on its paper, as ever: not whole again."""
    app = reader(corpus(), private_library, of("bandits")[:3], of("robots")[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot)
        walk = (await open_triage(pilot, app)).triage
        for _ in range(4):
            await pilot.press("enter")
            await work_done(app)
        reached = walk.current
        assert reached is not None
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list")
        paper_list = app.workspace.paper_list

        def on_reached() -> bool:
            return paper_list.current is not None and paper_list.current.id == reached.id

        await wait_until(pilot, on_reached, "the cursor on the paper reached", 30)
        await work_done(app)
        await settled(pilot)
        before = shown_ids(app)
        place = paper_list.cursor
        await pilot.press("b")
        await wait_until(pilot, lambda: shown_ids(app) != before, "the order to follow", 30)
        await work_done(app)
        await settled(pilot)
        assert on_reached() and paper_list.cursor == place
        assert shown_ids(app)[: place + 1] == before[: place + 1]


@pytest.mark.parametrize("decided", [3, 1], ids=["a model", "no model yet"])
async def test_with_the_feeds_panel_open_at_start_the_order_comes_without_a_key(
    private_library: Path, decided: int
) -> None:
    """Started in the for-you order with the feeds panel open over the list: the header
    says when the model is made (or that there is none) as the panel stays, and the list
    under the panel is in its order, as the header says, with no key pressed."""
    bandits, robots = of("bandits"), of("robots")
    library, _ = Library.open(private_library)
    library.change(bandits[:decided], "kept", bookmarked=True, read=True)
    library.change(robots[:3], "skipped", read=True)
    library.save_search("bandits", "bandit")
    library.save()
    session = Session(sort="for you")
    app = ReaderApp(Opening(corpus(), session=session), library, Config(read_after=0))
    label = "· for you" if decided == 3 else "· for you · no model yet"
    async with app.run_test(size=(130, 40)) as pilot:
        await wait_until(pilot, lambda: app.screen is not app.workspace, "the feeds panel")
        await wait_until(
            pilot, lambda: (app.workspace.sub_title or "").endswith(label), "the header", 30
        )
        made = bandits[:decided] + robots[:3]

        def in_its_order() -> bool:
            first = shown_ids(app)[:20]
            if decided == 3:
                return [topic_of(i) for i in first] == ["bandits"] * 20
            return not set(first) & set(made)  # no model: the decided papers last

        await wait_until(pilot, in_its_order, "the order under the panel", 30)
        await work_done(app)
        assert app.screen is not app.workspace
        under_the_panel = shown_ids(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list")
        await work_done(app)
        assert shown_ids(app) == under_the_panel


async def test_under_the_decisions_a_model_needs_no_row_is_built_until_they_come(
    private_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "no model yet" is said without the papers' rows built first (tens of seconds at
    100,000 papers); they are built once the decisions are enough, and then the model."""
    built: list[int] = []
    build = recommend.features.build

    def counted(papers: PaperStore) -> recommend.features.Features:
        built.append(len(papers))
        return build(papers)

    monkeypatch.setattr(recommend.features, "build", counted)
    bandits, robots = of("bandits"), of("robots")
    app = reader(corpus(), private_library, bandits[:1], robots[:3])
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot, "for you · no model yet")
        assert built == []
        await wait_until(pilot, lambda: "it needs 2 more kept" in detail(app), "the pane")
        await pilot.press("b", "j", "b")
        await wait_until(
            pilot, lambda: (app.workspace.sub_title or "").endswith("· for you"), "a model", 30
        )
        assert built == [len(LAYOUT)]
        await wait_until(pilot, lambda: "For you: for its words" in detail(app), "why", 30)


async def test_a_triage_in_the_for_you_order_says_why_each_paper_is_recommended(
    private_library: Path,
) -> None:
    app = one_kept_short(private_library)
    async with app.run_test(size=(130, 40)) as pilot:
        triage, why = await cold_triage(pilot, app)
        await wait_until(pilot, lambda: why().startswith("For you: no model"), "cold", 30)
        assert "it needs 1 more kept" in why()
        current = triage.triage.current
        assert current is not None
        await pilot.press("enter")  # kept: a model now

        def explained() -> bool:
            return why().startswith("For you: ") and ("like " in why() or "words" in why())

        await wait_until(pilot, explained, "why it is recommended", 30)
        shown = triage.triage.current
        assert shown is not None and shown.id != current.id
        assert triage.triage.position == 1


async def test_while_the_rows_are_built_for_a_first_model_the_reader_says_it_is_learning(
    private_library: Path, rows_held: threading.Event
) -> None:
    """The decision that makes them enough has the rows built (tens of seconds at 100,000
    papers): meanwhile the header and the pane say the model is being made, not that it
    still needs that decision."""
    app = one_kept_short(private_library)
    async with app.run_test(size=(130, 40)) as pilot:
        await for_you(pilot, "for you · no model yet")
        await pilot.press("b")
        await learning(pilot, app)
        await wait_until(pilot, lambda: "learning from your decisions" in detail(app), "pane")
        assert "it needs" not in detail(app)
        rows_held.set()
        await wait_until(
            pilot, lambda: (app.workspace.sub_title or "").endswith("· for you"), "model", 30
        )


async def test_a_triage_says_it_is_learning_from_the_decision_that_makes_a_first_model(
    private_library: Path, rows_held: threading.Event
) -> None:
    """Enter on the paper that makes the decisions enough: while the rows are built, the
    triage's line says what the header says (learning), not that a model needs one more;
    then, the model made, why the paper on screen is recommended."""
    app = one_kept_short(private_library)
    async with app.run_test(size=(130, 40)) as pilot:
        _, why = await cold_triage(pilot, app)
        await wait_until(pilot, lambda: "it needs 1 more kept" in why(), "cold")
        await pilot.press("enter")
        await learning(pilot, app)
        await wait_until(pilot, lambda: "learning from your decisions" in why(), "the line")
        assert not rows_held.is_set()  # the rows are still being built
        rows_held.set()
        await wait_until(pilot, lambda: "words" in why() or "like " in why(), "why", 30)
