"""The library on disk: a snapshot, a journal of the changes since, and what was set aside.

- `library.json`, the snapshot: `{"version": 1, "papers": {PAPER_ID: ENTRY}}`, indented with
  sorted keys so that it diffs well. An ENTRY holds `bookmarked`, `read` and `note`, what
  `resolve` found (`resolved`) and the paper's citation key (`citekey`), each with the time it
  changed (`bookmarked_at`...), `tags` (tag -> when added) and `removed_tags` (tag -> when
  removed) (library_fields lists them). Times are UTC, `2026-11-30T03:11:07.123456Z`. A field
  is there only once set, so a file of an older version, without one, is read as it is; one
  this version does not know (from a newer one) is kept as it is, through merges and folds,
  and the version stays 1.
- `library.json.journal`: one line per saved change, `{"v": 1, "id": PAPER_ID, "entry": ENTRY}`
  holding only what changed, appended and fsynced, so that a save costs one change. Now and
  then the journal is folded into the snapshot and starts again empty.
- `library.json.bak`: the snapshot before the last fold.
- `library.json.rejected`: entries and journal lines that could not be read, one JSON object a
  line with the reason, set aside there before anything drops them.

The snapshot and the journal are written by orjson, and what it wrote is read by orjson alone
(_loads): a fold reads and writes the whole library, and the standard json module made it
many times slower.

Reading merges the journal into the snapshot by the rules two writers merge by (library_merge).
"""

import contextlib
import io
import json
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from tui_reader.core import atomic_file
from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.library_fields import (
    TAG_FIELDS,
    TIME_FIELDS,
    VALUE_TYPES,
    Entries,
    stored_tag,
)
from tui_reader.core.library_merge import merge_change, merge_entry, merge_searches
from tui_reader.core.links import is_web_url
from tui_reader.core.text import clean, strip_controls, token

VERSION = 1
JOURNAL_VERSION = 1
_FOUND_IDS = ("arxiv_id", "doi", "openreview_forum", "source")  # of `resolved`: ids, not text
# A key BibTeX, biber and Pandoc read (any other, written by hand, is dropped: one is given anew).
_CITATION_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_:./+-]*")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")
_FRACTION = re.compile(r"\.\d+")  # of a second, in another ISO 8601 form
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
# Clocks of two machines sharing a library disagree a little; a time later than this is wrong.
CLOCK_SKEW = timedelta(days=1)
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_SNAPSHOT = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS  # as the snapshot is written
_LINE = orjson.OPT_SORT_KEYS  # as a journal line is


class DamagedLibrary(Exception):
    """The file exists but cannot be used at all; the message says why."""


class UnresolvedMerge(DamagedLibrary):
    """The file holds a merge's conflict markers: a merge to finish, not damage to repair."""


_CONFLICT = re.compile(r"^<{7}(?: |$).*?^>{7}(?: |$)", re.MULTILINE | re.DOTALL)


class DuplicateValues(list[Any]):
    """The values of a key that a JSON object holds more than once, in order."""


@dataclass
class Rejected:
    """Something in a file that could not be read, set aside with the reason."""

    where: str  # "library.json" or "library.json.journal, line 12"
    reason: str
    paper_id: str | None
    value: Any


@dataclass
class Contents:
    """What a library file holds, and what the user must be told about reading it."""

    entries: Entries = field(default_factory=dict)
    searches: Entries = field(default_factory=dict)  # name -> {"query": ..., "query_at": ...}
    rejected: list[Rejected] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    newer: int | None = None  # the version of a newer tui-reader that wrote it
    times_reset: int = 0  # times that were not valid or lay in the future, now "oldest"


def format_stamp(moment: datetime) -> str:
    """A UTC time as stored: sortable as text (isoformat: strftime is far slower)."""
    return moment.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def stamp_at(micros: int) -> str:
    """Microseconds since the epoch as a stamp, the text format_stamp gives, without making a
    datetime: a change to many papers at once stamps each of them."""
    seconds, fraction = divmod(micros, 1_000_000)
    return f"{_second(seconds)}.{fraction:06d}Z"


