"""Papers kept in parts (core.segments): a file grown, added or changed is read alone, and the
entry brought up to date ranks, numbers and holds its papers as a fresh load and index of
all the files would."""

import gzip
import hashlib
import json
import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import numpy as np
import pytest

from tui_reader.cli import program
from tui_reader.cli import reader as reader_command
from tui_reader.core import index_cache, opening
from tui_reader.core.flat import disk
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.index_cache import IndexedPapers, load_cached
from tui_reader.core.library import Library, default_path
from tui_reader.core.loading import check_paths, load_paths
from tui_reader.core.opening import open_papers
from tui_reader.core.query import parse_query
from tui_reader.core.segments import added, merge
from tui_reader.core.segments import part as part_module
from tui_reader.core.segments.part import MANIFEST, OpenPart, save_array
from tui_reader.core.segments.ranges import identity
from tui_reader.core.store import PaperStore

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"
QUERIES = ["diffusion", "graph neural", "regret bandit", "difusion", "co", "Adam", '"neural net']


@pytest.fixture(scope="module")
def lines() -> list[str]:
    if not CORPUS.exists():
        pytest.skip("the real corpus is not beside the project")
    with gzip.open(CORPUS, "rt", encoding="utf-8") as stream:
        return [next(stream).rstrip("\n") for _ in range(2400)]


def write(path: Path, lines: list[str], mode: str = "w") -> Path:
    if path.name.endswith(".gz"):
        with gzip.open(path, mode + "t", encoding="utf-8") as stream:
            stream.write("".join(line + "\n" for line in lines))
    else:
        with path.open(mode, encoding="utf-8") as stream:
            stream.write("".join(line + "\n" for line in lines))
    return path


def opened(*paths: Path) -> IndexedPapers:
    found = load_cached(check_paths(paths))
    assert found is not None
    return found


def kept_first(*paths: Path) -> IndexedPapers:
    assert open_papers(list(paths), check_paths(paths), indexed=True).index is not None
    return opened(*paths)


def parts(entry: IndexedPapers) -> list[str]:
    assert isinstance(entry.index, FlatIndex)
    return [Path(part.text.name).parent.parent.name for part in entry.index.parts]


def assert_as_fresh(entry: IndexedPapers, *paths: Path, counted: bool = True) -> None:
    """The entry holds, numbers and ranks the papers as loading and indexing the files anew
    would; and its problems are those a load tells, and (`counted`) the papers met again."""
    fresh = load_paths(paths)
    assert isinstance(fresh.papers, PaperStore)
    assert entry.store.texts("id") == fresh.papers.texts("id")
    assert list(entry.store[:5]) == list(fresh.papers[:5])
    assert entry.loaded.problems == fresh.problems
    assert entry.loaded.duplicates == fresh.duplicates or not counted
    assert entry.store.headline_ranks().tolist() == fresh.papers.headline_ranks().tolist()
    index = FlatIndex.of(fresh.papers)
    for query in QUERIES:
        one, kept = index.run(parse_query(query)), entry.index.run(parse_query(query))
        assert kept.full == one.full, query
        assert np.array_equal(kept.numbers, one.numbers), query
        assert np.array_equal(kept.scores, one.scores), query
    number = len(fresh.papers) - 1
    assert np.array_equal(entry.index.related(number), index.related(number))


