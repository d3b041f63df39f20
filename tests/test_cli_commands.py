"""The commands for scripts: what they say when asked something they cannot do."""

import shlex
import subprocess
import sys
from pathlib import Path

import bibtexparser
import pytest

from tests.cli_helpers import run
from tui_reader.cli.paper_change import resolve_id
from tui_reader.cli.program import main
from tui_reader.cli.reader import reader_parser
from tui_reader.cli.shared import UsageError
from tui_reader.core.library import Library, default_path

LOAM = "28f1d9d7a354"


@pytest.mark.parametrize(
    ("arguments", "command", "told"),
    [
        (["search"], "tui-reader search", "the following arguments are required: QUERY"),
        (["search", "foo", "--limit", "x"], "tui-reader search", "argument --limit: invalid int"),
        (["export", "--format", "pdf"], "tui-reader export", "invalid choice: 'pdf'"),
        (["--since", "2025-13"], "tui-reader", "argument --since: not a date: '2025-13'"),
        (["list", "--bogus"], "tui-reader list", "unrecognized arguments: --bogus"),
        (["tag"], "tui-reader tag", "the following arguments are required: PAPER_ID, TAG"),
        (["digest", "--since", "June"], "tui-reader digest", "not a date: 'June'"),
        (["library", "merge"], "tui-reader library merge", "required: OTHER"),
        (["cache", "prune", "--unused-for", "-1"], "tui-reader cache prune", "days: '-1'"),
        # An argument not known is told before one missing, and by the subcommand it follows.
        (["tag", "--bogus"], "tui-reader tag", "unrecognized arguments: --bogus"),
        (["untag", "x", "--bogus"], "tui-reader untag", "unrecognized arguments: --bogus"),
        (["bookmark", "--bogus"], "tui-reader bookmark", "unrecognized arguments: --bogus"),
        (["search", "--bogus"], "tui-reader search", "unrecognized arguments: --bogus"),
        (["library", "merge", "X", "--papers"], "tui-reader library merge", "arguments: --papers"),
        (["library", "merge", "--bogus"], "tui-reader library merge", "arguments: --bogus"),
        (["library", "--bogus"], "tui-reader library", "unrecognized arguments: --bogus"),
        (["library"], "tui-reader library", "the following arguments are required: COMMAND"),
        (["cache", "prune", "--bogus"], "tui-reader cache prune", "arguments: --bogus"),
        (["cache", "list", "--bogus"], "tui-reader cache list", "arguments: --bogus"),
        (["fetch", "arxiv", "--bogus"], "tui-reader fetch arxiv", "arguments: --bogus"),
        (["fetch", "list", "--bogus"], "tui-reader fetch list", "arguments: --bogus"),
        (["fetch", "--bogus"], "tui-reader fetch", "unrecognized arguments: --bogus"),
        (["fetch", "arxiv"], "tui-reader fetch arxiv", "say what to fetch"),  # found as it runs
    ],
)
def test_a_mistake_in_the_arguments_is_one_line_naming_the_command_and_its_help(
    capsys: pytest.CaptureFixture[str], arguments: list[str], command: str, told: str
) -> None:
    """argparse printed its usage, several lines, before the error."""
    status, out, err = run(capsys, *arguments)
    assert (status, out, err.count("\n")) == (2, "", 1)
    assert err.startswith(f"{command}: ") and told in err
    assert err.endswith(f" (see {command} --help)\n")


@pytest.mark.parametrize("limit", ["0", "-1"])
def test_a_limit_below_one_is_an_error(capsys, limit: str) -> None:
    assert run(capsys, "search", "diffusion", "--limit", limit) == (
        2,
        "",
        f"tui-reader: --limit must be 1 or more, not {limit}\n",
    )


def test_search_says_when_a_filter_is_searched_as_words(capsys) -> None:
    status, _, err = run(capsys, "search", "satisficing year:20")
    assert (status, err) == (
        1,  # no paper holds the words year and 20 too
        "tui-reader: year:20 is not a year (2025, 2019..2021): searched as words\n"
        "tui-reader: no paper matches 'satisficing year:20'\n",
    )


