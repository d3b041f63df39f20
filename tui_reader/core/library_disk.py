"""The files of a library (library_file says how they look): reading them, what other programs
saved there included; saving to them; mending them.

A save appends the changes made since the last one to the journal under a file lock, so it
costs what changed, not the whole library; now and then the journal is folded into the
snapshot. Reading takes no lock and merges what every writer saved by the rules of
library_merge, so two instances, or the app and the command line, never lose each other's
changes. Damage is mended under the lock: a damaged snapshot is moved aside and rebuilt from
the backup and the journals.
"""

import os
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from tui_reader.core import atomic_file, library_file, wording
from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.library_file import Contents, DamagedLibrary
from tui_reader.core.library_kind import not_ours
from tui_reader.core.library_state import LibraryState

LOCK_TIMEOUT = 10.0
RELOAD_LOCK_TIMEOUT = 1.0  # a look for others' changes waits less: it comes again soon
# The journal is folded into the snapshot once it is this big, or half the snapshot's size:
# folding costs the whole file, so it happens once in many saves.
FOLD_AT = 256 * 1024
READ_ATTEMPTS = 5  # reads without the lock that a fold may overtake, before taking it


class _NeedsLock(Exception):
    """Reading found what only a writer holding the lock may mend."""


class LockTimeout(Exception):
    """Another program held the library's file lock past the time we wait."""


class LibraryError(Exception):
    """The library cannot be saved; the message names the file and the problem."""


class LibraryPathError(Exception):
    """The path cannot hold a library at all (a device, a FIFO, a folder)."""


@dataclass
class DiskChanges:
    """What a look at the files found: whether others' changes were taken in, and what the
    user must be told (a file found damaged and recovered, say)."""

    changed: bool = False
    messages: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.changed


@dataclass
class _Seen:
    """The state of the files when this library last read them."""

    snapshot: tuple[int, int, int] | None = None  # inode, modification time, size
    journal: tuple[int, int] | None = None  # inode, bytes read
    journal_lines: int = 0


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_ino, status.st_mtime_ns, status.st_size


def own_files(file: Path) -> list[Path]:
    """The library's file and the files it keeps beside it (journal, backup, lock)."""
    return [file, *_sidecars(file)]


def _sidecars(file: Path) -> list[Path]:
    return [
        library_file.journal_path(file),
        library_file.backup_path(file),
        library_file.journal_path(library_file.backup_path(file)),
        Path(f"{file}.lock"),
    ]


def _check_path(path: Path) -> None:
    """LibraryPathError when the path, or a file beside it, cannot be a library file."""
    if path.is_dir():
        raise LibraryPathError(f"{path}: is a folder, not a library file")
    real = Path(os.path.realpath(path))
    for candidate in [path, *_sidecars(real)]:
        if problem := special_file_problem(candidate):
            raise LibraryPathError(f"{candidate}: {problem}; the library must be a regular file")


def _check_readable(files: list[Path]) -> None:
    """LibraryPathError when one of the files is there but cannot be read: a library never
    opens without what it holds (its changes would be the session's alone)."""
    for file in files:
        try:
            with file.open("rb"):
                pass
        except FileNotFoundError:
            continue
        except OSError as error:
            why = error.strerror or str(error)
            raise LibraryPathError(f"{file}: cannot be read ({why}); left as it is") from None


def _read_journal(
    path: Path, contents: Contents, offset: int, line: int
) -> tuple[int | None, int, int] | None:
    """Merge the journal's changes after `offset` (line `line`) into `contents`: its inode
    (None when there is no journal) and the offset and line read to. None when the file is
    shorter than `offset`: not the one read before."""
    try:
        with path.open("rb") as journal:
            inode, size = os.fstat(journal.fileno())[1], os.fstat(journal.fileno()).st_size
            if size < offset:
                return None
            journal.seek(offset)
            data = journal.read()
    except FileNotFoundError:
        return None, 0, 0
    read, lines = library_file.parse_journal(data, path.name, line + 1, contents)
    return inode, offset + read, line + lines