def no_whole_file_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Where each range read starts; a file read from its start fails the test."""
    starts: list[int] = []
    read_part = part_module.read_part

    def from_where(ranges, before, load_filter):  # type: ignore[no-untyped-def]
        starts.extend(start for _, start, _, _ in ranges)
        if any(start == 0 for _, start, _, _ in ranges):
            raise AssertionError("a file was read from its start")
        return read_part(ranges, before, load_filter)

    monkeypatch.setattr("tui_reader.core.segments.entry.read_part", from_where)
    return starts


@pytest.mark.parametrize("name", ["papers.jsonl", "papers.jsonl.gz"])
def test_papers_appended_to_a_kept_file_are_read_alone_into_a_part_of_their_own(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    path = write(tmp_path / name, lines[:2000])
    first = kept_first(path)
    size = path.stat().st_size
    write(path, lines[2000:2300], "a")  # a gzip file gets a member of its own
    starts = no_whole_file_read(monkeypatch)
    grown = opened(path)
    assert starts == [size]
    assert parts(grown)[0] == parts(first)[0] and len(parts(grown)) == 2
    assert len(grown.store) == len(load_paths([path]).papers)
    assert_as_fresh(grown, path)
    write(path, lines[2300:], "a")  # and again: a third part
    assert len(parts(opened(path))) == 3
    assert_as_fresh(opened(path), path)


def test_a_new_file_beside_kept_ones_is_a_part_and_the_files_kept_are_not_read(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    big = write(tmp_path / "big.jsonl", lines[:2000])
    day = write(tmp_path / "day.jsonl", lines[2000:2100])
    alone = kept_first(big)
    monkeypatch.setattr(opening, "load_paths", lambda *_, **__: pytest.fail("loaded anew"))
    both = opened(big, day)
    assert parts(both)[0] == parts(alone)[0] and len(parts(both)) == 2
    assert_as_fresh(both, big, day)
    assert parts(opened(big)) == parts(alone)  # the entry of the big file alone is still kept
    kept = sorted((tmp_path / "cache").glob("papers-v*/parts/*/abstract.npy"))
    assert len({path.stat().st_ino for path in kept}) == 2  # the big part's files are shared


def test_a_file_changed_within_what_was_read_is_read_again_alone(
    tmp_path: Path, lines: list[str]
) -> None:
    """Loaded and indexed together, the files' papers are kept in a part each; how many
    papers of the second file were met again is then not known apart, so it is estimated
    once that file's part is read again."""
    one = write(tmp_path / "one.jsonl", lines[:1500])
    two = write(tmp_path / "two.jsonl", lines[1500:1800])
    before = parts(kept_first(one, two))
    assert len(before) == 2
    write(two, lines[1800:2000])  # rewritten: other papers
    after = opened(one, two)
    assert parts(after)[0] == before[0] and parts(after)[1] != before[1]
    assert_as_fresh(after, one, two, counted=False)
    write(one, lines[:1000])  # shrunk
    assert_as_fresh(opened(one, two), one, two)