@lru_cache(maxsize=2)
def _second(seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))


def micros_of(stamp: str) -> int:
    """A stamp as microseconds since the epoch; ValueError when it is not one."""
    return (parse_stamp(stamp) - _EPOCH) // timedelta(microseconds=1)


def now_stamp() -> str:
    return format_stamp(datetime.now(timezone.utc))


def parse_stamp(stamp: str) -> datetime:
    return datetime.strptime(stamp, TIME_FORMAT).replace(tzinfo=timezone.utc)


class _BadEntry(Exception):
    pass


def _checked_entry(paper_id: str, entry: Any, latest: str) -> tuple[dict[str, Any], int]:
    """The entry, freshly parsed, with its times checked in place, and how many were reset
    to "" (the oldest); _BadEntry when it cannot be used."""
    if isinstance(entry, DuplicateValues):
        checked = [_checked_entry(paper_id, one, latest) for one in entry]
        merged: dict[str, Any] = {}
        for one, _ in checked:
            merged = merge_entry(merged, one)
        return merged, sum(resets for _, resets in checked)
    if not token(paper_id):  # an id is never mended: an escape would reach the screen
        raise _BadEntry(f"the paper id {paper_id!r} holds a space, control or format character")
    if type(entry) is not dict:
        raise _BadEntry(f"the entry of paper {paper_id} is not an object")
    for name, value in entry.items():
        if not isinstance(value, DuplicateValues):
            continue
        if name not in TAG_FIELDS or not all(type(part) is dict for part in value):
            raise _BadEntry(f"{name} of paper {paper_id} is there {len(value)} times")
        entry[name] = {tag: when for part in value for tag, when in part.items()}  # each tag
    resets = 0
    for name, value in entry.items():
        if (kind := VALUE_TYPES.get(name)) is not None:
            entry[name] = _checked_value(paper_id, name, value, kind)
        elif name in TIME_FIELDS:
            entry[name] = _our_time(value, latest)
            resets += not entry[name] and value != ""
        elif name in TAG_FIELDS:
            entry[name], reset = _checked_tags(paper_id, name, value, latest)
            resets += reset
    if entry.get("tags", {}).keys() & entry.get("removed_tags", {}).keys():
        entry = merge_entry({}, entry)  # a tag both added and removed: the later holds
    return entry, resets


def _checked_value(paper_id: str, name: str, value: Any, kind: type) -> Any:
    """A field's value as it may be kept: of its type, its text without control characters."""
    if type(value) is not kind:
        raise _BadEntry(f"{name} of paper {paper_id} is not a {kind.__name__}")
    if name == "note" and isinstance(value, str):  # from another program, or a copy
        return strip_controls(value)
    if name == "citekey" and not _CITATION_KEY.fullmatch(str(value)):
        return ""  # not a key BibTeX reads: another is given
    return _checked_found(value) if name == "resolved" else value


def _checked_tags(paper_id: str, name: str, value: Any, latest: str) -> tuple[dict[str, str], int]:
    """A map of tag to time as it may be kept, each tag as stored (written by another program
    in capitals or decomposed, it is the tag typed; the later of two times a tag is there
    twice so), and how many times were reset to "" (the oldest)."""
    if type(value) is not dict or not all(type(t) is str for t in value.values()):
        raise _BadEntry(f"{name} of paper {paper_id} is not a map of tag to time")
    if not all(tag.isprintable() for tag in value):  # an escape would reach the screen
        raise _BadEntry(f"a tag of paper {paper_id} holds control characters")
    resets = 0
    checked: dict[str, str] = {}
    for tag, when in value.items():
        ours = _our_time(when, latest)
        resets += not ours and when != ""
        stored = stored_tag(tag) or tag  # a tag of spaces alone is left as written
        checked[stored] = max(checked.get(stored, ""), ours)
    return checked, resets


