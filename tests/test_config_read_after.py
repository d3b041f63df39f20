"""The config's read_after: how long the reader rests on a paper before it counts as read."""

from pathlib import Path

import pytest

from tui_reader.core.config import Config, load_config


def load(tmp_path: Path, text: str) -> tuple[Config, list[str]]:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def test_the_default_is_a_second_and_a_half(tmp_path: Path) -> None:
    assert Config().read_after == 1.5
    assert load(tmp_path, 'theme = "nord"\n')[0].read_after == 1.5


@pytest.mark.parametrize(("text", "seconds"), [("3", 3.0), ("0.5", 0.5), ("0", 0.0)])
def test_seconds_are_read(tmp_path: Path, text: str, seconds: float) -> None:
    assert load(tmp_path, f"read_after = {text}\n") == (Config(read_after=seconds), [])


@pytest.mark.parametrize("text", ['"1.5"', "-1", "true", "nan", "inf", "86400"])
def test_a_bad_value_is_reported_with_its_line(tmp_path: Path, text: str) -> None:
    config, problems = load(tmp_path, f'theme = "nord"\nread_after = {text}\n')
    assert config == Config(theme="nord")
    assert problems == [
        f"{tmp_path / 'config.toml'}, line 2: read_after must be a number of seconds from 0 "
        "(never) to 3600, such as 1.5; using the default"
    ]
