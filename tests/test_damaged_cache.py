"""A kept entry damaged on disk (bit rot, a swapped file, a frame's header claiming gigabytes)
is found, told in one line with no traceback, and its damaged parts read again from their
files, the rest kept and nothing saved lost (the papers new stay new)."""

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from textual.pilot import Pilot

from tests.pilot_helpers import ready, wait_until
from tests.test_damaged_frames import CORPUS, _frames, _texts
from tui_reader.cli.program import main
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.frames import DAMAGED, DamagedFrame, damage_seen, reader
from tui_reader.core.index_cache import check_kept
from tui_reader.core.loading import check_paths
from tui_reader.core.opening import Opening, Way, open_papers
from tui_reader.core.paper import Paper
from tui_reader.core.query import parse_query
from tui_reader.core.search_service import build_index
from tui_reader.core.segments import sound
from tui_reader.core.segments.entry import open_kept
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp

APPENDED = 40


def papers_file(tmp_path: Path, count: int = 1500) -> Path:
    """The first papers of the real corpus (enough text for each column's dictionary)."""
    if not CORPUS.exists():
        pytest.skip("the real corpus is not beside the project")
    with gzip.open(CORPUS, "rt", encoding="utf-8") as stream:
        lines = [next(stream) for _ in range(count + APPENDED)]
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(lines[:count]), encoding="utf-8")
    (tmp_path / "later.jsonl").write_text("".join(lines[count:]), encoding="utf-8")
    return path


def opened(path: Path) -> Opening:
    """Opened as the reader opens it; written to the cache as it writes it once indexed."""
    found = open_papers([path], check_paths([path]), stream_from=10**9)
    if found.cache_writer is not None:
        found.cache_writer(found.store, build_index(found.store), (), 0, lambda *_: None)
        write = found.cache_writer.unfinished()
        if write is not None:
            write.join(timeout=60)
    return found


def kept_with_new_papers(path: Path) -> tuple[Path, set[str]]:
    """An entry of the file and of papers appended to it since (new); its folder, and the
    ids of the papers new."""
    opened(path)
    with path.open("a", encoding="utf-8") as papers:
        papers.write((path.parent / "later.jsonl").read_text(encoding="utf-8"))
    grown = opened(path)
    assert grown.way is Way.CACHED and grown.kept is not None
    assert isinstance(grown.index, FlatIndex) and 0 < len(grown.index.new) <= APPENDED
    return grown.kept, set(grown.index.new)


def loaded_anew(path: Path) -> list[Paper]:
    return list(open_papers([path], check_paths([path])).store)


def flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x5A
    path.write_bytes(bytes(data))


def first_part(entry: Path) -> Path:
    kept = open_kept(entry)
    return kept.parts[0].folder


