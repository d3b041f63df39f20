"""Counts say "1 paper", "2 papers" everywhere (core.wording.count)."""

from pathlib import Path

from tui_reader.core import config
from tui_reader.core.wording import count


def test_a_count_agrees_with_its_number() -> None:
    assert [count(n, "paper") for n in (0, 1, 2, 1234)] == [
        "0 papers",
        "1 paper",
        "2 papers",
        "1,234 papers",
    ]
    assert count(1, "entry", "entries") == "1 entry" and count(3, "entry", "entries") == "3 entries"


def test_one_config_problem_past_those_listed_is_one_problem(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    unknown = config.MAX_PROBLEMS_LISTED + 1
    path.write_text("".join(f"unknown{n} = 1\n" for n in range(unknown)), encoding="utf-8")
    problems = config.load_config(path)[1]
    assert problems[-1] == f"{path}: 1 more unknown name, ignored"
    path.write_text("".join(f"unknown{n} = 1\n" for n in range(unknown + 1)), encoding="utf-8")
    assert config.load_config(path)[1][-1] == f"{path}: 2 more unknown names, ignored"
