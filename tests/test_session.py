"""The session file: a FIFO or device in its place is neither read nor replaced."""

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


def test_a_session_saved_over_a_fifo_leaves_it_alone(tmp_path: Path) -> None:
    session = tmp_path / "session.json"
    os.mkfifo(session)
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(OSError, match="FIFO"):
        save_session(session, Session(query="q"))
    assert session.is_fifo() and sorted(tmp_path.rglob("*")) == before


def test_an_oversized_session_file_is_not_read(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "session.json"
    path.write_text(json.dumps({"query": "q" * 2000}))
    assert sessions.load_session(path).query == "q" * 2000
    monkeypatch.setattr(sessions, "MAX_SESSION_BYTES", 1000)
    assert sessions.load_session(path) == sessions.Session()


def test_the_new_papers_told_are_kept_for_the_files_they_were_told_of(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    save_session(path, Session(query="q", inputs="mine", new_told=1_700_000_000.5))
    saved = sessions.load_session(path)
    assert sessions.restored(saved, "mine").new_told == 1_700_000_000.5
    assert sessions.restored(saved, "others").new_told == 0.0  # their new papers not told yet
