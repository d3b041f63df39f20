"""An entry of the version before parts (3: a folder per set of files, a file's identity its
size and modification time), taken in as an entry of one part: the papers of a million kept
by an earlier tui-reader are not loaded and indexed again after an upgrade. Only an entry of
one file whose size and modification time are those kept, read whole once (its CRC-32, lines
and last bytes, as a part's range is), and whose format reads records as it did then
(core.formats.read_as_now: none that has read them otherwise since), is taken in; its
arrays are hard links (copies where links cannot be made), checked as a part's are when the
new entry is opened.
"""

import hashlib
import json
import secrets
import shutil
import tempfile
from pathlib import Path

from tui_reader.core.columns import view
from tui_reader.core.flat import disk
from tui_reader.core.formats import read_as_now
from tui_reader.core.segments import entry, part
from tui_reader.core.segments.ranges import Rejected, identity, scanned
from tui_reader.core.writing import writing_prefix

VERSION = 3


def _folder(root: Path, sources: list[dict[str, object]]) -> Path:
    key = hashlib.sha256(json.dumps(sources, sort_keys=True).encode()).hexdigest()[:24]
    return root / f"{entry.PREFIX}{VERSION}-{key}"


def taken_in(root: Path, file: Path) -> Path | None:
    """The entry of this file made of the earlier version's, when there is a sound one that
    its format reads as now (its papers would be read again); its folder. OSError when it
    cannot be written."""
    if not read_as_now(str(file), None):
        return None
    sources = [identity(file)]
    earlier = _folder(root, sources)
    try:
        limit = entry.MANIFEST_LIMIT
        manifest = disk.read_manifest(earlier, (entry.FORMAT, VERSION), sources, limit)
        (index,) = earlier.glob(f"flat-v{disk.VERSION}-*")
        kept = disk.read_manifest(index, (disk.FORMAT, disk.VERSION), sources, disk.MANIFEST_LIMIT)
        names = {name: manifest[listed] for name, listed in part.NAMES.items()}
        count, collections = manifest["count"], manifest["collections"]
        arrays = manifest["arrays"]
    except (disk.Rejected, ValueError, KeyError, TypeError):
        return None
    framed = {f"{name}_dictionary" for name in part.FRAMED}
    if not isinstance(arrays, dict) or set(arrays) | framed != set(part.TYPES):
        return None
    kept_range = scanned(file.resolve(), 0, int(str(sources[0]["size"])))
    if identity(file) != sources[0]:  # it changed as it was read
        return None
    name = secrets.token_hex(8)
    temporary = Path(tempfile.mkdtemp(prefix=writing_prefix(), dir=root))
    try:
        folder = temporary / entry.PARTS / name
        folder.mkdir(parents=True)
        linked = [array for array in arrays if array.removesuffix("_offsets") not in part.FRAMED]
        for array in linked:
            _link(earlier / f"{array}.npy", folder / f"{array}.npy")
        shapes = {array: arrays[array] for array in linked}
        for text in part.FRAMED:  # kept whole then, as frames now
            offsets = part.array_of(earlier, f"{text}_offsets", arrays[f"{text}_offsets"])
            raw = part.array_of(earlier, text, arrays[text])
            shapes |= part.save_framed(folder, text, [view(raw)], offsets)[0]
        ranges = part.sources_of([kept_range])
        moved = disk.folder_for(folder, ranges)
        moved.mkdir()
        for array in kept["arrays"]:
            _link(index / f"{array}.npy", moved / f"{array}.npy")
        (moved / disk.MANIFEST).write_text(json.dumps(kept | {"sources": ranges}), "utf-8")
        facts = {
            "format": part.FORMAT,
            "version": part.VERSION,
            "name": name,
            "ranges": ranges,
            "count": count,
            "collections": collections,
            **{listed: names[key] for key, listed in part.NAMES.items()},
            "problems": manifest["problems"],
            "duplicates": manifest["duplicates"],
            "met_before": 0,
            "made": (earlier / disk.MANIFEST).stat().st_mtime,
            "arrays": shapes,
        }
        (folder / part.MANIFEST).write_text(json.dumps(facts), encoding="utf-8")
        whole = {
            "format": entry.FORMAT,
            "version": entry.VERSION,
            "files": [str(file.resolve())],
            "sources": sources,
            "parts": [name],
            "count": count,
            "problems": manifest["problems"],
            "duplicates": manifest["duplicates"],
            "added": [],
            "arrays": {},
        }
        (temporary / part.MANIFEST).write_text(json.dumps(whole), encoding="utf-8")
        final = entry.folder_for(root, [file])
        disk.put_in_place(temporary, final)
    except Rejected:
        shutil.rmtree(temporary, ignore_errors=True)
        return None
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    shutil.rmtree(earlier, ignore_errors=True)
    return final


def _link(source: Path, target: Path) -> None:
    if source.is_symlink() or not source.is_file():
        raise Rejected(f"{source}: not a file of the cache")
    try:
        target.hardlink_to(source)
    except OSError:
        shutil.copyfile(source, target)
