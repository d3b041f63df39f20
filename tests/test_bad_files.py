"""Files that are not quite what they claim: text with a stray NUL (a record skipped, the rest
read), files that are not text at all (refused in one line), gzip files that are no gzip,
damaged, or cut short."""

import gzip
import io
import json
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from tests.cli_helpers import run, run_process
from tui_reader.core.library import Library, default_path
from tui_reader.core.loading import LoadError, check_paths, load_paths

BINARY = "is a binary file, not UTF-8 text"


def records(count: int) -> list[str]:
    return [
        json.dumps({"title": f"Paper {n}", "abstract": f"Regret bounds for bandits, number {n}."})
        for n in range(count)
    ]


def with_nul(lines: list[str], number: int) -> bytes:
    """JSON Lines whose record `number` (0-based) holds a NUL byte in its text."""
    damaged = list(lines)
    damaged[number] = damaged[number].replace("Regret", "Reg\x00ret")
    return ("\n".join(damaged) + "\n").encode()


def first_past(lines: list[str], offset: int) -> int:
    """The first record that starts after byte `offset`."""
    start = 0
    for number, line in enumerate(lines):
        if start > offset:
            return number
        start += len(line) + 1
    raise AssertionError("too few records")


@pytest.mark.parametrize("name", ["papers.jsonl", "papers.jsonl.gz"])
@pytest.mark.parametrize("where", ["early", "late"])
def test_a_stray_nul_skips_its_record_wherever_it_is(tmp_path: Path, name: str, where: str) -> None:
    """A NUL in the first 8 KB refused the whole file as binary; past it, only its record was
    skipped."""
    lines = records(200)
    number = 3 if where == "early" else first_past(lines, 8673)
    data = with_nul(lines, number)
    path = tmp_path / name
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    assert check_paths([path]) == [path]
    loaded = load_paths([path])
    assert len(loaded.papers) == 199
    (problem,) = loaded.problems
    assert problem.startswith(f"{path}:{number + 1}: not valid JSON")


def test_a_folders_text_file_with_a_stray_nul_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(with_nul(records(10), 1))
    passed_over: list[str] = []
    assert check_paths([folder], passed_over=passed_over) == [folder / "a.jsonl"]
    assert passed_over == []
    status, out, err = run(capsys, "search", "regret", str(folder), "--limit", "50")
    assert status == 0 and out.count("Paper") == 9
    assert err.startswith(f"tui-reader: skipped {folder / 'a.jsonl'}:2: not valid JSON")


def test_seed_text_with_a_stray_nul_in_its_first_paragraph_loads(tmp_path: Path) -> None:
    path = tmp_path / "papers.txt"
    path.write_bytes(b"Papers\n\nRegret bounds\x00 for bandits.\n\nDiffusion models.\n")
    assert [paper.abstract for paper in load_paths([path]).papers] == [
        "Regret bounds for bandits.",
        "Diffusion models.",
    ]


