"""Writing a kept entry again: the CPU and wall time of `write_entry` for the papers and index
of an entry already kept (opened by memory map), into a new folder each run; and what reading
the entry's files back for their digests takes, which writing no longer does.

    tui-reader search x /tmp/corpus-100k.jsonl.gz     # keeps the entry (cold)
    python benchmarks/bench_write_entry.py /tmp/corpus-100k.jsonl.gz

Run it from outside the work tree to time another copy of the package.
"""

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from tui_reader.core.flat.disk import digest_of
from tui_reader.core.index_cache import load_cached, write_entry
from tui_reader.core.loading import check_paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    files = check_paths([arguments.path])
    kept = load_cached(files)
    if kept is None or kept.folder is None:
        raise SystemExit("no entry kept for this file: run `tui-reader search x PATH` first")
    arrays = sorted(kept.folder.rglob("*.npy"))
    size = sum(array.stat().st_size for array in arrays)
    for _ in range(arguments.runs):
        wall, cpu = time.perf_counter(), time.process_time()
        for array in arrays:
            digest_of(array)
        took = time.perf_counter() - wall, time.process_time() - cpu
        read = f"read back {len(arrays)} files, {size / 1e6:.0f} MB"
        print(f"{read}: {took[0]:.2f} s, {took[1]:.2f} s CPU")
    for _ in range(arguments.runs):
        root = Path(tempfile.mkdtemp(prefix="bench-write-"))
        try:
            wall, cpu = time.perf_counter(), time.process_time()
            assert write_entry(files, kept, root=root, limit=10**15)
            took = time.perf_counter() - wall, time.process_time() - cpu
        finally:
            shutil.rmtree(root)
        print(f"write_entry: {took[0]:.2f} s, {took[1]:.2f} s CPU")


if __name__ == "__main__":
    main()
