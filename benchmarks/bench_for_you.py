"""Measure the for-you order in the real app through Pilot: how long the first model takes, how
soon the list follows a decision (a bookmark, from the key to the list drawn in the new
order), how soon a triage follows one (from the key to the papers ahead sorted again), what
the recommender's `decide` costs (a training from the last weights, every paper scored), and
the cursor and page keys with nothing else running, before the for-you order and after the
decisions. Python's garbage collector is timed meanwhile (`gc.callbacks`: its full passes,
which go over every object it tracks, stall the screen), and the objects it tracks are
counted, by type, after the first model and in the triage: unlike the times, these do not
depend on what else the machine runs.

    python benchmarks/make_corpus.py 100000 /tmp/corpus-100k.jsonl.gz
    python benchmarks/bench_for_you.py /tmp/corpus-100k.jsonl.gz [--cache DIR] [--decisions 10]

The reader keeps 30 papers drawn at random and skips 300 (`random.Random(7)`); each decision
measured bookmarks the paper under the cursor, then moves down, and the next comes once that
move's work is done. The frames drawn for each decision are counted (the screen put together
and written), those before the one showing the new order and all of them. The cache folder
(the papers' rows, the models) is a new temporary one unless `--cache` names one: the first
model then includes building the rows.
"""

import argparse
import asyncio
import gc
import os
import platform
import random
import resource
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_app import print_figures
from textual import events
from textual.screen import Screen

from tui_reader import startup
from tui_reader.core import recommend
from tui_reader.core.config import Config
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.opening import Opening
from tui_reader.core.recommend.features import Features
from tui_reader.core.triage import Triage
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.paper_list import PaperList
from tui_reader.ui.triage_screen import TriageScreen

KEPT, SKIPPED = 30, 300
PAGES = ["pagedown"] * 10 + ["pageup"] * 10