def png() -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + bytes((x * y) % 256 for x in range(300)) for y in range(200))
    header = struct.pack(">IIBBBBB", 300, 200, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def pdf(stream: bytes) -> bytes:
    return (
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
        + b"4 0 obj\n<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
        + stream
        + b"\nendstream\nendobj\n%%EOF\n"
    )


def zipped() -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("papers.jsonl", "\n".join(records(500)))
    return packed.getvalue()


BINARIES = {
    "a PDF": pdf(zlib.compress(bytes(range(256)) * 100)),
    "a PDF of text at first": pdf(b"BT /F1 12 Tf (Regret bounds) Tj ET\n" * 300),
    "a zip": zipped(),
    "a PNG": png(),
}


@pytest.mark.parametrize("kind", list(BINARIES))
@pytest.mark.parametrize("name", ["papers.jsonl", "papers.txt.gz"])
def test_a_binary_file_is_refused_in_one_line(tmp_path: Path, kind: str, name: str) -> None:
    path = tmp_path / name
    data = BINARIES[kind]
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    for reading in (lambda: check_paths([path]), lambda: load_paths([path])):
        with pytest.raises(LoadError) as raised:
            reading()
        assert str(raised.value) == f"{path}: {BINARY}"


@pytest.mark.parametrize("name", ["notes.pdf", "archive.zip", "figure.png"])
def test_the_commands_and_the_reader_refuse_a_binary_file_in_one_line(
    tmp_path: Path, name: str
) -> None:
    kind = {"notes.pdf": "a PDF", "archive.zip": "a zip", "figure.png": "a PNG"}[name]
    path = tmp_path / name
    path.write_bytes(BINARIES[kind])
    for arguments in (["search", "regret", str(path)], [str(path)]):
        result = run_process(*arguments)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr == f"tui-reader: {path}: {BINARY}\n"


def gzipped_records(count: int) -> bytes:
    # No time in the header: the same bytes in each process collecting the tests.
    return gzip.compress(("\n".join(records(count)) + "\n").encode(), mtime=0)


def damaged(data: bytes) -> bytes:
    broken = bytearray(data)
    broken[30:60] = bytes(byte ^ 0xFF for byte in broken[30:60])  # in the first deflate block
    return bytes(broken)


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (("\n".join(records(20)) + "\n").encode(), "is not a gzip file"),
        (b"not gzip", "is not a gzip file"),  # shorter than a gzip header
        (damaged(gzipped_records(200)), "is damaged (gzip: invalid deflate block)"),
    ],
    ids=["not-gzip", "not-gzip-short", "damaged"],
)
@pytest.mark.parametrize("name", ["papers.jsonl.gz", "papers.json.gz", "papers.txt.gz"])
def test_a_gzip_file_that_cannot_be_read_says_why_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, problem: str, name: str
) -> None:
    """`Error -1 Invalid deflate block found`, `Not a gzipped file (b'{"')`."""
    path = tmp_path / name
    path.write_bytes(data)
    for reading in (lambda: check_paths([path]), lambda: load_paths([path])):
        with pytest.raises(LoadError) as raised:
            reading()
        assert str(raised.value) == f"{path}: {problem}"
    assert run(capsys, "search", "regret", str(path)) == (2, "", f"tui-reader: {path}: {problem}\n")


CUT = "the file ends early here: it was cut short"


def cut_short(data: bytes, at: float = 0.6) -> bytes:
    packed = gzip.compress(data)
    return packed[: int(len(packed) * at)]


def whole_lines(cut: bytes) -> bytes:
    """What `zcat` gives of a gzip file cut short, up to its last line end."""
    text = zlib.decompressobj(31).decompress(cut)
    return text[: text.rfind(b"\n") + 1]


@pytest.mark.parametrize("name", ["papers.jsonl.gz", "papers.txt.gz", "papers.csv.gz"])
def test_a_gzip_file_cut_short_loads_its_records_before_the_cut(tmp_path: Path, name: str) -> None:
    """`Compressed file ended before the end-of-stream marker was reached`, and no paper."""
    abstracts = [f"Regret bounds for bandits, number {n}." for n in range(300)]
    rows = "".join(f"T{n},{abstract}\n" for n, abstract in enumerate(abstracts))
    text = {
        "papers.jsonl.gz": "\n".join(records(300)) + "\n",
        "papers.txt.gz": "Papers\n\n" + "\n\n".join(abstracts) + "\n",
        "papers.csv.gz": "title,abstract\n" + rows,
    }[name]
    path = tmp_path / name
    path.write_bytes(cut_short(text.encode()))
    before = whole_lines(path.read_bytes())
    readable = tmp_path / name.removesuffix(".gz")
    readable.write_bytes(before)
    assert check_paths([path]) == [path]
    loaded, expected = load_paths([path]), load_paths([readable])
    assert [paper.abstract for paper in loaded.papers] == [p.abstract for p in expected.papers]
    line = before.count(b"\n") + 1
    assert loaded.problems == [f"{path}:{line}: {CUT}"]


@pytest.mark.parametrize("name", ["papers.json.gz", "papers.bib.gz"])
def test_a_file_read_whole_cut_short_is_refused_in_one_line(tmp_path: Path, name: str) -> None:
    text = (
        json.dumps([json.loads(line) for line in records(300)], indent=1)
        if name == "papers.json.gz"
        else "".join(f"@article{{k{n},\n abstract = {{Regret, {n}.}}\n}}\n" for n in range(300))
    )
    path = tmp_path / name
    path.write_bytes(cut_short(text.encode()))
    with pytest.raises(LoadError) as raised:
        load_paths([path])
    assert str(raised.value) == f"{path}: ends early: it was cut short"


