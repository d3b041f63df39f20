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
from tui_reader.core.locations import CONFIG_VARIABLE
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
    named: bool = False,
) -> tuple[Config, list[str]]:
    """The settings in the file (defaults when there is none, said when the file was `named`,
    by $TUI_READER_CONFIG) and what is wrong with it.

    `check_theme(name)` says what is wrong with a theme, and `check_keymap(keys)` with the
    rebindings together (two actions given one key), as (an action to blame, what) pairs.

    A file that cannot be read is reported with the line TOML names, and the defaults are
    used; a setting that cannot be used is reported with its line and left at its default
    (the first MAX_PROBLEMS_LISTED, then a count). `check_keys(binding_id, keys)` says what is
    wrong with a rebinding, if anything. ConfigError for a folder, a FIFO, a device or a socket.
    """
    if special := special_file_problem(path):
        raise ConfigError(f"{path}: {special}")
    if path.is_dir():
        raise ConfigError(f"{path}: is a folder, not a config file")
    read = _read(path)
    if isinstance(read, str):
        if not read and named:
            read = f"no such file ({CONFIG_VARIABLE} names it)"
        return Config(), [f"{path}: {read}; using the default settings"] if read else []
    text, data = read
    reading = _Reading(path, _key_lines(text), check_keys, check_theme, check_keymap)
    for key, value in data.items():
        setting = _SETTINGS.get(key)
        if setting is None:
            reading.problem(key, f"unknown setting {key!r}; it is ignored")
        elif not setting(reading, key, value):
            reading.problem(key, f"{key} must be {_SHAPES[key]}; using the default")
    return Config(**reading.settings), _listed(path, reading.problems)  # type: ignore[arg-type]


def _read(path: Path) -> tuple[str, dict[str, object]] | str:
    """The file's text and its TOML, or why it cannot be used ("" when there is no file)."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return ""
    except OSError as error:
        return str(error.strerror or error)
    if len(raw) > MAX_CONFIG_BYTES:
        return f"is larger than {MAX_CONFIG_BYTES:,} bytes, too large for a config file"
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "is not UTF-8 text (a config file is TOML)"
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return str(error)
    except RecursionError:
        return "is nested too deeply to read"
    except ValueError:  # an integer over the 4,300 digits Python converts
        return "holds a number too long to read"


@dataclass
class _Reading:
    """One reading of a config file: what it sets and what is wrong with it, by line."""

    path: Path
    lines: dict[str, int]
    check_keys: Callable[[str, str], str | None] | None
    check_theme: Callable[[str], str | None] | None
    check_keymap: Callable[[Mapping[str, str]], list[tuple[str, str]]] | None
    settings: dict[str, object] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def problem(self, key: str, what: str) -> None:
        self.problems.append(f"{self.path}, line {self.lines.get(key, 1)}: {what}")


# Each setting: it takes a value into the reading and says whether the value had the right
# shape (else "KEY must be ...; using the default"); a value of that shape that still cannot
# be used is told by the setting itself.
Setting = Callable[[_Reading, str, object], bool]


def _search_url(reading: _Reading, key: str, value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        reading.settings[key] = check_search_template(value)
    except ValueError as error:
        reading.problem(key, f"{error}; using the default")
    return True


def _theme(reading: _Reading, key: str, value: object) -> bool:
    if not isinstance(value, str):
        return False
    if reading.check_theme and (wrong := reading.check_theme(value)):
        reading.problem(key, f"{wrong}; using the default")
    else:
        reading.settings[key] = value
    return True


def _paths(reading: _Reading, key: str, value: object) -> bool:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return False
    # A relative path is relative to the config file, wherever the reader starts.
    folder = reading.path.parent
    reading.settings[key] = tuple(folder / Path(item).expanduser() for item in value)
    reading.settings["paths_origin"] = f"paths in {reading.path}, line {reading.lines.get(key, 1)}"
    return True


def _keys(reading: _Reading, key: str, value: object) -> bool:
    if not isinstance(value, dict):
        return False
    keys = {}
    for name, chosen in value.items():
        if not isinstance(chosen, str):
            reading.problem(name, f'keys.{name} must be a string such as "ctrl+b"; it is ignored')
        elif reading.check_keys and (wrong := reading.check_keys(name, chosen)):
            reading.problem(name, f"keys.{name}: {wrong}; it is ignored")
        else:
            keys[name] = chosen
    reading.settings[key] = keys
    for name, wrong in reading.check_keymap(keys) if reading.check_keymap else ():
        reading.problem(name, f"keys.{name}: {wrong}")
    return True


def _read_after(reading: _Reading, key: str, value: object) -> bool:
    if not _is_seconds(value):
        return False
    reading.settings[key] = float(value)  # type: ignore[arg-type]
    return True


def _commands(reading: _Reading, key: str, value: object) -> bool:
    if not isinstance(value, dict):
        return False
    commands = {}
    for name, command in value.items():
        if isinstance(command, str) and command.strip():
            commands[name] = command
        else:
            reading.problem(name, f"commands.{name} must be {_SHAPES['command']}; it is ignored")
    reading.settings[key] = commands
    return True


def _sources_setting(reading: _Reading, key: str, value: object) -> bool:
    if not isinstance(value, dict):
        return False
    reading.settings[key] = _sources(value, reading.problem)
    return True


def _table(only: str, setting: str, takes: Callable[[object], object | None]) -> Setting:
    """A table of one setting (`[cache] limit`): `takes` gives its value, or None when it
    cannot be used."""

    def read(reading: _Reading, key: str, value: object) -> bool:
        if not isinstance(value, dict):
            return False
        for name, chosen in value.items():
            if name != only:
                reading.problem(name, f"unknown setting {key}.{name}; it is ignored")
            elif (taken := takes(chosen)) is not None:
                reading.settings[setting] = taken
            else:
                reading.problem(name, f"{key}.{name} must be {_SHAPES[name]}")
        return True

    return read


def _limit(value: object) -> int | None:
    fits = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return value if fits else None  # type: ignore[return-value]


_SETTINGS: dict[str, Setting] = {
    "search_url": _search_url,
    "theme": _theme,
    "paths": _paths,
    "keys": _keys,
    "read_after": _read_after,
    "triage": _table("quick_tags", "quick_tags", lambda value: _quick_tags(value)),
    "commands": _commands,
    "sources": _sources_setting,
    "cache": _table("limit", "cache_limit", _limit),
    "export": _table(
        "include_notes", "include_notes", lambda value: value if isinstance(value, bool) else None
    ),
}


def _listed(path: Path, problems: list[str]) -> list[str]:
    """The problems to tell: all, or when they are too many, those of names we do not know
    up to MAX_PROBLEMS_LISTED, then a count."""
    if len(problems) <= MAX_PROBLEMS_LISTED:
        return problems
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
    return listed


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
