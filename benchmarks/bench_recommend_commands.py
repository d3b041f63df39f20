"""`recommend` and `digest --for-you` timed as a script runs them, a process each.

A reader of a corpus (`make_corpus.py`'s) has kept 30 papers and skipped 300, and saved one
search. Each command runs in its own process with its own cache folder: `recommend` first cold
(the papers' index and the recommendation rows built and kept), then each command RUNS times
warm (read back), then `recommend` once after one more decision (the model trained again, the
rows read back). Prints each run's wall time and the process's peak RSS. `--work DIR` keeps the
cache and library there for another run, which skips the cold one (a first run, not timed,
trains the model again for these decisions).

    python benchmarks/bench_recommend_commands.py /tmp/corpus-100k.jsonl.gz [--runs 5] [--work DIR]
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths

KEPT, SKIPPED = 30, 300
SEARCH = "bandits"


def run(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one command's process; its output is dropped. The
    peak is GNU time's: a process started from this one, which holds the corpus, would count
    this one's memory as its own (Linux keeps the peak of the memory it was forked with)."""
    started = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *command],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    took = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {done.stderr.decode(errors='replace')[-300:]}")
    return took, int(done.stderr.split()[-1]) / 1024


def decided_library(path: Path, ids: list[str]) -> tuple[Library, list[str]]:
    """A library made anew at `path` (the same decisions each run): the first KEPT of `ids`
    kept, the next SKIPPED read and not kept, SEARCH saved; it and the ids."""
    path.unlink(missing_ok=True)
    library, _ = Library.open(path)
    library.change(ids[:KEPT], "kept", bookmarked=True, read=True)
    library.change(ids[KEPT : KEPT + SKIPPED], "skipped", read=True)
    library.save_search(SEARCH, SEARCH)
    library.save()
    return library, ids


def private_environment(work: Path) -> dict[str, str]:
    """The environment of a command whose cache, home and settings are under `work`."""
    return os.environ | {
        "TUI_READER_CACHE": str(work / "cache"),
        "HOME": str(work),
        "XDG_CONFIG_HOME": str(work / "config"),
        "XDG_DATA_HOME": str(work / "data"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work", type=Path, help="keep the cache and library here")
    arguments = parser.parse_args()
    if arguments.work:
        warm_already = (arguments.work / "cache").is_dir()
        arguments.work.mkdir(parents=True, exist_ok=True)
        time_commands(arguments, arguments.work, warm_already)
        return
    with tempfile.TemporaryDirectory(prefix="bench-recommend-commands-") as work:
        time_commands(arguments, Path(work), warm_already=False)


def time_commands(arguments: argparse.Namespace, work: Path, warm_already: bool) -> None:
    """Each command timed as a script runs it, the cache and library in `work` (`warm_already`:
    the cache was there before)."""
    papers = load_paths([arguments.corpus]).papers
    chosen = random.Random(1).sample(range(len(papers)), KEPT + SKIPPED + 1)
    library_path = work / "library.json"
    library, ids = decided_library(library_path, [papers.id_of(n) for n in chosen])
    environment = private_environment(work)
    program = [sys.executable, "-m", "tui_reader"]
    corpus = str(arguments.corpus)
    options = ["--library", str(library_path), "--papers", corpus]
    commands = {
        "recommend": [*program, "recommend", *options],
        "digest --for-you": [*program, "digest", "--for-you", *options],
    }
    print(f"{len(papers):,} papers, {KEPT} kept and {SKIPPED} skipped")
    first = run(commands["recommend"], environment)
    if not warm_already:
        print(f"recommend: cold {first[0]:.2f} s, {first[1]:.0f} MB")
    for name, command in commands.items():
        warm = [run(command, environment) for _ in range(arguments.runs)]
        seconds = [took for took, _ in warm]
        print(
            f"{name}: warm median {statistics.median(seconds):.2f} s"
            f" ({min(seconds):.2f}-{max(seconds):.2f}, {len(seconds)} runs),"
            f" peak {max(rss for _, rss in warm):.0f} MB"
        )
    library.change([ids[-1]], "kept", bookmarked=True, read=True)
    library.save()
    took, rss = run(commands["recommend"], environment)
    print(f"recommend: after one more decision {took:.2f} s, {rss:.0f} MB")


if __name__ == "__main__":
    main()