def _checked_found(value: Any, key: str = "") -> Any:
    """What resolve found for a paper, as it may be kept whoever wrote it: no control
    character in its text, and no id or link holding a space, a control or a format
    character (they are left out)."""
    if isinstance(value, str):  # a title, a name, a date: one line each
        return token(value) if key in _FOUND_IDS else clean(value)
    if isinstance(value, list):
        return [_checked_found(one, key) for one in value]
    if not isinstance(value, dict):
        return value
    if key == "links":
        return {k: url for k, url in value.items() if isinstance(url, str) and is_web_url(url)}
    checked = {name: _checked_found(one, name) for name, one in value.items()}
    return {name: one for name, one in checked.items() if one != "" or value[name] == ""}


def _our_time(stamp: object, latest: str) -> str:
    """The time in our form (UTC, microseconds: they compare as strings), from another ISO
    8601 form (`2026-05-01T10:00:00Z`, `+02:00`, milliseconds) too; "" (the oldest) when it
    is not a time, or is later than `latest`."""
    if not isinstance(stamp, str) or stamp == "":
        return ""
    if _TIME.fullmatch(stamp) is None:
        # In the forms Python 3.10 reads too: "+00:00" for "Z", six digits of fraction.
        iso = _FRACTION.sub(lambda digits: digits[0][:7].ljust(7, "0"), stamp.removesuffix("Z"))
        try:
            moment = datetime.fromisoformat(iso + ("+00:00" if stamp.endswith("Z") else ""))
            if moment.tzinfo is None:  # no zone said: ours is UTC
                moment = moment.replace(tzinfo=timezone.utc)
            stamp = format_stamp(moment.astimezone(timezone.utc))
        except (ValueError, OverflowError):  # not a time, or past the calendar's ends in UTC
            return ""
    return stamp if stamp <= latest else ""


def _latest_valid_time() -> str:
    return format_stamp(datetime.now(timezone.utc) + CLOCK_SKEW)


def _loads(text: str | bytes, written: int) -> Any:
    """JSON, keeping every value of a key that appears twice (as DuplicateValues).

    Text as this program writes it (orjson with the options `written`) is read by orjson
    alone: it comes out the same when written again, so no key of it is there twice. Other
    text (written by hand, by an older tui-reader, or damaged) is read by the slower parser
    that keeps duplicates, and says what is wrong."""
    try:
        data = text.encode() if isinstance(text, str) else text
        value = orjson.loads(data)
        if orjson.dumps(value, option=written) == data.strip():
            return value
    except (orjson.JSONDecodeError, orjson.JSONEncodeError, UnicodeEncodeError):
        pass

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            result = {}
            for key, value in pairs:
                if key in result:
                    earlier = result[key]
                    if not isinstance(earlier, DuplicateValues):
                        earlier = result[key] = DuplicateValues([earlier])
                    earlier.append(value)
                else:
                    result[key] = value
        return result

    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return json.loads(text, object_pairs_hook=pairs_hook)


def _dumps(value: Any, options: int) -> str:
    """JSON as orjson writes it, or as the standard library does for what orjson cannot
    write (an integer over 64 bits, a lone surrogate: from a file written by hand, or a
    service's answer). orjson writes NaN and infinities as null."""
    try:
        return orjson.dumps(value, option=options).decode()
    except orjson.JSONEncodeError:  # escaped: a lone surrogate cannot be written as UTF-8
        indent = 2 if options & orjson.OPT_INDENT_2 else None
        return json.dumps(value, sort_keys=True, indent=indent)


def _add_entries(
    contents: Contents, papers: dict[str, Any], where: str, latest: str, merged: set[str]
) -> None:
    """Check the papers' entries and merge them into `contents`; `merged` as merge_change
    takes it, for the whole reading."""
    for paper_id, entry in papers.items():
        try:
            checked, resets = _checked_entry(paper_id, entry, latest)
        except _BadEntry as problem:
            contents.rejected.append(Rejected(where, str(problem), paper_id, entry))
            continue
        contents.times_reset += resets
        merge_change(contents.entries, paper_id, checked, merged)


