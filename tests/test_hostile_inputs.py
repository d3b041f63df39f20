"""Hostile input files: FIFOs and devices, deep nesting, huge numbers, bombs, long lines."""

import gzip
import json
import os
import socket
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.cli_helpers import run_process
from tests.pilot_helpers import ready, wait_until
from tui_reader.cli.program import main
from tui_reader.core import loading
from tui_reader.core.expected_papers import expected_papers
from tui_reader.core.formats import json_lines, seed_text
from tui_reader.core.loading import LoadError, load_paths
from tui_reader.core.opening import Opening
from tui_reader.core.session import Session
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp

GOOD = {"title": "Good", "abstract": "A good abstract."}
ALSO_GOOD = {"title": "Also good", "abstract": "Another good abstract."}
DEEP = "[" * 100_000 + "]" * 100_000
LONG_NUMBER = "1" * 5000


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "papers.jsonl"
    os.mkfifo(path)
    return path


@pytest.fixture
def unix_socket(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "papers.txt"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        yield path


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "special"),
    [
        *[(["list", "--papers"], special) for special in ("/dev/zero", "/dev/urandom")],
        *[(["list", "--papers"], "unix_socket"), (["list", "--papers"], "fifo")],
        (["tag", "abcd", "x", "--papers"], "fifo"),
        (["search", "query"], "fifo"),
        ([], "fifo"),  # the reader
    ],
)
def test_a_fifo_device_or_socket_as_papers_is_refused_at_once(
    request: pytest.FixtureRequest, tmp_path: Path, command: list[str], special: str
) -> None:
    path = Path(special) if special.startswith("/") else request.getfixturevalue(special)
    before = sorted(tmp_path.rglob("*"))
    result = run_process(*command, str(path))
    assert result.returncode == 2, result.stderr
    kind = {"fifo": "a FIFO (named pipe)", "unix_socket": "a socket"}.get(special)
    problem = f"is {kind or 'a character device'}, not a regular file"
    assert result.stderr == f"tui-reader: {path}: {problem}\n"
    assert sorted(tmp_path.rglob("*")) == before  # nothing moved, nothing made


