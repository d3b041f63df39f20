"""Saved searches live in the library file, merged like everything else."""

import json
from pathlib import Path

import pytest

from tui_reader.core import library_file
from tui_reader.core.library import Library


def opened(path: Path) -> Library:
    library, messages = Library.open(path)
    assert messages == []
    return library


def test_saved_searches_round_trip_through_the_journal_and_the_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    library = opened(path)
    assert library.save_search("  diffusion   papers ", "diffusion !#done")
    assert not library.save_search("diffusion papers", "diffusion !#done"), "no change"
    library.save()
    assert opened(path).saved_searches() == {"diffusion papers": "diffusion !#done"}
    library.save(fold=True)
    snapshot = json.loads(path.read_text(encoding="utf-8"))
    assert snapshot["searches"]["diffusion papers"]["query"] == "diffusion !#done"
    assert opened(path).saved_searches() == {"diffusion papers": "diffusion !#done"}


def test_two_writers_keep_each_others_searches_and_the_later_change_wins(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    first, second = opened(path), opened(path)
    first.save_search("bandits", "bandit regret")
    first.save_search("old", "something")
    first.save()
    second.save_search("graphs", "graph neural")
    second.save()
    second.reload_if_changed()
    second.delete_search("old")
    second.save_search("bandits", "bandit regret is:unread")  # later than first's
    second.save()
    first.reload_if_changed()
    expected = {"bandits": "bandit regret is:unread", "graphs": "graph neural"}
    assert first.saved_searches() == opened(path).saved_searches() == expected


@pytest.mark.parametrize(("name", "query"), [("", "x"), ("x" * 61, "x"), ("ok", "  ")])
def test_a_search_needs_a_name_and_a_query(tmp_path: Path, name: str, query: str) -> None:
    with pytest.raises(ValueError):
        opened(tmp_path / "library.json").save_search(name, query)


def test_a_bad_saved_search_is_kept_aside_and_the_rest_loads(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    data = {"version": 1, "papers": {}, "searches": {"good": {"query": "x", "query_at": ""},
                                                      "bad": {"query": 3}}}  # fmt: skip
    path.write_text(json.dumps(data), encoding="utf-8")
    library, messages = Library.open(path)
    assert library.saved_searches() == {"good": "x"}
    assert "saved search 'bad' is not a query with its time" in messages[0]
    assert library_file.rejected_path(path).exists()


def test_merging_a_copy_takes_its_saved_searches(tmp_path: Path) -> None:
    mine, other = tmp_path / "mine.json", tmp_path / "other.json"
    copy = opened(other)
    copy.save_search("from the copy", "transformer")
    copy.save(fold=True)
    library = opened(mine)
    report = library.merge_copy(other)
    assert str(report) == "1 saved search changed"
    library.save()
    assert opened(mine).saved_searches() == {"from the copy": "transformer"}