def parse(text: str, name: str = "library.json") -> Contents:
    """A snapshot's contents; DamagedLibrary when the file as a whole is not a library.

    One entry that cannot be read is rejected, not the file; a key found twice is merged."""
    if not text.strip():
        raise DamagedLibrary("it is empty")
    try:
        data = _loads(text, _SNAPSHOT)
    except (ValueError, RecursionError) as error:  # JSONDecodeError, or a 5,000-digit number
        if conflict := _CONFLICT.search(text):
            line = text.count("\n", 0, conflict.start()) + 1
            raise UnresolvedMerge(
                f"it holds merge-conflict markers (<<<<<<< at line {line}): resolve the "
                "conflict first, or merge each side"
            ) from None
        problem = str(error) if isinstance(error, json.JSONDecodeError) else "too deep or too big"
        raise DamagedLibrary(f"it is not valid JSON ({problem})") from None
    if not isinstance(data, dict) or not isinstance(data.get("version"), int):
        raise DamagedLibrary("it has no library version")
    contents = Contents()
    if data["version"] > VERSION:
        contents.newer = data["version"]
    papers = data.get("papers", {})
    parts = papers if isinstance(papers, DuplicateValues) else [papers]
    if not all(isinstance(part, dict) for part in parts):
        raise DamagedLibrary("its papers are not an object")
    if len(parts) > 1:
        contents.notes.append(f"{name} held its papers {len(parts)} times; all were merged")
    latest = _latest_valid_time()
    merged: set[str] = set()
    for part in parts:
        _add_entries(contents, part, name, latest, merged)
    searches = data.get("searches", {})
    for part in searches if isinstance(searches, DuplicateValues) else [searches]:
        if isinstance(part, dict):
            add_searches(contents, part, name, latest)
        else:
            contents.rejected.append(Rejected(name, "its searches are not an object", None, part))
    return contents


def read_text(path: Path) -> str | None:
    """The file's text (a byte-order mark is dropped), None when there is no file;
    DamagedLibrary when it is not UTF-8 text."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DamagedLibrary("it is not UTF-8 text") from None


def dumps(entries: Entries, searches: Entries) -> str:
    data: dict[str, Any] = {"version": VERSION, "papers": entries}
    if searches:
        data["searches"] = searches
    return _dumps(data, _SNAPSHOT) + "\n"


def add_searches(contents: Contents, searches: dict[str, Any], where: str, latest: str) -> None:
    """Merge saved searches (name -> {"query", "query_at"}; an empty query is a deleted one):
    the later change of each name wins."""
    for search_name, entry in searches.items():
        if not search_name.isprintable():
            problem = f"the name of saved search {search_name!r} holds control characters"
            contents.rejected.append(Rejected(where, problem, None, entry))
            continue
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("query"), str)
            or not isinstance(entry.get("query_at", ""), str)
        ):
            problem = f"saved search {search_name!r} is not a query with its time"
            contents.rejected.append(Rejected(where, problem, None, entry))
            continue
        entry["query"] = clean(entry["query"])  # typed on one line, without escapes
        if (when := _our_time(entry.get("query_at", ""), latest)) != entry.get("query_at", ""):
            entry["query_at"] = when
            contents.times_reset += not when
        merge_searches(contents.searches, {search_name: entry})


def search_line(search_name: str, entry: dict[str, Any]) -> str:
    record = {"v": JOURNAL_VERSION, "search": search_name, "entry": entry}
    return _dumps(record, _LINE) + "\n"


# The journal


def journal_line(paper_id: str, entry: dict[str, Any]) -> str:
    record = {"v": JOURNAL_VERSION, "id": paper_id, "entry": entry}
    return _dumps(record, _LINE) + "\n"


def parse_journal(data: bytes, name: str, first_line: int, contents: Contents) -> tuple[int, int]:
    """Merge the changes in journal bytes, in order, into `contents`; how many bytes and
    lines were read: up to the last complete line (a line still being written, or torn by a
    crash, is left for later)."""
    end = data.rfind(b"\n") + 1
    latest = _latest_valid_time()
    merged: set[str] = set()
    # One line at a time: a list of every line would hold the journal twice in memory.
    for number, line in enumerate(io.BytesIO(data[:end]), first_line):
        raw = line[:-1]
        if not raw.strip():
            continue
        where = f"{name}, line {number}"
        try:
            record = _loads(raw, _LINE)
        except (ValueError, RecursionError):  # not UTF-8, not JSON, or too deep
            text = raw.decode("utf-8", "replace")
            contents.rejected.append(Rejected(where, "not a valid change", None, text))
            continue
        if not isinstance(record, dict) or not isinstance(record.get("v"), int):
            contents.rejected.append(Rejected(where, "not a change", None, record))
            continue
        if record["v"] > JOURNAL_VERSION:
            contents.newer = max(contents.newer or 0, record["v"])
            continue
        if isinstance(search_name := record.get("search"), str):
            add_searches(contents, {search_name: record.get("entry")}, where, latest)
            continue
        paper_id = record.get("id")
        if not isinstance(paper_id, str):
            contents.rejected.append(Rejected(where, "a change with no paper id", None, record))
            continue
        _add_entries(contents, {paper_id: record.get("entry")}, where, latest, merged)
    return end, data.count(b"\n", 0, end)


def append(path: Path, lines: Iterable[str], like: Path) -> int:
    """Append whole lines to the journal and fsync it; the journal's size after. A new
    journal takes the mode of `like`, the library it belongs with, else the umask's."""
    if problem := special_file_problem(path):
        raise OSError(0, problem, str(path))
    created = not path.exists()
    mode = atomic_file.mode_of(like)
    descriptor = os.open(
        path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666 if mode is None else mode
    )
    try:
        if created and mode is not None:
            os.fchmod(descriptor, mode)
        size = os.fstat(descriptor).st_size
        # A line torn by a crash is fenced off by a line break, never joined to the next one.
        torn = size > 0 and os.pread(descriptor, 1, size - 1) != b"\n"
        data = ("\n" if torn else "").encode() + "".join(lines).encode("utf-8")
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(descriptor, view) :]
            os.fsync(descriptor)
        except OSError:  # a full disk: the lines half written go, not read as damage later
            with contextlib.suppress(OSError):
                os.ftruncate(descriptor, size)
            raise
        size = os.fstat(descriptor).st_size
    finally:
        os.close(descriptor)
    if created:
        atomic_file.fsync_folder(path.parent)
    return size


