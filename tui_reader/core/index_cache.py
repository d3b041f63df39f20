"""Loaded papers and their search index, kept on disk between runs, opened by memory map.

An entry is a folder in the cache folder for a list of files (core.segments.entry): the
papers and index kept in parts (core.segments.part), each the papers of a range of a file.
Arrays are read with `np.load(..., mmap_mode="r", allow_pickle=False)`: nothing is
unpickled, no code runs, and the pages are read when a paper is shown. Anything else is
rejected and the papers are loaded anew: another format or version, a missing, truncated or
mistyped array, offsets that do not add up, codes out of range.

Opened for files that changed, an entry is brought up to date rather than built again: what
was appended to a file, or a file added to the list, is read into a part of its own (seconds
for a day's papers beside a million); a file changed within what was read is read again
whole, alone. The entry of other files that begin the same list is the start of a new one.

An entry is written whole into a temporary folder and renamed into place, when the index is
built (`write_entry` for the commands, core.opening; `write_entry_in_background` for the
reader, never at quit) or brought up to date; the cache folder is kept under the `[cache]
limit` setting, least recently used entries removed first. A cache is a convenience only: one
that cannot be read or written costs time, and one that cannot be written is told (`not_kept`,
of `write_entry`, `load_cached` and `refresh_kept`), since every run builds again until it can.
"""

import contextlib
import os
import shutil
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from tui_reader.core.config import Config, ConfigError, load_config
from tui_reader.core.engine import SearchEngine
from tui_reader.core.expected_papers import papers_in_ranges
from tui_reader.core.flat import disk
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.frames import damage_seen
from tui_reader.core.loading import NO_FILTER, LoadError, LoadFilter, LoadResult
from tui_reader.core.locations import cache_folder, config_path
from tui_reader.core.scratch import ScratchError
from tui_reader.core.segments import entry, sound
from tui_reader.core.segments.added import new_keys
from tui_reader.core.segments.earlier import taken_in
from tui_reader.core.segments.entry import Kept, TooMuch
from tui_reader.core.segments.kept import carried, holding, nearest, prune, rebuild_indexes
from tui_reader.core.segments.part import MANIFEST
from tui_reader.core.segments.ranges import CutShort, Rejected, identity
from tui_reader.core.segments.whole import FilesRead, files_read, framed_ahead, write_whole
from tui_reader.core.store import PaperStore
from tui_reader.core.text import displayed
from tui_reader.core.wording import count

__all__ = [
    "VERSION",
    "IndexedPapers",
    "Rejected",
    "cache_limit",
    "cached_papers",
    "check_kept",
    "damage_noted",
    "load_cached",
    "prune",
    "refresh_kept",
    "write_entry",
    "write_entry_in_background",
]

VERSION = entry.VERSION
# Bytes of files the reader reads to bring an entry up to date before it starts (a day's
# papers of arXiv are about a megabyte); more, and it loads them all as it runs.
UPDATE_AT_MOST = 16_000_000


@dataclass
class IndexedPapers:
    loaded: LoadResult  # its papers: `store`
    index: SearchEngine  # over the store's papers, numbered in their order
    store: PaperStore
    unusable: str = ""  # what of the entry kept for these files could not be used, and why
    new_at: float = 0.0  # when the papers new (the index's `new`) were taken in; 0.0: never
    folder: Path | None = None  # the entry they were read from, to check (`check_kept`)


