"""Where the reader left off: the query, the paper under the cursor, the sort order, the theme.
The query and the paper are those of the files it was reading, and so are the papers new to
them it told of: other files start afresh.

Kept in the platform's state folder (or $TUI_READER_SESSION) and restored at the next start,
unless the reader is started with --fresh. Losing it costs only convenience: a session that
cannot be read is ignored. But a file there that is not a session (a library, papers: a
mistyped $TUI_READER_SESSION) is never replaced: the reader does not start (SessionError), as
for a FIFO, device or socket in its place. A session file made read-only is read, not replaced.
"""

import contextlib
import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from tui_reader.core.atomic_file import write_atomically
from tui_reader.core.file_kinds import special_file_problem
from tui_reader.core.library_file import quarantine

MAX_SESSION_BYTES = 1_000_000  # a session is a few hundred bytes: more is not one


class SessionError(OSError):
    """A session path that is not a regular file (a FIFO would block, a device never ends), or
    a file that is not a session."""


def _refuse_special_file(path: Path) -> None:
    if problem := special_file_problem(path):
        raise SessionError(f"{path}: {problem}")
    if path.is_dir():  # it could never be kept there, unsaid
        raise SessionError(f"{path}: is a folder, not a session file")


def _fields(raw: bytes) -> dict[str, Any] | None:
    """A session file's fields, None when it is not one: a JSON object holding a field of a
    session (a later version's may hold more), or nothing."""
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw) if len(raw) <= MAX_SESSION_BYTES else None
    except (ValueError, RecursionError):  # not UTF-8, not JSON
        return None
    if not isinstance(data, dict) or (data and not set(data) & set(asdict(Session()))):
        return None
    return data


@dataclass(frozen=True)
class Session:
    query: str = ""
    paper_id: str = ""
    sort: str = "relevance"
    # A theme chosen in the app ("": none, the config's holds). Not `theme`, which earlier
    # versions wrote whether chosen or not: read, it would hide the config's theme.
    chosen_theme: str = ""
    split: int = 4  # tenths of the width (or height) the paper list takes
    inputs: str = ""  # the files read (inputs_of): the query and the paper were theirs
    new_told: float = 0.0  # when the papers new it last told of were taken in (core.segments.added)
    # The paper was read (by resting on it) while the query's results showed it, which keep it
    # until the next query, also under `is:unread`: restored, they keep it too.
    paper_read_there: bool = False


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

    SessionError when the path names a FIFO, a device or a socket, or a file that is not a
    session, which saving it would replace.
    """
    _refuse_special_file(path)
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_SESSION_BYTES + 1)
    except OSError:
        return Session()
    data = _fields(raw)
    if data is None:
        raise SessionError(f"{path}: not a session file (name another one; it is left as it is)")
    defaults = asdict(Session())  # each field's value is of the kind its default is
    kept = {k: v for k, v in data.items() if k in defaults and type(v) is type(defaults[k])}
    return Session(**kept)


def load_own_session(path: Path) -> tuple[Session, str]:
    """The session at its own place (no one named it): one there that is no session file is
    the reader's own, damaged (a disk's fault), and is set aside as `NAME.corrupt-<time>`
    for a fresh one, which is said (one that cannot be set aside is left as it is, and no
    session kept); SessionError for a FIFO, a device, a socket, a folder or a symbolic link
    there."""
    try:
        return load_session(path), ""
    except SessionError:
        if path.is_symlink() or not path.is_file():  # only a regular file is set aside
            raise
        try:
            aside = quarantine(path)
        except OSError as error:
            return Session(), (
                f"{path} is damaged, and could not be set aside ({error.strerror or error}): "
                "starting at the top, and where you leave off is not kept"
            )
    return Session(), f"{path} was damaged: set aside as {aside.name}; starting at the top"


def save_session(path: Path, session: Session) -> None:
    """Save the session; OSError when the folder cannot be made or written, SessionError
    (an OSError) when the path names a FIFO, a device or a socket, a file that is not a
    session (one written there since the start), or a file made read-only."""
    _refuse_special_file(path)
    with contextlib.suppress(FileNotFoundError):
        if not path.stat().st_mode & 0o222:
            raise SessionError(f"{path}: read-only: where you left off is not kept in it")
        with path.open("rb") as file:
            if _fields(file.read(MAX_SESSION_BYTES + 1)) is None:
                raise SessionError(f"{path}: not a session file: left as it is")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(asdict(session), indent=2, sort_keys=True) + "\n")
