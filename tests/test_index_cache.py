import os
from pathlib import Path

import pytest

from tests.pilot_helpers import ready
from tui_reader import cli
from tui_reader.core import index_cache
from tui_reader.core.search import SearchIndex


def search(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    assert cli.main(["search", *arguments]) == 0
    return capsys.readouterr().out


def entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("index-*.pickle"))


def test_a_second_search_over_the_same_files_reads_the_index_back(
    tmp_path: Path, write_seed, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    first = search(capsys, "difusion", str(path))
    assert "Diffusion models" in first and len(entries(tmp_path)) == 1

    def no_index(*_: object) -> None:
        raise AssertionError("the index was built again")

    monkeypatch.setattr(SearchIndex, "__init__", no_index)
    assert search(capsys, "difusion", str(path)) == first


def test_list_and_export_with_a_query_share_the_kept_index(
    tmp_path: Path, write_seed, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    assert cli.main(["list", "--papers", str(path), "--query", "difusion"]) == 0
    listed = capsys.readouterr().out
    assert "Diffusion models" in listed and "Bandits" not in listed
    assert len(entries(tmp_path)) == 1  # kept, as search keeps it

    def no_index(*_: object) -> None:
        raise AssertionError("the index was built again")

    monkeypatch.setattr(SearchIndex, "__init__", no_index)
    assert "Diffusion models" in search(capsys, "difusion", str(path))
    assert cli.main(["list", "--papers", str(path), "--query", "difusion"]) == 0
    assert capsys.readouterr().out == listed
    assert cli.main(["export", "--papers", str(path), "--query", "bandit", "--format", "md"]) == 0
    assert "Bandits with regret" in capsys.readouterr().out
    assert cli.main(["list", "--papers", str(path)]) == 0  # no query: no index needed
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_a_changed_file_is_loaded_and_indexed_anew(tmp_path: Path, write_seed, capsys) -> None:
    path = write_seed("Diffusion models for tabular data.")
    search(capsys, "bandit", str(path))
    write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    os.utime(path, ns=(1, 1))  # a new modification time, as an edit gives
    assert "Bandits with regret" in search(capsys, "bandit", str(path))
    assert len(entries(tmp_path)) == 2


def test_a_damaged_entry_is_rebuilt_and_old_entries_are_dropped(
    tmp_path: Path, write_seed, capsys
) -> None:
    path = write_seed("Diffusion models for tabular data.")
    search(capsys, "diffusion", str(path))
    entries(tmp_path)[0].write_bytes(b"not a pickle")
    assert "Diffusion models" in search(capsys, "diffusion", str(path))
    for number in range(index_cache.KEPT + 2):
        other = write_seed(f"Paper number {number}.", name=f"other{number}.txt")
        search(capsys, "paper", str(other))
    assert len(entries(tmp_path)) == index_cache.KEPT


def test_the_reader_keeps_a_big_input_s_index_for_its_next_start(
    tmp_path: Path, write_seed, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from tui_reader.ui.app import ReaderApp

    monkeypatch.setattr(cli, "LOAD_AT_ONCE", 0)  # these two papers count as a big input
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    opened: list[ReaderApp] = []
    run = ReaderApp.run

    def run_until_indexed(app: ReaderApp) -> None:
        async def quit_when_ready(pilot) -> None:
            await ready(pilot)
            app.exit()

        opened.append(app)
        run(app, headless=True, auto_pilot=quit_when_ready)

    monkeypatch.setattr(ReaderApp, "run", run_until_indexed)
    assert cli.main([str(path)]) == 0
    assert opened[0]._stream is not None  # loaded in the background, then indexed
    assert "kept the index of 2 papers" in capsys.readouterr().err
    assert len(entries(tmp_path)) == 1

    monkeypatch.setattr(SearchIndex, "__init__", None)  # no index may be built now
    assert cli.main([str(path)]) == 0
    second = opened[1]
    assert second._stream is None and len(second.store) == 2 and second.index is not None
    assert "kept" not in capsys.readouterr().err


def test_an_index_that_could_not_be_kept_is_not_said_to_be(
    tmp_path: Path, write_seed, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from tui_reader.ui.app import ReaderApp

    monkeypatch.setattr(cli, "LOAD_AT_ONCE", 0)
    (tmp_path / "cache").write_text("a file where the cache folder should be", encoding="utf-8")
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    run = ReaderApp.run

    def run_until_indexed(app: ReaderApp) -> None:
        async def quit_when_ready(pilot) -> None:
            await ready(pilot)
            app.exit()

        run(app, headless=True, auto_pilot=quit_when_ready)

    monkeypatch.setattr(ReaderApp, "run", run_until_indexed)
    assert cli.main([str(path)]) == 0
    assert "index" not in capsys.readouterr().err
