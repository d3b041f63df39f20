"""The flat index kept on disk: a folder of .npy arrays and a small JSON manifest, opened by
memory map (nothing is unpickled, no code runs when it is read).

A folder stands for what it was built from (named in the manifest: source files' path, size
and modification time, or the ranges of files of a kept part) and for one format version
(`VERSION`, raised whenever the arrays change meaning). Anything else is rejected and the
papers are indexed again: another version, other sources, a missing or truncated array, an
array of another type or shape than the manifest says, offsets that do not add up. Folders are
written whole into a temporary folder and renamed into place.

The manifest also holds each array's digest (the CRC-32 of its file: `digests`), which is not
read as a folder is opened (a million papers' index is a gigabyte) but checked after, in the
background (`altered`, core.segments.sound), and the length of the longest folded text, which
no frame of the text may claim to exceed (core.frames).
"""

import hashlib
import json
import math
import os
import shutil
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from isal import isal_zlib

from tui_reader.core.digest import Digesting, hex_digest
from tui_reader.core.flat.folded_text import STEP, give_back, mapping_of
from tui_reader.core.flat.index import FlatIndex
from tui_reader.core.flat.kept_text import KEPT, compressed
from tui_reader.core.flat.parts import IndexPart
from tui_reader.core.flat.words import Array, Arrays
from tui_reader.core.frames import LARGEST, bytes_file, longest, usable
from tui_reader.core.writing import writing_prefix

FORMAT = "tui-reader flat index"
VERSION = 9  # 2: words numbered in alphabetical order; 3: each paper's number of words;
# 4: a soft hyphen or zero-width character inside a word no longer splits it; 5: a LaTeX
# command's arguments are words apart from its name (\textsc{BERT} was textscbert); 6: an
# accent takes no space after its letter, and Alzheimer\'s is Alzheimer's (it was
# alzheimersdisease); a dash in the folded text is a space to phrases; 7: which papers have
# no title (`untitled`), and PDF-extraction debris mended: piri(cid:173) form is piriform,
# classi(cid:12)cation classification; 8: the folded text kept a zstd frame a paper, with its
# dictionary (`text_dictionary`, core.flat.kept_text); 9: the collection's name in `venue`
# alone, not in `all`, `cased` or the folded text
MANIFEST = "manifest.json"
MANIFEST_LIMIT = 1_000_000  # bytes: a manifest is small; a bigger file is not ours
# Offsets arrays and the array whose length their last value must be.
_BOUNDED = {
    "words_offsets": "words",
    "cased_words_offsets": "cased_words",
    "all_offsets": "all_papers",
    "title_offsets": "title_papers",
    "author_offsets": "author_papers",
    "venue_offsets": "venue_papers",
    "cased_offsets": "cased_papers",
    "text_offsets": "text",
    "compound_keys_offsets": "compound_keys",
    "compound_values_offsets": "compound_values",
}


class Rejected(Exception):
    """A kept index that is not a sound index of these sources (it is built again)."""


def sources_of(files: Sequence[Path]) -> list[dict[str, object]]:
    """What identifies the source files: where they are, their size and modification time."""
    identity: list[dict[str, object]] = []
    for file in files:
        status = file.stat()
        identity.append(
            {"path": str(file.resolve()), "size": status.st_size, "mtime_ns": status.st_mtime_ns}
        )
    return identity


def folder_for(root: Path, sources: list[dict[str, object]]) -> Path:
    key = hashlib.sha256(json.dumps(sources, sort_keys=True).encode()).hexdigest()[:24]
    return root / f"flat-v{VERSION}-{key}"


