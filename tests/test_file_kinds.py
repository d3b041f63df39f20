import os
import socket
from pathlib import Path

from tui_reader.core.file_kinds import special_file_problem


def test_regular_files_folders_and_missing_paths_are_fine(tmp_path: Path) -> None:
    regular = tmp_path / "a.json"
    regular.write_text("{}")
    assert special_file_problem(regular) is None
    assert special_file_problem(tmp_path) is None
    assert special_file_problem(tmp_path / "missing") is None


def test_devices_fifos_and_sockets_are_named(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert special_file_problem(fifo) == "is a FIFO (named pipe), not a regular file"
    assert special_file_problem(Path("/dev/null")) == "is a character device, not a regular file"
    link = tmp_path / "link"
    link.symlink_to("/dev/zero")
    assert special_file_problem(link) == "is a character device, not a regular file"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "sock"))
        assert special_file_problem(tmp_path / "sock") == "is a socket, not a regular file"
