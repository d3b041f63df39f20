"""The session file: a FIFO or device in its place is neither read nor replaced, nor is a file
that is not a session, or one made read-only."""

import json
import os
from pathlib import Path

import pytest

from tests.cli_helpers import run_process
from tui_reader.cli.program import main
from tui_reader.core import session as sessions
from tui_reader.core.session import Session, save_session


@pytest.mark.slow
def test_a_fifo_or_device_as_the_session_file_stops_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui_reader.ui.app import ReaderApp

    session = tmp_path / "session.json"
    os.mkfifo(session)
    monkeypatch.setattr(ReaderApp, "run", lambda app: pytest.fail("the reader started"))
    before = sorted(tmp_path.rglob("*"))
    assert main(["--fresh"]) == 2
    assert capsys.readouterr().err == (
        f"tui-reader: {session}: is a FIFO (named pipe), not a regular file\n"
    )
    result = run_process()  # reading it would wait for a writer forever
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert sorted(tmp_path.rglob("*")) == before
    monkeypatch.setenv("TUI_READER_SESSION", "/dev/null")
    assert main([]) == 2
    assert "/dev/null: is a character device" in capsys.readouterr().err


def test_a_damaged_session_that_cannot_be_set_aside_is_left_and_the_reader_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a folder that cannot be written, the reader did not start, --fresh neither."""
    from tui_reader.core.locations import session_path
    from tui_reader.ui.app import ReaderApp

    def refused(path: Path) -> Path:
        raise PermissionError(13, "Permission denied")

    monkeypatch.delenv("TUI_READER_SESSION")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(sessions, "quarantine", refused)
    path = session_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"quer')
    told: list[str] = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: told.extend(app.workspace._messages))
    assert main(["--fresh"]) == 0
    assert told == [
        f"{path} is damaged, and could not be set aside (Permission denied): starting at the "
        "top, and where you leave off is not kept"
    ]
    assert path.read_text() == '{"quer'
    assert "not a session file: left as it is" in capsys.readouterr().err


def test_a_folder_as_the_session_stops_the_reader_and_is_never_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Named so, the reader started and quit with no line, and kept no session."""
    from tui_reader.core.locations import session_path
    from tui_reader.ui.app import ReaderApp

    monkeypatch.setattr(ReaderApp, "run", lambda app: pytest.fail("the reader started"))
    folder = tmp_path / "sessions"
    folder.mkdir()
    monkeypatch.setenv("TUI_READER_SESSION", str(folder))
    assert main([]) == 2
    assert capsys.readouterr().err == f"tui-reader: {folder}: is a folder, not a session file\n"
    monkeypatch.delenv("TUI_READER_SESSION")  # at its own place: not set aside either
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    session_path().mkdir(parents=True)
    assert main([]) == 2 and session_path().is_dir()
    assert list(session_path().parent.iterdir()) == [session_path()]