@pytest.mark.parametrize(
    ("command", "query", "meant"),
    [
        (["search"], "is:bookm", "is:bookmarked"),
        (["search"], "graphs is:unred", "is:unread"),
        (["list", "--query"], "!has:notes", "!has:note"),
        (
            ["export", "--format", "md", "--query"],
            "is:",
            "is:bookmarked, is:read, is:unread or is:new",
        ),
    ],
)
def test_a_filter_typed_close_to_a_state_is_refused_naming_it(
    capsys, command: list[str], query: str, meant: str
) -> None:
    """Searched as the words "is" and "bookm", it gave a script papers nobody asked for."""
    token = query.split()[-1]
    assert run(capsys, *command, query) == (
        2,
        "",
        f"tui-reader: {token} is not a filter: did you mean {meant}?\n",
    )


def test_list_says_when_a_filter_is_searched_as_words(capsys) -> None:
    status, out, err = run(capsys, "list", "--query", "year:20")
    assert (status, out) == (1, "")  # no paper holds the words "year" and "20"
    assert err == (
        "tui-reader: year:20 is not a year (2025, 2019..2021): searched as words\n"
        "tui-reader: no paper matches --query year:20\n"
    )


def test_search_finding_nothing_exits_with_status_one_as_grep_does(capsys) -> None:
    assert run(capsys, "search", "zzyzx qwxv") == (
        1,
        "",
        "tui-reader: no paper matches 'zzyzx qwxv'\n",
    )
    states = "is:bookmarked, is:read, is:unread, is:new, has:note"
    assert run(capsys, "search", "is:bogus") == (
        1,
        "",
        f"tui-reader: is:bogus is not a state ({states}): searched as words\n"
        "tui-reader: no paper matches is:bogus\n",
    )


def test_search_prints_the_papers_matching_in_full_not_the_close_ones(
    tmp_path: Path, capsys
) -> None:
    papers = tmp_path / "o.jsonl"
    papers.write_text(
        '{"title": "A", "abstract": "Olfactory cortex models."}\n'
        '{"title": "B", "abstract": "The olfactory bulb."}\n'
        '{"title": "C", "abstract": "Visual cortex."}\n',
        encoding="utf-8",
    )
    status, out, _ = run(capsys, "search", "olfactory cortex", str(papers))
    assert (status, [line.split()[-1] for line in out.splitlines()]) == (0, ["A"])
    assert run(capsys, "search", "olfactory zzqxyw", str(papers)) == (
        1,
        "",
        "tui-reader: no paper matches 'olfactory zzqxyw'\n",
    )


@pytest.mark.parametrize("query", ["(((", "|", " ", "!"])
def test_a_query_with_nothing_to_search_for_is_an_error(capsys, query: str) -> None:
    """It listed every paper, each scored 0, with exit status 0."""
    said = f"tui-reader: the query {query!r} has no word or filter to search for\n"
    assert run(capsys, "search", query) == (2, "", said)
    assert run(capsys, "list", "--query", query) == (2, "", said)


def test_a_command_names_the_first_records_it_skips_and_counts_the_rest(
    capsys, tmp_path: Path
) -> None:
    path = tmp_path / "bad.jsonl"
    good = '{"id": "p", "title": "T", "abstract": "About bandits."}\n'
    path.write_text(good + "{broken\n" * 12, encoding="utf-8")
    status, out, err = run(capsys, "search", "bandits", str(path))
    assert (status, out.split()[0], out.split()[-1]) == (0, "1.", "T")
    assert err.splitlines() == [
        *(f"tui-reader: skipped {path}:{line}: not valid JSON (Expecting property name "
          "enclosed in double quotes)" for line in range(2, 7)),
        "tui-reader: 7 more problems reading the papers (the reader lists them)",
    ]  # fmt: skip


def test_untag_says_when_the_paper_lacks_the_tag(capsys) -> None:
    assert run(capsys, "tag", LOAM, "kept")[0] == 0
    status, out, err = run(capsys, "untag", LOAM, "kept", "never-had", "Nor-This")
    assert status == 0  # the paper is left as asked: without those tags
    assert out == f"{LOAM}: not bookmarked, no tags\n"
    assert err == (
        "tui-reader: tags are kept in lower case: #nor-this\n"
        f"tui-reader: {LOAM} had no tag #never-had, #nor-this\n"
    )


@pytest.mark.parametrize(
    "change", [["tag", LOAM, "later"], ["untag", LOAM, "kept"], ["unbookmark", LOAM]]
)
def test_a_change_to_a_read_only_library_says_once_that_nothing_was_saved(
    capsys, private_library: Path, change: list[str]
) -> None:
    """Not also that changes are kept for a session: a command has none."""
    assert run(capsys, "tag", LOAM, "kept")[0] == 0
    private_library.chmod(0o444)
    before = private_library.read_bytes()
    assert run(capsys, *change) == (
        1,
        "",
        f"tui-reader: changes could not be saved: {private_library} is read-only\n",
    )
    assert private_library.read_bytes() == before


