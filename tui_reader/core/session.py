"""Where the reader left off: the query, the paper under the cursor, the sort order, the theme.
The query and the paper are those of the files it was reading, and so are the papers new to
them it told of: other files start afresh.

Kept in the platform's state folder (or $TUI_READER_SESSION) and restored at the next start,
unless the reader is started with --fresh. Losing it costs only convenience: a bad file is
ignored. A FIFO, device or socket in its place is neither read nor replaced (SessionError).
"""

import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from tui_reader.core.atomic_file import write_atomically
from tui_reader.core.file_kinds import special_file_problem

MAX_SESSION_BYTES = 1_000_000  # a session is a few hundred bytes: more is not one


class SessionError(OSError):
    """A session path that is not a regular file: a FIFO would block, a device never ends."""


def _refuse_special_file(path: Path) -> None:
    if problem := special_file_problem(path):
        raise SessionError(f"{path}: {problem}")


@dataclass(frozen=True)
class Session:
    query: str = ""
    paper_id: str = ""
    sort: str = "relevance"
    theme: str = ""
    split: int = 4  # tenths of the width (or height) the paper list takes
    inputs: str = ""  # the files read (inputs_of): the query and the paper were theirs
    new_told: float = 0.0  # when the papers new it last told of were taken in (core.segments.added)


def inputs_of(opened: Iterable[Path]) -> str:
    """What a session reads (the files and folders opened), as a session keeps it: a digest
    of their paths (any number in a few bytes)."""
    paths = "\n".join(sorted({str(path.resolve()) for path in opened}))
    return hashlib.sha256(paths.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def restored(session: Session, inputs: str) -> Session:
    """What to restore when reading these files: where the reader was in them, or only its
    settings (sort, theme, split) when it was reading other files."""
    if session.inputs == inputs:
        return session
    return replace(session, query="", paper_id="", inputs=inputs, new_told=0.0)


def load_session(path: Path) -> Session:
    """The saved session, or a fresh one when there is none or it cannot be read.

    SessionError when the path names a FIFO, a device or a socket.
    """
    _refuse_special_file(path)
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_SESSION_BYTES + 1)
        data = json.loads(raw) if len(raw) <= MAX_SESSION_BYTES else None
    except (OSError, ValueError, RecursionError):  # ValueError: not UTF-8, not JSON
        return Session()
    if not isinstance(data, dict):
        return Session()
    defaults = asdict(Session())  # each field's value is of the kind its default is
    kept = {k: v for k, v in data.items() if k in defaults and type(v) is type(defaults[k])}
    return Session(**kept)


def save_session(path: Path, session: Session) -> None:
    """Save the session; OSError when the folder cannot be made or written, SessionError
    (an OSError) when the path names a FIFO, a device or a socket."""
    _refuse_special_file(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(asdict(session), indent=2, sort_keys=True) + "\n")
