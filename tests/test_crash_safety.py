"""Writers killed with SIGKILL at random moments never leave a broken or incomplete library."""

import random
import subprocess
import sys
import time
from pathlib import Path

from tui_reader.core import library_file
from tui_reader.core.library import Library

# Saves change after change, printing each one's number once save() has returned.
WRITER = """
import sys
from pathlib import Path
from tui_reader.core.library import Library

path, name = Path(sys.argv[1]), sys.argv[2]
library, _ = Library.open(path)
for number in range(100_000):
    library.change_tags([f"{name}{number % 50:010d}"], add=[f"{name}-{number}"])
    if number % 7 == 0:
        library.set_note(f"{name}-note", f"note {number}")
    library.save()
    print(number, flush=True)
"""


def start_writer(path: Path, name: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), name],
        stdout=subprocess.PIPE,
        text=True,
    )


def kill_and_collect(writer: subprocess.Popen[str], name: str) -> set[str]:
    writer.kill()
    output, _ = writer.communicate()
    return {f"{name}-{line}" for line in output.split()}


def saved_tags(path: Path) -> set[str]:
    entries = library_file.read(path)  # raises if the file is not a valid library
    assert entries is not None
    return {tag for entry in entries.values() for tag in entry.get("tags", {})}


def test_kill_during_saves_never_loses_a_reported_change(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    rng = random.Random(20261129)
    reported: set[str] = set()
    rounds = 0
    for round_number in range(30):
        names = [f"r{round_number}a", f"r{round_number}b"][: 1 + round_number % 2]
        writers = {name: start_writer(path, name) for name in names}
        time.sleep(rng.uniform(0.2, 0.6))
        for name, writer in writers.items():
            reported |= kill_and_collect(writer, name)
        on_disk = saved_tags(path)
        missing = reported - on_disk
        assert not missing, f"round {round_number}: reported saved but lost: {sorted(missing)[:5]}"
        library_file.read(library_file.backup_path(path))  # the .bak is whole too
        rounds += 1
    assert rounds == 30
    assert len(reported) > 100, "the writers should have saved many times"
    library, messages = Library.open(path)
    assert messages == []
    assert sum(library.tag_counts().values()) >= len(reported)
