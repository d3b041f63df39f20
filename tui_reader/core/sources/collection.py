"""The collection file a fetch writes, and the loop that fetches into it.

A collection is JSON Lines, one paper a line (see `record`). A fetch appends a page at a time:
the lines are flushed and fsynced, then the resume state beside the file
(`NAME.jsonl.fetch-state`) records where the next page starts. An interruption (Ctrl+C, a
dropped connection, a page that cannot be read) leaves whole pages and a state that points at
the first page not yet kept; the same fetch run again goes on from there. Papers are told
apart by `source_id`: one already in the file is not written again, and one that comes back
changed (a new version) is written again and the older line dropped when the fetch completes,
the file then rewritten atomically. A line cut off by a crash is removed before appending.
The state file goes when the fetch completes. A lock (`NAME.jsonl.lock`) keeps two fetches
from writing one file. The papers new to the file are noted beside it as each page is kept
(`NAME.jsonl.taken`, core.sources.taken): `is:new` when no entry of the cache held the file.

Nothing is written before the first page has arrived: a fetch that cannot reach its service
changes nothing.
"""

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import filelock

from tui_reader.core.atomic_file import fsync_folder, write_atomically
from tui_reader.core.sources.pages import Cursor, MalformedPage, Pages
from tui_reader.core.sources.polite import FetchError
from tui_reader.core.sources.record import SourceRecord
from tui_reader.core.sources.taken import key_of, note_taken
from tui_reader.core.text import clean
from tui_reader.core.wording import count

STATE_SUFFIX = ".fetch-state"
STATE_FORMAT = 1


def state_path(path: Path) -> Path:
    return path.with_name(path.name + STATE_SUFFIX)


