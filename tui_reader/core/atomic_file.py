"""Writing a file so that a crash leaves either the old file or the new one, whole.

The new text goes to a temporary file beside the target, named after it (`.NAME-XXXX.tmp`), is
fsynced and renamed over the target. A symbolic link is written through: its target is
replaced and the link stays. Only a regular file is ever replaced.

A replaced file keeps its mode. A new one takes the mode of the file it belongs with, when
given (a library's backup is as private as the library), else what the umask leaves of
0o666, as any program's new file gets.
"""

import glob
import os
import secrets
import stat
from pathlib import Path

from tui_reader.core.file_kinds import special_file_problem


def _temporary_prefix(target: Path) -> str:
    return f".{target.name}-"


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new file in the folder durable."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def mode_of(path: Path | None) -> int | None:
    """The permission bits of a file, or None where there is none."""
    if path is None:
        return None
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return None


def _create_temporary(target: Path, mode: int) -> tuple[int, Path]:
    """A new temporary file beside the target, opened for writing; the umask applies to
    `mode`, as it does to any new file."""
    while True:
        name = f"{_temporary_prefix(target)}{secrets.token_hex(4)}.tmp"
        try:
            handle = os.open(target.parent / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        except FileExistsError:
            continue
        return handle, target.parent / name


def write_atomically(path: Path, text: str | bytes, like: Path | None = None) -> None:
    """Replace the file with `text` so that a crash leaves either the old or the new file whole.
    A new file takes the mode of `like`, else the umask's (see the module).

    OSError names `path` when it is not a regular file (a folder, a device, a FIFO)."""
    target = Path(os.path.realpath(path))
    kept_mode: int | None = None
    try:
        status = target.stat()
    except FileNotFoundError:
        pass
    else:
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(0, "is a folder, not a file", str(path))
        if problem := special_file_problem(target):
            raise OSError(0, problem, str(path))
        kept_mode = stat.S_IMODE(status.st_mode)
    mode = kept_mode if kept_mode is not None else mode_of(like)
    handle, temporary = _create_temporary(target, 0o666 if mode is None else mode)
    try:
        if mode is not None:
            os.fchmod(handle, mode)  # as it is, not as the umask narrowed it
        data = text.encode("utf-8") if isinstance(text, str) else text
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    fsync_folder(target.parent)


def remove_stale_temporaries(target: Path) -> None:
    """Delete temporary files of this target left by a writer that was killed; only call it
    while holding a lock that every writer of the target takes."""
    for stale in target.parent.glob(glob.escape(_temporary_prefix(target)) + "*.tmp"):
        stale.unlink(missing_ok=True)
