"""Writing a file so that a crash leaves either the old file or the new one, whole."""

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str | bytes, prefix: str = ".tui-reader-") -> None:
    """Replace the file with `text` so that a crash leaves either the old or the new file whole."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
    try:
        # mkstemp makes the file private; keep the mode the file had, else the usual 0644.
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        os.fchmod(handle, mode)
        data = text.encode("utf-8") if isinstance(text, str) else text
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
