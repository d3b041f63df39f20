"""The user's settings: a TOML file in the platform's config folder; defaults when it is bad.

A config that is a FIFO, a device or a socket is never opened: ConfigError says so.
"""

import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.library import normalise_tag
from tui_reader.core.links import DEFAULT_SEARCH_URL, check_search_template
from tui_reader.core.wording import count

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

MAX_CONFIG_BYTES = 4_000_000  # a few thousand times a full config
MAX_PROBLEMS_LISTED = 10  # then one line counts the rest


class ConfigError(Exception):
    """A config path that must not be read (a FIFO would block, a device never ends)."""


@dataclass(frozen=True)
class Config:
    search_url: str = DEFAULT_SEARCH_URL
    theme: str | None = None  # a Textual theme's name; None: Textual's default
    paths: tuple[Path, ...] = ()  # opened when the reader is given no paths
    keys: Mapping[str, str] = field(default_factory=dict)  # binding id -> keys, "b" or "ctrl+b,f2"
    paths_origin: str = ""  # "paths in FILE, line 3": told when one of the paths cannot be read
    read_after: float = 1.5  # seconds the reader rests on a paper before it is read; 0: never
    quick_tags: tuple[str, ...] = ()  # [triage] quick_tags: the tags 1 to 9 add in triage
    commands: Mapping[str, str] = field(default_factory=dict)  # [commands] name -> shell command
    sources: Mapping[str, str] = field(default_factory=dict)  # [sources] arxiv_api... -> URL
    cache_limit: int = 4_000_000_000  # [cache] limit: bytes the kept indexes may take
    # [export] include_notes: the user's notes in BibTeX (annote), RIS (N1) and CSL-JSON (annote)
    include_notes: bool = False


def load_config(
    path: Path,
    check_keys: Callable[[str, str], str | None] | None = None,
    *,
    check_theme: Callable[[str], str | None] | None = None,
    check_keymap: Callable[[Mapping[str, str]], list[tuple[str, str]]] | None = None,
) -> tuple[Config, list[str]]:
    """The settings in the file (defaults when there is none) and what is wrong with it.

    `check_theme(name)` says what is wrong with a theme, and `check_keymap(keys)` with the
    rebindings together (two actions given one key), as (an action to blame, what) pairs.

    A file that cannot be read is reported with the line TOML names, and the defaults are
    used; a setting that cannot be used is reported with its line and left at its default
    (the first MAX_PROBLEMS_LISTED, then a count). `check_keys(binding_id, keys)` says what is
    wrong with a rebinding, if anything. ConfigError for a FIFO, a device or a socket.
    """
    if special := special_file_problem(path):
        raise ConfigError(f"{path}: {special}")

    def unusable(what: object) -> tuple[Config, list[str]]:
        return Config(), [f"{path}: {what}; using the default settings"]

    try:
        with path.open("rb") as file:
            raw = file.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return Config(), []
    except OSError as error:
        return unusable(error.strerror or error)
    if len(raw) > MAX_CONFIG_BYTES:
        return unusable(f"is larger than {MAX_CONFIG_BYTES:,} bytes, too large for a config file")
    try:
        text = raw.decode("utf-8-sig")
        data = tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return unusable(error)
    except RecursionError:
        return unusable("is nested too deeply to read")
    except ValueError:  # an integer over the 4,300 digits Python converts
        return unusable("holds a number too long to read")
    problems: list[str] = []
    settings: dict[str, object] = {}
    lines = _key_lines(text)

    def problem(key: str, what: str) -> None:
        problems.append(f"{path}, line {lines.get(key, 1)}: {what}")

    for key, value in data.items():
        if key == "search_url" and isinstance(value, str):
            try:
                settings[key] = check_search_template(value)
            except ValueError as error:
                problem(key, f"{error}; using the default")
        elif key == "theme" and isinstance(value, str):
            if check_theme and (wrong := check_theme(value)):
                problem(key, f"{wrong}; using the default")
            else:
                settings[key] = value
        elif key == "paths" and isinstance(value, list) and all(isinstance(p, str) for p in value):
            # A relative path is relative to the config file, wherever the reader starts.
            settings[key] = tuple(path.parent / Path(item).expanduser() for item in value)
            settings["paths_origin"] = f"paths in {path}, line {lines.get(key, 1)}"
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
            for name, wrong in check_keymap(keys) if check_keymap else ():
                problem(name, f"keys.{name}: {wrong}")
        elif key == "read_after" and _is_seconds(value):
            settings[key] = float(value)
        elif key == "triage" and isinstance(value, dict):
            for name, chosen in value.items():
                if name != "quick_tags":
                    problem(name, f"unknown setting triage.{name}; it is ignored")
                elif (tags := _quick_tags(chosen)) is not None:
                    settings["quick_tags"] = tags
                else:
                    problem(name, f"triage.quick_tags must be {_SHAPES['quick_tags']}")
        elif key == "commands" and isinstance(value, dict):
            commands = {}
            for name, command in value.items():
                if isinstance(command, str) and command.strip():
                    commands[name] = command
                else:
                    problem(name, f"commands.{name} must be {_SHAPES['command']}; it is ignored")
            settings[key] = commands
        elif key == "sources" and isinstance(value, dict):
            settings[key] = _sources(value, problem)
        elif key == "cache" and isinstance(value, dict):
            for name, chosen in value.items():
                if name != "limit":
                    problem(name, f"unknown setting cache.{name}; it is ignored")
                elif isinstance(chosen, int) and not isinstance(chosen, bool) and chosen >= 0:
                    settings["cache_limit"] = chosen
                else:
                    problem(name, f"cache.limit must be {_SHAPES['limit']}")
        elif key == "export" and isinstance(value, dict):
            for name, chosen in value.items():
                if name != "include_notes":
                    problem(name, f"unknown setting export.{name}; it is ignored")
                elif isinstance(chosen, bool):
                    settings[name] = chosen
                else:
                    problem(name, f"export.include_notes must be {_SHAPES['include_notes']}")
        elif key in (
            "search_url", "theme", "paths", "keys", "read_after", "triage", "commands", "sources",
            "cache", "export",
        ):  # fmt: skip
            problem(key, f"{key} must be {_SHAPES[key]}; using the default")
        else:
            problem(key, f"unknown setting {key!r}; it is ignored")
    if len(problems) > MAX_PROBLEMS_LISTED:
        # A flood is of names we do not know (settings, actions); the other problems (a wrong
        # value, a key bound twice) are one a setting at most, and all listed: one was hidden
        # among "more like these".
        room = MAX_PROBLEMS_LISTED - sum(not _unknown_name(told) for told in problems)
        listed: list[str] = []
        for told in problems:
            unknown = _unknown_name(told)
            if not unknown or room > 0:
                room -= unknown
                listed.append(told)
        if more := len(problems) - len(listed):
            listed.append(f"{path}: {count(more, 'more unknown name')}, ignored")
        problems = listed
    return Config(**settings), problems  # type: ignore[arg-type]


