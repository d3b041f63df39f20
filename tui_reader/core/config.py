"""The user's settings: a TOML file in the platform's config folder; defaults when it is bad."""

import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from tui_reader.core.links import DEFAULT_SEARCH_URL, check_search_template

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CONFIG_VARIABLE = "TUI_READER_CONFIG"


@dataclass(frozen=True)
class Config:
    search_url: str = DEFAULT_SEARCH_URL
    theme: str | None = None  # a Textual theme's name; None: Textual's default
    paths: tuple[Path, ...] = ()  # opened when the reader is given no paths
    keys: Mapping[str, str] = field(default_factory=dict)  # binding id -> keys, "b" or "ctrl+b,f2"


def config_path() -> Path:
    """$TUI_READER_CONFIG, else config.toml in the platform's config folder."""
    if configured := os.environ.get(CONFIG_VARIABLE):
        return Path(configured).expanduser()
    return Path(platformdirs.user_config_dir("tui-reader", appauthor=False)) / "config.toml"


def load_config(
    path: Path, check_keys: Callable[[str, str], str | None] | None = None
) -> tuple[Config, list[str]]:
    """The settings in the file (defaults when there is none) and what is wrong with it.

    A file that cannot be read is reported with the line TOML names, and the defaults are
    used; a setting that cannot be used is reported with its line and left at its default.
    `check_keys(binding_id, keys)` says what is wrong with a rebinding, if anything.
    """
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        return Config(), []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return Config(), [f"{path}: {error}; using the default settings"]
    problems: list[str] = []
    settings: dict[str, object] = {}

    def problem(key: str, what: str) -> None:
        problems.append(f"{path}, line {_line_of(text, key)}: {what}")

    for key, value in data.items():
        if key == "search_url" and isinstance(value, str):
            try:
                settings[key] = check_search_template(value)
            except ValueError as error:
                problem(key, f"{error}; using the default")
        elif key == "theme" and isinstance(value, str):
            settings[key] = value
        elif key == "paths" and isinstance(value, list) and all(isinstance(p, str) for p in value):
            # A relative path is relative to the config file, wherever the reader starts.
            settings[key] = tuple(path.parent / Path(item).expanduser() for item in value)
        elif key == "keys" and isinstance(value, dict):
            keys = {}
            for name, chosen in value.items():
                if not isinstance(chosen, str):
                    problem(name, f'keys.{name} must be a string such as "ctrl+b"; it is ignored')
                elif check_keys and (wrong := check_keys(name, chosen)):
                    problem(name, f"keys.{name}: {wrong}; it is ignored")
                else:
                    keys[name] = chosen
            settings[key] = keys
        elif key in ("search_url", "theme", "paths", "keys"):
            problem(key, f"{key} must be {_SHAPES[key]}; using the default")
        else:
            problem(key, f"unknown setting {key!r}; it is ignored")
    return Config(**settings), problems  # type: ignore[arg-type]


_SHAPES = {
    "search_url": "a string with a {query} slot",
    "theme": "a theme's name as a string",
    "paths": 'a list of strings, such as ["~/papers/icml.jsonl"]',
    "keys": 'a table, such as [keys] then bookmark = "B"',
}


def _line_of(text: str, key: str) -> int:
    """The line on which `key` is set (or its table starts); 1 when it cannot be found."""
    pattern = re.compile(rf"^\s*(\[\s*{re.escape(key)}\s*\]|\"?{re.escape(key)}\"?\s*=)", re.M)
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else 1