class _Refused(Exception):
    """The cache folder could not take what was written to it: the OSError it raised."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


@contextlib.contextmanager
def _refusals() -> Iterator[None]:
    """An OSError of writing an entry raised as _Refused; not one of the temporary files a
    build writes elsewhere (ScratchError, told as the build's)."""
    try:
        yield
    except ScratchError:
        raise
    except OSError as error:
        raise _Refused(error) from error


def _tell_not_kept(not_kept: list[str] | None, root: Path, error: Exception) -> None:
    """Say in `not_kept`, once, that the cache folder `root` could not take an entry."""
    if not_kept is None:
        return
    why = (error.strerror if isinstance(error, OSError) else None) or str(error)
    if os.path.lexists(root) and not root.is_dir():  # "File exists", as mkdir says it
        why = "not a folder"
    told = (
        f"cache not kept: {displayed(root)}: {why or type(error).__name__}; "
        "the next run reads and indexes the papers again"
    )
    if told not in not_kept:
        not_kept.append(told)


def cache_limit() -> int:
    """The `[cache] limit` setting: bytes the cache folder may take."""
    try:
        return load_config(config_path())[0].cache_limit
    except ConfigError:  # told by the commands and the reader
        return Config().cache_limit


def load_cached(
    files: Sequence[Path],
    rebuild: bool = True,
    unusable: list[Exception] | None = None,
    update_at_most: int | None = UPDATE_AT_MOST,
    taking_in: Callable[[int], object] | None = None,
    load_filter: LoadFilter = NO_FILTER,
    checked: list[str] | None = None,
    not_kept: list[str] | None = None,
) -> IndexedPapers | None:
    """The papers and index kept for these files (those `load_filter` admits: an entry of
    their own, core.segments.filtered), memory-mapped, brought up to date when
    the files grew, changed or were added to (reading at most `update_at_most` bytes of
    them; None: all it needs; `taking_in` is told about how many papers that reads, before
    it reads them, `papers_in_ranges`); None when there are none, or what is there is
    rejected, and then why, in `unusable`. An entry whose papers are sound but whose index
    is not (another version of the index's format, or damaged) gets its index built and
    kept again (rejected, unless `rebuild`). With `checked` (a command, which reads them
    once), the entry is checked against its digests first, as the reader checks it as it
    runs (`check_kept`), and its parts found damaged are read again at once, said there.
    When the cache folder cannot take the entry brought up to date or its index built again
    (a full disk, a folder that cannot be written), None, and why in `not_kept`, as
    `write_entry` says it."""
    try:
        root = cache_folder()
        files = _distinct(files)
        folder = entry.folder_for(root, files, load_filter)
    except OSError:
        return None
    try:
        kept = _kept(root, files, load_filter, update_at_most, taking_in)
        if kept is not None and checked is not None and (damaged := check_kept(kept.folder, True)):
            checked.append(damaged)
            kept = _kept(root, files, load_filter, update_at_most, taking_in)  # read again
        if kept is None:
            return None
        index, told = kept.index(), ""
        if index is None:
            upgraded = _of_another_version(kept)
            if not rebuild:
                if upgraded:  # indexed again as the reader runs: no problem to tell
                    return None
                raise Rejected(f"{kept.folder}: an index of another version, or damaged")
            told = _REBUILT[upgraded]
            with _refusals():
                kept = rebuild_indexes(root, files, kept)
            index = kept.index()
        assert index is not None
    # ValueError: a kept gzip file grown by bytes damaged or cut short (`ranges.scanned`)
    except (_Refused, Rejected, OSError, LoadError, ValueError) as error:
        sound.mark_seen(damage_seen())  # a frame read back damaged as the entry was made
        if isinstance(error, _Refused):  # not the entry's fault: what it adds was refused
            _tell_not_kept(not_kept, root, error.error)
        elif unusable is not None and os.path.lexists(folder):
            unusable.append(error)
        return None
    (kept.folder / MANIFEST).touch()  # recently used: kept longest
    index.new = frozenset(kept.store.id_of(number) for number in kept.new().tolist())
    return IndexedPapers(_loaded(kept), index, kept.store, told, kept.new_at(), kept.folder)


# What a command tells of an entry's indexes made again: whether of another version.
_REBUILT = {
    True: "the index kept in the cache is of another version of tui-reader: made again from "
    "the papers kept",
    False: "the index kept in the cache could not be used: built again",
}


def _of_another_version(kept: Kept) -> bool:
    """Whether each part's index that cannot be used is of another version (an upgrade),
    not damaged or missing."""
    folders = [part.folder for part in kept.parts if part.index is None]
    current = f"flat-v{disk.VERSION}-*"
    return all(any(f.glob("flat-v*")) and not any(f.glob(current)) for f in folders)


def _kept(
    root: Path,
    files: Sequence[Path],
    load_filter: LoadFilter,
    most: int | None,
    taking_in: Callable[[int], object] | None = None,
) -> Kept | None:
    """The entry of these files read with this filter, brought up to date (`taking_in` told
    of it first); None when there is none, or it would read more than `most` bytes of them."""
    folder = entry.folder_for(root, files, load_filter)
    if os.path.lexists(folder):
        manifest = entry.read_manifest(folder)
        again = sound.marked(folder)  # parts found damaged
        if not again and manifest["sources"] == [identity(file) for file in files]:
            return entry.open_kept(folder)
        before = entry.open_kept(folder)
    else:
        found = nearest(root, files, load_filter)
        if found is None:  # an entry of the version before parts, of one file?
            whole = len(files) == 1 and load_filter == NO_FILTER
            earlier = taken_in(root, files[0]) if whole else None
            return None if earlier is None else entry.open_kept(earlier)
        try:
            before, again = entry.open_kept(found), sound.marked(found)
        except Rejected:
            return None  # another list's: not told
    steps = entry.plan(before, files, again)
    reading = entry.to_read(steps)
    if most is not None and reading > most:
        return None
    new = entry.plan(before, files) if again else steps  # not parts mended
    if entry.to_read(new) and taking_in is not None:
        taking_in(papers_in_ranges(entry.ranges_read(new)))
    try:
        with _refusals():
            written = entry.write(root, files, steps, before, most, fresh=sound.VIEW in again)
    except TooMuch:
        return None
    prune(root, cache_limit(), keep=written)
    return entry.open_kept(written)


def _distinct(files: Sequence[Path]) -> list[Path]:
    """The files, each once: a file named twice gives no paper the second time."""
    first: dict[Path, Path] = {}
    for file in files:
        first.setdefault(file.resolve(), file)
    return list(first.values())


def _loaded(kept: Kept) -> LoadResult:
    collections = list(dict.fromkeys(c for part in kept.parts for c in part.facts.collections))
    return LoadResult(kept.store, collections, list(kept.problems), kept.duplicates)


def cached_papers(
    files: Sequence[Path], load_filter: LoadFilter = NO_FILTER, checked: list[str] | None = None
) -> tuple[PaperStore, LoadResult] | None:
    """The papers kept for exactly these files (those the filter admits), memory-mapped,
    without their index (the reader builds one of another version again while it runs:
    minutes at a million papers); None when there are none or they are rejected. With
    `checked`, as `load_cached`'s: None when found damaged now, said there."""
    try:
        files = _distinct(files)
        folder = entry.folder_for(cache_folder(), files, load_filter)
        if entry.read_manifest(folder)["sources"] != [identity(file) for file in files]:
            return None
        if sound.marked(folder):  # damaged: never read, nor kept again as text
            return None
        if checked is not None and (damaged := check_kept(folder, True)):
            checked.append(damaged)
            return None
        kept = entry.open_kept(folder)
    except (Rejected, OSError):
        return None
    return kept.store, _loaded(kept)


def check_kept(folder: Path, at_once: bool = False) -> str:
    """Check the files of the entry in this folder against their digests (seconds at a
    million papers: the reader does it in the background once it has opened them; a command
    before it reads them), each part at most once a day (core.segments.sound); what to tell
    of the parts found damaged, marked to be read again (at the next start, or `at_once`),
    or ""."""
    try:
        manifest = entry.read_manifest(folder)
        names = manifest["parts"]
        damaged = sound.check(folder, names, manifest.get("digests"))
    except (Rejected, OSError):
        return ""  # replaced meanwhile by a newer entry, or not ours to mark: checked again
    if not damaged:
        return ""
    parts = [name for name in damaged if name != sound.VIEW]
    if len(names) == 1 and parts:
        of = "its one part"
    else:
        of = f"{len(parts)} of its {count(len(names), 'part')}" if parts else "what joins its parts"
    again = "read again now" if at_once else "read again at the next start"
    return f"the papers kept in the cache are damaged ({of}): {again}"


def damage_noted() -> str:
    """What to tell of the kept texts found damaged as they were read in this process (their
    parts marked to be read again), or ""."""
    entries = sound.mark_seen(damage_seen())
    if not entries:
        return ""
    shown = "shown as \N{REPLACEMENT CHARACTER}"
    return f"some papers kept in the cache are damaged ({shown}): read again at the next start"


def preparing_entry(files: Sequence[Path], store: PaperStore) -> Callable[[], FilesRead | None]:
    """Start what writing the entry of these files and papers reads first, in a thread (a
    core is free while the index's arrays are made once the papers have loaded): the files
    read whole, the store's long texts of an entry of one file written as frames, and the
    headlines' ranks the store keeps; what `write_entry` takes as `read`, given when waited
    for (None when a file could not be read: it is read again there, and says why)."""
    prepared: list[FilesRead] = []
    done = threading.Event()  # not Thread.join: interrupted, 3.11's takes the thread as ended

    def prepare() -> None:
        try:
            with contextlib.suppress(OSError, ValueError):
                read = files_read(_distinct(files))
                if len(read.sources) == 1:  # its store's long texts, as its part keeps them
                    read = replace(read, framed=framed_ahead(cache_folder(), store))
                prepared.append(read)
            store.headline_ranks()
        finally:
            done.set()

    threading.Thread(target=prepare, daemon=True).start()

    def wait() -> FilesRead | None:
        done.wait()
        return prepared[0] if prepared else None

    return wait


def discard_prepared(wait: Callable[[], FilesRead | None]) -> None:
    """What `preparing_entry` made, waited for and removed: the entry will not be written."""
    read = wait()
    if read is not None and read.framed is not None:
        shutil.rmtree(read.framed.folder, ignore_errors=True)


def write_entry(
    files: Sequence[Path],
    indexed: IndexedPapers,
    root: Path | None = None,
    limit: int | None = None,
    load_filter: LoadFilter = NO_FILTER,
    read: FilesRead | None = None,
    not_kept: list[str] | None = None,
) -> bool:
    """Keep these papers (those `load_filter` admits) and their index for the next run over
    the same files (the index only when it is one the flat format holds; else the papers of
    one file alone); whether they were written, and when the cache folder could not take
    them (a full disk, a folder that cannot be written), why, in `not_kept`: nothing of the
    entry is left there. The cache folder is then pruned to `limit` bytes (the setting's by
    default). `read`: the files as `preparing_entry` read them."""
    store, loaded, index = indexed.store, indexed.loaded, indexed.index
    if len(index) != len(store) or not len(store):
        return False  # papers still loading: not yet the files' papers; or none admitted
    root = cache_folder() if root is None else root
    try:
        files = _distinct(files)
        flat = index if isinstance(index, FlatIndex) else None
        # The papers new to the entries written before (another version's, a damaged one's)
        # stay new; those the entry replaced did not hold are new.
        keys = store.number_column("keys", len(store))
        added = carried(root, files, keys, load_filter)
        final = write_whole(
            root, files, store, flat, loaded.problems, loaded.duplicates, added, load_filter, read
        )
        if final is None:
            return False
        if flat is not None and added:  # is:new in the run that wrote the entry too
            numbers = np.flatnonzero(np.isin(keys, new_keys(added))).tolist()
            flat.new = frozenset(store.id_of(number) for number in numbers)
        prune(root, cache_limit() if limit is None else limit, keep=final)
    except CutShort:  # said where its papers were read
        return False
    except (OSError, ValueError) as error:  # costs time, never the run
        _tell_not_kept(not_kept, root, error)
        return False
    finally:
        if read is not None and read.framed is not None:  # not moved into the entry
            shutil.rmtree(read.framed.folder, ignore_errors=True)
    return True


def write_entry_in_background(
    files: Sequence[Path],
    store: PaperStore,
    index: SearchEngine,
    problems: Sequence[str] = (),
    duplicates: int = 0,
    reopened: Callable[[IndexedPapers | None, str], object] | None = None,
    load_filter: LoadFilter = NO_FILTER,
) -> threading.Thread:
    """Keep the papers of these files and their index (as `write_entry`: not while papers are still
    loading) in a daemon thread, started now; then give `reopened` the entry opened again by
    memory map (in that thread), to read from in their place, or None when none was kept;
    and why the cache folder could not take it, or "".
    Safe while the reader runs: it only reads the store. Safe to abandon at quit: an
    unfinished entry is a temporary folder, which a later prune removes."""
    loaded = LoadResult(store, list(store.collections), list(problems), duplicates)
    indexed = IndexedPapers(loaded, index, store)

    def keep_and_reopen() -> None:
        kept: IndexedPapers | None = None
        not_kept: list[str] = []
        try:
            written = write_entry(files, indexed, load_filter=load_filter, not_kept=not_kept)
            if written and reopened is not None:
                kept = load_cached(files, rebuild=False, load_filter=load_filter)
        finally:  # told even when it failed: the reader says it is keeping them until then
            if reopened is not None:
                reopened(kept, "".join(not_kept))

    thread = threading.Thread(target=keep_and_reopen, daemon=True)
    thread.start()
    return thread


def refresh_kept(file: Path, opened: Sequence[Path] = (), not_kept: list[str] | None = None) -> int:
    """Bring up to date each entry kept of files among which is this one, which changed (a
    fetch wrote papers into it), and the entry of the files `opened` (those the reader opens
    when it is named none) when this one is among them: a file new to them (a day's fetch) is
    taken in beside the papers kept of the others, as the reader would take it in (at most
    UPDATE_AT_MOST bytes read). So the next start reads them at once; how many were brought
    up to date; why the cache folder could not take them, in `not_kept` (`load_cached`'s).
    Never raises: a cache is a convenience."""
    path = str(file.resolve())
    brought = 0
    try:
        kept: list[tuple[list[Path], LoadFilter, int | None]] = [
            (files, read_with, None) for files, read_with in holding(cache_folder(), path)
        ]
        by_default = [Path(str(one.resolve())) for one in opened]
    except OSError:
        return 0
    whole = [files for files, read_with, _ in kept if read_with == NO_FILTER]
    if Path(path) in by_default and by_default not in whole:
        kept.append((by_default, NO_FILTER, UPDATE_AT_MOST))
    for files, read_with, most in kept:
        try:
            found = load_cached(files, False, None, most, load_filter=read_with, not_kept=not_kept)
            if found is not None:
                brought += 1
        except (OSError, LoadError):
            continue
    return brought