def saved_cursor(path: Path, request: dict[str, object]) -> Cursor | None:
    """Where an unfinished fetch of the same request into `path` stopped, or None."""
    try:
        state = json.loads(state_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        return None
    cursor = state.get("cursor")
    if state.get("request") != request or not isinstance(cursor, dict):
        return None
    return cursor


def _digest(line: bytes) -> bytes:
    return hashlib.blake2b(line, digest_size=16).digest()


def _identity(line: bytes) -> tuple[str, int | None] | None:
    """The source_id of a line and its arXiv version (None when it has none)."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(source_id := data.get("source_id"), str):
        return None
    version = data.get("arxiv_version")
    return source_id, version if type(version) is int else None


def _source_id(line: bytes) -> str | None:
    identity = _identity(line)
    return identity[0] if identity else None


class CollectionFile:
    """A collection being fetched into, opened at its first page (see the module)."""

    def __init__(self, path: Path, request: dict[str, object]) -> None:
        self.path = path
        self.request = request
        self.papers: dict[str, bytes] = {}  # source_id: digest of its line in the file
        self.versions: dict[str, int] = {}  # source_id: its arXiv version in the file
        self.new_versions: dict[str, str] = {}  # source_id: "2501.01234v3", newer than kept
        self.replaced = 0
        self._handle: BinaryIO | None = None
        self._lock: filelock.BaseFileLock | None = None

    @property
    def is_open(self) -> bool:
        return self._handle is not None

    def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(f"{self.path}.lock", timeout=0, thread_local=False)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise FetchError(f"another fetch is writing {self.path}") from None
        self._lock = lock
        try:
            self._read_existing()
            self._handle = open(self.path, "ab")  # noqa: SIM115 (kept open across pages)
        except BaseException:
            lock.release()
            raise

    def _read_existing(self) -> None:
        """The ids in the file; a last line cut off by a crash is removed."""
        try:
            with open(self.path, "rb") as file:
                end = 0
                for line in file:
                    if not line.endswith(b"\n"):
                        break
                    end += len(line)
                    if identity := _identity(line):
                        source_id, version = identity
                        self.papers[source_id] = _digest(line.rstrip(b"\n"))
                        if version is not None:
                            self.versions[source_id] = version
        except FileNotFoundError:
            return
        if end < self.path.stat().st_size:
            os.truncate(self.path, end)

    def add(self, records: Iterable[SourceRecord]) -> int:
        """Append the papers that are new or changed, durably; how many were new."""
        assert self._handle is not None
        lines = []
        new = 0
        taken = []  # the keys of the papers new to the file
        for record in records:
            line = record.to_json().encode("utf-8")
            digest = _digest(line)
            known = self.papers.get(record.source_id)
            if known == digest:
                continue
            if known is None:
                new += 1
                if (key := key_of(line)) is not None:
                    taken.append(key)
            else:
                self.replaced += 1
            version, kept = record.arxiv_version, self.versions.get(record.source_id)
            if version is not None and kept is not None and version > kept:
                self.new_versions[record.source_id] = f"{record.arxiv_id}v{version}"
            if version is not None:
                self.versions[record.source_id] = version
            self.papers[record.source_id] = digest
            lines.append(line + b"\n")
        if lines:
            self._handle.write(b"".join(lines))
            self._handle.flush()
            os.fsync(self._handle.fileno())
        if taken:
            note_taken(self.path, taken)
        return new

    def save_cursor(self, cursor: Cursor) -> None:
        state = {"format": STATE_FORMAT, "request": self.request, "cursor": cursor}
        write_atomically(state_path(self.path), json.dumps(state) + "\n")

    def complete(self) -> None:
        """The fetch is done: drop older lines of changed papers and the resume state."""
        assert self._handle is not None
        self._handle.close()
        if self.replaced:
            self._compact()
        with contextlib.suppress(FileNotFoundError):
            state_path(self.path).unlink()
            fsync_folder(self.path.parent)

    def _compact(self) -> None:
        """Rewrite the file with one line a paper: its latest, where its first one was."""
        lines: list[bytes] = []
        where: dict[str, int] = {}
        with open(self.path, "rb") as file:
            for line in file:
                source_id = _source_id(line)
                if source_id is None:
                    lines.append(line)
                elif source_id in where:
                    lines[where[source_id]] = line
                else:
                    where[source_id] = len(lines)
                    lines.append(line)
        write_atomically(self.path, b"".join(lines))

    def close(self) -> None:
        if self._handle is not None and not self._handle.closed:
            self._handle.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None


@dataclass
class Tally:
    """How a fetch is going, for its progress line and its last word."""

    path: Path
    position: int | None = None  # entries of the listing handled, when the service says
    total: int | None = None
    added: int = 0  # papers new to the file
    updated: int = 0  # papers the file had, now changed (a new version)
    unreadable: int = 0  # entries the service sent that were not readable papers
    # Papers sent without an abstract: left out, as the reader would skip them at every start.
    without_abstract: int = 0
    papers: int = 0  # papers in the file
    new_versions: list[str] = field(default_factory=list)  # "2501.01234v3": newer than kept


class FetchFailed(Exception):
    """A fetch that stopped before its end; the message is one line saying why and what the
    file keeps. `tally` is how far it got; `interrupted` whether by Ctrl+C."""

    def __init__(self, message: str, tally: Tally, interrupted: bool = False) -> None:
        super().__init__(message)
        self.tally = tally
        self.interrupted = interrupted


def _kept(
    problem: str, collection: CollectionFile, tally: Tally, interrupted: bool = False
) -> FetchFailed:
    if not collection.is_open:
        return FetchFailed(f"{problem}; nothing was changed", tally, interrupted)
    return FetchFailed(
        f"{problem}; {collection.path} keeps the {count(tally.papers, 'paper')} fetched so far: "
        "run the same command again to go on from there",
        tally,
        interrupted,
    )


def fetch_into(
    path: Path,
    request: dict[str, object],
    pages: Pages,
    progress: Callable[[Tally], None] = lambda tally: None,
) -> Tally:
    """Fetch the listing's pages into the collection at `path`, from where an unfinished fetch
    of the same request stopped. FetchFailed, saying what was kept, when it stops early (a
    service that fails, a page that cannot be read, Ctrl+C)."""
    collection = CollectionFile(path, request)
    tally = Tally(path)

    def add(records: list[SourceRecord]) -> None:
        readable = [record for record in records if clean(record.abstract)]
        tally.without_abstract += len(records) - len(readable)
        records = readable
        if not records:
            return
        if not collection.is_open:
            collection.open()
        before = collection.replaced
        tally.added += collection.add(records)
        tally.updated += collection.replaced - before
        tally.papers = len(collection.papers)
        tally.new_versions = list(collection.new_versions.values())

    cursor = saved_cursor(path, request)
    try:
        try:
            for page in pages(cursor):
                add(page.records)
                if page.next_cursor is not None and collection.is_open:
                    collection.save_cursor(page.next_cursor)
                tally.position, tally.total = page.position, page.total
                tally.unreadable += page.unreadable
                progress(tally)
        except MalformedPage as error:
            add(error.records)  # what the page held before its problem
            raise FetchError(str(error)) from None
        if cursor is not None and not collection.is_open:
            collection.open()  # to drop the state of the fetch this one finished
        if collection.is_open:
            collection.complete()
        return tally
    except FetchError as error:
        raise _kept(str(error), collection, tally) from None
    except KeyboardInterrupt:
        raise _kept("interrupted", collection, tally, interrupted=True) from None
    except OSError as error:
        problem = f"cannot write {error.filename or path}: {error.strerror or error}"
        raise _kept(problem, collection, tally) from None
    finally:
        collection.close()
