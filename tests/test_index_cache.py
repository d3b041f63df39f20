import json
import os
import pickle
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.pilot_helpers import ready, wait_until
from tui_reader.cli import reader
from tui_reader.cli.program import main
from tui_reader.core import index_cache, opening
from tui_reader.core.config import load_config
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.index_cache import (
    IndexedPapers,
    load_cached,
    preparing_entry,
    write_entry,
    write_entry_in_background,
)
from tui_reader.core.loading import check_paths, load_paths
from tui_reader.core.paper import Paper
from tui_reader.core.paper_columns import columns_of
from tui_reader.core.segments import part
from tui_reader.core.segments.part import MANIFEST
from tui_reader.core.segments.whole import FilesRead, files_read
from tui_reader.core.store import PaperStore
from tui_reader.ui.paper_list import PaperList

PLANTED = "planted.txt"


class Planted:
    """Unpickling this writes a file: proof that code ran."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __reduce__(self) -> tuple[Callable[..., object], tuple[object, ...]]:
        return (Path.write_text, (self.folder / PLANTED, "code ran"))


def search(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    assert main(["search", *arguments]) == 0
    return capsys.readouterr().out


def entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("papers-v*"))


def nothing_built(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_: object) -> None:
        raise AssertionError("the papers were loaded or indexed again")

    monkeypatch.setattr("tui_reader.core.segments.entry.build_index", fail)
    monkeypatch.setattr("tui_reader.core.segments.kept.build_index", fail)
    monkeypatch.setattr(opening, "build_index", fail)
    monkeypatch.setattr(opening, "load_paths", fail)


def test_a_second_search_opens_the_kept_papers_and_index(
    tmp_path: Path, write_seed, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    first = search(capsys, "difusion", str(path))
    assert "Diffusion models" in first and len(entries(tmp_path)) == 1
    nothing_built(monkeypatch)
    assert search(capsys, "difusion", str(path)) == first
    kept = load_cached(check_paths([path]))
    assert kept is not None and isinstance(kept.store.get(kept.store[0].id), type(kept.store[0]))
    assert isinstance(kept.index, FlatIndex)


@pytest.mark.parametrize("query", ["since", "LG", "ICML", "venue:since", "venue:ICML", "models"])
def test_files_of_collections_named_apart_find_the_same_kept_as_built(
    write_seed, capsys, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    """Kept, an index built whole is cut into a part a file: a collection's name, a word of
    `venue` alone, is a word of its part."""
    fetched = write_seed(
        "Models since 1990.", "LG models of regret.", header="arxiv cs.LG since", name="a.txt"
    )
    seeds = write_seed("Diffusion models.", "Bandits.", header="ICML 2026 Papers", name="b.txt")
    paths = [str(fetched), str(seeds)]
    first = main(["search", query, *paths]), capsys.readouterr()
    nothing_built(monkeypatch)
    assert (main(["search", query, *paths]), capsys.readouterr()) == first


def test_list_and_export_with_a_query_share_the_kept_entry(
    tmp_path: Path, write_seed, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    assert main(["list", "--papers", str(path), "--query", "difusion"]) == 0
    listed = capsys.readouterr().out
    assert "Diffusion models" in listed and "Bandits" not in listed
    assert len(entries(tmp_path)) == 1
    nothing_built(monkeypatch)
    assert "Diffusion models" in search(capsys, "difusion", str(path))
    assert main(["list", "--papers", str(path), "--query", "difusion"]) == 0
    assert capsys.readouterr().out == listed
    assert main(["export", "--papers", str(path), "--query", "bandit", "--format", "md"]) == 0
    assert "Bandits with regret" in capsys.readouterr().out


def test_commands_without_search_words_read_the_kept_papers(
    tmp_path: Path, write_seed, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`list --bookmarked`, `tag`, `bookmark` over a million papers loaded them all from the
    file each time (181 s at a million); they read the kept entry back instead."""
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    search(capsys, "bandit", str(path))  # kept
    monkeypatch.setattr(opening, "load_paths", lambda *_, **__: pytest.fail("loaded from the file"))
    papers = ["--papers", str(path)]
    bandits = main(["list", *papers, "--format", "jsonl"]) or capsys.readouterr().out
    paper_id = json.loads(bandits.splitlines()[1])["id"]
    assert main(["tag", paper_id[:6], "to-read", *papers]) == 0
    assert main(["bookmark", paper_id, *papers]) == 0
    capsys.readouterr()
    assert main(["list", "--bookmarked", "--tag", "to-read", *papers]) == 0
    (listed,) = capsys.readouterr().out.splitlines()
    assert listed.startswith(paper_id) and "Bandits" in listed and "#to-read" in listed
    assert main(["list", "--tag", "to-read", "--query", "diffusion", *papers]) == 1
    assert capsys.readouterr().out == ""


