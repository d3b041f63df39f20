"""Where tui-reader keeps its files: each can be set by an environment variable, else it lies
in the platform's folder for its kind (platformdirs)."""

import os
from collections.abc import Callable
from pathlib import Path

import platformdirs

APP = "tui-reader"
LIBRARY_VARIABLE = "TUI_READER_LIBRARY"
CONFIG_VARIABLE = "TUI_READER_CONFIG"
SESSION_VARIABLE = "TUI_READER_SESSION"
CACHE_VARIABLE = "TUI_READER_CACHE"


def _location(variable: str, folder: Callable[..., str], name: str = "") -> Path:
    if configured := os.environ.get(variable):
        return Path(configured).expanduser()
    base = Path(folder(APP, appauthor=False))
    return base / name if name else base


def library_path() -> Path:
    """The library file: $TUI_READER_LIBRARY, else library.json in the user data folder."""
    return _location(LIBRARY_VARIABLE, platformdirs.user_data_dir, "library.json")


def config_path() -> Path:
    """The settings: $TUI_READER_CONFIG, else config.toml in the user config folder."""
    return _location(CONFIG_VARIABLE, platformdirs.user_config_dir, "config.toml")


def config_is_named() -> bool:
    """Whether $TUI_READER_CONFIG names the config file (then one missing is a mistake)."""
    return bool(os.environ.get(CONFIG_VARIABLE))


def session_is_named() -> bool:
    """Whether $TUI_READER_SESSION names the session file (then one not a session is not
    ours to set aside)."""
    return bool(os.environ.get(SESSION_VARIABLE))


def session_path() -> Path:
    """Where the reader left off: $TUI_READER_SESSION, else session.json in the state folder."""
    return _location(SESSION_VARIABLE, platformdirs.user_state_dir, "session.json")


def cache_folder() -> Path:
    """Kept indexes: $TUI_READER_CACHE, else the user cache folder."""
    return _location(CACHE_VARIABLE, platformdirs.user_cache_dir)