def test_a_file_edited_in_the_middle_at_the_same_size_is_read_again(
    tmp_path: Path, lines: list[str]
) -> None:
    path = write(tmp_path / "papers.jsonl", lines[:300])
    kept_first(path)
    text = path.read_bytes()
    place = text.index(b"the", len(text) // 2)
    path.write_bytes(text[:place] + b"THE" + text[place + 3 :])
    os.utime(path, ns=(1, 1))
    edited = opened(path)
    assert_as_fresh(edited, path)


def test_records_appended_after_a_line_left_unended_make_the_file_read_again(
    tmp_path: Path, lines: list[str]
) -> None:
    """Appended after text that does not end a line, the first new record ends that line:
    read alone, it would be read otherwise than the file holds it."""
    path = tmp_path / "papers.jsonl"
    path.write_text("\n".join(lines[:200]), encoding="utf-8")  # the last line not ended
    before = parts(kept_first(path))
    with path.open("a", encoding="utf-8") as stream:
        stream.write(' \n{"abstract": "A paper appended on the line left unended."}\n')
    after = opened(path)
    assert parts(after) != before and len(parts(after)) == 1
    assert_as_fresh(after, path)


def test_a_paper_met_again_in_what_was_appended_is_shown_once_and_counted(
    tmp_path: Path, lines: list[str]
) -> None:
    path = write(tmp_path / "papers.jsonl", lines[:500])
    kept_first(path)
    write(path, [lines[10], *lines[500:600], lines[20]], "a")
    grown = opened(path)
    assert_as_fresh(grown, path)
    assert grown.loaded.duplicates == load_paths([path]).duplicates


def test_a_part_after_a_new_one_that_holds_its_papers_is_read_again(
    tmp_path: Path, lines: list[str]
) -> None:
    """The first place a paper appears wins: papers appended to the first file that the
    second holds too are now the first file's, and the second's part loses them."""
    one = write(tmp_path / "one.jsonl", lines[:600])
    two = write(tmp_path / "two.jsonl", lines[600:900])
    kept_first(one)
    before = parts(opened(one, two))
    write(one, lines[850:950], "a")  # papers the second file holds too
    after = opened(one, two)
    assert after.store.texts("id")[:600] == load_paths([one]).papers.texts("id")[:600]
    assert parts(after)[0] == before[0] and before[1] not in parts(after)
    assert_as_fresh(after, one, two)


def test_a_part_after_a_new_one_holding_none_of_its_papers_is_kept(
    tmp_path: Path, lines: list[str]
) -> None:
    one = write(tmp_path / "one.jsonl", lines[:600])
    two = write(tmp_path / "two.jsonl", lines[600:900])
    kept_first(one)
    before = parts(opened(one, two))
    write(one, lines[900:1000], "a")
    after = opened(one, two)
    assert parts(after) == [before[0], parts(after)[1], before[1]]
    assert_as_fresh(after, one, two)


def test_records_skipped_in_what_was_appended_are_told_by_their_line_in_the_file(
    tmp_path: Path, lines: list[str]
) -> None:
    path = write(tmp_path / "papers.jsonl", lines[:100])
    kept_first(path)
    write(path, [*lines[100:103], '{"title": "no abstract"}', "not json", lines[103]], "a")
    grown = opened(path)
    assert [problem.split(": ")[0] for problem in grown.loaded.problems] == [
        f"{path}:104",
        f"{path}:105",
    ]
    assert_as_fresh(grown, path)


def test_the_reader_reads_no_more_than_it_may_before_it_starts(
    tmp_path: Path, lines: list[str]
) -> None:
    """Over so many bytes to read, the reader loads the papers as it runs instead."""
    path = write(tmp_path / "papers.jsonl", lines[:300])
    before = parts(kept_first(path))
    write(path, lines[300:600], "a")
    files = check_paths([path])
    grown = path.stat().st_size - 1
    assert load_cached(files, rebuild=False, update_at_most=1000) is None
    assert load_cached(files, rebuild=False, update_at_most=grown) is not None
    assert parts(opened(path))[0] == before[0]


def test_a_damaged_view_of_parts_is_rejected_and_the_papers_loaded_anew(
    tmp_path: Path, lines: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    one = write(tmp_path / "one.jsonl", lines[:300])
    two = write(tmp_path / "two.jsonl", lines[300:400])
    kept_first(one, two)
    (entry,) = [
        path.parent
        for path in (tmp_path / "cache").glob("papers-v*/manifest.json")
        if len(json.loads(path.read_text())["files"]) == 2
    ]
    ids = np.load(entry / "words_ids_1.npy")
    ids[0] = 10**9  # a word past the lexicon's end
    np.save(entry / "words_ids_1.npy", ids)
    unusable: list[Exception] = []
    assert load_cached(check_paths([one, two]), unusable=unusable) is None
    assert "the view does not place a part's words" in str(unusable[0])
    assert program.main(["search", "diffusion", str(one), str(two)]) == 0
    assert "could not be used" in capsys.readouterr().err
    assert_as_fresh(opened(one, two), one, two)


def test_an_entry_a_days_papers_are_appended_to_every_day_stays_of_few_parts(
    tmp_path: Path, lines: list[str]
) -> None:
    """Six parts of one size side by side are merged into one: the days' parts do not pile
    up, and the entry ranks as a fresh build still."""
    path = write(tmp_path / "papers.jsonl", lines[:1000])
    kept_first(path)
    for day in range(8):
        write(path, lines[1000 + 50 * day : 1050 + 50 * day], "a")
        grown = opened(path)
    assert len(parts(grown)) < 6
    assert_as_fresh(grown, path)
    write(path, lines[1500:1510], "a")
    assert_as_fresh(opened(path), path)


def searched(capsys: pytest.CaptureFixture[str], query: str, *paths: Path) -> list[str]:
    """The ids `search` prints (none when it finds nothing)."""
    status = program.main(
        ["search", "--limit", "1000", "--format", "jsonl", query, *map(str, paths)]
    )
    out = capsys.readouterr().out
    assert status in (0, 1)
    return [json.loads(line)["id"] for line in out.splitlines()]


def test_the_papers_an_update_took_in_are_new_until_the_next_days_come(
    tmp_path: Path, lines: list[str], capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    path = write(tmp_path / "papers.jsonl", lines[:300])
    kept_first(path)
    assert searched(capsys, "is:new", path) == []  # read the first time: nothing is new
    before = set(load_paths([path]).papers.texts("id"))
    write(path, [lines[5], *lines[300:340]], "a")  # one known, forty new
    grown = load_paths([path]).papers.texts("id")
    new = [paper_id for paper_id in grown if paper_id not in before]
    assert sorted(searched(capsys, "is:new", path)) == sorted(new) and len(new) == 40
    assert set(searched(capsys, "learning is:new", path)) <= set(new)
    assert set(searched(capsys, "!is:new", path)) == before
    assert searched(capsys, "is:new", path) != []  # opened again: still new
    later = time.time() + 2 * 86_400.0  # two days on, the next day's papers come
    monkeypatch.setattr(added.time, "time", lambda: later)
    write(path, lines[340:350], "a")
    newest = set(load_paths([path]).papers.texts("id")) - set(grown)
    assert set(searched(capsys, "is:new", path)) == newest and len(newest) == 10


def test_a_saved_search_of_new_papers_is_a_digest_of_the_days_papers(
    tmp_path: Path, lines: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "papers.jsonl", lines[:300])
    kept_first(path)
    library, _ = Library.open(default_path())
    library.save_search("today", "is:new")
    library.save()
    write(path, lines[300:305], "a")
    assert program.main(["digest", "--papers", str(path), "--format", "jsonl"]) == 0
    digest = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    assert sorted(digest) == sorted(set(searched(capsys, "is:new", path))) and len(digest) == 5


def test_the_reader_opens_a_grown_file_from_its_entry_brought_up_to_date(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No load and no index of the whole file: the reader starts from the entry, its new
    papers read into a part of their own, searchable at once and new."""
    from tui_reader.ui.app import ReaderApp

    monkeypatch.setattr(reader_command, "LOAD_AT_ONCE", 0)  # a big input
    path = write(tmp_path / "papers.jsonl", lines[:300])
    kept_first(path)
    write(path, lines[300:320], "a")
    monkeypatch.setattr(opening, "stream_papers", lambda *_, **__: pytest.fail("papers loaded"))
    monkeypatch.setattr(opening, "load_paths", lambda *_, **__: pytest.fail("loaded"))
    no_whole_file_read(monkeypatch)
    opened_apps: list[ReaderApp] = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: opened_apps.append(app))
    assert program.main([str(path)]) == 0
    (app,) = opened_apps
    assert len(app.store) == len(load_paths([path]).papers)
    index = app.workspace.loader.cached_index  # what it searches once it runs
    assert isinstance(index, FlatIndex) and len(index.new) == 20


def test_an_entry_through_many_changes_holds_and_ranks_its_papers_as_a_fresh_build(
    tmp_path: Path, lines: list[str]
) -> None:
    """Files grown, added, rewritten, given in another order, left out, with papers met in
    more than one of them: after each change, the entry is what a fresh build would be."""
    pool = lines[:1200]
    one = write(tmp_path / "one.jsonl", pool[:300])
    two = write(tmp_path / "two.jsonl.gz", pool[250:400])  # 50 papers of the first too
    three = tmp_path / "three.jsonl"
    kept_first(one, two)
    changes = [
        (lambda: write(one, pool[400:450], "a"), (one, two)),
        (lambda: write(three, pool[440:520]), (one, two, three)),
        (lambda: write(two, pool[500:560], "a"), (one, two, three)),
        (lambda: None, (three, one, two)),  # another order
        (lambda: write(one, pool[:200]), (three, one, two)),  # rewritten, shorter
        (lambda: None, (one, three)),  # one left out
        *[
            (lambda n=n: write(three, pool[600 + 20 * n : 620 + 20 * n], "a"), (one, three))
            for n in range(7)
        ],  # days appended: parts merged
    ]
    for change, files in changes:
        change()
        assert_as_fresh(opened(*files), *files, counted=False)


def test_an_entry_brought_up_to_date_keeps_the_cache_folder_under_its_limit(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A day's file a day makes a list of files a day: the entries of the days before go,
    least recently used first, once the folder is over its limit."""
    first = write(tmp_path / "day-1.jsonl", lines[:200])
    kept_first(first)
    size = sum(f.stat().st_size for f in (tmp_path / "cache").rglob("*") if f.is_file())
    monkeypatch.setattr(index_cache, "cache_limit", lambda: 3 * size)
    days = [first]
    for day in range(2, 7):
        days.append(write(tmp_path / f"day-{day}.jsonl", lines[200 * day : 200 * day + 50]))
        latest = opened(*days)
    assert len(parts(latest)) == 1  # six days' parts, one of each file, merged into one
    assert_as_fresh(latest, *days)
    entries = sorted((tmp_path / "cache").glob("papers-v*/manifest.json"))
    files = [json.loads(path.read_text())["files"] for path in entries]
    assert [str(day) for day in days] in files and len(entries) < 5


def test_a_file_named_twice_is_kept_once(
    tmp_path: Path, lines: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "papers.jsonl", lines[:100])
    assert program.main(["search", "learning", str(path), str(path)]) == 0
    twice = capsys.readouterr().out
    assert program.main(["search", "learning", str(path)]) == 0
    assert capsys.readouterr().out == twice
    write(path, lines[100:120], "a")
    assert_as_fresh(opened(path, path), path, counted=False)


def _kept_as_before_parts(root: Path, path: Path) -> Path:
    """An entry as tui-reader kept one before parts (version 3): the store's columns and the
    index's folder, for the file's path, size and modification time."""
    loaded = load_paths([path])
    assert isinstance(loaded.papers, PaperStore)
    sources = [identity(path)]
    key = hashlib.sha256(json.dumps(sources, sort_keys=True).encode()).hexdigest()[:24]
    folder = root / f"papers-v3-{key}"
    folder.mkdir(parents=True)
    named, names = loaded.papers.arrays()
    shapes = {name: save_array(folder / f"{name}.npy", value)[0] for name, value in named.items()}
    disk.save(folder, sources, FlatIndex.of(loaded.papers).arrays)
    manifest = {
        "format": "tui-reader papers",
        "version": 3,
        "sources": sources,
        "count": len(loaded.papers),
        "collections": list(loaded.papers.collections),
        "collection_names": names["collections"],
        "source_names": names["sources"],
        "category_names": names["categories"],
        "problems": loaded.problems,
        "duplicates": loaded.duplicates,
        "arrays": shapes,
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def paragraphs(lines: list[str]) -> list[str]:
    """The abstracts of JSON Lines as seed text's lines: a paragraph each."""
    return [text for line in lines for text in (" ".join(json.loads(line)["abstract"].split()), "")]


def test_an_entry_kept_before_parts_is_taken_in_without_loading_the_file_again(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "papers.txt.gz", ["Kept papers", "", *paragraphs(lines[:400])])
    earlier = _kept_as_before_parts(tmp_path / "cache", path)
    monkeypatch.setattr(opening, "load_paths", lambda *_, **__: pytest.fail("loaded"))
    monkeypatch.setattr("tui_reader.core.segments.kept.build_index", lambda *_: pytest.fail("x"))
    taken = opened(path)
    assert not earlier.exists() and len(parts(taken)) == 1
    assert_as_fresh(taken, path)


def test_an_entry_kept_before_parts_of_a_format_read_otherwise_now_is_read_again(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its papers lack what the format reads now (JSON Lines: volume, issue and pages): it
    is not made an entry of this version to be read again at once."""
    path = write(tmp_path / "papers.jsonl.gz", lines[:400])
    _kept_as_before_parts(tmp_path / "cache", path)
    monkeypatch.setattr("tui_reader.core.segments.earlier._link", lambda *_: pytest.fail("taken"))
    assert open_papers([path], check_paths([path]), indexed=True).index is not None
    assert_as_fresh(opened(path), path)


def test_parts_merge_six_of_a_size_side_by_side_never_into_a_part_too_big() -> None:
    def of(*counts: int) -> list[OpenPart]:
        return [cast(OpenPart, SimpleNamespace(facts=SimpleNamespace(count=n))) for n in counts]

    assert merge.runs(of(1_000_000, *[1000] * 6)) == [(1, 7)]
    assert merge.runs(of(1_000_000, *[1000] * 5, 50)) == []  # five of a size
    assert merge.runs(of(*[1000] * 3, 50, *[1000] * 3)) == []  # not side by side
    assert merge.runs(of(*[30_000] * 6)) == []  # 180,000 papers together: too many
    assert merge.runs(of(*[10_000] * 7)) == [(0, 7)]


def parts_read(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int]]:
    """Each range read into a part: its file's name, where it starts, how many papers."""
    read: list[tuple[str, int, int]] = []
    read_part = part_module.read_part

    def noting(ranges, before, load_filter):  # type: ignore[no-untyped-def]
        found = read_part(ranges, before, load_filter)
        read.extend((Path(path).name, start, len(found.store)) for path, start, *_ in ranges)
        return found

    monkeypatch.setattr("tui_reader.core.segments.entry.read_part", noting)
    return read


def counts(entry: IndexedPapers) -> list[int]:
    return [len(part_module.open_part(p, p.name).store()) for p in sorted_parts(entry)]


def sorted_parts(entry: IndexedPapers) -> list[Path]:
    assert entry.folder is not None
    return [entry.folder / "parts" / name for name in parts(entry)]


def edit_in_the_middle(path: Path) -> None:
    text = path.read_bytes()
    place = text.index(b"the", len(text) // 2)
    path.write_bytes(text[:place] + b"THE" + text[place + 3 :])


def files_of_parts(entry: IndexedPapers) -> list[list[str]]:
    assert entry.folder is not None
    manifests = [entry.folder / "parts" / name / MANIFEST for name in parts(entry)]
    ranges = [json.loads(path.read_text())["ranges"] for path in manifests]
    return [sorted({Path(r["path"]).name for r in held}) for held in ranges]


@pytest.mark.parametrize("name", ["kept.jsonl", "kept.jsonl.gz"])
def test_a_part_merged_of_two_files_is_cut_not_read_when_one_of_them_changes(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Days appended to a kept file merge with the part of the file beside it: an edit to
    that file reads it alone, the days' papers cut out of the merged part; a day appended
    after them reads that day alone too."""
    big, beside = write(tmp_path / name, lines[:1500]), tmp_path / "beside.jsonl"
    kept_first(big)
    write(beside, lines[1500:1700])
    for day in range(5):
        write(big, lines[1700 + 40 * day : 1740 + 40 * day], "a")
        grown = opened(big, beside)
    assert files_of_parts(grown)[1] == ["beside.jsonl", name]  # merged
    read = parts_read(monkeypatch)
    edit_in_the_middle(beside)
    edited = opened(big, beside)
    assert [file for file, _, _ in read] == ["beside.jsonl"]
    assert parts(edited)[0] == parts(grown)[0] and counts(edited)[1:] == [200, 197]
    assert_as_fresh(edited, big, beside)
    write(big, lines[1900:1940], "a")
    assert_as_fresh(opened(big, beside), big, beside)
    write(beside, lines[1950:1960], "a")
    for day in range(6):  # merged again, then the day before the file beside grows
        write(big, lines[2000 + 40 * day : 2040 + 40 * day], "a")
        assert_as_fresh(opened(big, beside), big, beside, counted=False)
    days = [(file, start > 0) for file, start, _ in read[1:]]  # each read alone: no more
    assert sorted(days) == [("beside.jsonl", True), *[(name, True)] * 7]


def test_a_part_read_again_holds_its_own_range_and_not_what_was_appended_after_it(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept file's first part read again (the file before it changed, and had papers it
    has too) reads its own range: the days appended after it keep their papers."""
    beside, big = tmp_path / "beside.jsonl", tmp_path / "kept.jsonl"
    write(beside, [*lines[1500:1700], *lines[10:12]])
    write(big, lines[:1500])
    kept_first(beside, big)
    for day in range(2):
        write(big, lines[1700 + 40 * day : 1740 + 40 * day], "a")
        grown = opened(beside, big)
    before, held = parts(grown), counts(grown)
    read = parts_read(monkeypatch)
    edit_in_the_middle(beside)
    edited = opened(beside, big)
    assert [file for file, _, _ in read] == ["beside.jsonl", "kept.jsonl"]
    assert counts(edited)[1:] == held[1:] and held[2:] == [40, 40]
    assert parts(edited)[2:] == before[2:]
    assert_as_fresh(edited, beside, big, counted=False)


def test_a_file_edited_before_a_kept_one_that_held_none_of_its_papers_is_read_alone(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loaded together, the files' papers met in another file are counted by file: the kept
    file met none of the first one's, so the first one's edit reads it alone."""
    beside, big = tmp_path / "beside.jsonl", tmp_path / "kept.jsonl"
    write(beside, [*lines[1500:1700], lines[1500]])  # a paper met again in its own file
    write(big, lines[:1500])
    before = parts(kept_first(beside, big))
    read = parts_read(monkeypatch)
    edit_in_the_middle(beside)
    edited = opened(beside, big)
    assert [file for file, _, _ in read] == ["beside.jsonl"]
    assert parts(edited)[1] == before[1]
    assert_as_fresh(edited, beside, big, counted=False)