def test_a_changed_file_is_loaded_and_indexed_anew(tmp_path: Path, write_seed, capsys) -> None:
    path = write_seed("Diffusion models for tabular data.")
    search(capsys, "diffusion", str(path))
    (entry,) = entries(tmp_path)
    (before,) = entry.glob("parts/*")
    write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    os.utime(path, ns=(1, 1))  # a new modification time, as an edit gives
    assert "Bandits with regret" in search(capsys, "bandit", str(path))
    assert entries(tmp_path) == [entry]  # the entry of these files, its part read anew
    (after,) = entry.glob("parts/*")
    assert after.name != before.name


def _kept_file(entry: Path, name: str) -> Path:
    """A file of an entry: its own (what joins its parts), else its first part's."""
    own = entry / name
    return own if own.exists() else sorted(entry.glob(f"parts/*/{name}"))[0]


def _plant_pickle(entry: Path) -> None:
    keys = _kept_file(entry, "keys.npy")
    np.save(keys, np.array([Planted(entry)], dtype=object), allow_pickle=True)


def _raw_pickle_as_an_array(entry: Path) -> None:
    _kept_file(entry, "years.npy").write_bytes(pickle.dumps(Planted(entry)))


def _truncate(entry: Path) -> None:
    abstract = _kept_file(entry, "abstract.npy")
    abstract.write_bytes(abstract.read_bytes()[:-5])


def _lie_about_shapes(entry: Path) -> None:
    path = next(
        path
        for path in sorted(entry.glob("**/manifest.json"))
        if "abstract" in json.loads(path.read_text(encoding="utf-8")).get("arrays", {})
    )
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["arrays"]["abstract"]["shape"] = [10**9]
    path.write_text(json.dumps(manifest), encoding="utf-8")