@contextmanager
def _locked(file: Path, required: bool = True, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold the library's file lock. A reader in a folder it cannot write to, or one
    that does not exist, reads without it (`required=False`): nothing writes there."""
    if not file.parent.is_dir():  # filelock would make the folder
        if required:
            raise LibraryError(f"{file.parent}: the folder does not exist")
        yield
        return
    import filelock  # on the first lock, not at every start (tests/test_startup.py)

    lock = filelock.FileLock(f"{file}.lock", timeout=timeout, thread_local=False)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise LockTimeout from None
    except OSError:
        if required:
            raise
        yield
        return
    try:
        yield
    finally:
        lock.release()


def _mode_source(file: Path) -> Path:
    """The file whose mode the library's new files take: the library, else (moved aside as
    damaged, or not yet written) its backup or journal, else none (the umask decides)."""
    for candidate in (file, *_sidecars(file)[:2]):
        if candidate.is_file():
            return candidate
    return file


def _replace_backup(file: Path, text: str, holds: set[str]) -> list[str]:
    """Make `text`, which holds these papers, the backup; a backup with papers it lacks
    is moved aside first."""
    backup = library_file.backup_path(file)
    try:
        old = library_file.read_text(backup)
        lost = set(library_file.parse(old).entries) if old is not None else set()
    except (DamagedLibrary, OSError):
        lost = set()
    lost -= holds
    messages = []
    if lost:
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
        old_backup = backup.with_name(f"{backup.name}-{stamp}")
        os.replace(backup, old_backup)
        papers = wording.count(len(lost), "paper")
        messages.append(
            f"{backup.name} held {papers} that the library no longer has; it was kept as "
            f"{old_backup.name}"
        )
    try:
        library_file.write_atomically(backup, text, like=_mode_source(file))
    except OSError as error:
        messages.append(f"{backup}: {error.strerror or error}; the backup was not updated")
    return messages


class LibraryDisk:
    """The files of one library (none when `path` is None), in step with its state in
    memory: what others save there is taken in, and the state's changes saved."""

    def __init__(self, path: Path | None, state: LibraryState, read_only: bool = False) -> None:
        self.path = path
        # Opened to be read only: nothing is repaired, moved, locked or written.
        self.read_only = read_only
        # A symbolic link is followed: its target is the library, and the link stays.
        self._file = Path(os.path.realpath(path)) if path is not None else Path()
        self._state = state
        self._save_lock = threading.Lock()
        self._seen = _Seen()
        self._blocked: str | None = None  # why nothing may be written, when so
        # Blocked as it was opened for what may pass (read-only, locked, unreadable): looked
        # at again at the next save, which goes on once it has.
        self._passing = False
        self.saving = False
        self.taken_in = 0  # the looks at the files that took in others' changes

    def open(self) -> list[str]:
        """Read the library's files; what the user must be told about them (see Library.open)."""
        if self.path is None:
            return []
        _check_path(self.path)
        _check_readable([self._file, library_file.journal_path(self._file)])
        if why := self._not_ours():
            raise LibraryPathError(f"{self.path}: not a tui-reader library ({why}); left as it is")
        return self._load()

    def _not_ours(self) -> str | None:
        """Why the snapshot never was a library, or None; one whose backup or journal is
        beside it was one, and is only damaged."""
        if any(side.exists() for side in _sidecars(self._file)[:3]):
            return None
        return not_ours(self._file)

    def _load(self) -> list[str]:
        try:
            status = self._file.stat()
        except OSError:
            status = None
        unwritable = status is not None and not status.st_mode & (
            stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
        )
        if unwritable and not self.read_only:  # a reading alone changes nothing to keep
            self._blocked, self._passing = f"{self.path} is read-only", True
        try:
            changes, fold = self._refresh_repairing(timeout=LOCK_TIMEOUT)
        except LockTimeout:
            self._blocked, self._passing = f"{self.path} is locked by another program", True
            return []
        except OSError as error:
            unread = error.filename or self.path
            self._blocked = f"{unread} cannot be read: {error.strerror or error}"
            self._passing = True
            return [self._blocked] if self.read_only else []  # a reading's own problem
        if fold and self._writable:
            try:
                changes.messages += self.save(fold=True)
            except LibraryError as error:
                changes.messages.append(f"It could not be written back: {error}")
        return changes.messages

    @property
    def blocked(self) -> str | None:
        """Why no change can be saved to the files, or None (see Library.blocked)."""
        return self._blocked

    @property
    def _writable(self) -> bool:
        return self._blocked is None and not self.read_only

    def _read_snapshot(
        self, messages: list[str], repair: bool
    ) -> tuple[Contents, str | None, bool]:
        """The snapshot's contents, its text when it was valid, and whether it was damaged.

        A damaged snapshot is moved aside (`repair`, under the lock; without it, _NeedsLock)
        and rebuilt from the backup and the backup's journal, which add up to the snapshot
        last written. One that may not be written is only read around."""
        file = self._file
        try:
            text = library_file.read_text(file)
            contents = Contents() if text is None else library_file.parse(text, file.name)
            return contents, text, False
        except DamagedLibrary as damage:
            message = f"{self.path} is damaged ({damage})"
            unresolved = isinstance(damage, library_file.UnresolvedMerge)
            if unresolved:  # a merge to finish (git's): read around, never moved or written
                message = f"{self.path} is left as it is: {damage}"
                self._blocked = self._blocked or f"{self.path} holds merge-conflict markers"
            if self._writable and not repair:
                raise _NeedsLock from None
            if self._writable and (why := self._not_ours()):  # replaced since it was read
                self._blocked = f"{self.path} is no longer a library ({why}); it is left as it is"
                return Contents(), None, False
            if self._writable:
                try:
                    moved = library_file.quarantine(file)
                except OSError as error:
                    self._blocked = (
                        f"{message} and cannot be moved aside ({error.strerror or error}); "
                        "it will not be overwritten"
                    )
                    return Contents(), None, False
                message = f"{self.path} was damaged ({damage}) and was moved to {moved.name}"
        backup = library_file.backup_path(file)
        try:
            backup_text = library_file.read_text(backup)
            contents = Contents() if backup_text is None else library_file.parse(backup_text)
        except (DamagedLibrary, OSError):
            contents, backup_text = Contents(), None
        _read_journal(library_file.journal_path(backup), contents, 0, 0)
        if backup_text is not None:
            message += f"; restored the previous version from {backup.name}"
        elif contents.entries:
            message += f"; restored what {backup.name}.journal holds"
        elif (journal := library_file.journal_path(file)).exists():  # read after this
            message += f"; rebuilt from what {journal.name} holds"
        else:
            message += "; starting with an empty library"
        if self.read_only and not unresolved:
            message += " (left as it is: the next change saved repairs it)"
        messages.append(message)
        return contents, None, self._writable

    def _refresh(self, repair: bool) -> tuple[DiskChanges, bool]:
        """Take in what the files hold that this library has not seen. Also says whether
        they must be folded: to write back a recovered library, or to set aside what could
        not be read. With `repair` (under the lock) a damaged snapshot is moved aside and
        rebuilt; without, reading takes no lock and starts again when a fold ran meanwhile,
        and _NeedsLock says that a repair is due."""
        for _ in range(READ_ATTEMPTS):
            outcome = self._try_refresh(repair)
            if outcome is not None:
                return outcome
        raise _NeedsLock

    def _try_refresh(self, repair: bool) -> tuple[DiskChanges, bool] | None:
        changes = DiskChanges()
        journal = library_file.journal_path(self._file)
        snapshot, seen = _signature(self._file), self._seen
        if snapshot == seen.snapshot and _signature(journal) is None and seen.journal is None:
            return changes, False
        contents = Contents()
        damaged = False
        offset = line = 0
        if snapshot != seen.snapshot or seen.journal is None:
            if snapshot != seen.snapshot:
                contents, _, damaged = self._read_snapshot(changes.messages, repair)
            read = _read_journal(journal, contents, 0, 0)
        else:
            offset, line = seen.journal[1], seen.journal_lines
            read = _read_journal(journal, contents, offset, line)
            if read is None or read[0] != seen.journal[0]:  # replaced since: read it all
                self._seen = _Seen()
                return None
        assert read is not None
        if not repair and _signature(self._file) != snapshot:  # a fold ran meanwhile
            return None
        inode, end, line = read
        changes.changed, joined = self._state.take_in(contents.entries, contents.searches)
        if joined:
            notes = "a note" if joined == 1 else f"{joined} notes"
            are, after = ("is", "it") if joined == 1 else ("are", "each")
            changes.messages.append(
                f"{self.path}: {notes} saved elsewhere while you wrote yours {are} kept, "
                f"with yours after {after}"
            )
        self.taken_in += changes.changed
        self._seen = _Seen(_signature(self._file), (inode, end) if inode else None, line)
        if contents.newer is not None:
            self._blocked = (
                f"{self.path} was written by a newer tui-reader (version {contents.newer}): "
                "it is read but never written"
            )
        changes.messages += contents.notes
        if contents.times_reset:
            times = wording.count(contents.times_reset, "time")
            changes.messages.append(
                f"{self.path}: {times} not valid or in the future (a clock ahead?) now count as "
                "the oldest"
            )
        if contents.rejected and (self._blocked or self.read_only):  # not kept aside here
            left = "it is" if len(contents.rejected) == 1 else "they are"
            changes.messages.append(
                f"{self.path}: {_rejected_count(contents)} could not be read "
                f"({_reasons(contents)}); left as {left}"
            )
        return changes, damaged or bool(contents.rejected)

    def _refresh_repairing(self, timeout: float) -> tuple[DiskChanges, bool]:
        """Read without the lock; take it when a damaged snapshot must be repaired."""
        try:
            return self._refresh(repair=False)
        except _NeedsLock:
            if self.read_only:  # folds overtook every read: once more, as it stands
                return self._refresh(repair=True)
            with _locked(self._file, required=False, timeout=timeout):
                return self._refresh(repair=True)

    def save(self, fold: bool = False, prepare: Callable[[], None] | None = None) -> list[str]:
        """Append the changes not saved yet to the journal, under the lock; what the user
        must be told. Folds the journal into the snapshot when it has grown (or `fold`).
        `prepare` makes changes under the lock once what others saved has been read, to be
        saved with the others; it is not called when nothing can be saved.

        Raises LibraryError when nothing can be written; the changes stay in memory.
        """
        if self.path is None:
            return []
        told: list[str] = []
        if self._blocked and self._passing and not self.read_only:  # made writable since?
            self._blocked, self._passing = None, False
            told = self._load()
        if self._blocked:
            raise LibraryError(self._blocked)
        if self.read_only:
            raise LibraryError(f"{self.path} was opened only to be read")
        with self._save_lock:
            self.saving = True
            try:
                with _locked(self._file):
                    return told + self._write(fold, prepare)
            except LockTimeout:
                raise LibraryError(
                    f"{self.path} is locked: another program has held {self._file.name}.lock "
                    f"for more than {LOCK_TIMEOUT:.0f} s"
                ) from None
            except OSError as error:
                problem = error.strerror or str(error)
                raise LibraryError(f"{error.filename or self.path}: {problem}") from None
            finally:
                self.saving = False

    def _write(self, fold: bool, prepare: Callable[[], None] | None = None) -> list[str]:
        file = self._file
        # Others' changes since the last look: cheap, unless another program wrote the
        # snapshot since (or it was damaged).
        changes, must_fold = self._refresh(repair=True)
        messages = changes.messages
        fold = fold or must_fold
        if self._blocked:
            raise LibraryError(self._blocked)
        if prepare is not None:
            prepare()
        lines = self._state.unsaved_lines()
        journal = library_file.journal_path(file)
        size = journal_now[2] if (journal_now := _signature(journal)) else 0
        if lines:
            size = library_file.append(journal, lines, like=_mode_source(file))
            self._state.saved(len(lines))
        snapshot = _signature(file)
        if fold or snapshot is None or size > max(FOLD_AT, snapshot[2] // 2):
            messages += self._fold()
        return messages

    def _fold(self) -> list[str]:
        """Write the snapshot anew with the journal's changes; the journal starts empty.

        What could not be read is set aside in `.rejected` first. The backup and its journal
        always add up to the snapshot written, so a snapshot damaged later is rebuilt whole
        from them."""
        file = self._file
        messages: list[str] = []
        for target in (file, library_file.backup_path(file)):
            atomic_file.remove_stale_temporaries(target)
        contents, old_text, _ = self._read_snapshot(messages, repair=True)
        readable = set(contents.entries)  # the papers old_text holds, before the journal
        journal = library_file.journal_path(file)
        _read_journal(journal, contents, 0, 0)
        if contents.newer is not None or self._blocked:
            raise LibraryError(self._blocked or f"{self.path} was written by a newer tui-reader")
        if contents.rejected:
            rejected_file = library_file.append_rejected(file, contents.rejected)
            were = "was" if len(contents.rejected) == 1 else "were"
            messages.append(
                f"{self.path}: {_rejected_count(contents)} could not be read and {were} kept "
                f"aside in {rejected_file.name} ({_reasons(contents)})"
            )
        with self._state.merged_onto(contents.entries, contents.searches):
            text = library_file.dumps(contents.entries, contents.searches)
        backup = library_file.backup_path(file)
        backup_journal = library_file.journal_path(backup)
        if old_text is not None:
            messages += _replace_backup(file, old_text, readable)
            library_file.write_atomically(file, text, like=_mode_source(file))
            if journal.exists():
                library_file.move_journal(journal, backup_journal)
            else:
                library_file.empty_journal(backup_journal)
        else:
            library_file.write_atomically(file, text, like=_mode_source(file))
            messages += _replace_backup(file, text, set(contents.entries))
            library_file.empty_journal(backup_journal)
            library_file.empty_journal(journal)
        atomic_file.fsync_folder(file.parent)
        self._seen = _Seen(_signature(file), None, 0)
        return messages

    def reload_if_changed(self) -> DiskChanges:
        """Take in what another program saved since this library last read or wrote."""
        if self.path is None or self._blocked:
            return DiskChanges()
        journal = _signature(library_file.journal_path(self._file))
        seen = self._seen
        unchanged = _signature(self._file) == seen.snapshot and (
            (journal is None and seen.journal is None)
            or (journal is not None and seen.journal is not None
                and journal[0] == seen.journal[0] and journal[2] == seen.journal[1])
        )  # fmt: skip
        if unchanged:
            return DiskChanges()
        try:
            with self._save_lock:
                changes, fold = self._refresh_repairing(timeout=RELOAD_LOCK_TIMEOUT)
        except (LockTimeout, OSError):
            return DiskChanges()  # looked at again soon
        if fold and not self._blocked:
            try:
                changes.messages += self.save(fold=True)
            except LibraryError as error:
                changes.messages.append(f"It could not be written back: {error}")
        return changes

    def read_copy(self, path: Path) -> Contents:
        """What another copy of the library holds (from another machine, a sync or a backup),
        its journal beside it included; the copy is only read. LibraryError when it cannot be
        read as a library, naming it and the problem."""
        if (problem := special_file_problem(path)) or path.is_dir():
            raise LibraryError(f"{path}: {problem or 'is a folder, not a library file'}")
        if self.path is not None and Path(os.path.realpath(path)) == self._file:
            raise LibraryError(f"{path} is this library itself")
        try:
            text = library_file.read_text(path)
            if text is None:
                raise LibraryError(f"{path}: no such file")
            other = library_file.parse(text, path.name)
            _read_journal(library_file.journal_path(path), other, 0, 0)
        except DamagedLibrary as damage:
            raise LibraryError(f"{path} cannot be merged: {damage}") from None
        except OSError as error:
            raise LibraryError(f"{path}: {error.strerror or error}") from None
        if other.newer is not None:
            raise LibraryError(f"{path} was written by a newer tui-reader ({other.newer})")
        return other


def _reasons(contents: Contents) -> str:
    reasons = [f"{r.where}: {r.reason}" for r in contents.rejected[:3]]
    return "; ".join(reasons) + ("; …" if len(contents.rejected) > 3 else "")


def _rejected_count(contents: Contents) -> str:
    return wording.count(len(contents.rejected), "entry", "entries")
