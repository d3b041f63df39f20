"""Measure the library at 100,000 entries: opening it, one change saved, a fold, concurrent
writers while the reader is open, and quitting the reader; then a journal of 10^6 lines.

    python benchmarks/bench_library.py [--entries 100000] [--writers 10] [--changes 20]
    python benchmarks/bench_library.py --journal [--papers 1000] [--tags 1000]

The library is made in a temporary folder: ENTRIES papers marked read (as a long reading
habit does). A save includes its fsync. The reader runs headless in its own process, on the
bundled abstracts, bookmarking and moving (so marking read) while the writers run; each writer
is a process that opens the library and saves CHANGES tags, one save each. At the end every
writer's every tag must be in the library, and the reader quits with a change just made.

The journal (`--journal` alone; after the rest, in a process of its own for its peak RSS):
TAGS tags on each of PAPERS papers, a journal line a tag as `Library.change_tags` saves them,
and no snapshot. Timed: opening it, a reader open before taking it in (`reload_if_changed`),
merging it as a copy (`merge_copy`), folding it, and opening the folded snapshot.
"""

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tui_reader.core import library_file
from tui_reader.core.library import Library

WRITER = """
import json, sys, time
from pathlib import Path
from tui_reader.core.library import Library, LibraryError

path, name, changes = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
library, _ = Library.open(path)
times, failures = [], []
for number in range(changes):
    library.change_tags([f"{name}-paper"], add=[f"{name}-{number}"])
    started = time.perf_counter()
    try:
        library.save()
    except LibraryError as error:
        failures.append(str(error))
    times.append(time.perf_counter() - started)
print(json.dumps({"times": times, "failures": failures}))
"""

READER = """
import asyncio, json, sys, time
from pathlib import Path
from tui_reader.resources import bundled
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp

path, seconds = Path(sys.argv[1]), float(sys.argv[2])

async def main():
    loaded = load_paths([bundled("seeds")])
    library, _ = Library.open(path)
    app = ReaderApp(Opening(loaded.papers), library)
    async with app.run_test() as pilot:
        print("ready", flush=True)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            await pilot.press("j", "b")
            await pilot.pause(0.2)
        await pilot.press("b")  # a change made just before quitting
        started = time.perf_counter()
        await pilot.press("q")
    library.save()  # what the command does after the app has gone
    quit_time = time.perf_counter() - started
    print(json.dumps({"quit": quit_time}), flush=True)

asyncio.run(main())
"""


def make_library(path: Path, entries: int) -> float:
    library, _ = Library.open(path)
    library.set_read([f"{number:012x}" for number in range(entries)], True)
    started = time.perf_counter()
    library.save(fold=True)
    return time.perf_counter() - started


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def write_journal(path: Path, papers: int, tags: int) -> int:
    """TAGS tags added to each of PAPERS papers, a line each, in the order and form that
    `change_tags` saves them: a paper's tags together, each stamped a microsecond later."""
    micros = time.time_ns() // 1000 - papers * tags
    with library_file.journal_path(path).open("w", encoding="utf-8") as journal:
        for paper in range(papers):
            paper_id = f"{paper:012x}"
            for tag in range(tags):
                micros += 1
                stamp = library_file.stamp_at(micros)
                journal.write(library_file.journal_line(paper_id, {"tags": {f"t{tag}": stamp}}))
    return papers * tags


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(what: str, started: tuple[float, float]) -> None:
    wall, cpu = time.perf_counter() - started[0], time.process_time() - started[1]
    print(f"{what}: {wall:.2f} s, CPU {cpu:.2f} s (peak RSS so far {peak_mb():,.0f} MB)")


def clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def journal_case(papers: int, tags: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-journal-") as folder:
        journal_case_in(Path(folder), papers, tags)


def journal_case_in(folder: Path, papers: int, tags: int) -> None:
    path, copy = folder / "library.json", folder / "copy" / "library.json"
    reader, _ = Library.open(path)  # open before the journal was written, as the app is
    lines = write_journal(path, papers, tags)
    size = library_file.journal_path(path).stat().st_size
    print(f"a journal of {lines:,} lines ({papers:,} papers x {tags:,} tags): {size / 1e6:.0f} MB")
    started = clocks()
    library, messages = Library.open(path)
    report("open", started)
    held = sum(library.tag_counts().values())
    assert messages == [] and held == lines, (messages, held)

    started = clocks()
    reader.reload_if_changed()
    report("a reader open before takes it in (reload_if_changed)", started)
    assert sum(reader.tag_counts().values()) == lines
    del reader

    copy.parent.mkdir()
    copy.write_text(library_file.dumps({}, {}), encoding="utf-8")
    library_file.journal_path(copy).hardlink_to(library_file.journal_path(path))
    other, _ = Library.open(None)
    started = clocks()
    other.merge_copy(copy)
    report("merged as a copy into an empty library (merge_copy)", started)
    assert sum(other.tag_counts().values()) == lines
    del other

    started = clocks()
    library.save(fold=True)
    report("folded (the journal read again, the snapshot and its backup written)", started)
    print(f"the snapshot: {path.stat().st_size / 1e6:.0f} MB")
    del library
    started = clocks()
    Library.open(path)
    report("the folded snapshot opened", started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--writers", type=int, default=10)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--journal", action="store_true", help="the journal case alone")
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--tags", type=int, default=1000)
    arguments = parser.parse_args()
    if arguments.journal:
        journal_case(arguments.papers, arguments.tags)
        return
    with tempfile.TemporaryDirectory(prefix="bench-library-") as folder:
        shared_library(arguments, Path(folder) / "library.json")
    journal = ["--journal", "--papers", str(arguments.papers), "--tags", str(arguments.tags)]
    subprocess.run([sys.executable, __file__, *journal], check=True)


def shared_library(arguments: argparse.Namespace, path: Path) -> None:
    """A big library's saves, then writers beside an open reader, at `path`."""
    fold = make_library(path, arguments.entries)
    print(f"library of {arguments.entries:,} entries: {path.stat().st_size / 1e6:.1f} MB")
    print(f"a fold (the whole snapshot written): {fold:.2f} s")
    started = time.perf_counter()
    library, _ = Library.open(path)
    print(f"open: {time.perf_counter() - started:.2f} s")
    times = []
    for number in range(50):
        library.change_tags([f"{number:012x}"], add=["bench"])
        started = time.perf_counter()
        library.save()
        times.append(time.perf_counter() - started)
    print(
        f"one tag saved, 50 saves: median {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {percentile(times, 0.95) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
    )

    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(path), "8"], stdout=subprocess.PIPE, text=True
    )
    assert reader.stdout is not None
    assert reader.stdout.readline().strip() == "ready"
    started = time.perf_counter()
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), f"w{n}", str(arguments.changes)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in range(arguments.writers)
    ]
    results = [json.loads(writer.communicate()[0]) for writer in writers]
    elapsed = time.perf_counter() - started
    quit_time = json.loads(reader.communicate()[0].strip().splitlines()[-1])["quit"]
    saves = [t for result in results for t in result["times"]]
    failures = [f for result in results for f in result["failures"]]
    final, messages = Library.open(path)
    expected = {f"w{n}-{c}" for n in range(arguments.writers) for c in range(arguments.changes)}
    lost = expected - set(final.tag_counts())
    print(
        f"{arguments.writers} writers x {arguments.changes} changes with the reader open: "
        f"{len(saves) - len(failures)} of {len(saves)} saves succeeded, {len(lost)} changes "
        f"lost, {elapsed:.1f} s in all; a save median {statistics.median(saves) * 1000:.1f} ms, "
        f"p95 {percentile(saves, 0.95) * 1000:.1f} ms, max {max(saves) * 1000:.0f} ms"
    )
    if failures:
        print("failures:", *sorted(set(failures))[:3], sep="\n  ")
    print(f"the reader quit with a change just made in {quit_time * 1000:.0f} ms")
    if messages or lost:
        raise SystemExit(f"problems: {messages} lost {sorted(lost)[:5]}")


if __name__ == "__main__":
    main()