def test_a_session_that_cannot_be_saved_is_said_after_the_reader_closes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a full disk, where the reader was went unsaid."""
    from tui_reader.cli import reader
    from tui_reader.ui.app import ReaderApp

    def disk_full(path: Path, session: Session) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ReaderApp, "run", lambda app: None)
    monkeypatch.setattr(reader, "save_session", disk_full)
    where = os.environ["TUI_READER_SESSION"]
    assert main([]) == 0
    assert capsys.readouterr().err == (
        f"tui-reader: where you left off was not kept: {where}: No space left on device\n"
    )


def test_a_session_saved_over_a_fifo_leaves_it_alone(tmp_path: Path) -> None:
    session = tmp_path / "session.json"
    os.mkfifo(session)
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(OSError, match="FIFO"):
        save_session(session, Session(query="q"))
    assert session.is_fifo() and sorted(tmp_path.rglob("*")) == before


def test_an_oversized_file_is_no_session_neither_read_nor_replaced(
    tmp_path: Path, monkeypatch
) -> None:
    path = tmp_path / "session.json"
    path.write_text(json.dumps({"query": "q" * 2000}))
    assert sessions.load_session(path).query == "q" * 2000
    monkeypatch.setattr(sessions, "MAX_SESSION_BYTES", 1000)
    with pytest.raises(sessions.SessionError, match="not a session file"):
        sessions.load_session(path)
    with pytest.raises(sessions.SessionError, match="not a session file"):
        save_session(path, Session())


def test_the_new_papers_told_are_kept_for_the_files_they_were_told_of(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    save_session(path, Session(query="q", inputs="mine", new_told=1_700_000_000.5))
    saved = sessions.load_session(path)
    assert sessions.restored(saved, "mine").new_told == 1_700_000_000.5
    assert sessions.restored(saved, "others").new_told == 0.0  # their new papers not told yet


@pytest.mark.parametrize(
    "text",
    [
        '{"version": 1, "papers": {"abc": {"bookmarked": true}}}\n',  # a library
        "@article{a, abstract = {A paper.}}\n",  # papers
        "{broken",
    ],
)
def test_a_file_that_is_not_a_session_stops_the_reader_and_is_left_as_it_is(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
) -> None:
    from tui_reader.ui.app import ReaderApp

    path = tmp_path / "mine.json"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("TUI_READER_SESSION", str(path))
    monkeypatch.setattr(ReaderApp, "run", lambda app: pytest.fail("the reader started"))
    assert main(["--fresh"]) == 2
    assert capsys.readouterr().err == (
        f"tui-reader: {path}: not a session file (name another one; it is left as it is)\n"
    )
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("damaged", [b'{"query": "bandit", "sor', b"\x00" * 200])
def test_a_damaged_session_at_its_own_place_is_set_aside_and_said(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    damaged: bytes,
) -> None:
    """Cut short or zeroed where no one named it, the reader's own session stopped it, even
    with --fresh, saying "name another one" of a file no one had named."""
    from tui_reader.core.locations import session_path
    from tui_reader.ui.app import ReaderApp

    monkeypatch.delenv("TUI_READER_SESSION")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = session_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(damaged)
    told: list[str] = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: told.extend(app.workspace._messages))
    assert main(["--fresh"]) == 0
    (aside,) = path.parent.glob("session.json.corrupt-*")
    assert aside.read_bytes() == damaged
    assert told == [f"{path} was damaged: set aside as {aside.name}; starting at the top"]
    assert sessions.load_session(path) == Session(inputs=sessions.load_session(path).inputs)
    assert capsys.readouterr().err == ""


def test_a_file_written_in_the_sessions_place_since_the_start_is_not_replaced(
    tmp_path: Path,
) -> None:
    path = tmp_path / "session.json"
    save_session(path, Session(query="q"))
    path.write_text('{"version": 1, "papers": {}}', encoding="utf-8")
    with pytest.raises(sessions.SessionError, match="not a session file"):
        save_session(path, Session(query="other"))
    assert path.read_text(encoding="utf-8") == '{"version": 1, "papers": {}}'


def test_a_session_made_read_only_is_read_and_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui_reader.ui.app import ReaderApp

    path = tmp_path / "session.json"
    restored, queries = [], iter(["kept query", "another"])

    def run(app: ReaderApp) -> None:
        restored.append(app.workspace._restore)
        app.workspace.filtering.query = next(queries)

    monkeypatch.setenv("TUI_READER_SESSION", str(path))
    monkeypatch.setattr(ReaderApp, "run", run)
    assert main([]) == 0
    path.chmod(0o444)
    before = path.read_bytes()
    capsys.readouterr()
    assert main([]) == 0
    assert restored[1] is not None and restored[1].query == "kept query"
    assert capsys.readouterr().err == (
        f"tui-reader: {path}: read-only: where you left off is not kept in it\n"
    )
    assert path.read_bytes() == before
