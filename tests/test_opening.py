"""Which way papers are opened (core.opening): loaded now, from the cache with or without
their index, or streamed; for the reader (`stream_from`) and for the commands."""

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tui_reader.core import loading
from tui_reader.core import opening as opening_module
from tui_reader.core.flat import build, disk
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.index_cache import IndexedPapers, refresh_kept, write_entry
from tui_reader.core.library import Library
from tui_reader.core.loading import NO_FILTER, LoadFilter, NothingAdmitted, check_paths, load_paths
from tui_reader.core.opening import CacheWriter, Opening, Way, open_papers, resolved
from tui_reader.core.paper import Paper, paper_id
from tui_reader.core.search_service import build_index
from tui_reader.core.segments import entry, kept, part, whole
from tui_reader.core.store import PaperStore, papers_of

ABSTRACTS = ("Diffusion models for tabular data.", "Bandits with regret bounds.")
# Words an index makes much of: a compound, math, an accent, capitals.
MIXED = (r"Co-training with $\alpha$-divergence.", r"A Schr\"odinger bridge, naïve SAM.")


def entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("papers-v*"))


def opened(path: Path, only: LoadFilter = NO_FILTER, **options: Any) -> Opening:
    return open_papers([path], check_paths([path]), only, **options)


def kept_then_damaged(tmp_path: Path, write_seed: Callable[..., Path]) -> Path:
    """A seed file whose papers are kept in the cache, the entry's manifest then damaged."""
    path = write_seed(*ABSTRACTS)
    opened(path, indexed=True)
    (entry,) = entries(tmp_path)
    (entry / "manifest.json").write_text("{", encoding="utf-8")
    return path