def save(root: Path, sources: list[dict[str, object]], arrays: Mapping[str, Array]) -> Path:
    """Write the arrays for these sources into the cache root (atomically: a folder renamed
    into place); returns the folder. OSError when it cannot be written."""
    root.mkdir(parents=True, exist_ok=True)
    final = folder_for(root, sources)
    temporary = Path(tempfile.mkdtemp(prefix=writing_prefix(), dir=root))
    facts: dict[str, object] = {}
    try:
        written: dict[str, dict[str, object]] = {}  # what each array written already is
        taken: dict[str, str] = {}  # each array's digest, taken as it was written
        if KEPT not in arrays:  # the text as built: kept compressed, written as it is made
            facts["largest"] = longest(arrays["text_offsets"])  # a NUL more than a frame's
            with bytes_file(temporary / "text.npy") as into:
                offsets, dictionary = compressed(arrays["text"], arrays["text_offsets"], into)
            written["text"] = {"dtype": "|u1", "shape": [int(offsets[-1])]}
            taken["text"] = into.digest
            arrays = dict(arrays) | {
                "text_offsets": offsets,
                KEPT: np.frombuffer(dictionary, dtype=np.uint8),
            }
        shapes = {}
        for name, array in arrays.items():
            if name not in written:
                taken[name] = save_array(temporary / f"{name}.npy", array)
            shapes[name] = written.get(name, {"dtype": array.dtype.str, "shape": list(array.shape)})
        facts["digests"] = {name: taken[name] for name in shapes}
        manifest = {"format": FORMAT, "version": VERSION, "sources": sources, "arrays": shapes}
        manifest |= facts
        (temporary / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
        put_in_place(temporary, final)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    return final


def digest_of(path: Path) -> str:
    """The CRC-32 of a file, as hex digits: bit rot, a write cut short or a disk's error
    change it (another file made to match it is not what it guards against)."""
    crc, block = 0, bytearray(STEP)  # read into one buffer: a gigabyte read, none made
    read = memoryview(block)
    with path.open("rb") as stream:
        while size := stream.readinto(block):
            crc = isal_zlib.crc32(read[:size], crc)
    return f"{crc:08x}"


def altered(folder: Path, kept: object) -> list[str]:
    """The arrays of a folder whose file is not as its digest kept (`digests`) says, or
    cannot be read; none when no digests were kept (an earlier version's)."""
    if not isinstance(kept, dict):
        return []
    found = []
    for name, digest in kept.items():
        try:
            own_file(folder, folder / f"{name}.npy", name)
            if digest_of(folder / f"{name}.npy") != digest:
                found.append(str(name))
        except (Rejected, OSError):
            found.append(str(name))
    return found


def put_in_place(written: Path, final: Path) -> None:
    """Move a folder just written to its place in the cache, in place of what is there: a
    folder is removed, a link (planted: the cache makes none) only unlinked, never followed."""
    if final.is_symlink():
        final.unlink()
    else:
        shutil.rmtree(final, ignore_errors=True)
    os.replace(written, final)


def own_file(folder: Path, path: Path, name: str) -> None:
    """Rejected unless the path is a regular file: a link may lead out of the cache, and
    opening a FIFO waits for a writer forever."""
    try:
        mode = path.lstat().st_mode
    except OSError as error:
        raise Rejected(f"{folder}: {name} cannot be read ({error.strerror})") from None
    if stat.S_ISLNK(mode):
        raise Rejected(f"{folder}: {name} is a link, not a file of the cache")
    if not stat.S_ISREG(mode):
        raise Rejected(f"{folder}: {name} is not a regular file")


def _cut_short(path: Path) -> bool:
    """Whether a NumPy file is shorter than its header says its array is."""
    try:
        with path.open("rb") as file:
            version = np.lib.format.read_magic(file)
            read = np.lib.format.read_array_header_1_0
            if version != (1, 0):
                read = np.lib.format.read_array_header_2_0
            shape, _, dtype = read(file)
            if dtype.hasobject:  # pickled, of any size: not plain values, cut short or not
                return False
            needed = file.tell() + math.prod(shape) * dtype.itemsize
        return path.stat().st_size < needed
    except (OSError, ValueError):
        return False


def mapped(folder: Path, name: str, described: object) -> Array:
    """An array of a kept folder, memory-mapped, as its manifest describes it ({"dtype":
    ..., "shape": [...]}); Rejected when it is not a file of the folder's own, cannot be read,
    or is another array. Nothing is unpickled: no code runs."""
    path = folder / f"{name}.npy"
    own_file(folder, path, name)
    try:
        array: Array = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, EOFError, ValueError) as error:  # missing, cut short, pickled objects
        if _cut_short(path):
            raise Rejected(f"{folder}: {name} is cut short") from None
        if isinstance(error, ValueError):  # objects, which may run code when read
            raise Rejected(f"{folder}: {name} is not an array of plain values") from None
        raise Rejected(f"{folder}: {name} cannot be read ({error})") from None
    if {"dtype": array.dtype.str, "shape": list(array.shape)} != described:
        raise Rejected(f"{folder}: {name} is not the array the manifest describes")
    return array


def save_array(path: Path, array: Array) -> str:
    """`np.save` (the same bytes), STEP bytes at a time, its digest taken as they are
    written; a mapped array's (big postings, core.flat.postings) pages given back once
    written. The digest."""
    mapped = mapping_of(array)
    array = np.ascontiguousarray(array)
    data = array.data.cast("B")
    start = 0 if mapped is None else array.ctypes.data - np.frombuffer(mapped, np.uint8).ctypes.data
    with path.open("wb") as stream:
        into = Digesting(stream)
        header = np.lib.format.header_data_from_array_1_0(array)
        np.lib.format.write_array_header_1_0(into, header)
        for begin in range(0, len(data), STEP):
            into.write(data[begin : begin + STEP])
            if mapped is not None:
                give_back(mapped, start + begin, start + min(begin + STEP, len(data)))
    return hex_digest(into.crc)


