import subprocess
import sys
from pathlib import Path

import pytest


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui_reader", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def make_binary(tmp_path: Path) -> Path:
    path = tmp_path / "image.txt"
    path.write_bytes(bytes(range(256)))
    return path


def make_latin1(tmp_path: Path) -> Path:
    path = tmp_path / "latin.txt"
    path.write_bytes("Papers\n\nR\u00e9sum\u00e9 of na\u00efve methods.\n".encode("latin-1"))
    return path


def make_empty_dir(tmp_path: Path) -> Path:
    path = tmp_path / "empty"
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda tmp: tmp / "missing.txt", "no such file or directory"),
        (make_binary, "is a binary file, not UTF-8 text"),
        (make_latin1, "is not UTF-8 text (byte 0xe9 on line 3)"),
        (make_empty_dir, "holds no papers"),
    ],
)
def test_bad_paths_give_one_line_and_exit_2(tmp_path: Path, make, problem: str) -> None:
    path = make(tmp_path)
    result = run(str(path))
    assert result.returncode == 2
    assert result.stderr == f"tui-reader: {path}: {problem}\n"
    assert result.stdout == ""


def test_help_lists_the_paths_argument() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "PATH" in result.stdout
