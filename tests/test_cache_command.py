"""`tui-reader cache`: what the cache folder keeps, and pruning it."""

import json
import os
from pathlib import Path

import pytest

from tui_reader.cli import program


def keep(*paths: Path) -> None:
    assert program.main(["search", "regret", *map(str, paths)]) == 0


def listed(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    capsys.readouterr()
    assert program.main(["cache", "list", "--format", "jsonl"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_cache_lists_each_entry_with_its_files_parts_papers_size_and_age(
    tmp_path: Path, write_seed, capsys: pytest.CaptureFixture[str]
) -> None:
    one = write_seed("Bandits with regret bounds.", "Regret of experts.", name="one.txt")
    two = write_seed("Regret matching in games.", name="two.txt")
    keep(one)
    keep(one, two)
    entries = listed(capsys)
    assert [entry["files"] for entry in entries] == [
        [str(one), str(two)],  # the most recently used first
        [str(one)],
    ]
    both, alone = entries
    assert (both["papers"], alone["papers"]) == (3, 2)
    assert [part["papers"] for part in both["parts"]] == [2, 1]  # type: ignore[union-attr]
    assert both["parts"][0] == alone["parts"][0]  # type: ignore[index]  # the same part
    ranges = both["parts"][1]["ranges"]  # type: ignore[index]
    assert ranges == [[str(two), 0, two.stat().st_size]]
    assert both["own_bytes"] < both["bytes"]  # the first file's part is shared
    assert program.main(["cache"]) == 0
    text = capsys.readouterr().out
    assert "2 entries" in text and "3 papers in 2 parts" in text and f"  {two}" in text


def test_prune_keeps_under_the_limit_and_removes_what_is_unused_or_all(
    tmp_path: Path, write_seed, capsys: pytest.CaptureFixture[str]
) -> None:
    one = write_seed("Bandits with regret bounds.", name="one.txt")
    two = write_seed("Regret matching in games.", name="two.txt")
    keep(one)
    keep(two)
    assert program.main(["cache", "prune"]) == 0  # under the default limit: nothing goes
    assert len(listed(capsys)) == 2
    old = next(Path(tmp_path / "cache").glob("papers-v*/manifest.json"))
    os.utime(old, (1, 1))  # not used for decades
    assert program.main(["cache", "prune", "--unused-for", "30"]) == 0
    assert f"removed {old.parent.name}" in capsys.readouterr().err
    assert len(listed(capsys)) == 1
    assert program.main(["cache", "prune", "--all"]) == 0
    assert listed(capsys) == []
    assert program.main(["cache", "prune", "--unused-for", "soon"]) == 2
    assert "not a number of days" in capsys.readouterr().err


def test_an_entry_of_a_filtered_input_is_listed_with_its_filter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text(
        '{"abstract": "Regret in learning.", "categories": "cs.LG"}\n'
        '{"abstract": "Regret in theory.", "categories": "math.CO"}\n',
        encoding="utf-8",
    )
    keep(path)
    assert program.main(["search", "regret", str(path), "--category", "cs.LG"]) == 0
    entries = listed(capsys)
    assert sorted((entry["papers"], json.dumps(entry["filter"])) for entry in entries) == [
        (1, json.dumps({"categories": ["cs.LG"], "since": ""})),
        (2, "null"),
    ]
    assert program.main(["cache"]) == 0
    assert "  only --category cs.LG\n" in capsys.readouterr().out


def test_prune_removes_what_a_write_no_process_finishes_left_and_the_list_counts_it_apart(
    tmp_path: Path, write_seed, capsys: pytest.CaptureFixture[str]
) -> None:
    """A write killed left `.writing-…` (2 MB): `prune --all` kept it, as younger than an
    hour, and the list said "0 entries, 2 MB"."""
    keep(write_seed("Bandits with regret bounds."))
    root = tmp_path / "cache"
    dead = int(Path("/proc/sys/kernel/pid_max").read_text()) + 1  # no process has this number
    left = root / f".writing-{dead}-abcd1234"
    (left / "parts").mkdir(parents=True)
    (left / "parts" / "text.npy").write_bytes(b"x" * 2_000_000)
    being = root / f".writing-{os.getpid()}-efgh5678"  # this process's: being written
    being.mkdir()
    (being / "manifest.json").write_bytes(b"y" * 3000)
    capsys.readouterr()
    assert program.main(["cache", "list"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith(f"{root}: 1 entry, ")
    assert text[1:3] == [
        "  1 entry being written now, 3 kB",
        "  1 unfinished write left over, 2 MB: `tui-reader cache prune` removes it",
    ]
    assert all(entry["entry"].startswith("papers-") for entry in listed(capsys))
    assert program.main(["cache", "prune"]) == 0
    assert f"removed {left.name}" in capsys.readouterr().err
    assert not left.exists() and being.exists()
    assert program.main(["cache", "prune", "--all"]) == 0
    assert being.exists()  # still being written
    assert program.main(["cache", "list"]) == 0
    assert "left over" not in capsys.readouterr().out