def _unknown_name(problem: str) -> bool:
    return ": unknown setting " in problem or ": no such action " in problem


_SHAPES = {
    "search_url": "a string with a {query} slot",
    "theme": "a theme's name as a string",
    "paths": 'a list of strings, such as ["~/papers/icml.jsonl"]',
    "keys": 'a table, such as [keys] then bookmark = "B"',
    "read_after": "a number of seconds from 0 (never) to 3600, such as 1.5",
    "triage": 'a table, such as [triage] then quick_tags = ["to-read", "method"]',
    "quick_tags": 'a list of up to 9 tags, such as ["to-read", "method"]; using none',
    "commands": 'a table, such as [commands] then count = "wc -l"',
    "sources": 'a table, such as [sources] then arxiv_api = "https://export.arxiv.org/api/query"',
    "command": 'a shell command as a string, such as "wc -l"',
    "cache": "a table, such as [cache] then limit = 2_000_000_000",
    "limit": "a number of bytes, such as 2_000_000_000; using the default",
    "export": "a table, such as [export] then include_notes = true",
    "include_notes": "true or false; using false",
}


SOURCES = ("arxiv_api", "arxiv_oai", "openreview_api")  # the services' addresses


def _sources(value: dict[str, object], problem: Callable[[str, str], None]) -> dict[str, str]:
    """The services' addresses of the [sources] table: http(s) URLs."""
    addresses = {}
    for name, url in value.items():
        if name not in SOURCES:
            problem(name, f"unknown setting sources.{name}; it is ignored")
        elif isinstance(url, str) and _is_http(parts := urlsplit(url.strip())):
            addresses[name] = parts.geturl()
        else:
            problem(name, f"sources.{name} must be an http(s) URL as a string; it is ignored")
    return addresses


def _is_http(parts: SplitResult) -> bool:
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _quick_tags(value: object) -> tuple[str, ...] | None:
    """Up to nine tags, as stored; None when that is not what the value is."""
    if not isinstance(value, list) or len(value) > 9:
        return None
    tags = [normalise_tag(text) if isinstance(text, str) else None for text in value]
    return tuple(tag for tag in tags if tag) if all(tags) else None


def _is_seconds(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 3600


_KEY = re.compile(r"\s*(?:\[\s*([^\[\]]+?)\s*\]|([^=\s#\[][^=]*?)\s*=)")


def _key_lines(text: str) -> dict[str, int]:
    """The line on which each key is first set or its table starts, in one pass over the
    text; a dotted key (keys.quit) is found by its last part too."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), 1):
        if match := _KEY.match(line):
            name = (match[1] or match[2]).strip("\"'")
            lines.setdefault(name, number)
            lines.setdefault(name.rsplit(".", 1)[-1].strip("\"'"), number)
    return lines