def cpu() -> float:
    """Seconds of CPU this process has used, all its threads."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


async def keys_moving(
    app: ReaderApp, drawn: list[Any], keys: list[str], name: str, figures: dict[str, object]
) -> None:
    """The time from each key that moves the cursor to the list drawn with it, and the CPU
    time of the frame that drew it (the rows built or unpacked from the cache, and the
    screen put together from them)."""
    paper_list, latencies, drawing = app.workspace.paper_list, [], []
    for key in keys:
        cursor, sent = paper_list.cursor, time.perf_counter()
        drawn.clear()
        app.post_message(events.Key(key, key if len(key) == 1 else None))
        if await until(lambda: paper_list.cursor != cursor and bool(drawn), 5):  # noqa: B023
            latencies.append(1000 * (drawn[0][0] - sent))
            await until(lambda: bool(drawn[0][2]), 1)
            drawing.extend(drawn[0][2])
        await asyncio.sleep(0.1)
    summary(name, latencies, figures)
    summary(f"{name}, its frame (CPU)", drawing, figures)


class Collections:
    """The garbage collector's passes, timed (gc.callbacks): (generation, wall ms, CPU ms)
    each; the CPU time is that of the thread collecting, which other work on the machine
    does not stretch as it does the wall time."""

    def __init__(self) -> None:
        self.passes: list[tuple[int, float, float]] = []
        self._started = (0.0, 0.0)
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter(), time.thread_time()
        if phase == "start":
            self._started = now
        else:
            (wall, used), (began, began_used) = now, self._started
            wall, used = 1000 * (wall - began), 1000 * (used - began_used)
            self.passes.append((info["generation"], wall, used))

    def figures(self, during: str, figures: dict[str, object]) -> None:
        full = [(wall, used) for generation, wall, used in self.passes if generation == 2]
        young = [wall for generation, wall, _ in self.passes if generation < 2]
        figures[f"gc passes {during}: full, younger"] = f"{len(full)}, {len(young)}"
        summary(f"gc full passes {during} (wall)", [wall for wall, _ in full], figures)
        summary(f"gc full passes {during} (CPU)", [used for _, used in full], figures)
        if young:
            figures[f"gc younger passes {during}, max (ms)"] = max(young)
        self.passes.clear()


def tracked(figures: dict[str, object], when: str) -> None:
    """How many objects the collector tracks (and has frozen), the most common types."""
    objects = gc.get_objects()
    figures[f"objects tracked {when}"] = len(objects)
    figures[f"objects frozen {when}"] = gc.get_freeze_count()
    kinds = Counter(type(item).__qualname__ for item in objects).most_common(8)
    figures[f"most tracked {when}"] = ", ".join(f"{name} {n:,}" for name, n in kinds)
    del objects


async def until(condition: Callable[[], object], limit: float = 60.0) -> bool:
    """Wait for the condition; False if it did not come true within `limit` seconds."""
    deadline = time.perf_counter() + limit
    while not condition():
        if time.perf_counter() > deadline:
            return False
        await asyncio.sleep(0.002)
    return True


def summary(name: str, values: list[float], figures: dict[str, object]) -> None:
    if values:
        figures[f"{name}, median (ms)"] = statistics.median(values)
        if len(values) > 1:
            p95 = statistics.quantiles(values, n=20, method="inclusive")[-1]
            figures[f"{name}, p95 (ms)"] = p95
        figures[f"{name}, max (ms)"] = max(values)
        figures[f"{name}, each (ms)"] = " ".join(f"{value:.0f}" for value in values)


def counts(name: str, values: list[int], figures: dict[str, object]) -> None:
    if values:
        figures[f"{name}, median (max)"] = f"{statistics.median(values):g} ({max(values)})"
        figures[f"{name}, each"] = " ".join(str(value) for value in values)


async def measure(corpus: Path, decisions: int) -> dict[str, object]:
    figures: dict[str, object] = {}
    started = time.perf_counter()
    store = load_paths([corpus]).papers
    figures["papers"] = len(store)
    figures["loaded (s)"] = time.perf_counter() - started
    library = Library(None)
    draw = random.Random(7).sample(range(len(store)), KEPT + SKIPPED)
    ids = [store.id_of(number) for number in draw]
    library.change(ids[:KEPT], "kept", bookmarked=True, read=True)
    library.change(ids[KEPT:], "skipped", read=True)

    trainings: list[tuple[float, float]] = []  # (started, ended), perf_counter
    opening = recommend.open_recommender

    def timed(*arguments: Any) -> recommend.Recommender:
        began = time.perf_counter()
        try:
            return opening(*arguments)
        finally:
            trainings.append((began, time.perf_counter()))

    recommend.open_recommender = timed  # type: ignore[assignment]
    deciding: list[tuple[float, float]] = []  # (wall, CPU of its thread), ms
    decide = recommend.Recommender.decide

    def timed_decide(recommender: recommend.Recommender, *arguments: Any) -> None:
        wall, used = time.perf_counter(), time.thread_time()
        try:
            decide(recommender, *arguments)
        finally:
            deciding.append(
                (1000 * (time.perf_counter() - wall), 1000 * (time.thread_time() - used))
            )

    recommend.Recommender.decide = timed_decide  # type: ignore[method-assign]
    scorings: list[tuple[float, float]] = []  # (wall, CPU of its thread), ms
    score = Features.scores

    def scoring(rows: Features, *arguments: Any) -> Any:
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return score(rows, *arguments)
        finally:
            scorings.append(
                (1000 * (time.perf_counter() - wall), 1000 * (time.thread_time() - cpu))
            )

    Features.scores = scoring  # type: ignore[method-assign]
    # When the list was last drawn, and with which papers: a decision's latency ends at the
    # first drawing of a new order.
    # and the CPU time of the frame that drew it, in ms (in a list, given once it is drawn).
    drawn: list[tuple[float, object, list[float]]] = []
    render = PaperList.render_lines

    def recording(paper_list: PaperList, crop: Any) -> Any:
        strips = render(paper_list, crop)
        drawn.append((time.perf_counter(), paper_list.papers, []))
        return strips

    PaperList.render_lines = recording  # type: ignore[method-assign]
    refresh = Screen._compositor_refresh
    frames: list[float] = []  # when each frame was drawn (the screen put together)

    def framing(screen: Screen[Any]) -> None:
        count, used = len(drawn), time.thread_time()
        refresh(screen)
        frames.append(time.perf_counter())
        if len(drawn) > count:
            drawn[-1][2].append(1000 * (time.thread_time() - used))

    Screen._compositor_refresh = framing  # type: ignore[method-assign]
    reordered: list[float] = []  # when a triage sorted the papers ahead again
    reorder = Triage.reorder_ahead

    def reordering(triage: Triage, places: Any, with_current: bool = False) -> None:
        reorder(triage, places, with_current)
        reordered.append(time.perf_counter())

    Triage.reorder_ahead = reordering  # type: ignore[method-assign]

    app = ReaderApp(Opening(store), library, Config(read_after=0))
    async with app.run_test(size=(130, 40)):
        workspace, paper_list = app.workspace, app.workspace.paper_list
        await until(lambda: workspace.status == "ready", 600)
        await app.workers.wait_for_complete()
        await keys_moving(app, drawn, ["j"] * 20, "cursor key, nothing else running", figures)
        await keys_moving(app, drawn, PAGES, "page key, nothing else running", figures)
        app.post_message(events.Key("g", "g"))
        await asyncio.sleep(1.0)
        switched = time.perf_counter()
        for _ in range(4):  # relevance, file order, headline, recently changed, for you
            app.post_message(events.Key("s", "s"))
        ordered = await until(lambda: (workspace.sub_title or "").endswith("· for you"), 900)
        await until(lambda: bool(drawn) and drawn[-1][0] > switched and not app.workers, 60)
        figures["first model, from the key (s)"] = time.perf_counter() - switched
        if not ordered:
            figures["no model"] = workspace.sub_title
            return figures
        if trainings:
            figures["of which opening the recommender (s)"] = trainings[-1][1] - trainings[-1][0]

        await app.workers.wait_for_complete()
        tracked(figures, "after the first model")
        collections = Collections()
        follows: list[float] = []
        work: list[float] = []
        framed: list[int] = []  # frames from `b` before the one drawing the new order
        all_framed: list[int] = []  # frames from `b` until 0.5 s after the new order
        scorings.clear()
        for _ in range(decisions):
            # The cursor key's work done: its paper's related papers (looked for 0.6 s after
            # it) and why line drawn, not counted with the decision's frames.
            await asyncio.sleep(1.0)
            await app.workers.wait_for_complete()
            before, sent, used = paper_list.papers, time.perf_counter(), cpu()
            drawn.clear()
            frames.clear()
            app.post_message(events.Key("b", "b"))
            if await until(lambda: any(p is not before for _, p, _ in drawn), 10):  # noqa: B023
                came = next(t for t, p, _ in drawn if p is not before)
                follows.append(1000 * (came - sent))
                work.append(1000 * (cpu() - used))
                framed.append(sum(sent < t <= came for t in frames))
            await asyncio.sleep(0.5)
            all_framed.append(len(frames))
            app.post_message(events.Key("j", "j"))
        summary("list follows a bookmark", follows, figures)
        summary("CPU the process used meanwhile", work, figures)
        counts("frames drawn before the new order's", framed, figures)
        counts("frames drawn for a decision (to 0.5 s after)", all_framed, figures)
        summary("of which scoring the papers (wall)", [w for w, _ in scorings], figures)
        summary("of which scoring the papers (CPU)", [c for _, c in scorings], figures)
        summary("of which the recommender's decide (wall)", [w for w, _ in deciding], figures)
        summary("of which the recommender's decide (CPU)", [c for _, c in deciding], figures)
        collections.figures("while the list follows", figures)
        scorings.clear()

        await app.workers.wait_for_complete()
        await asyncio.sleep(0.5)
        app.post_message(events.Key("I", "I"))
        await until(lambda: isinstance(app.screen, TriageScreen), 60)
        await asyncio.sleep(1.0)
        triaged: list[float] = []
        for key in ("enter", "x") * (decisions // 2):
            reordered.clear()
            sent = time.perf_counter()
            app.post_message(events.Key(key, "\r" if key == "enter" else key))
            if await until(lambda: bool(reordered), 10):
                triaged.append(1000 * (reordered[0] - sent))
            await asyncio.sleep(0.5)
        summary("triage follows a decision", triaged, figures)
        collections.figures("while a triage follows", figures)
        tracked(figures, "in the triage")
        app.post_message(events.Key("escape", None))
        await asyncio.sleep(0.5)
        await app.workers.wait_for_complete()
        await keys_moving(app, drawn, ["j"] * 20, "cursor key, for you, after", figures)
        await keys_moving(app, drawn, PAGES, "page key, for you, after", figures)
    figures["peak RSS (MB)"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--cache", type=Path, help="the cache folder (default: a new one)")
    parser.add_argument("--decisions", type=int, default=10)
    arguments = parser.parse_args()
    startup.ready_for_processes()  # the index of a big input is built on a pool
    with tempfile.TemporaryDirectory(prefix="bench-for-you-") as temporary:
        os.environ["TUI_READER_CACHE"] = str(arguments.cache or temporary)
        os.environ["TUI_READER_SESSION"] = str(Path(temporary) / "session.json")
        figures = asyncio.run(measure(arguments.corpus, arguments.decisions))
    print(f"# {arguments.corpus.name} on {platform.node()} ({os.cpu_count()} cores)")
    print_figures(figures, 45)


if __name__ == "__main__":
    main()
