"""Measure the real app on a corpus through Pilot: first paint, load and index time, the
latency of each key typed into the filter, and peak memory.

    python benchmarks/bench_app.py /tmp/corpus-100k.jsonl.gz
    python benchmarks/bench_app.py --kept /tmp/corpus-100k.jsonl.gz  # from the cache folder

Time to first paint counts from the start of this process (imports included) to the first
frame with papers in the list. Each keystroke's latency runs from the key event reaching the
app to the list being drawn with that query's results (its first papers, where the reader
shows them said as counting: these keys are listed).
"""

import time

STARTED = time.perf_counter()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import platform  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
from pathlib import Path  # noqa: E402

# isort: off
from tui_reader import startup  # noqa: E402

startup.hold_collector()  # as the command does, until the first frame
startup.set_frame_rate()  # before Textual is imported
# isort: on
from textual import events  # noqa: E402
from textual.widgets import Input  # noqa: E402

from tui_reader.core.expected_papers import expected_papers  # noqa: E402
from tui_reader.core.library import Library  # noqa: E402
from tui_reader.core.loading import check_paths, stream_papers  # noqa: E402
from tui_reader.core.opening import Opening, Way, open_papers  # noqa: E402
from tui_reader.core.store import PaperStore  # noqa: E402
from tui_reader.ui.app import ReaderApp  # noqa: E402
from tui_reader.ui.paper_list import PaperList  # noqa: E402

QUERIES = [
    "difusion model",
    "reinforcment learning policy",
    "graph neural netwrk",
    "bayesian optimization",
    "transformer attention",
    "vericod",
    '"sparse attention"',
    "SAM",
    "title:bandit regret",
    "contrastive !image",
]
KEYS = {" ": "space", '"': "quotation_mark", ":": "colon", "!": "exclamation_mark"}


async def until(condition, step: float = 0.001, limit: float = 60.0) -> bool:
    """Wait for the condition; False if it did not come true within `limit` seconds."""
    deadline = time.perf_counter() + limit
    while not condition():
        if time.perf_counter() > deadline:
            return False
        await asyncio.sleep(step)
    return True


def reader(corpus: Path, kept: bool) -> ReaderApp:
    """The app as `tui-reader CORPUS` makes it: loading in the background, or, with `kept`,
    from the papers and index the cache folder kept."""
    files = check_paths([corpus])
    if not kept:
        stream, expected = stream_papers(files), expected_papers(files)
        opening = Opening(PaperStore(), Way.STREAMED, stream=stream, expected=expected)
        return ReaderApp(opening, Library(None))
    opening = open_papers([corpus], files, stream_from=0)
    if opening.way is not Way.CACHED:
        raise SystemExit(f"nothing kept for {corpus}: run `tui-reader search x {corpus}` first")
    return ReaderApp(opening, Library(None))


