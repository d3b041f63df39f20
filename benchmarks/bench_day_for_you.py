"""`digest --for-you` after a day's papers come in a file beside a kept collection.

The corpus's last `--added` papers are written to a file of their own, the rest to another
(the kept collection); a reader has kept 30 of the kept papers and skipped 300, and saved one
search. `digest --for-you` is run once over the kept file (its index and the recommendation
rows built and kept, not timed), then over both files: the day's papers taken in beside the
kept ones (a part of the index) and their rows made, the model trained. Prints that run's
wall time, CPU time (user + sys, GNU time) and peak RSS, with the load average.

    python benchmarks/bench_day_for_you.py /tmp/corpus-100k.jsonl.gz [--added 1000] [--work DIR]
"""

import argparse
import gzip
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_recommend_commands import KEPT, SKIPPED, decided_library, private_environment

from tui_reader.core.loading import load_paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--added", type=int, default=1000)
    parser.add_argument("--work", type=Path)
    arguments = parser.parse_args()
    if arguments.work:
        arguments.work.mkdir(parents=True, exist_ok=True)
        run(arguments, arguments.work)
        return
    with tempfile.TemporaryDirectory(prefix="bench-day-for-you-") as work:
        run(arguments, Path(work))


def run(arguments: argparse.Namespace, work: Path) -> None:
    """The two runs, their files in `work`."""
    with gzip.open(arguments.corpus, "rt", encoding="utf-8") as stream:
        lines = stream.readlines()
    kept, day = work / "kept.jsonl", work / "day.jsonl"
    kept.write_text("".join(lines[: -arguments.added]), encoding="utf-8")
    day.write_text("".join(lines[-arguments.added :]), encoding="utf-8")
    papers = load_paths([kept]).papers
    chosen = random.Random(1).sample(range(len(papers)), KEPT + SKIPPED)
    library_path = work / "library.json"
    decided_library(library_path, [papers.id_of(n) for n in chosen])
    environment = private_environment(work)
    digest = [sys.executable, "-m", "tui_reader", "digest", "--for-you"]
    digest += ["--library", str(library_path), "--papers", str(kept)]
    subprocess.run(digest, env=environment, stdout=subprocess.DEVNULL, check=True)
    timed = ["/usr/bin/time", "-f", "%e %U %S %M", *digest, "--papers", str(day)]
    done = subprocess.run(
        timed, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True
    )
    wall, user, system, peak = done.stderr.split()[-4:]
    load = os.getloadavg()
    print(
        f"{len(papers):,} papers kept, {arguments.added:,} added beside: digest --for-you"
        f" {float(wall):.2f} s wall, {float(user) + float(system):.2f} s CPU,"
        f" peak {int(peak) / 1024:.0f} MB (load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})"
    )


if __name__ == "__main__":
    main()
