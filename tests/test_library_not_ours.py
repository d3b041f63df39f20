"""A file that never was a library is never repaired, moved or replaced; commands that only read
change no file at all."""

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.conftest import SEEDS, as_nobody
from tui_reader.cli.program import main
from tui_reader.core import library_file
from tui_reader.core.library import Library, LibraryPathError
from tui_reader.core.library_kind import not_ours
from tui_reader.core.loading import load_paths

PAPERS_JSONL = (
    '{"id": "2101.00001", "title": "A paper", "abstract": "Words of an abstract."}\n'
    '{"id": "2101.00002", "title": "Another", "abstract": "More words."}\n'
)
NOT_OURS = {
    "papers.jsonl": PAPERS_JSONL.encode(),
    "papers.json": json.dumps([{"title": "x", "abstract": "y"}]).encode(),
    "settings.json": b'{"theme": "dark", "keys": {}}\n',
    "refs.bib": b"@article{key, title={T}}\n",
    "figure.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4,
    "notes.txt": b"to read: attention papers\n",
    "package.json": b'{"version": "1.0.0", "name": "my-package", "dependencies": {}}\n',
    "wrapped.json": b'{"papers": [{"title": "T", "abstract": "Words."}]}\n',
    "settings2.json": b'{"version": 1, "theme": "dark"}\n',
    # The reader's own triage places, read as a library of a newer version.
    "triage.json": b'{"version": 2, "filters": {"q\\nrelevance": {"order": [], "position": 0}}}\n',
}


def snapshot_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def seed_id() -> str:
    return load_paths([SEEDS]).papers[0].id


@pytest.mark.parametrize("name", NOT_OURS)
def test_a_file_that_never_was_a_library_is_refused_and_left_as_it_is(
    tmp_path: Path, name: str
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    path = folder / name
    path.write_bytes(NOT_OURS[name])
    before = snapshot_of(folder)
    with pytest.raises(LibraryPathError, match=rf"{name}: not a tui-reader library \(it "):
        Library.open(path)
    with pytest.raises(LibraryPathError):
        Library.open(path, read_only=True)
    assert snapshot_of(folder) == before


COMMANDS = {
    "list": ["list"],
    "tags": ["tags"],
    "search": ["search", "is:bookmarked"],
    "export": ["export", "--format", "bib"],
    "tag": ["tag", "ID", "mine"],
    "bookmark": ["bookmark", "ID"],
    "searches": ["searches"],
    "digest": ["digest"],
    "library merge": ["library", "merge", "OTHER"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", ["papers.jsonl", "figure.png"])
def test_every_command_given_papers_as_its_library_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, name: str
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    path = folder / name
    path.write_bytes(NOT_OURS[name])
    other = tmp_path / "other.json"
    Library.open(other)[0].save(fold=True)
    before = snapshot_of(folder)
    argv = [{"ID": seed_id(), "OTHER": str(other)}.get(word, word) for word in COMMANDS[command]]
    code = main([*argv, "--library", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and f"{name}: not a tui-reader library" in err, err
    assert snapshot_of(folder) == before


def test_a_journal_given_as_the_library_is_refused_as_one(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    path = folder / "library.json"
    library = Library.open(path)[0]
    library.change_tags(["aaaaaaaaaaaa"], add=["x"])
    library.save()
    library.change_tags(["aaaaaaaaaaaa"], add=["y"])
    library.save()
    journal = library_file.journal_path(path)
    assert journal.exists()
    before = snapshot_of(folder)
    with pytest.raises(LibraryPathError, match="it is a library's journal, not the library"):
        Library.open(journal)
    assert snapshot_of(folder) == before


def test_every_cut_of_a_library_is_still_one_only_damaged(tmp_path: Path) -> None:
    """A library cut short (by `head -c`, a full disk, a crash) is repaired, never refused."""
    path = tmp_path / "library.json"
    library = Library.open(path)[0]
    library.change_tags(["aaaaaaaaaaaa"], add=["x"])
    library.save(fold=True)
    whole = path.read_bytes()
    cut = tmp_path / "cut.json"
    for end in range(len(whole) + 1):
        cut.write_bytes(whole[:end])
        assert not_ours(cut) is None, whole[:end]
    for written in (b"\x00" * 4096, b"\n  \n", b"{}", b'{"version": 1}'):
        cut.write_bytes(written)
        assert not_ours(cut) is None, written
    cut.write_text('{"searches": {}, "version": 1, "papers": {}}', encoding="utf-8")
    assert not_ours(cut) is None, "a hand-written library, its keys in another order"


def test_commands_that_only_read_change_no_file_of_a_damaged_library(
    private_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper_id = seed_id()
    assert main(["tag", paper_id, "kept"]) == 0
    assert main(["tag", paper_id, "also"]) == 0
    private_library.write_bytes(private_library.read_bytes()[:40])
    capsys.readouterr()
    before = snapshot_of(private_library.parent)
    for argv in (["tags"], ["list"], ["search", "#kept"], ["export"], ["searches"]):
        main(argv)
        err = capsys.readouterr().err
        assert "is damaged" in err, (argv, err)
        assert snapshot_of(private_library.parent) == before, argv


def test_commands_that_only_read_make_no_folder_for_the_default_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TUI_READER_LIBRARY")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for argv in (["tags"], ["list"], ["search", "is:unread"], ["searches"]):
        main(argv)
    capsys.readouterr()
    assert not (tmp_path / "data").exists() and not (tmp_path / "home").exists()


@pytest.mark.parametrize("unreadable", ["library.json", "library.json.journal"])
def test_a_library_that_cannot_be_read_is_said_in_one_line_and_left_as_it_is(
    unreadable: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = Path(tempfile.mkdtemp())  # pytest's own folders are closed to other users
    try:
        folder.chmod(0o777)
        path = folder / "library.json"
        library, _ = Library.open(path)
        library.change_tags([seed_id()], add=["mine"])
        library.save()
        (folder / "library.json.journal").write_text("")
        for file in folder.iterdir():
            file.chmod(0o666)
        (folder / unreadable).chmod(0)
        before = snapshot_of(folder)

        def check() -> None:
            with pytest.raises(LibraryPathError) as raised:
                Library.open(path)
            assert str(raised.value) == (
                f"{folder / unreadable}: cannot be read (Permission denied); left as it is"
            )
            assert main(["tags", "--library", str(path)]) == 2

        check() if os.geteuid() else as_nobody(check)
        assert snapshot_of(folder) == before
    finally:
        shutil.rmtree(folder)