def test_a_gzip_file_cut_in_its_header_holds_no_abstracts(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl.gz"
    path.write_bytes(gzipped_records(10)[:6])
    with pytest.raises(LoadError) as raised:
        load_paths([path])
    assert str(raised.value) == f"{path}: holds no abstracts that can be read ({path}:1: {CUT})"


def test_nul_bytes_padding_a_gzip_file_are_passed_over_as_gzip_does(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl.gz"
    path.write_bytes(gzipped_records(10) + b"\x00" * 1000 + gzipped_records(5) + b"\x00" * 7)
    loaded = load_paths([path])
    assert (len(loaded.papers), loaded.problems) == (10, [])


def test_a_command_reads_a_gzip_file_cut_short_and_keeps_nothing_of_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "papers.jsonl.gz"
    path.write_bytes(cut_short(("\n".join(records(300)) + "\n").encode()))
    line = whole_lines(path.read_bytes()).count(b"\n") + 1
    told = f"tui-reader: skipped {path}:{line}: {CUT}\n"
    for _ in range(2):  # the second time it is read again: no entry of it was kept
        status, out, err = run(capsys, "search", "regret", str(path), "--limit", "1000")
        assert (status, out.count("Paper"), err) == (0, line - 1, told)
    assert not list((tmp_path / "cache").glob("papers-v*/manifest.json"))


def test_a_kept_gzip_file_grown_by_a_member_cut_short_is_read_again_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An interrupted fetch appending a gzip member: every command stopped on a traceback
    (`ValueError: …: a gzip member does not end at byte 2428`)."""
    path = tmp_path / "papers.jsonl.gz"
    path.write_bytes(gzipped_records(100))
    assert run(capsys, "search", "regret", str(path), "--limit", "1000")[0] == 0
    more = [line.replace("Paper", "Later paper").replace("number", "n.") for line in records(300)]
    with path.open("ab") as file:
        file.write(cut_short(("\n".join(more) + "\n").encode()))
    status, out, err = run(capsys, "search", "regret", str(path), "--limit", "1000")
    later = out.count("Later paper")
    assert status == 0 and out.count("Paper") == 100 and 100 < later < 300
    assert err.splitlines() == [
        f"tui-reader: the papers kept in the cache could not be used ({path}: "
        "ends early: it was cut short): loaded anew",
        f"tui-reader: skipped {path}:{100 + later + 1}: {CUT}",
    ]


def test_a_folders_gzip_file_found_damaged_as_it_is_read_is_passed_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its start reads well, so the quick look before loading passes it; its checksum, read
    last, does not."""
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "good.jsonl").write_text("\n".join(records(3)) + "\n", encoding="utf-8")
    whole = bytearray(gzipped_records(2000))  # more text than the quick look reads
    whole[-8] ^= 0xFF  # the CRC-32 of the text, after the last deflate block
    (folder / "late.jsonl.gz").write_bytes(bytes(whole))
    status, out, err = run(capsys, "list", "--papers", str(folder))
    assert (status, len(out.splitlines())) == (0, 3)
    assert err == (
        f"tui-reader: {folder / 'late.jsonl.gz'}: is damaged (gzip: incorrect checksum): "
        "passed over, the folder's other files are read\n"
    )


def test_a_library_given_as_papers_is_said_to_be_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = tmp_path / "library.json"
    library.write_text(
        json.dumps({"papers": {"abc": {"bookmarked": True}}, "version": 1}, indent=2)
    )
    said = f"{library}: is a tui-reader library, not papers (give it with --library)"
    assert run(capsys, "list", "--papers", str(library)) == (2, "", f"tui-reader: {said}\n")
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.txt").write_text("A collection\n\nBandits with regret.\n")
    moved = folder / "library.json"
    library.rename(moved)
    status, out, err = run(capsys, "list", "--papers", str(folder))
    assert status == 0 and len(out.splitlines()) == 1
    assert err == (
        f"tui-reader: {moved}: is a tui-reader library, not papers (give it with --library):"
        " passed over, the folder's other files are read\n"
    )


def refused_as_no_papers(
    capsys: pytest.CaptureFixture[str], path: Path, text: str, kind: str, lookalike: str
) -> None:
    """`path` holding `text` is said to be `kind` in one line; holding papers in seed text
    whose first line begins as it does (`lookalike`), it is read."""
    path.write_text(text)
    said = (
        f"{path}: {kind}, not papers: tui-reader reads papers in BibTeX, JSON, JSON Lines, CSV"
        " and text"
    )
    assert run(capsys, "list", "--papers", str(path)) == (2, "", f"tui-reader: {said}\n")
    path.write_text(f"{lookalike}\n\nAn abstract on bandits.\n")
    status, out, _ = run(capsys, "list", "--papers", str(path))
    assert status == 0 and "An abstract on bandits" in out


@pytest.mark.parametrize("name", ["refs.ris", "refs.txt"])
def test_ris_references_given_as_papers_are_said_to_be_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Read as seed text, each of its lines (`TY  - CPAPER`) was a paper's abstract."""
    ris = "\ufeffTY  - JOUR\nTI  - Bandits\nAB  - Bandits with regret.\nER  - \n"
    lookalike = "TY  - is how a RIS record begins"
    refused_as_no_papers(capsys, tmp_path / name, ris, "is RIS (references)", lookalike)


def test_csl_json_references_given_as_papers_are_said_to_be_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read as a JSON array of papers, a CSL-JSON item's authors were Python's text of each
    name's object ("'family': 'Zoghi', …"), its venue was lost, and a paper whose abstract
    held LaTeX had a new id. Ours and Zotero's (its fields in another order, tabs) are
    refused; papers with an `id` and a `type` CSL names too (OpenAlex's) are read."""
    papers = tmp_path / "papers.jsonl"
    papers.write_text('{"title": "Bandits", "abstract": "Regret.", "authors": ["Ada Lovelace"]}\n')
    library = Library.open(default_path())[0]
    library.set_bookmarked(load_paths([papers]).papers.texts("id"), True)
    library.save()
    ours = tmp_path / "kept.csl.json"
    exported = run(capsys, "export", "--bookmarked", "--papers", str(papers), "-o", str(ours))
    assert exported[0] == 0
    zotero = tmp_path / "zotero.json"
    item = {
        "id": "http://zotero.org/users/local/a1/items/B2", "type": "article-journal",
        "title": "Bandits", "container-title": "JMLR", "abstract": "Bandits with regret.",
        "author": [{"family": "Zoghi", "given": "Masrour"}],
    }  # fmt: skip
    zotero.write_text(json.dumps([item], indent="\t"))
    said = (
        "is CSL-JSON (references), not papers: tui-reader reads papers in BibTeX, JSON, JSON"
        " Lines, CSV and text"
    )
    for path in (ours, zotero):
        refused = run(capsys, "list", "--papers", str(path))
        assert refused == (2, "", f"tui-reader: {path}: {said}\n")
    openalex = tmp_path / "openalex.json"
    work = {"id": "https://openalex.org/W2741809807", "type": "article", "title": "Bandits"}
    openalex.write_text(json.dumps([work | {"abstract": "Regret.", "authors": ["A B"]}]))
    status, out, _ = run(capsys, "list", "--papers", str(openalex))
    assert status == 0 and "Bandits" in out


@pytest.mark.parametrize(
    "command", [["export", "--format", "md"], ["digest"], ["digest", "--format", "text"]]
)
def test_a_reading_list_or_digest_of_ours_given_as_papers_is_said_to_be_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """Read as seed text, the reading list was one paper, its title "- [On the accuracy…"."""
    library = Library.open(default_path())[0]
    library.save_search("rl", "reinforcement learning")
    library.save()
    status, text, _ = run(capsys, *command)
    assert status == 0
    kind = "is a reading list or digest tui-reader wrote"
    for lookalike in (
        "Reading list (2 papers) on bandits",
        "Reading list (1 paper)",  # a collection's name: ours is a Markdown heading
        "tui-reader digest: 1 unread paperback novel",
        "tui-reader digest: 12 unread papers a day",
    ):
        refused_as_no_papers(capsys, tmp_path / "out.md", text, kind, lookalike)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('[{"abstract": "Bandits with regret."}, {"abstract": "Robo', "ends within item 2"),
        ('[{"abstract": "Bandits with regret."}, {"abstract": ', "ends within item 2"),
        (
            '[{"abstract": "Bandits with regret."}, {"ids": [1, 2], "abstract": "x',
            "ends within item 2",
        ),
        ('[{"abstract": "Bandits with regret."}', "ends after item 1"),
    ],
)
def test_a_json_array_cut_short_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, problem: str
) -> None:
    path = tmp_path / "papers.json"
    path.write_text(text)
    status, _, err = run(capsys, "list", "--papers", str(path))
    assert status == 2 and f"{path}: the file {problem}: cut short" in err, err