def test_a_short_id_asks_for_four_characters(capsys) -> None:
    status, out, err = run(capsys, "tag", LOAM[:3], "x")
    assert (status, out) == (2, "")
    assert err == f"tui-reader: paper id {LOAM[:3]} is too short: use 4 or more characters\n"


def test_export_infers_the_format_from_the_file_name(capsys, tmp_path: Path) -> None:
    bib = tmp_path / "y.bib"
    keys = f"tui-reader: 38 citation keys given, kept in {default_path()}\n"
    assert run(capsys, "export", "-o", str(bib)) == (0, "", f"{keys}wrote 38 papers to {bib}\n")
    assert len(bibtexparser.parse_string(bib.read_text()).entries) == 38
    upper = tmp_path / "Y.CSV"
    assert run(capsys, "export", "-o", str(upper))[0] == 0
    assert upper.read_text().startswith("id,headline,")
    text = tmp_path / "list.txt"  # a name that says no format: --format says it
    assert run(capsys, "export", "--format", "md", "-o", str(text))[0] == 0
    assert text.read_text().startswith("# Reading list")


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        (["--format", "md", "-o", "{tmp}/y.bib"], "--format md does not match {tmp}/y.bib"),
        (["-o", "{tmp}/y.txt"], "cannot tell the format of {tmp}/y.txt: name it"),
        ([], "--format is needed to write to stdout"),
    ],
)
def test_export_refuses_a_format_it_cannot_tell_or_that_does_not_match(
    capsys, tmp_path: Path, arguments: list[str], problem: str
) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    arguments = [argument.replace("{tmp}", str(folder)) for argument in arguments]
    status, out, err = run(capsys, "export", *arguments)
    assert (status, out) == (2, "")
    assert err.startswith("tui-reader: " + problem.replace("{tmp}", str(folder)))
    assert err.count("\n") == 1
    assert list(folder.iterdir()) == []