def forbid(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Each of these functions fails the test if the opening calls it."""

    def failing(name: str) -> Callable[..., None]:
        return lambda *_, **__: pytest.fail(f"{name} called")

    for name in names:
        monkeypatch.setattr(opening_module, name, failing(name))


def streamed_papers(found: Opening) -> list[Paper]:
    assert found.stream is not None
    papers: list[Paper] = []
    for batch in found.stream:
        if not isinstance(batch, str):
            papers += papers_of(batch)
    return papers


def jsonl(tmp_path: Path) -> Path:
    """Three records, the second of which cannot be read, the third the first again."""
    path = tmp_path / "papers.jsonl"
    path.write_text(
        '{"abstract": "Bandits with regret bounds."}\n{"title": "no abstract"}\n'
        '{"abstract": "Bandits with regret bounds."}\n',
        encoding="utf-8",
    )
    return path


def test_a_small_input_never_kept_is_loaded_now_and_written_to_the_cache_once_indexed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small input is kept as a big one is, so that `is:new` finds what it takes in."""
    path = jsonl(tmp_path)
    forbid(monkeypatch, "stream_papers")
    found = opened(path, stream_from=10_000)
    assert found.way is Way.LOADED and found.stream is None and found.index is None
    assert [paper.abstract for paper in found.store] == ["Bandits with regret bounds."]
    assert found.duplicates == 1 and len(found.skipped) == 1
    assert found.skipped[0].startswith(f"{path}:2: ")
    assert isinstance(found.cache_writer, CacheWriter) and not entries(tmp_path)
    assert found.cache_writer.files == check_paths([path]) and found.new == 0


def test_a_small_input_kept_is_opened_from_the_cache_as_a_big_one_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = jsonl(tmp_path)
    opened(path, indexed=True)  # a command writes it to the cache
    forbid(monkeypatch, "load_paths", "build_index", "stream_papers")
    found = opened(path, stream_from=10_000)
    assert found.way is Way.CACHED and found.stream is None and found.cache_writer is None
    assert found.index is not None and len(found.index) == len(found.store) == 1
    assert found.duplicates == 1 and found.skipped[0].startswith(f"{path}:2: ")


def test_a_big_input_never_opened_is_streamed_and_written_to_the_cache_once_indexed(
    tmp_path: Path, write_seed: Callable[..., Path]
) -> None:
    path = write_seed(*ABSTRACTS)
    found = opened(path, stream_from=0)
    assert found.way is Way.STREAMED and len(found.store) == 0 and found.index is None
    assert found.expected is not None and found.expected > 0
    assert [paper.abstract for paper in streamed_papers(found)] == list(ABSTRACTS)
    assert isinstance(found.cache_writer, CacheWriter) and not entries(tmp_path)
    assert found.cache_writer.files == check_paths([path])


def test_a_filtered_big_input_is_streamed_filtered_and_kept_as_an_entry_of_its_own(
    tmp_path: Path,
) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text(
        '{"abstract": "Old.", "published": "2019-01-01"}\n'
        '{"abstract": "New.", "published": "2025-01-01"}\n',
        encoding="utf-8",
    )
    opened(path, indexed=True)  # a whole entry in the cache: not read for a filter
    found = opened(path, LoadFilter(since="2024"), stream_from=0)
    assert found.way is Way.STREAMED and found.cache_writer is not None
    assert found.cache_writer.load_filter == LoadFilter(since="2024")
    assert [paper.abstract for paper in streamed_papers(found)] == ["New."]
    kept = kept_by_the_reader(path, 0, LoadFilter(since="2024"))
    assert kept.way is Way.STREAMED and len(entries(tmp_path)) == 2
    again = opened(path, LoadFilter(since="2024"), stream_from=0)
    assert again.way is Way.CACHED and [paper.abstract for paper in again.store] == ["New."]
    whole = opened(path, stream_from=0)
    assert whole.way is Way.CACHED and len(whole.store) == 2


def test_a_big_input_kept_with_its_index_is_opened_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = jsonl(tmp_path)
    opened(path, indexed=True)
    forbid(monkeypatch, "load_paths", "build_index", "stream_papers")
    found = opened(path, stream_from=0)
    assert found.way is Way.CACHED and found.stream is None and found.cache_writer is None
    assert found.index is not None and len(found.index) == len(found.store) == 1
    assert found.duplicates == 1 and found.skipped[0].startswith(f"{path}:2: ")
    assert not found.cache_problems


def test_a_big_input_kept_with_an_index_of_another_version_is_indexed_again_by_the_reader(
    tmp_path: Path, write_seed: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_seed(*ABSTRACTS)
    opened(path, indexed=True)
    monkeypatch.setattr(disk, "VERSION", disk.VERSION + 1)
    forbid(monkeypatch, "load_paths", "build_index", "stream_papers")
    found = opened(path, stream_from=0)
    assert found.way is Way.CACHED_PAPERS and found.index is None and len(found.store) == 2
    assert isinstance(found.cache_writer, CacheWriter)
    assert found.cache_problems == []  # an upgrade: no problem to tell at start


def test_a_big_input_whose_kept_papers_are_damaged_is_streamed_and_says_why(
    tmp_path: Path, write_seed: Callable[..., Path]
) -> None:
    path = kept_then_damaged(tmp_path, write_seed)
    found = opened(path, stream_from=0)
    assert found.way is Way.STREAMED and isinstance(found.cache_writer, CacheWriter)
    (problem,) = found.cache_problems
    assert problem.startswith("the papers kept in the cache could not be used (")
    assert problem.endswith("): loading them anew")


def test_a_command_that_searches_loads_indexes_and_writes_the_cache_then_opens_it(
    tmp_path: Path, write_seed: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_seed(*ABSTRACTS)
    first = opened(path, indexed=True)
    assert first.way is Way.LOADED and first.index is not None and len(first.index) == 2
    assert len(entries(tmp_path)) == 1 and first.cache_writer is None
    forbid(monkeypatch, "load_paths", "build_index")
    again = opened(path, indexed=True)
    assert again.way is Way.CACHED and again.index is not None
    assert [paper.id for paper in again.store] == [paper.id for paper in first.store]


def test_a_command_indexes_papers_as_they_load_into_the_index_built_after_loading(
    write_seed: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    words = ["Diffusion", "Bandit", "Co-training", "naïve"] * 9
    abstracts = [f"{word} {n} of {MIXED[n % len(MIXED)]}" for n, word in enumerate(words)]
    path = write_seed(*abstracts, abstracts[0])  # the last met before
    monkeypatch.setattr(build, "CHUNK", 5)
    built = build_index(load_paths([path]).papers)
    for name in ("FIRST_BATCH", "BATCH"):  # batches of papers ending within chunks
        monkeypatch.setattr(loading, name, 3)
    read, reads = build.GrowingIndex.read, []

    def reading(growing: build.GrowingIndex, *given: Any, **more: Any) -> bool:
        more_coming = len(given) > 2 and given[2]
        reads.append((more_coming, threading.current_thread() is threading.main_thread()))
        return read(growing, *given, **more)

    monkeypatch.setattr(build.GrowingIndex, "read", reading)
    found = opened(path, indexed=True)
    assert isinstance(found.index, FlatIndex) and len(found.store) == len(abstracts)
    assert (True, False) in reads  # papers read by a thread of their own while more came
    assert found.index.arrays.keys() == built.arrays.keys()
    for name, array in built.arrays.items():
        assert np.array_equal(np.asarray(found.index.arrays[name]), np.asarray(array)), name


def test_an_index_that_fails_as_papers_load_fails_the_command_and_keeps_nothing(
    write_seed: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = write_seed(*[f"Paper {n} on diffusion." for n in range(12)])
    monkeypatch.setattr(build, "CHUNK", 5)
    for name in ("FIRST_BATCH", "BATCH"):
        monkeypatch.setattr(loading, name, 3)
    read = build.GrowingIndex.read

    def failing(growing: build.GrowingIndex, *given: Any, **more: Any) -> bool:
        if threading.current_thread() is not threading.main_thread():
            raise OSError("no room for the index")
        return read(growing, *given, **more)

    monkeypatch.setattr(build.GrowingIndex, "read", failing)
    with pytest.raises(OSError, match="no room for the index"):
        opened(path, indexed=True)
    assert not entries(tmp_path)


def test_a_command_that_searches_says_why_damaged_kept_papers_were_loaded_anew(
    tmp_path: Path, write_seed: Callable[..., Path]
) -> None:
    path = kept_then_damaged(tmp_path, write_seed)
    found = opened(path, indexed=True)
    assert found.way is Way.LOADED and found.index is not None
    (problem,) = found.cache_problems
    assert problem.endswith("): loaded anew")


def test_a_command_without_search_reads_kept_papers_without_their_index(
    tmp_path: Path, write_seed: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_seed(*ABSTRACTS)
    loaded = opened(path)
    assert loaded.way is Way.LOADED and loaded.index is None and not entries(tmp_path)
    opened(path, indexed=True)
    forbid(monkeypatch, "load_paths", "load_cached")
    found = opened(path)
    assert found.way is Way.CACHED_PAPERS and found.index is None and len(found.store) == 2


def test_a_filtered_command_keeps_the_papers_it_admits_as_an_entry_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text(
        '{"abstract": "About learning.", "categories": "cs.LG"}\n'
        '{"abstract": "About theory.", "categories": "math.CO"}\n',
        encoding="utf-8",
    )
    opened(path, indexed=True)
    first = opened(path, LoadFilter(("cs.LG",)), indexed=True)
    assert first.way is Way.LOADED and first.index is not None
    assert [paper.abstract for paper in first.store] == ["About learning."]
    forbid(monkeypatch, "load_paths")
    found = opened(path, LoadFilter(("cs.LG",)), indexed=True)
    assert found.way is Way.CACHED and found.index is not None
    assert [paper.abstract for paper in found.store] == ["About learning."]
    listed = opened(path, LoadFilter(("cs.LG",)))
    assert listed.way is Way.CACHED_PAPERS and len(listed.store) == 1
    assert len(opened(path, indexed=True).store) == 2
    monkeypatch.undo()
    with pytest.raises(NothingAdmitted):
        opened(path, LoadFilter(("q-bio",)))


def test_the_cache_writer_writes_the_entry_the_reader_opens_next_time(
    tmp_path: Path, write_seed: Callable[..., Path]
) -> None:
    path = write_seed(*ABSTRACTS)
    found = opened(path, stream_from=0)
    store = PaperStore(streamed_papers(found))
    writer = found.cache_writer
    assert writer is not None and writer.unfinished() is None
    reopened: list[tuple[object, str]] = []
    writer(
        store, build_index(store), (), 0, lambda kept, not_kept: reopened.append((kept, not_kept))
    )
    write = writer.unfinished()
    if write is not None:
        write.join(timeout=30)
    assert writer.unfinished() is None and len(reopened) == 1
    assert reopened[0][0] is not None and reopened[0][1] == ""  # nothing to tell
    assert opened(path, stream_from=0).way is Way.CACHED


def test_papers_resolve_found_are_shown_with_what_it_found(
    tmp_path: Path, write_seed: Callable[..., Path]
) -> None:
    path = write_seed(*ABSTRACTS)
    library = Library(tmp_path / "library.json")
    paper_id = opened(path).store[0].id
    library.set_resolved(paper_id, {"title": "A title found online"})
    now = resolved(opened(path), library)
    assert now.store[0].title == "A title found online"
    later = resolved(opened(path, stream_from=0), library)
    assert streamed_papers(later)[0].title == "A title found online"


def numbered(first: int, last: int) -> list[str]:
    return [
        json.dumps({"abstract": f"Paper {n} on bandits and diffusion."}) for n in range(first, last)
    ]


def ids_of(lines: list[str]) -> set[str]:
    return {paper_id(json.loads(line)["abstract"]) for line in lines}


def kept_by_the_reader(path: Path, stream_from: int, only: LoadFilter = NO_FILTER) -> Opening:
    """Opened as the reader opens it, then written to the cache as it writes it once its
    index is built."""
    found = opened(path, only, stream_from=stream_from)
    if found.cache_writer is not None:
        store = PaperStore(streamed_papers(found)) if found.stream else found.store
        found.cache_writer(store, build_index(store), (), 0, lambda *_: None)
        write = found.cache_writer.unfinished()
        if write is not None:
            write.join(timeout=30)
    return found


def new_ids(found: Opening) -> set[str]:
    assert isinstance(found.index, FlatIndex)
    return set(found.index.new)


@pytest.mark.parametrize("stream_from", [10**9, 0], ids=["small", "big"])
def test_papers_appended_or_in_a_new_file_since_the_last_opening_are_new_small_or_big(
    tmp_path: Path, stream_from: int
) -> None:
    """On first sight nothing is new; then the papers a file grew by, then those of a file
    added beside, are new, for a small input as for a big one."""
    folder = tmp_path / "papers"
    folder.mkdir()
    day = folder / "day-1.jsonl"
    day.write_text("".join(line + "\n" for line in numbered(0, 300)), encoding="utf-8")
    first = kept_by_the_reader(folder, stream_from)
    assert first.way is not Way.CACHED and first.new == 0 and first.new_at == 0.0
    unchanged = kept_by_the_reader(folder, stream_from)
    assert unchanged.way is Way.CACHED and unchanged.new == 0 and not new_ids(unchanged)
    with day.open("a", encoding="utf-8") as appended:
        appended.write("".join(line + "\n" for line in numbered(300, 350)))
    grown = kept_by_the_reader(folder, stream_from)
    assert grown.way is Way.CACHED and len(grown.store) == 350
    assert new_ids(grown) == ids_of(numbered(300, 350)) and grown.new == 50
    assert grown.new_at > 0.0
    again = kept_by_the_reader(folder, stream_from)  # opened again: still new
    assert again.new == 50 and again.new_at == grown.new_at
    (folder / "day-2.jsonl").write_text(numbered(350, 351)[0] + "\n", encoding="utf-8")
    beside = kept_by_the_reader(folder, stream_from)  # with those of the same day
    assert new_ids(beside) == ids_of(numbered(300, 351)) and beside.new == 51
    assert beside.new_at >= grown.new_at


def test_a_big_input_tells_about_how_many_papers_its_kept_entry_takes_in_before_reading_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(line + "\n" for line in numbered(0, 300)), encoding="utf-8")
    opened(path, indexed=True)
    told: list[int] = []
    assert opened(path, stream_from=0, taking_in=told.append).way is Way.CACHED
    assert told == []  # nothing to take in
    with path.open("a", encoding="utf-8") as appended:
        appended.write("".join(line + "\n" for line in numbered(300, 350)))
    forbid(monkeypatch, "load_paths", "stream_papers")
    found = opened(path, stream_from=0, taking_in=told.append)
    assert found.way is Way.CACHED and found.new == 50
    (about,) = told
    assert 45 <= about <= 55  # the bytes to read at the kept papers' bytes a paper


def test_a_small_input_takes_in_without_telling_before(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(line + "\n" for line in numbered(0, 30)), encoding="utf-8")
    opened(path, indexed=True)
    with path.open("a", encoding="utf-8") as appended:
        appended.write(numbered(30, 31)[0] + "\n")
    told: list[int] = []
    found = opened(path, stream_from=10**9, taking_in=told.append)
    assert found.way is Way.CACHED and found.new == 1 and told == []


def newer_format(monkeypatch: pytest.MonkeyPatch, changed: str) -> None:
    """The version of a kept format raised, as an upgrade raises it."""
    if changed == "index":
        monkeypatch.setattr(disk, "VERSION", disk.VERSION + 1)
    elif changed == "part":
        monkeypatch.setattr(part, "VERSION", part.VERSION + 1)
    else:
        newer = entry.VERSION + 1
        for module in (entry, kept, whole):
            monkeypatch.setattr(module, "VERSION", newer)


@pytest.mark.parametrize("changed", ["index", "part", "entry"])
@pytest.mark.parametrize("stream_from", [10**9, 0], ids=["small", "big"])
def test_the_papers_new_stay_new_when_the_cache_is_built_again_for_a_new_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changed: str, stream_from: int
) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(line + "\n" for line in numbered(0, 300)), encoding="utf-8")
    kept_by_the_reader(path, stream_from)
    with path.open("a", encoding="utf-8") as appended:
        appended.write("".join(line + "\n" for line in numbered(300, 350)))
    grown = kept_by_the_reader(path, stream_from)
    assert grown.way is Way.CACHED and new_ids(grown) == ids_of(numbered(300, 350))
    newer_format(monkeypatch, changed)
    again = kept_by_the_reader(path, stream_from)  # the kept entry not used: written anew
    assert again.way is not Way.CACHED
    after = kept_by_the_reader(path, stream_from)
    assert after.way is Way.CACHED and len(after.store) == 350
    assert new_ids(after) == ids_of(numbered(300, 350)) and after.new == 50
    assert after.new_at == grown.new_at


def test_the_papers_an_entry_written_whole_holds_that_the_one_it_replaces_did_not_are_new(
    tmp_path: Path,
) -> None:
    """An entry written whole in place of one (the reader loaded files that grew by more
    than it takes in before it starts) notes the papers the other did not hold."""
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(line + "\n" for line in numbered(0, 300)), encoding="utf-8")
    first = kept_by_the_reader(path, 10**9)
    with path.open("a", encoding="utf-8") as appended:
        appended.write("".join(line + "\n" for line in numbered(300, 320)))
    loaded = load_paths([path])
    index = build_index(loaded.papers)
    assert write_entry([path], IndexedPapers(loaded, index, loaded.papers))
    after = kept_by_the_reader(path, 10**9)
    assert first.new == 0 and after.way is Way.CACHED
    assert new_ids(after) == ids_of(numbered(300, 320)) and after.new_at > 0.0


def categorised(first: int, last: int) -> list[str]:
    """Papers of cs.LG (the even ones) and of math.CO, each with its day of publication."""
    return [
        json.dumps(
            {
                "abstract": f"Paper {n} on bandits and diffusion.",
                "categories": "cs.LG" if n % 2 == 0 else "math.CO",
                "published": f"2026-11-{1 + n // 100:02d}",
            }
        )
        for n in range(first, last)
    ]


@pytest.mark.parametrize("stream_from", [10**9, 0], ids=["small", "big"])
def test_a_filtered_input_marks_new_the_papers_it_admits_appended_or_in_a_new_file(
    tmp_path: Path, stream_from: int
) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    day = folder / "day-1.jsonl"
    day.write_text("".join(line + "\n" for line in categorised(0, 300)), encoding="utf-8")
    learning = LoadFilter(("cs.LG",))
    first = kept_by_the_reader(folder, stream_from, learning)
    assert first.way is not Way.CACHED and first.new == 0
    unchanged = kept_by_the_reader(folder, stream_from, learning)
    assert unchanged.way is Way.CACHED and len(unchanged.store) == 150 and unchanged.new == 0
    with day.open("a", encoding="utf-8") as appended:
        appended.write("".join(line + "\n" for line in categorised(300, 340)))
    grown = kept_by_the_reader(folder, stream_from, learning)
    assert grown.way is Way.CACHED and len(grown.store) == 170
    assert new_ids(grown) == ids_of(categorised(300, 340)[::2]) and grown.new == 20
    (folder / "day-2.jsonl").write_text(
        "".join(line + "\n" for line in categorised(340, 344)), encoding="utf-8"
    )
    beside = kept_by_the_reader(folder, stream_from, learning)
    assert beside.way is Way.CACHED and len(beside.store) == 172
    assert new_ids(beside) == ids_of(categorised(300, 344)[::2])


def test_a_filter_from_a_later_day_finds_new_the_papers_no_earlier_day_s_entry_held(
    tmp_path: Path,
) -> None:
    """`--since yesterday`, day after day: each day's filter is another, kept as an entry of
    its own; the papers new are those yesterday's entry (which admitted more) did not hold."""
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "day-1.jsonl").write_text(
        "".join(line + "\n" for line in categorised(0, 300)), encoding="utf-8"
    )
    yesterday = kept_by_the_reader(folder, 10**9, LoadFilter(since="2026-11-02"))
    assert len(yesterday.store) == 200 and yesterday.new == 0
    (folder / "day-2.jsonl").write_text(
        "".join(line + "\n" for line in categorised(300, 330)), encoding="utf-8"
    )
    today = LoadFilter(since="2026-11-03")
    first = kept_by_the_reader(folder, 10**9, today)  # a filter never kept: loaded
    assert first.way is Way.LOADED and len(first.store) == 130
    again = kept_by_the_reader(folder, 10**9, today)
    assert again.way is Way.CACHED and new_ids(again) == ids_of(categorised(300, 330))
    assert again.new == 30 and again.new_at > 0.0


def test_a_filter_never_kept_finds_nothing_new_beside_the_whole_files_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(line + "\n" for line in categorised(0, 300)), encoding="utf-8")
    kept_by_the_reader(path, 10**9)
    kept_by_the_reader(path, 10**9, LoadFilter(("cs.LG",)))
    again = kept_by_the_reader(path, 10**9, LoadFilter(("cs.LG",)))
    assert again.way is Way.CACHED and again.new == 0 and not new_ids(again)


def test_a_fetch_into_a_file_brings_its_filtered_entries_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(line + "\n" for line in categorised(0, 300)), encoding="utf-8")
    learning = LoadFilter(("cs.LG",))
    kept_by_the_reader(path, 10**9, learning)
    with path.open("a", encoding="utf-8") as appended:
        appended.write("".join(line + "\n" for line in categorised(300, 340)))
    assert refresh_kept(path) == 1
    forbid(monkeypatch, "load_paths", "stream_papers")
    monkeypatch.setattr(entry, "read_part", lambda *_: pytest.fail("read again"))
    found = opened(path, learning, stream_from=0)
    assert found.way is Way.CACHED and len(found.store) == 170
    assert new_ids(found) == ids_of(categorised(300, 340)[::2])