# Files beside the library


def move_journal(journal: Path, backup_journal: Path) -> None:
    """The journal becomes the backup's, and none is left. A symbolic link at either place
    (the user's) is written through, never moved or replaced: the journal's bytes written to
    the backup's, then the journal emptied. OSError names the backup's journal when it is a
    folder (the move named the journal)."""
    if backup_journal.is_dir():
        raise IsADirectoryError(21, "is a folder, not a file", str(backup_journal))
    if not (journal.is_symlink() or backup_journal.is_symlink()):
        os.replace(journal, backup_journal)
        return
    atomic_file.write_atomically(backup_journal, journal.read_bytes(), like=journal)
    empty_journal(journal)


def empty_journal(journal: Path) -> None:
    """No journal left: removed, or, a symbolic link (the user's), its file emptied."""
    if not journal.is_symlink():
        journal.unlink(missing_ok=True)
    elif journal.exists():
        os.truncate(journal, 0)


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def journal_path(path: Path) -> Path:
    return path.with_name(path.name + ".journal")


def rejected_path(path: Path) -> Path:
    return path.with_name(path.name + ".rejected")


def append_rejected(path: Path, rejected: list[Rejected]) -> Path:
    """Append what could not be read to the library's `.rejected` file, before it is dropped."""
    target = rejected_path(path)
    stamp = now_stamp()
    lines = [
        json.dumps(
            {"kept_at": stamp, "from": r.where, "reason": r.reason, "id": r.paper_id,
             "value": r.value},
            ensure_ascii=False,
            default=str,
        )
        + "\n"
        for r in rejected
    ]  # fmt: skip
    append(target, lines, like=path)
    return target


def write_atomically(path: Path, text: str, like: Path | None = None) -> None:
    atomic_file.write_atomically(path, text, like)


def quarantine(path: Path) -> Path:
    """Move a damaged regular file aside as `NAME.corrupt-<UTC time>`; where it went."""
    if problem := special_file_problem(path):
        raise OSError(0, problem, str(path))
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    os.replace(path, target)
    return target
