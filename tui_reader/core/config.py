"""The user's settings: a TOML file in the platform's config folder; defaults when it is bad."""

import os
import sys
from dataclasses import dataclass
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


def config_path() -> Path:
    """$TUI_READER_CONFIG, else config.toml in the platform's config folder."""
    if configured := os.environ.get(CONFIG_VARIABLE):
        return Path(configured).expanduser()
    return Path(platformdirs.user_config_dir("tui-reader", appauthor=False)) / "config.toml"


def load_config(path: Path) -> tuple[Config, list[str]]:
    """The settings in the file (defaults when there is none) and what is wrong with it.

    A file that cannot be used is reported, with its line where TOML says, and the defaults
    are used instead.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Config(), []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return Config(), [f"{path}: {error}; using the default settings"]
    problems, settings = [], {}
    for key, value in data.items():
        if key != "search_url":
            problems.append(f"{path}: unknown setting {key!r}; it is ignored")
            continue
        try:
            settings[key] = check_search_template(str(value))
        except ValueError as error:
            problems.append(f"{path}: {error}; using the default")
    return Config(**settings), problems