async def measure(corpus: Path, kept: bool) -> dict[str, object]:
    startup.ready_for_processes()  # as the reader does for a big input
    app = reader(corpus, kept)
    # Each time the list is drawn: when, and for which query. A key's latency ends at the
    # first drawing of the list with that key's results.
    drawn: list[tuple[float, str, int]] = []
    draw = PaperList.render_lines
    # Set at each drawing: the keys' waits sleep on it. Polling every millisecond took
    # Python's lock from the search thread a thousand times a second (it inflated the keys
    # at a million papers by half).
    new_drawing = asyncio.Event()
    counting: set[str] = set()  # queries whose first papers were drawn said as counting

    def recording(paper_list: PaperList, crop):  # type: ignore[no-untyped-def]
        strips = draw(paper_list, crop)
        drawn.append((time.perf_counter(), app.workspace.shown_query, len(paper_list.papers)))
        if app.workspace.filtering.counting:
            counting.add(app.workspace.shown_query)
        new_drawing.set()
        return strips

    async def drawing_of(query: str, limit: float) -> bool:
        """Wait for the list to be drawn with this query's results; False after `limit` s."""
        deadline = time.perf_counter() + limit
        while not any(shown == query for _, shown, _ in drawn):
            new_drawing.clear()
            try:
                await asyncio.wait_for(new_drawing.wait(), deadline - time.perf_counter())
            except TimeoutError:
                return False
        return True

    PaperList.render_lines = recording  # type: ignore[method-assign]
    figures: dict[str, object] = {}
    async with app.run_test(size=(120, 40)):
        await until(lambda: any(count for *_, count in drawn))
        painted, _, count = next(entry for entry in drawn if entry[2])
        figures["first paint with papers (s)"] = painted - STARTED
        figures["papers on screen at first paint"] = count
        moves = []
        while app.workspace.status == "loading" and len(moves) < 20:  # keys while loading goes on
            drawn.clear()
            sent = time.perf_counter()
            app.post_message(events.Key("j", "j"))
            await until(lambda: bool(drawn))
            moves.append(1000 * (drawn[0][0] - sent))
            await asyncio.sleep(0.1)
        if moves:
            figures["cursor key while loading, median (ms)"] = statistics.median(moves)
            figures["cursor key while loading, max (ms)"] = max(moves)
        # A million takes minutes.
        await until(lambda: app.workspace.status == "ready", 0.01, limit=3600)
        figures["loaded and indexed (s)"] = time.perf_counter() - STARTED
        own = resource.getrusage(resource.RUSAGE_SELF)
        figures["CPU by then, this process (s)"] = own.ru_utime + own.ru_stime
        figures["papers"] = len(app.store)
        await app.workers.wait_for_complete()
        pools = resource.getrusage(resource.RUSAGE_CHILDREN)  # once their pools are shut
        figures["CPU of the pools' processes (s)"] = pools.ru_utime + pools.ru_stime
        latencies: list[float] = []
        missed: list[str] = []  # keys whose results were not drawn within 2 s
        by_query: list[tuple[float, str]] = []
        filter_input = app.query_one("#filter", Input)
        for query in QUERIES:
            filter_input.value = ""
            app.set_focus(filter_input)
            await asyncio.sleep(0.2)
            for typed_count, character in enumerate(query, 1):
                drawn.clear()
                sent = time.perf_counter()
                app.post_message(events.Key(KEYS.get(character, character), character))
                typed = query[:typed_count]
                if not await drawing_of(typed, limit=2):
                    missed.append(typed)
                    continue
                shown = next(when for when, q, _ in drawn if q == typed)
                latencies.append(1000 * (shown - sent))
                by_query.append((latencies[-1], typed))
                await asyncio.sleep(0.06)  # a fast typist: about 15 keys a second
        latencies.sort()
        figures["keystrokes"] = len(latencies) + len(missed)
        figures["keystrokes not drawn within 2 s"] = len(missed)
        if missed:
            figures["not drawn"] = ", ".join(repr(query) for query in missed)
        figures["per keystroke median (ms)"] = statistics.median(latencies)
        figures["per keystroke p95 (ms)"] = latencies[int(0.95 * (len(latencies) - 1))]
        figures["per keystroke max (ms)"] = latencies[-1]
        slowest = sorted(by_query, reverse=True)[:5]
        figures["slowest keys"] = ", ".join(f"{query!r} {ms:.0f} ms" for ms, query in slowest)
        figures["keys drawn first said as counting"] = ", ".join(map(repr, sorted(counting)))
    figures["peak RSS (MB)"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # The peak counts the pages of the memory-mapped cache the search has read: the kernel
    # may drop those at any time (they are the file's), unlike the process's own memory.
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    for name, label in (("RssAnon", "own memory"), ("RssFile", "mapped files")):
        figures[f"RSS at the end: {label} (MB)"] = int(status[name].split()[0]) / 1024
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument(
        "--kept", action="store_true", help="start from the index kept in the cache folder"
    )
    arguments = parser.parse_args()
    figures = asyncio.run(measure(arguments.corpus, arguments.kept))
    print(f"# {arguments.corpus.name} on {platform.node()} ({platform.processor() or 'cpu'})")
    print_figures(figures, 40)


def print_figures(figures: dict[str, object], width: int) -> None:
    """A figure a line, its name in `width` columns; numbers with thousands separated."""
    for name, value in figures.items():
        shown = (
            f"{value:,.3f}"
            if isinstance(value, float)
            else f"{value:,}"
            if isinstance(value, int)
            else value
        )
        print(f"{name:{width}} {shown}")


if __name__ == "__main__":
    main()
