"""The temporary files a build writes (a store's texts past their first bytes, an index's
pairs, folded text and postings): unnamed, so that nothing of them is left once they are
closed or the process ends, however it ends. A file that cannot be made or written (a full
disk, a temporary folder that cannot be written) is `ScratchError`, which says where and why
in one line."""

import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO


class ScratchError(OSError):
    """A temporary file could not be made or written: the message says where and why."""


@contextmanager
def scratch() -> Iterator[None]:
    """Raise an OSError of making or writing temporary files as ScratchError."""
    try:
        yield
    except ScratchError:
        raise
    except OSError as error:
        raise ScratchError(_told(error)) from error


def scratch_file() -> IO[bytes]:
    """A temporary file, unnamed; ScratchError when it cannot be made."""
    with scratch():
        return tempfile.TemporaryFile()


def _told(error: OSError) -> str:
    try:
        folder = tempfile.gettempdir()
    except OSError:  # none of the folders it tries can be written
        folder = os.environ.get("TMPDIR", "the temporary folder")
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        why = "no space left on the device"
    else:
        why = error.strerror or str(error)
    return f"temporary files cannot be written in {folder} ({why}): TMPDIR names another folder"


def write_at(file: IO[bytes], start: int, data: bytes | memoryview) -> None:
    """Write these bytes (an array's `data`, contiguous) into a temporary file at `start`;
    ScratchError when they cannot be."""
    view = memoryview(data).cast("B")
    with scratch():
        while view:
            written = os.pwrite(file.fileno(), view, start)
            view, start = view[written:], start + written
