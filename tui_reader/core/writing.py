"""What a process is writing into the cache folder, and what one gone left there.

An entry, an index or the recommender's rows are written in a folder named `.writing-PID-…`
(PID: the writing process's), renamed into place once whole, removed if the write fails or
is interrupted. One the process was killed before it could remove is left over: its process
is gone (or, a name without one or a number reused since, it has not changed for ABANDONED
seconds), and pruning the cache removes it. A process ending before its writes do (the
reader's last write given up by Ctrl-C, or a signal) removes them itself.
"""

import os
import shutil
import time
from pathlib import Path

WRITING = ".writing-"  # how the name of what is being written starts
ABANDONED = 3600  # seconds after which an unfinished write is left over from a crash


def writing_prefix() -> str:
    """The start of the name of what this process writes."""
    return f"{WRITING}{os.getpid()}-"


def left_over(path: Path) -> bool:
    """Whether no process is writing `path` (named by `writing_prefix`) any more."""
    number = path.name.removeprefix(WRITING).split("-", 1)[0]
    if number.isdigit() and int(number) != os.getpid():
        try:
            os.kill(int(number), 0)  # no signal sent: whether it is there
        except ProcessLookupError:
            return True
        except PermissionError:  # another user's
            pass
    try:
        return time.time() - path.stat().st_mtime > ABANDONED
    except OSError:  # gone meanwhile
        return False


def discard_own_writes(root: Path) -> None:
    """Remove what this process began writing in the folder `root` and will not finish: it
    is ending, and the thread writing ends with it."""
    for path in root.glob(f"{writing_prefix()}*"):
        for _ in range(3):  # the thread may still make a file in it as it is removed
            if path.is_symlink() or not path.is_dir():
                break
            shutil.rmtree(path, ignore_errors=True)