def _another_version(entry: Path) -> None:
    manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
    manifest["version"] = index_cache.VERSION + 1
    (entry / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def _offsets_past_the_text(entry: Path) -> None:
    offsets = np.load(_kept_file(entry, "title_offsets.npy"))
    offsets[1] = 10**6
    np.save(_kept_file(entry, "title_offsets.npy"), offsets)


def _category_codes_out_of_range(entry: Path) -> None:
    codes = np.load(_kept_file(entry, "category_codes.npy"))
    codes[0] = 10**6
    np.save(_kept_file(entry, "category_codes.npy"), codes)


def _category_starts_past_the_codes(entry: Path) -> None:
    starts = np.load(_kept_file(entry, "category_starts.npy"))
    starts[-1] += 1
    np.save(_kept_file(entry, "category_starts.npy"), starts)


def _index_array_described_as_a_number(entry: Path) -> None:
    manifest = sorted(entry.glob("parts/*/flat-v*/manifest.json"))[0]
    written = json.loads(manifest.read_text(encoding="utf-8"))
    written["arrays"]["papers"] = 5
    manifest.write_text(json.dumps(written), encoding="utf-8")


def _garbage_manifest(entry: Path) -> None:
    (entry / "manifest.json").write_bytes(b"\x80\x04not json")


def _fifo_for_an_array(entry: Path) -> None:  # opening it waited for a writer forever
    title = _kept_file(entry, "title.npy")
    title.unlink()
    os.mkfifo(title)


def _fifo_for_the_manifest(entry: Path) -> None:
    (entry / "manifest.json").unlink()
    os.mkfifo(entry / "manifest.json")


@pytest.mark.parametrize(
    "damage",
    [
        _plant_pickle,
        _raw_pickle_as_an_array,
        _truncate,
        _lie_about_shapes,
        _another_version,
        _offsets_past_the_text,
        _category_codes_out_of_range,
        _category_starts_past_the_codes,
        _index_array_described_as_a_number,
        _garbage_manifest,
        _fifo_for_an_array,
        _fifo_for_the_manifest,
    ],
)
def test_a_damaged_or_foreign_entry_is_rejected_rebuilt_and_runs_no_code(
    tmp_path: Path, write_seed, capsys, damage: Callable[[Path], None]
) -> None:
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    categorised = path.with_suffix(".jsonl")
    categorised.write_text('{"abstract": "Diffusion in categories.", "categories": ["cs.LG"]}\n')
    first = search(capsys, "diffusion", str(path), str(categorised))
    (entry,) = entries(tmp_path)
    damage(entry)
    unusable: list[Exception] = []
    assert load_cached(check_paths([path, categorised]), False, unusable) is None
    assert len(unusable) == 1 and str(entry) in str(unusable[0])
    assert "unsafely" not in str(unusable[0])  # numpy's advice to read a pickle is not passed on
    assert main(["search", "diffusion", str(path), str(categorised)]) == 0
    out, err = capsys.readouterr()
    assert out == first and "kept in the cache could not be used" in err  # and told
    assert search(capsys, "diffusion", str(path), str(categorised)) == first
    assert not (entry / PLANTED).exists()
    assert load_cached(check_paths([path, categorised])) is not None


def test_an_entry_that_is_a_link_is_not_read_and_the_link_alone_is_replaced(
    tmp_path: Path, write_seed, capsys
) -> None:
    path = write_seed("Diffusion models for tabular data.")
    first = search(capsys, "diffusion", str(path))
    (entry,) = entries(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)  # a sound copy, but not the cache's own
    files = check_paths([path])
    assert load_cached(files) is None
    assert search(capsys, "diffusion", str(path)) == first
    assert entry.is_dir() and not entry.is_symlink() and load_cached(files) is not None
    assert (elsewhere / "manifest.json").exists()  # what the link named is left alone
    title = _kept_file(entry, "title.npy")
    title.unlink()
    title.symlink_to(elsewhere / title.relative_to(entry))
    assert load_cached(files) is None


def test_bytes_damaged_in_a_kept_text_read_as_replacement_characters(
    tmp_path: Path, write_seed, capsys
) -> None:
    """The entry has no checksum (a million papers would be read to check it): a text whose
    bytes were damaged is shown with U+FFFD, not a UnicodeDecodeError."""
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    search(capsys, "diffusion", str(path))
    (entry,) = entries(tmp_path)
    column = _kept_file(entry, "abstract.npy")
    data = bytearray(column.read_bytes())
    data[-10:-6] = b"\xff\xfe\xff\xfe"
    column.write_bytes(bytes(data))
    kept = load_cached(check_paths([path]))
    assert kept is not None
    assert "\ufffd" in kept.store[1].abstract
    assert [paper.abstract[:8] for paper in kept.store.view(np.arange(2))] == [
        "Diffusio",
        "Bandits ",
    ]


def test_no_entry_kept_is_no_problem(tmp_path: Path, write_seed) -> None:
    unusable: list[Exception] = []
    assert load_cached(check_paths([write_seed("Bandits.")]), unusable=unusable) is None
    assert unusable == []


def test_a_pickle_or_an_entry_of_an_earlier_version_is_never_read_and_is_removed(
    tmp_path: Path, write_seed, capsys
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    planted = cache / "index-0123456789abcdef01234567.pickle"
    planted.write_bytes(pickle.dumps(Planted(cache)))
    earlier = cache / "papers-v1-0123456789abcdef01234567"
    earlier.mkdir()
    (earlier / "title.npy").write_bytes(b"\x93NUMPY of an earlier version")
    path = write_seed("Diffusion models for tabular data.")
    assert "Diffusion" in search(capsys, "diffusion", str(path))
    assert not planted.exists() and not (cache / PLANTED).exists()
    assert not earlier.exists() and len(entries(tmp_path)) == 1


def _kept_entry(write_seed, name: str, abstracts: int) -> tuple[list[Path], IndexedPapers]:
    texts = [f"Paper {name} number {n} on sparse regression." for n in range(abstracts)]
    files = check_paths([write_seed(*texts, name=f"{name}.txt")])
    loaded = load_paths(files)
    assert isinstance(loaded.papers, PaperStore)
    return files, IndexedPapers(loaded, FlatIndex.of(loaded.papers), loaded.papers)


def test_the_cache_folder_keeps_under_its_limit_least_recently_used_first(
    tmp_path: Path, write_seed
) -> None:
    root = tmp_path / "cache"
    kept = [_kept_entry(write_seed, name, 20) for name in ("a", "b", "c")]
    assert write_entry(*kept[0], root=root, limit=10**9)
    size = sum(f.stat().st_size for f in entries(tmp_path)[0].rglob("*") if f.is_file())
    assert write_entry(*kept[1], root=root, limit=10**9)
    os.utime(entries(tmp_path)[0] / "manifest.json", (1, 1))  # used long ago
    assert load_cached(kept[1][0]) is not None  # used now
    assert write_entry(*kept[2], root=root, limit=int(2.5 * size))
    assert len(entries(tmp_path)) == 2
    assert load_cached(kept[0][0]) is None  # the least recently used went
    assert load_cached(kept[1][0]) is not None and load_cached(kept[2][0]) is not None


def test_the_cache_limit_is_a_setting(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[cache]\nlimit = 2_000_000\n", encoding="utf-8")
    assert load_config(config)[0].cache_limit == 2_000_000
    config.write_text('[cache]\nlimit = "big"\nsize = 3\n', encoding="utf-8")
    settings, problems = load_config(config)
    assert settings.cache_limit == load_config(tmp_path / "none.toml")[0].cache_limit
    assert [p.split(": ", 1)[1] for p in problems] == [
        "cache.limit must be a number of bytes, such as 2_000_000_000; using the default",
        "unknown setting cache.size; it is ignored",
    ]


def test_keeping_in_the_background_writes_an_entry_the_next_run_opens(
    tmp_path: Path, write_seed
) -> None:
    files, indexed = _kept_entry(write_seed, "a", 30)
    problems = ["a.txt:3: no abstract"]
    write_entry_in_background(files, indexed.store, indexed.index, problems, 2).join(timeout=30)
    kept = load_cached(files)
    assert kept is not None and list(kept.store) == list(indexed.store)
    assert (kept.loaded.problems, kept.loaded.duplicates, len(kept.index)) == (problems, 2, 30)


def test_papers_still_loading_are_not_kept(tmp_path: Path, write_seed) -> None:
    files, indexed = _kept_entry(write_seed, "a", 3)
    added = load_paths([write_seed("Another paper.", name="b.txt")]).papers
    indexed.store.extend(columns_of(list(added)))
    assert not write_entry(files, indexed)
    assert entries(tmp_path) == []
    told: list[object] = []  # the reader says it keeps them until told
    writing = write_entry_in_background(
        files,
        indexed.store,
        indexed.index,
        (),
        0,
        lambda kept, not_kept: told.append((kept, not_kept)),
    )
    writing.join(timeout=30)
    assert told == [(None, "")]  # not kept, and no fault of the cache's to tell


def test_the_reader_opens_a_kept_entry_without_loading_or_indexing(
    tmp_path: Path, write_seed, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from tui_reader.ui.app import ReaderApp

    monkeypatch.setattr(reader, "LOAD_AT_ONCE", 0)  # these two papers count as a big input
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    search(capsys, "diffusion", str(path))  # kept, as a search keeps it
    opened: list[ReaderApp] = []
    run = ReaderApp.run

    def run_until_indexed(app: ReaderApp) -> None:
        async def quit_when_ready(pilot) -> None:
            await ready(pilot)
            app.exit()

        opened.append(app)
        run(app, headless=True, auto_pilot=quit_when_ready)

    monkeypatch.setattr(ReaderApp, "run", run_until_indexed)
    nothing_built(monkeypatch)
    monkeypatch.setattr(opening, "stream_papers", lambda *_, **__: pytest.fail("papers loaded"))
    assert main([str(path)]) == 0
    (app,) = opened
    assert len(app.store) == 2 and app.store[0].abstract.startswith("Diffusion")


def test_a_warm_start_tells_the_records_skipped_by_file_and_line_as_a_load_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Opened from the cache, the reader named the records it skipped only by their number;
    then in the dialog of problems at start, at every start (29 of them each
    time): now in a notice, as loading the file tells them."""
    from tui_reader.ui.app import ReaderApp

    monkeypatch.setattr(reader, "LOAD_AT_ONCE", 0)
    path = tmp_path / "papers.jsonl"
    path.write_text('{"abstract": "Bandits with regret bounds."}\n{"title": "none"}\n')
    search(capsys, "bandit", str(path))  # kept
    opened: list[ReaderApp] = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: opened.append(app))
    assert main([str(path)]) == 0
    workspace = opened[0].workspace
    (problem,) = workspace.loader.problems
    assert problem.startswith(f"{path}:2: ") and not workspace._messages


def test_once_kept_the_reader_reads_its_papers_and_index_from_the_entry(
    tmp_path: Path, write_seed, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loaded and indexed in memory, a big input is kept, then read back by memory map: the
    memory loading took is given back (2.3 GB at a million papers). A paper revised before
    stays revised."""
    from tui_reader.ui.app import ReaderApp

    monkeypatch.setattr(reader, "LOAD_AT_ONCE", 0)  # these papers count as a big input
    path = write_seed(*(f"Paper {n} on diffusion models." for n in range(30)))
    read_back = threading.Event()  # the entry is read back once the test has looked
    load_cached = index_cache.load_cached

    def held_back(*arguments: Any, **keywords: Any) -> Any:
        read_back.wait(10)
        return load_cached(*arguments, **keywords)

    monkeypatch.setattr(index_cache, "load_cached", held_back)
    opened: list[ReaderApp] = []
    run = ReaderApp.run
    columns: list[object] = []

    def run_until_reopened(app: ReaderApp) -> None:
        async def quit_when_reopened(pilot) -> None:
            try:
                await ready(pilot)
                shown = app.workspace
                columns.append(app.store._texts["abstract"])
                built = shown.index
                first = app.store[0]
                app.store.revise([replace(first, title="A title found online")])
                read_back.set()
                await wait_until(pilot, lambda: shown.index is not built, "the entry reopened")
                await pilot.press("slash", *"diffusion 7")
                await wait_until(pilot, lambda: shown.shown_query == "diffusion 7", "results")
                columns.append(app.store._texts["abstract"])
                found = app.query_one(PaperList).current
                assert found is not None and found.abstract == "Paper 7 on diffusion models."
                assert app.store[0].title == "A title found online"
            finally:  # a failed check ends the reader, which would otherwise wait
                app.exit()

        opened.append(app)
        run(app, headless=True, auto_pilot=quit_when_reopened)

    monkeypatch.setattr(ReaderApp, "run", run_until_reopened)
    assert main([str(path)]) == 0
    (app,) = opened
    (entry,) = entries(tmp_path)
    loaded, reopened = columns
    assert loaded is not reopened
    assert [str(paper.source) for paper in app.store][1:] == [str(path)] * 29
    assert isinstance(app.workspace.index, FlatIndex)
    mapped = app.workspace.index.arrays["all_papers"]
    assert Path(mapped.filename).is_relative_to(entry)  # type: ignore[attr-defined]


def test_a_store_adopts_the_columns_of_the_same_papers_only() -> None:
    papers = [Paper.from_abstract(f"Paper {n}.", "C", Path("x.txt")) for n in range(3)]
    store = PaperStore(papers)
    with pytest.raises(ValueError):
        store.adopt(PaperStore(papers[:2]))
    with pytest.raises(ValueError):
        store.adopt(PaperStore(list(reversed(papers))))
    same = PaperStore(papers)
    store.adopt(same)
    assert list(store) == papers and store._texts is same._texts
    PaperStore().adopt(PaperStore())  # none: nothing to compare, nothing to fail


def test_an_index_of_another_version_is_built_again_once_from_the_kept_papers(
    tmp_path: Path, write_seed, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_seed("Diffusion models for tabular data.", "Bandits with regret bounds.")
    first = search(capsys, "diffusion", str(path))
    (entry,) = entries(tmp_path)
    (index,) = entry.glob("parts/*/flat-v*")
    index.rename(index.parent / "flat-v0-older")  # as an earlier format version left it
    monkeypatch.setattr(opening, "load_paths", lambda *_: pytest.fail("papers loaded"))
    assert main(["search", "diffusion", str(path)]) == 0  # indexed from the kept papers
    assert capsys.readouterr() == (
        first,
        "tui-reader: the index kept in the cache is of another version of tui-reader: "
        "made again from the papers kept\n",
    )
    assert [p.name for p in entry.glob("parts/*/flat-v*")] == [index.name]
    nothing_built(monkeypatch)
    assert search(capsys, "diffusion", str(path)) == first


def test_a_cache_that_cannot_be_written_costs_time_only(tmp_path: Path, write_seed, capsys) -> None:
    (tmp_path / "cache").write_text("a file where the cache folder should be", encoding="utf-8")
    files, indexed = _kept_entry(write_seed, "a", 3)
    assert not write_entry(files, indexed)
    assert load_cached(files) is None
    assert "sparse regression" in search(capsys, "sparse", str(files[0]))


def _part_ranges(root: Path) -> list[list[dict[str, object]]]:
    manifests = sorted(root.glob(f"*/parts/*/{MANIFEST}"))
    return [json.loads(manifest.read_text())["ranges"] for manifest in manifests]


def test_an_entry_keeps_its_files_as_they_were_read_before_it_was_written(
    tmp_path: Path, write_seed
) -> None:
    files, indexed = _kept_entry(write_seed, "a", 20)
    read = preparing_entry(files, indexed.store)()
    assert read is not None and [kept.end for kept in read.ranges] == [files[0].stat().st_size]
    assert write_entry(files, indexed, root=tmp_path / "scanned", limit=10**9)
    assert _part_ranges(tmp_path / "scanned") == [[read.ranges[0].as_json()]]
    # What was read is what is kept: the files are not read again.
    told = FilesRead(read.sources, [replace(read.ranges[0], crc=12345)])
    assert write_entry(files, indexed, root=tmp_path / "told", limit=10**9, read=told)
    assert _part_ranges(tmp_path / "told")[0][0]["crc"] == 12345


def test_long_texts_framed_while_the_index_is_finished_are_moved_into_the_entry(
    tmp_path: Path, write_seed, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, indexed = _kept_entry(write_seed, "a", 20)
    assert write_entry(files, indexed, root=tmp_path / "whole", limit=10**9)
    read = preparing_entry(files, indexed.store)()
    assert read is not None and read.framed is not None and read.framed.folder.is_dir()
    with monkeypatch.context() as patched:  # written already: not again
        patched.setattr(part, "save_framed", lambda *_: pytest.fail("framed again"))
        assert write_entry(files, indexed, read=read)

    def arrays(root: Path) -> dict[str, bytes]:
        return {path.name: path.read_bytes() for path in root.glob("*/parts/*/*.npy")}

    assert len(arrays(tmp_path / "cache")) > 20
    assert arrays(tmp_path / "cache") == arrays(tmp_path / "whole")
    assert not list((tmp_path / "cache").glob(".writing-*"))  # moved, none left behind
    read = preparing_entry(files, indexed.store)()
    assert read is not None and read.framed is not None
    assert write_entry(files, indexed, root=tmp_path / "elsewhere", limit=10**9, read=read)
    assert not read.framed.folder.exists()  # of another folder: written again, removed


def test_files_read_of_other_files_are_read_again(tmp_path: Path, write_seed) -> None:
    files, indexed = _kept_entry(write_seed, "a", 20)
    others, _ = _kept_entry(write_seed, "b", 5)
    assert write_entry(files, indexed, read=files_read(others))
    assert _part_ranges(tmp_path / "cache") == [[files_read(files).ranges[0].as_json()]]
    kept = load_cached(files)
    assert kept is not None and list(kept.store) == list(indexed.store)