def test_bibtex_of_a_note_with_any_character_is_quiet(tmp_path: Path, monkeypatch) -> None:
    # In a process of its own: pytest would catch the warnings logged on stderr.
    library, _ = Library.open(default_path())
    library.change_tags([LOAM], add=["x"])
    library.set_note(LOAM, "read ✓ 注意 — done")
    library.save()
    config = tmp_path / "notes.toml"
    config.write_text("[export]\ninclude_notes = true\n")
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    result = subprocess.run(
        [sys.executable, "-m", "tui_reader", "export", "--format", "bib", "--tag", "x"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    keys = f"tui-reader: 1 citation key given, kept in {default_path()}\n"
    assert (result.returncode, result.stderr) == (0, keys)
    note = bibtexparser.parse_string(result.stdout).entries[0].fields_dict["annote"].value
    assert "read ✓ 注意 --- done" in note  # as UTF-8, which biblatex and Zotero read


def test_list_shows_bookmark_read_and_note_markers(capsys) -> None:
    library, _ = Library.open(default_path())
    library.set_bookmarked([LOAM], True)
    library.set_read([LOAM], True)
    library.set_note(LOAM, "why")
    library.change_tags([LOAM], add=["to-read"])
    library.save()
    status, out, _ = run(capsys, "list")
    lines = out.splitlines()
    assert status == 0 and len(lines) == 38
    assert (
        lines[0] == f"{LOAM} *rn LOAM: LLM-based design of Observation and Action Models  #to-read"
    )
    assert lines[1].startswith(f"{lines[1][:12]}     The mechanism of sim-and-real co-training")


def test_list_and_search_name_a_paper_as_the_list_does(tmp_path: Path, capsys) -> None:
    """Their lines printed the headline as stored: `Multi--task`, `$\\sqrt{T}$`."""
    papers = tmp_path / "t.jsonl"
    papers.write_text(
        '{"title": "Multi--task bandits with $\\\\sqrt{T}$ regret", "abstract": "Bandits."}\n',
        encoding="utf-8",
    )
    shown = "Multi–task bandits with √T regret"
    _, listed, _ = run(capsys, "list", "--papers", str(papers))
    _, found, _ = run(capsys, "search", "bandits", str(papers))
    assert listed.split(" ", 1)[1].strip() == shown
    assert found.strip().split("  ", 1)[1] == shown


def test_list_says_when_papers_that_pass_are_not_in_the_papers_read(capsys) -> None:
    """A paper tagged in the reader over other files was left out of `list --tag`, unsaid."""
    assert run(capsys, "tag", LOAM, "graphs")[0] == 0
    library, _ = Library.open(default_path())
    library.change_tags(["2501.01234"], add=["graphs"])  # a paper from elsewhere
    library.save()
    status, out, err = run(capsys, "list", "--tag", "graphs")
    assert status == 0 and out.startswith(LOAM) and len(out.splitlines()) == 1
    assert err.startswith("tui-reader: 1 paper #graphs is not in the papers read (")
    assert err.rstrip().endswith("name its file with --papers")
    assert run(capsys, "list", "--tag", "nothing-has-it") == (
        1,
        "",
        "tui-reader: no paper has the tag #nothing-has-it\n",
    )


def test_a_tag_asked_for_as_the_reader_writes_it_is_found_and_a_bad_one_said(capsys) -> None:
    """`--tag '#to-read'` (the reader writes tags so) and `--tag 'bad tag!'` printed nothing
    with exit status 0."""
    assert run(capsys, "tag", LOAM, "to-read")[0] == 0
    status, out, _ = run(capsys, "list", "--tag", "#to-read")
    assert status == 0 and out.startswith(LOAM) and len(out.splitlines()) == 1
    exported = run(capsys, "export", "--tag", "#To-Read", "--format", "md")[1]
    assert exported.startswith("# Reading list (1 paper)") and "LOAM" in exported
    assert run(capsys, "list", "--tag", "bad tag!") == (
        2,
        "",
        "tui-reader: --tag: not a tag: 'bad tag!' (tags are words; - _ . / + allowed)\n",
    )


def test_the_help_names_every_command_and_each_answers_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The reader's help listed "list export" as one command and left out searches and
    digest."""
    epilog = reader_parser().epilog or ""
    listed = epilog.split(":", 1)[1].split("(")[0].replace(",", " ").split()
    assert {"list", "export", "searches", "digest"} <= set(listed)
    for command in listed:
        with pytest.raises(SystemExit) as stop:
            main([command, "--help"])
        assert stop.value.code == 0, command
        assert f"usage: tui-reader {command}" in capsys.readouterr().out, command


def test_an_ambiguous_id_names_five_of_its_papers_and_counts_the_rest() -> None:
    known = [f"2501.0000{n}" for n in range(8)]
    with pytest.raises(UsageError, match=r"2501\.00004 and 3 more$"):
        resolve_id("2501.0000", known)
    with pytest.raises(UsageError, match=r"2501\.00001$"):
        resolve_id("2501.0000", known[:2])


def test_a_mistyped_command_is_named_as_one(capsys) -> None:
    """`tui-reader serach diffusion` said only "serach: no such file or directory"."""
    assert run(capsys, "serach", "diffusion") == (
        2,
        "",
        "tui-reader: serach: no such file or directory, nor a command: "
        "did you mean `tui-reader search`?\n",
    )


def test_a_query_beginning_with_a_bar_does_not_loosen_tag_or_bookmarked(capsys) -> None:
    """`--tag later --query "| #to-read"` listed the papers with either tag: the options were
    written before the query, and its `|` joined them."""
    bandit = "9063b1487375"
    assert run(capsys, "tag", LOAM, "later")[0] == 0
    assert run(capsys, "tag", bandit, "to-read")[0] == 0
    assert run(capsys, "list", "--tag", "later", "--query", "| #to-read")[1] == ""
    listed = run(capsys, "list", "--tag", "later", "--query", "#to-read | LOAM")[1]
    assert [line.split()[0] for line in listed.splitlines()] == [LOAM]
    assert run(capsys, "bookmark", LOAM)[0] == 0
    exported = run(capsys, "export", "--bookmarked", "--query", "|bandit", "--format", "json")
    assert bandit not in exported[1]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_output_that_cannot_be_written_is_one_line_and_status_1() -> None:
    """A full disk (/dev/full) or a closed standard output: before, a traceback."""
    arguments = [sys.executable, "-m", "tui_reader", "search", "bandit"]
    with open("/dev/full", "w") as full:
        done = subprocess.run(arguments, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    told = "tui-reader: the output could not be written: No space left on device\n"
    assert (done.returncode, done.stderr) == (1, told)
    closed = subprocess.run(
        f"{shlex.join(arguments)} >&-", shell=True, stderr=subprocess.PIPE, text=True, timeout=60
    )
    told = "tui-reader: the output could not be written: standard output is closed\n"
    assert (closed.returncode, closed.stderr) == (1, told)
