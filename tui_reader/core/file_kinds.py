"""What kind of file a path names: only regular files are ever read as data, moved or replaced.

A FIFO blocks a reader forever, a device (`/dev/null`, `/dev/zero`) is endless or empty, and
renaming one as root breaks the system: each is refused with one line naming it.
"""

import stat
from pathlib import Path

_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def special_file_problem(path: Path) -> str | None:
    """Why `path` cannot be used as a file, when it names something other than a regular file
    or a folder ("is a FIFO (named pipe), not a regular file"); None when it is missing, a
    regular file or a folder. Symbolic links are followed."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    for test, kind in _KINDS:
        if test(mode):
            return f"is {kind}, not a regular file"
    return None
