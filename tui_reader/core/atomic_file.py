"""Writing a file so that a crash leaves either the old file or the new one, whole.

The new text goes to a temporary file beside the target, named after it (`.NAME-XXXX.tmp`), is
fsynced and renamed over the target. A symbolic link is written through: its target is
replaced and the link stays. Only a regular file is ever replaced.
"""

import glob
import os
import stat
import tempfile
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


def write_atomically(path: Path, text: str | bytes) -> None:
    """Replace the file with `text` so that a crash leaves either the old or the new file whole.

    OSError names `path` when it is not a regular file (a folder, a device, a FIFO)."""
    target = Path(os.path.realpath(path))
    try:
        status = target.stat()
    except FileNotFoundError:
        mode = 0o644
    else:
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(0, "is a folder, not a file", str(path))
        if problem := special_file_problem(target):
            raise OSError(0, problem, str(path))
        mode = stat.S_IMODE(status.st_mode)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=_temporary_prefix(target), suffix=".tmp"
    )
    try:
        os.fchmod(handle, mode)  # mkstemp makes the file private: keep the mode the file had
        data = text.encode("utf-8") if isinstance(text, str) else text
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    fsync_folder(target.parent)


def remove_stale_temporaries(target: Path) -> None:
    """Delete temporary files of this target left by a writer that was killed; only call it
    while holding a lock that every writer of the target takes."""
    for stale in target.parent.glob(glob.escape(_temporary_prefix(target)) + "*.tmp"):
        stale.unlink(missing_ok=True)