def read_manifest(
    folder: Path, kind: tuple[str, int], sources: list[dict[str, object]] | None, limit: int
) -> dict[str, Any]:
    """A kept folder's manifest, when it is of this format and version (`kind`) and was made
    from these sources (any, for None); else Rejected. A file over `limit` bytes is not one
    of ours."""
    name, version = kind
    if folder.is_symlink():
        raise Rejected(f"{folder}: a link, not the cache's own folder")
    own_file(folder, folder / MANIFEST, MANIFEST)
    try:
        with (folder / MANIFEST).open("rb") as stream:
            manifest = json.loads(stream.read(limit + 1)[:limit])
    except (OSError, ValueError, RecursionError) as error:
        raise Rejected(f"{folder}: no readable manifest ({error})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != name:
        raise Rejected(f"{folder}: not a {name}")
    if manifest.get("version") != version:
        raise Rejected(f"{folder}: format version {manifest.get('version')!r}, not {version}")
    if sources is not None and manifest.get("sources") != sources:
        raise Rejected(f"{folder}: made from other files")
    return manifest


def replace(root: Path, sources: list[dict[str, object]], arrays: Mapping[str, Array]) -> None:
    """Keep a new index for these sources in the root, in place of one of another version
    (or a damaged one); OSError when it cannot be written (the one it replaces is left)."""
    kept = save(root, sources, arrays)
    for other in root.glob("flat-v*"):
        if other != kept:
            shutil.rmtree(other, ignore_errors=True)


def open_index(root: Path, sources: list[dict[str, object]]) -> FlatIndex:
    """The index kept for these sources, memory-mapped. Rejected when there is none, or what
    is there is not a sound index of them."""
    return FlatIndex.joined([open_part(root, sources)])


def open_part(root: Path, sources: list[dict[str, object]]) -> IndexPart:
    """The arrays of the index kept for these sources, memory-mapped, and the file of its
    text. Rejected when there is none, or what is there is not a sound index of them."""
    folder = folder_for(root, sources)
    if not os.path.lexists(folder):  # none kept, or one of another version (an upgrade)
        raise Rejected(f"{root}: no index of this version ({VERSION})")
    manifest = read_manifest(folder, (FORMAT, VERSION), sources, MANIFEST_LIMIT)
    expected = manifest.get("arrays")
    if not isinstance(expected, dict):
        raise Rejected(f"{folder}: the manifest lists no arrays")
    arrays = {name: mapped(folder, name, described) for name, described in expected.items()}
    _check(folder, arrays)
    largest = manifest.get("largest", LARGEST)
    if type(largest) is not int:
        raise Rejected(f"{folder}: the manifest's largest is not a length")
    text = (folder / "text.npy").open("rb")  # read as long as the part lives
    start = int(arrays["text"].offset)  # type: ignore[attr-defined]
    return IndexPart(arrays, text, start, largest)


def _check(folder: Path, arrays: Arrays) -> None:
    """Offsets start at 0, never decrease and end at their array's length; the rest agree."""
    missing = {*_BOUNDED, *_BOUNDED.values(), "papers", "paper_words", "untitled", KEPT}
    missing -= set(arrays)
    if missing:
        raise Rejected(f"{folder}: missing {', '.join(sorted(missing))}")
    for name, bounded in _BOUNDED.items():
        offsets = np.asarray(arrays[name])
        if (
            offsets.ndim != 1
            or not len(offsets)
            or offsets[0] != 0
            or offsets[-1] != len(arrays[bounded])
            or np.any(np.diff(offsets) < 0)
        ):
            raise Rejected(f"{folder}: {name} does not index {bounded}")
    papers = int(np.asarray(arrays["papers"])[0])
    words = len(arrays["words_offsets"]) - 1
    for name in ("all", "title", "author", "venue"):
        if len(arrays[f"{name}_offsets"]) != words + 1:
            raise Rejected(f"{folder}: {name} postings do not match the vocabulary")
    if len(arrays["cased_offsets"]) != len(arrays["cased_words_offsets"]):
        raise Rejected(f"{folder}: cased postings do not match their vocabulary")
    if (
        len(arrays["text_offsets"]) != papers + 1
        or len(arrays["paper_words"]) != papers
        or len(arrays["untitled"]) != papers
    ):
        raise Rejected(f"{folder}: the arrays do not agree on how many papers or words")
    if not usable(np.asarray(arrays[KEPT])):
        raise Rejected(f"{folder}: {KEPT} is not a zstd dictionary")
