"""Where fetched collections live; light to import (no HTTP client), as the reader asks at
every start."""

from pathlib import Path

import platformdirs


def collections_folder() -> Path:
    """Where fetched collections go: `collections` in the user data folder."""
    return Path(platformdirs.user_data_dir("tui-reader", appauthor=False)) / "collections"


def fetched_collections() -> list[Path]:
    """The collection files fetched so far, by name: what the reader opens when it is given
    no paths and the config names none."""
    folder = collections_folder()
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.glob("*.jsonl") if path.is_file())
