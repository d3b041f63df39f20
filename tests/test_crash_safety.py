"""Writers killed with SIGKILL at random moments never lose a change they reported saved."""

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tui_reader.core.library import Library

pytestmark = pytest.mark.slow

# Saves change after change, writing each one's number to its report once save() returned.
WRITER = """
import sys
from pathlib import Path
from tui_reader.core.library import Library

path, name, report = Path(sys.argv[1]), sys.argv[2], open(sys.argv[3], "w")
library, _ = Library.open(path)
for number in range(100_000):
    library.change_tags([f"{name}{number % 50:010d}"], add=[f"{name}-{number}"])
    if number % 7 == 0:
        library.set_note(f"{name}-note", f"note {number}")
    library.save(fold=number % 25 == 24)  # folds now and then, as a long session does
    print(number, file=report, flush=True)
"""
SAVES_BEFORE_KILL = 3  # each writer has saved this many times before the kill can come


def reported(report: Path) -> list[str]:
    return report.read_text(encoding="utf-8").split() if report.exists() else []


def saved_tags(path: Path) -> set[str]:
    library, messages = Library.open(path)
    assert messages == [], messages
    return set(library.tag_counts())


def test_kill_during_saves_never_loses_a_reported_change(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    rng = random.Random(20261129)
    saved: set[str] = set()
    for round_number in range(20):
        names = [f"r{round_number}a", f"r{round_number}b"][: 1 + round_number % 2]
        reports = {name: tmp_path / f"{name}.txt" for name in names}
        writers = {
            name: subprocess.Popen([sys.executable, "-c", WRITER, str(path), name, str(report)])
            for name, report in reports.items()
        }
        deadline = time.monotonic() + 60
        while any(len(reported(report)) < SAVES_BEFORE_KILL for report in reports.values()):
            if time.monotonic() > deadline:
                pytest.fail(f"round {round_number}: the writers did not save within 60 s")
            time.sleep(0.01)
        time.sleep(rng.uniform(0, 0.3))
        for writer in writers.values():
            writer.kill()
            writer.wait()
        for name, report in reports.items():
            saved |= {f"{name}-{number}" for number in reported(report)}
        missing = saved - saved_tags(path)
        assert not missing, f"round {round_number}: reported saved but lost: {sorted(missing)[:5]}"