def damage(entry: Path, how: str) -> None:
    """Damage the entry's first part (its biggest) as a disk or a hand would."""
    part = first_part(entry)
    (index,) = part.glob("flat-v*")
    if how == "abstract's frames":  # inside a frame: another text, no error from zstd
        flip(part / "abstract.npy", (part / "abstract.npy").stat().st_size // 2)
    elif how == "index's text":
        flip(index / "text.npy", (index / "text.npy").stat().st_size // 2)
    elif how == "postings":
        flip(index / "all_papers.npy", (index / "all_papers.npy").stat().st_size - 3)
    else:  # dictionaries swapped (and the shapes the manifest says): each sound, of another column
        manifest = json.loads((part / "manifest.json").read_text(encoding="utf-8"))
        shapes = manifest["arrays"]
        one, other = "title_dictionary", "abstract_dictionary"
        shapes[one], shapes[other] = shapes[other], shapes[one]
        (part / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        shutil.move(part / f"{one}.npy", part / "swapping")
        shutil.move(part / f"{other}.npy", part / f"{one}.npy")
        shutil.move(part / "swapping", part / f"{other}.npy")


def a_day_passes(entry: Path) -> None:
    """As if the entry's parts had been found sound a day ago."""
    record = entry / sound.CHECKED
    times = json.loads(record.read_text(encoding="utf-8"))
    assert times  # the check kept when it found them sound
    earlier = {name: at - sound.RECHECK for name, at in times.items()}
    record.write_text(json.dumps(earlier), encoding="utf-8")


def searched(found: Opening, text: str) -> list[str]:
    assert found.index is not None
    ranking = found.index.run(parse_query(text))
    return [found.store.id_of(int(number)) for number in ranking.numbers]


@pytest.mark.parametrize(
    "how", ["abstract's frames", "index's text", "postings", "dictionaries swapped"]
)
def test_a_part_damaged_on_disk_is_found_after_opening_and_read_again_at_the_next(
    tmp_path: Path, how: str
) -> None:
    path = papers_file(tmp_path)
    entry, new = kept_with_new_papers(path)
    assert check_kept(entry) == ""  # as written
    damage(entry, how)
    a_day_passes(entry)
    damaged = opened(path)  # opened as it was: its bytes are not read to open it
    assert damaged.way is Way.CACHED and damaged.kept == entry
    told = check_kept(entry)
    assert told == (
        "the papers kept in the cache are damaged (1 of its 2 parts): read again at the next start"
    )
    assert sound.marked(entry) == {first_part(entry).name}
    assert_mended(path, new)


def assert_mended(path: Path, new: set[str]) -> None:
    """Opened again, the entry is sound, holds the papers as loaded anew, keeps the papers new,
    and searches as an index built anew does."""
    mended = opened(path)
    assert mended.way is Way.CACHED and mended.kept is not None
    assert not sound.marked(mended.kept) and check_kept(mended.kept) == ""
    assert list(mended.store) == loaded_anew(path)
    assert isinstance(mended.index, FlatIndex) and set(mended.index.new) == new
    fresh = PaperStore(loaded_anew(path))
    built = Opening(fresh, index=build_index(fresh))
    for query in ("neural network", '"neural network"', "learning", "lerning"):
        assert searched(mended, query) == searched(built, query)


def frame_start(part: Path, name: str, number: int) -> int:
    """Where a paper's frame of a framed column starts in its `.npy` file."""
    offsets = np.load(part / f"{name}_offsets.npy")
    header = (part / f"{name}.npy").stat().st_size - int(offsets[-1])
    return header + int(offsets[number])


def test_a_frame_that_cannot_be_read_is_told_by_the_command_in_one_line_and_read_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = papers_file(tmp_path)
    listed = ["list", "--papers", str(path), "--format", "jsonl"]
    assert main(["search", "learning", str(path), "--format", "jsonl"]) == 0
    capsys.readouterr()
    assert main(listed) == 0
    expected = [json.loads(line)["abstract"] for line in capsys.readouterr().out.splitlines()]
    (entry,) = (tmp_path / "cache").glob("papers-v*")
    part = first_part(entry)
    flip(part / "abstract.npy", frame_start(part, "abstract", 7))  # its magic number
    assert main(listed) == 0
    out, err = capsys.readouterr()
    abstracts = [json.loads(line)["abstract"] for line in out.splitlines()]
    assert abstracts[7] == DAMAGED.decode() and abstracts[:7] == expected[:7]
    assert err == (
        "tui-reader: some papers kept in the cache are damaged"
        " (shown as \N{REPLACEMENT CHARACTER}): read again at the next start\n"
    )
    assert sound.marked(entry) == {part.name}
    assert main(listed) == 0  # its papers never read from the damaged part again
    out, err = capsys.readouterr()
    assert [json.loads(line)["abstract"] for line in out.splitlines()] == expected and not err
    assert main(["search", "learning", str(path), "--format", "jsonl"]) == 0  # read again
    capsys.readouterr()
    assert not sound.marked(entry) and check_kept(entry) == ""


def test_a_frame_may_claim_no_more_than_its_column_s_longest_text() -> None:
    texts = _texts(2000)
    frames, dictionary = _frames(texts)
    longest = max(map(len, texts))
    read = reader(dictionary, longest, "abstract.npy")
    assert [read(frame) for frame in frames] == texts
    damage_seen()
    shorter = reader(dictionary, longest - 1, "abstract.npy")
    (number,) = [n for n, text in enumerate(texts) if len(text) == longest][:1]
    assert shorter(frames[number]) == DAMAGED and damage_seen() == ["abstract.npy"]
    with pytest.raises(DamagedFrame, match="claims"):
        shorter.strict(frames[number])
    # A header claiming two gigabytes: refused before zstd asks for them.
    header = bytearray(frames[4])
    header[4] = 0xE0 | (header[4] & 0x1F)
    header[5:13] = (2**31).to_bytes(8, "little")
    with pytest.raises(DamagedFrame, match="claims 2147483648 bytes"):
        read.strict(bytes(header))


def test_a_kept_part_records_its_columns_longest_texts(tmp_path: Path) -> None:
    path = papers_file(tmp_path, 300)
    opened(path)
    (entry,) = (tmp_path / "cache").glob("papers-v*")
    (part,) = open_kept(entry).parts
    store = loaded_anew(path)
    longest = max(len(paper.abstract.encode()) for paper in store)
    assert part.facts.largest["abstract"] == longest
    assert part.reader("abstract").largest == longest
    assert part.index is not None and 0 < part.index.largest <= 2 * longest + 1000


def test_the_reader_tells_in_a_notice_that_the_papers_it_opened_are_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unhurried_reading: None
) -> None:
    path = papers_file(tmp_path, 300)
    opened(path)
    (entry,) = (tmp_path / "cache").glob("papers-v*")
    damage(entry, "abstract's frames")
    notices: list[str] = []
    run = ReaderApp.run

    def run_and_look(app: ReaderApp) -> None:
        async def look(pilot: Pilot[Any]) -> None:
            try:
                await ready(pilot)

                def told() -> bool:
                    return any("damaged" in str(n.message) for n in app._notifications)

                await wait_until(pilot, told, "the notice of damage")
                notices.extend(str(notice.message) for notice in app._notifications)
            finally:
                app.exit()

        run(app, headless=True, auto_pilot=look)

    monkeypatch.setattr(ReaderApp, "run", run_and_look)
    assert main([str(path)]) == 0
    assert [n for n in notices if "damaged" in n] == [
        "The papers kept in the cache are damaged (its one part): read again at the next start"
    ]
    assert sound.marked(entry)


def test_a_part_cut_short_is_told_and_the_papers_loaded_anew_stay_new(tmp_path: Path) -> None:
    path = papers_file(tmp_path)
    entry, new = kept_with_new_papers(path)
    frames = first_part(entry) / "abstract.npy"
    with frames.open("r+b") as file:
        file.truncate(frames.stat().st_size // 2)
    again = opened(path)  # rejected as it is opened: loaded anew and written again
    assert again.way is Way.LOADED
    (told,) = again.cache_problems
    assert "abstract is cut short" in told and told.endswith(": loading them anew")
    after = opened(path)
    assert after.way is Way.CACHED and list(after.store) == loaded_anew(path)
    assert isinstance(after.index, FlatIndex) and set(after.index.new) == new


def test_a_damaged_frame_is_never_written_again_as_text(tmp_path: Path) -> None:
    """Kept texts written again (a merge of parts, an entry rewritten) are read strictly: a
    frame that cannot be read stops the write and marks its part, never kept as U+FFFD."""
    path = papers_file(tmp_path, 300)
    opened(path)
    (entry,) = (tmp_path / "cache").glob("papers-v*")
    part = first_part(entry)
    flip(part / "abstract.npy", frame_start(part, "abstract", 3))
    damage_seen()
    store = open_kept(entry).parts[0].store()
    assert store[3].abstract == DAMAGED.decode() and store[2].abstract
    assert damage_seen() == [str(part / "abstract.npy")]
    with pytest.raises(DamagedFrame):
        store.arrays()[0]["abstract"]
    assert damage_seen() == [str(part / "abstract.npy")]


def test_the_arrays_that_join_the_parts_damaged_are_made_again_at_the_next_opening(
    tmp_path: Path,
) -> None:
    path = papers_file(tmp_path)
    entry, new = kept_with_new_papers(path)
    joining = sorted(entry.glob("*.npy"), key=lambda array: -array.stat().st_size)
    assert joining  # two parts: joined by arrays of the entry's own
    flip(joining[0], joining[0].stat().st_size - 5)
    assert check_kept(entry) == (
        "the papers kept in the cache are damaged (what joins its parts):"
        " read again at the next start"
    )
    assert_mended(path, new)


def test_a_damaged_part_read_again_is_not_told_as_papers_taken_in(tmp_path: Path) -> None:
    path = papers_file(tmp_path)
    entry, new = kept_with_new_papers(path)
    damage(entry, "abstract's frames")
    check_kept(entry)
    told: list[int] = []
    mended = open_papers([path], check_paths([path]), stream_from=0, taking_in=told.append)
    assert mended.way is Way.CACHED and told == []
    assert isinstance(mended.index, FlatIndex) and set(mended.index.new) == new


def test_an_entry_of_one_part_damaged_is_told_as_its_one_part(tmp_path: Path) -> None:
    path = papers_file(tmp_path)
    opened(path)  # kept once indexed
    entry = opened(path).kept
    assert entry is not None and len(open_kept(entry).parts) == 1
    damage(entry, "abstract's frames")
    assert check_kept(entry) == (
        "the papers kept in the cache are damaged (its one part): read again at the next start"
    )


def test_a_part_found_sound_is_read_again_only_a_day_later(tmp_path: Path) -> None:
    path = papers_file(tmp_path)
    entry, _ = kept_with_new_papers(path)
    assert check_kept(entry) == ""  # as written
    damage(entry, "abstract's frames")
    assert check_kept(entry) == ""  # found sound less than a day ago: not read again
    assert not sound.marked(entry)
    a_day_passes(entry)
    assert check_kept(entry) == (
        "the papers kept in the cache are damaged (1 of its 2 parts): read again at the next start"
    )
    assert sound.marked(entry) == {first_part(entry).name}


@pytest.mark.parametrize("command", ["search", "list"])
def test_a_byte_flipped_inside_a_frame_is_found_by_a_command_and_never_printed(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    """A command checks the entry against its digests before it reads it, as the reader does
    as it runs (a part found sound read again a day later at the soonest): a search reads the
    part found damaged again at once, a command without the index loads the papers anew."""
    path = papers_file(tmp_path)
    if command == "search":
        arguments = ["search", "learning", str(path), "--format", "jsonl", "--limit", "1500"]
    else:
        arguments = ["list", "--papers", str(path), "--format", "jsonl"]
    assert main(["search", "learning", str(path)]) == 0  # kept (cold)
    capsys.readouterr()
    assert main(arguments) == 0  # checked: found sound
    expected, err = capsys.readouterr()
    assert not err
    (entry,) = (tmp_path / "cache").glob("papers-v*")
    part = first_part(entry)
    read: list[Path] = []
    with monkeypatch.context() as patched:
        patched.setattr(sound, "altered", lambda folder: read.append(folder) or False)
        assert main(arguments) == 0  # within the day: not read again
    assert not read and capsys.readouterr()[0] == expected
    flip(part / "abstract.npy", frame_start(part, "abstract", 7) + 40)  # inside the frame
    a_day_passes(entry)
    assert main(arguments) == 0
    out, err = capsys.readouterr()
    assert err == (
        "tui-reader: the papers kept in the cache are damaged (its one part): read again now\n"
    )
    assert out == expected
    if command == "search":  # read again at once
        assert not sound.marked(entry) and check_kept(entry) == ""
    else:  # never read from the damaged part, made again by the next command that indexes
        assert sound.marked(entry) == {part.name}
    assert main(arguments) == 0
    assert capsys.readouterr() == (expected, "")