@pytest.mark.slow
def test_a_fifo_in_a_folder_of_papers_is_left_alone(tmp_path: Path, fifo: Path) -> None:
    (tmp_path / "good.jsonl").write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    result = run_process("list", "--papers", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1 and "Good" in result.stdout


def test_a_folder_opens_without_the_file_that_is_not_text_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.txt").write_text("A\n\nDiffusion models for tabular data.", encoding="utf-8")
    (folder / "b.txt").write_bytes(bytes(range(256)))
    (folder / "c.txt").write_text("", encoding="utf-8")  # no abstracts, as before: read past
    opened: list[ReaderApp] = []
    told: list[str] = []
    run = ReaderApp.run

    def run_at_once(app: ReaderApp) -> None:
        async def look(pilot: Pilot[Any]) -> None:
            await ready(pilot)
            told.extend(app.workspace._messages)
            app.exit()

        opened.append(app)
        run(app, headless=True, auto_pilot=look)

    monkeypatch.setattr(ReaderApp, "run", run_at_once)
    assert main([str(folder)]) == 0  # the binary file stopped the reader before
    assert [paper.abstract for paper in opened[0].store] == ["Diffusion models for tabular data."]
    assert any(str(folder / "b.txt") in message and "passed over" in message for message in told)


def write_lines(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_deep_nesting_and_long_numbers_in_json_lines_are_skipped_records(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "papers.jsonl",
        json.dumps(GOOD),
        DEEP,
        '{"abstract": "Numbers.", "year": ' + LONG_NUMBER + "}",
        '{"abstract": "Deep title.", "title": ' + "[" * 500 + "]" * 500 + "}",
        json.dumps(ALSO_GOOD),
    )
    loaded = load_paths([path])
    assert [p.headline for p in loaded.papers] == ["Good", "Deep title", "Also good"]
    assert loaded.problems == [
        f"{path}:2: nested too deeply",
        f"{path}:3: a number with too many digits",
    ]


@pytest.mark.parametrize(
    ("inside", "problem"),
    [
        (DEEP, "nested too deeply on line 3"),
        (LONG_NUMBER, "a number with too many digits on line 3"),
    ],
    ids=["deep", "long-number"],
)
def test_a_json_array_too_deep_or_with_a_long_number_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], inside: str, problem: str
) -> None:
    path = tmp_path / "papers.json"
    path.write_text(f'[\n{json.dumps(GOOD)},\n{{"abstract": "x", "n": {inside}}}\n]\n')
    assert main(["list", "--papers", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"tui-reader: {path}: ") and problem in captured.err
    assert captured.err.count("\n") == 1 and captured.out == ""


def test_a_broken_json_array_is_one_line_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "papers.json"
    path.write_text(f"[\n{json.dumps(GOOD)},\n{json.dumps(ALSO_GOOD)}\n{json.dumps(GOOD)}]")
    with pytest.raises(LoadError) as raised:
        load_paths([path])
    assert str(raised.value) == f"{path}: not valid JSON (no comma) on line 4"


def test_json_array_items_are_reported_with_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "papers.json"
    items = [GOOD, "oops", {"title": "no abstract"}, ALSO_GOOD]
    path.write_text("[\n" + ",\n".join(json.dumps(i, indent=1) for i in items) + "\n]\n")
    loaded = load_paths([path])
    assert [p.headline for p in loaded.papers] == ["Good", "Also good"]
    assert loaded.problems == [
        f"{path}:6: item 2: not a JSON object",
        f"{path}:7: item 3: no abstract",
    ]


def gzip_text(path: Path, chunk: str, times: int) -> Path:
    """A gzip file of `chunk` repeated, written a chunk at a time (a bomb, when times is big)."""
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as file:
        for _ in range(times):
            file.write(chunk)
    return path


@pytest.mark.parametrize("name", ["bomb.json.gz", "bomb.bib.gz"])
def test_a_gzip_bomb_is_refused_without_reading_it_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(loading, "MAX_TEXT_BYTES", 1_000_000)
    start = {"bomb.json.gz": "["}.get(name, "")
    path = gzip_text(tmp_path / name, start + "Papers all the way down.\n" * 40_000, 40)  # 40 MB
    tracemalloc.start()
    try:
        with pytest.raises(LoadError) as raised:
            load_paths([path])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(raised.value) == (
        f"{path}: holds more than 1 MB of text, the most read from one file of this format"
        " (JSON Lines, seed text and CSV have no such limit)"
    )
    assert peak < 10_000_000


def test_a_big_plain_file_is_refused_by_its_size(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(loading, "MAX_TEXT_BYTES", 2_000_000)
    path = tmp_path / "big.json"
    path.write_text("[" + '{"abstract": "An abstract."},' * 80_000 + '{"abstract": "Last."}]')
    with pytest.raises(LoadError, match="holds more than 2 MB of text"):
        load_paths([path])
    monkeypatch.setattr(loading, "MAX_TEXT_BYTES", 3_000_000)
    assert len(load_paths([path]).papers) == 2


def test_seed_text_of_any_size_is_read_as_it_goes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(loading, "MAX_TEXT_BYTES", 100_000)
    path = tmp_path / "big.txt"
    path.write_text("Papers\n\n" + "".join(f"Abstract {n} of many.\n\n" for n in range(5000)))
    loaded = load_paths([path])
    assert len(loaded.papers) == 5000
    assert loaded.collections == ["Papers"]


def test_an_overlong_paragraph_is_passed_over_without_holding_it(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(seed_text, "MAX_PARAGRAPH_BYTES", 1_000_000)
    path = gzip_text(tmp_path / "bomb.txt.gz", "Papers all the way down.\n" * 40_000, 40)
    with path.open("ab") as file:  # a second gzip member: read on after the first
        file.write(gzip.compress(b"\n\nFirst.\n\nLast one.\n"))
    tracemalloc.start()
    try:
        loaded = load_paths([path])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [paper.abstract for paper in loaded.papers] == ["First.", "Last one."]
    assert loaded.problems == [f"{path}:1: longer than the 1 MB a paragraph may take"]
    assert peak < 10_000_000


def test_an_overlong_json_line_is_a_skipped_record(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(json_lines, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "papers.jsonl.gz"
    long = json.dumps({"abstract": "x" * 5000})
    with gzip.open(path, "wt", encoding="utf-8") as file:
        file.write("\n".join([json.dumps(GOOD), long, long[:999], json.dumps(ALSO_GOOD)]) + "\n")
    loaded = load_paths([path])
    assert [p.headline for p in loaded.papers] == ["Good", "Also good"]
    assert loaded.problems == [
        f"{path}:2: longer than the 0.001 MB a line may take",
        f"{path}:3: not valid JSON (Unterminated string starting at column 14)",
    ]


def test_json_lines_may_begin_with_a_bom_and_bad_bytes_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"abstract": "BOM first."}\n{"abstract": "Next."}\n')
    assert [p.abstract for p in load_paths([path]).papers] == ["BOM first.", "Next."]
    path.write_bytes(b'{"abstract": "First."}\n{"abstract": "caf\xe9"}\n{"abstract": "Third."}\n')
    loaded = load_paths([path])
    assert [p.abstract for p in loaded.papers] == ["First.", "Third."]
    assert loaded.problems == [f"{path}:2: not UTF-8 text (byte 0xe9)"]


def test_a_flood_of_bad_records_is_counted_not_listed(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(loading, "MAX_PROBLEMS_LISTED", 3)
    path = write_lines(tmp_path / "papers.jsonl", *(["nope"] * 10), json.dumps(GOOD))
    loaded = load_paths([path])
    assert len(loaded.papers) == 1
    assert loaded.problems == [
        f"{path}:1: not valid JSON (Expecting value)",
        f"{path}:2: not valid JSON (Expecting value)",
        f"{path}:3: not valid JSON (Expecting value)",
        f"{path}: 7 more records that could not be read",
    ]
    path = write_lines(tmp_path / "papers.jsonl", *(["nope"] * 4), json.dumps(GOOD))
    assert load_paths([path]).problems[-1] == f"{path}: 1 more record that could not be read"


def test_a_csv_field_over_128k_characters_loads_and_bad_rows_name_their_first_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "papers.csv"
    path.write_text(
        "title,abstract\n"
        'First,"An abstract\nover three\nlines."\n'
        f"Huge,{'x' * 200_000}\n"
        '"Two\nlines",\n'
        "Bare,a\rb\n"
        "Last,The last abstract.\n",
        encoding="utf-8",
    )
    loaded = load_paths([path])
    # A carriage return alone ends a line, as in a file of old Mac line ends.
    assert [p.headline for p in loaded.papers] == ["First", "Huge", "Bare", "Last"]
    assert loaded.problems == [f"{path}:6: no abstract", f"{path}:9: no abstract"]


@pytest.mark.parametrize(
    "command", [["list"], ["export", "--format", "json"], ["tag", "AAAA", "x"]]
)
def test_every_command_reports_skipped_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    path = write_lines(tmp_path / "papers.jsonl", json.dumps(GOOD), "{oops")
    good_id = load_paths([path]).papers[0].id
    arguments = [good_id if a == "AAAA" else a for a in command]
    assert main([*arguments, "--papers", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.startswith(
        f"tui-reader: skipped {path}:2: not valid JSON "
        "(Expecting property name enclosed in double quotes)\n"
    )


@pytest.mark.slow
def test_a_gzip_bomb_of_blank_lines_in_json_lines_takes_seconds(tmp_path: Path) -> None:
    path = gzip_text(tmp_path / "blank.jsonl.gz", "\n" * 10_000_000, 20)  # 200 MB, 200 KB packed
    with gzip.open(path, "ab") as file:
        file.write((json.dumps(GOOD) + "\n").encode())
    result = run_process("list", "--papers", str(path))  # a line at a time in Python took minutes
    assert result.returncode == 0, result.stderr
    assert "Good" in result.stdout and result.stderr == ""


def test_a_flood_of_bad_records_stops_reading_the_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(loading, "MAX_SKIPPED_RECORDS", 20)
    path = write_lines(tmp_path / "papers.jsonl", json.dumps(GOOD), *(["nope"] * 21))
    with pytest.raises(LoadError) as raised:
        load_paths([path])
    assert str(raised.value) == f"{path}: more than 20 of its records cannot be read"


@pytest.mark.parametrize(
    ("name", "record", "start", "end"),
    [
        ("a.jsonl", '{"abstract": "Paper %d."}\n', "", ""),
        ("a.txt", "Paper %d.\n\n", "Papers\n\n", ""),
        ("a.csv", "T,Paper %d.\n", "title,abstract\n", ""),
        ("a.json", '{"abstract": "Paper %d."},\n', "[\n", '{"abstract": "Last."}]'),
        ("a.bib", "@misc{k%d, abstract={Paper %d.}}\n", "", ""),
    ],
)
def test_a_file_of_too_many_records_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, record: str, start: str, end: str
) -> None:
    monkeypatch.setattr(loading, "MAX_RECORDS", 100)
    path = tmp_path / name

    def write(records: int) -> None:
        body = "".join(record.replace("%d", str(n)) for n in range(records))
        path.write_text(start + body + end, encoding="utf-8")

    write(99)
    assert len(load_paths([path]).papers) == 99 + bool(end)
    write(101)
    with pytest.raises(LoadError) as raised:
        load_paths([path])
    assert str(raised.value) == f"{path}: holds more than 100 records, the most read from one file"


def test_a_repeated_record_becomes_a_paper_once(tmp_path: Path, monkeypatch) -> None:
    from tui_reader.core.paper import Paper

    built = []
    original = Paper.from_abstract.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(
        Paper,
        "from_abstract",
        classmethod(lambda cls, *a, **k: built.append(1) or original(cls, *a, **k)),
    )
    path = write_lines(
        tmp_path / "papers.jsonl", *([json.dumps(GOOD)] * 1000), json.dumps(ALSO_GOOD)
    )
    assert [p.headline for p in load_paths([path]).papers] == ["Good", "Also good"]
    assert len(built) == 2


def test_seed_text_of_many_tiny_paragraphs_is_not_held_all_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loading, "MAX_RECORDS", 1000)
    path = tmp_path / "tiny.txt"
    path.write_text("A.\n\n" * 5_000_000)  # 20 MB: split at once, 5 million strings
    tracemalloc.start()
    try:
        with pytest.raises(LoadError, match="holds more than 1,000 records"):
            load_paths([path])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000_000


def test_a_lone_surrogate_written_in_json_is_a_replacement_character(tmp_path: Path) -> None:
    """JSON may write half of a UTF-16 pair alone (`"\\ud800"`); Python reads it into a
    string no UTF-8 can hold, and the paper's id, its links and every print of it raised."""
    path = tmp_path / "surrogates.jsonl"
    records = [
        '{"title": "Surrogate \\ud800 title", "abstract": "Lone \\ud800 high surrogate."}',
        '{"abstract": "Authors with a low one.", "authors": ["A \\udfff B"], "url": "x\\udc80"}',
    ]
    path.write_text("\n".join(records) + "\n", encoding="utf-8")
    papers = load_paths([path]).papers
    assert [paper.title for paper in papers] == ["Surrogate \ufffd title", ""]
    assert papers[0].abstract == "Lone \ufffd high surrogate."
    assert papers[1].authors == ("A \ufffd B",)
    for format in ("bib", "csl-json", "md"):
        shown = run_process("export", "--papers", str(path), "--format", format)
        assert shown.returncode == 0 and "\ufffd" in shown.stdout, shown.stderr
    shown = run_process("search", "surrogate", str(path))
    assert shown.returncode == 0 and "Surrogate \ufffd title" in shown.stdout


async def test_a_query_holding_a_byte_not_utf8_is_searched_not_raised(
    tmp_path: Path, seed_store: PaperStore
) -> None:
    """`search $'caf\\xe9'` (the byte read as a lone surrogate) ended in a traceback, as did
    the reader at every start once the session kept such a query."""
    for arguments in (
        ["search", "caf\udce9"],
        ["list", "--query", "bandit caf\udce9"],
        ["search", '"deep \udce9 learning"'],  # a phrase, and a word's start
        ["list", "--query", "'caf\udce9"],
        ["export", "--format", "md", "--query", 'title:"caf\udce9 x"'],
    ):
        shown = run_process(*arguments)
        assert shown.returncode == 1 and "Traceback" not in shown.stderr, shown.stderr
        assert "no paper matches" in shown.stderr
    app = ReaderApp(Opening(seed_store, session=Session(query='"bandit caf\udce9"')))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: "bandit" in app.workspace.shown_query, "searched")
        assert app.workspace.paper_list.full == 0


def test_escapes_in_a_file_name_never_reach_the_terminal(tmp_path: Path) -> None:
    """A file name is text from elsewhere too: it named the collection, the problems and
    the detail pane's source line with its escapes."""
    name = "evil\x1b[31mRED\x1b]52;c;SGFja2Vk\x07.jsonl"
    path = tmp_path / name
    path.write_text('{"abstract": "Evil name abstract."}\n{bad\n', encoding="utf-8")
    loaded = load_paths([path])
    assert loaded.papers[0].collection == "evilRED"
    (problem,) = loaded.problems
    assert problem.startswith(f"{tmp_path}/evilRED.jsonl:2: not valid JSON")
    shown = run_process("list", "--papers", str(tmp_path))
    assert "\x1b" not in shown.stdout + shown.stderr and "evilRED.jsonl" in shown.stderr
    path.write_bytes(b"\x00binary")
    with pytest.raises(LoadError) as error:
        load_paths([path])
    assert "\x1b" not in str(error.value)


@pytest.mark.parametrize("name", ["papers.jsonl.gz", "papers.txt.gz"])
def test_a_damaged_gzip_file_is_one_line_naming_it(tmp_path: Path, name: str) -> None:
    records = [json.dumps({"abstract": f"Abstract {os.urandom(40).hex()}."}) for _ in range(3000)]
    text = "\n".join(records) if name.endswith(".jsonl.gz") else "Papers\n\n" + "\n\n".join(records)
    packed = bytearray(gzip.compress(text.encode()))
    packed[20:84] = b"\xff" * 64  # the first deflate block broken
    path = tmp_path / name
    path.write_bytes(bytes(packed))
    expected_papers([path])  # a guess: it says nothing, and raises nothing
    with pytest.raises(LoadError) as raised:
        load_paths([path])
    assert str(raised.value).startswith(f"{path}: ") and "\n" not in str(raised.value)
