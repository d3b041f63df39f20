"""Files the reader writes are as private as the user's umask asks, and a file it replaces keeps
its mode: notes on a shared host are not made readable to everyone."""

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_reader.core import library_file
from tui_reader.core.atomic_file import write_atomically
from tui_reader.core.export import write_export
from tui_reader.core.library import Library
from tui_reader.core.library_file import Rejected

A, B = "aaaaaaaaaaaa", "bbbbbbbbbbbb"


@pytest.fixture
def private_umask() -> Iterator[None]:
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_library_its_journal_and_its_backup_follow_a_private_umask(
    tmp_path: Path, private_umask: None
) -> None:
    path = tmp_path / "library.json"
    library, _ = Library.open(path)
    library.set_note(A, "private thoughts")
    library.save()
    library.change_tags([B], add=["x"])
    library.save()
    assert library_file.journal_path(path).exists()
    library.save(fold=True)
    written = [
        path,
        library_file.backup_path(path),
        library_file.journal_path(library_file.backup_path(path)),
    ]
    assert all(p.exists() for p in written)
    assert {p.name: mode(p) for p in written} == {p.name: 0o600 for p in written}


def test_files_beside_a_library_take_its_mode_whatever_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    path.write_text('{"version": 1, "papers": {}}\n')
    path.chmod(0o640)
    library, _ = Library.open(path)
    library.set_note(A, "kept between two people")
    library.save()
    library_file.append_rejected(path, [Rejected("journal", "bad", A, "x")])
    library.save(fold=True)
    beside = [
        path,
        library_file.backup_path(path),
        library_file.rejected_path(path),
        library_file.journal_path(library_file.backup_path(path)),
    ]
    assert {p.name: mode(p) for p in beside} == {p.name: 0o640 for p in beside}


def test_a_replaced_file_keeps_its_mode_and_a_new_one_gets_the_umasks(tmp_path: Path) -> None:
    old = os.umask(0o002)
    try:
        new = tmp_path / "new.txt"
        write_atomically(new, "one")
        assert mode(new) == 0o664
        kept = tmp_path / "kept.txt"
        kept.write_text("old")
        kept.chmod(0o604)
        write_atomically(kept, "new")
        assert mode(kept) == 0o604 and kept.read_text() == "new"
    finally:
        os.umask(old)


def test_exports_follow_a_private_umask(tmp_path: Path, private_umask: None) -> None:
    target = tmp_path / "refs.bib"
    write_export(target, "@misc{x}\n")
    assert mode(target) == 0o600
    write_export(target, "@misc{y}\n", force=True)
    assert mode(target) == 0o600
