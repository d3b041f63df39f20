import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run, run_process
from tests.conftest import SEEDS
from tui_reader.core.library import Library, default_path
from tui_reader.core.store import PaperStore


def make_binary(tmp_path: Path) -> Path:
    path = tmp_path / "image.txt"
    path.write_bytes(bytes(range(256)))
    return path


def make_latin1(tmp_path: Path) -> Path:
    path = tmp_path / "latin.txt"
    path.write_bytes("Papers\n\nR\u00e9sum\u00e9 of na\u00efve methods.\n".encode("latin-1"))
    return path


def make_empty_dir(tmp_path: Path) -> Path:
    path = tmp_path / "empty"
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda tmp: tmp / "missing.txt", "no such file or directory"),
        (make_binary, "is a binary file, not UTF-8 text"),
        (
            make_latin1,
            "holds no abstracts that can be read ({path}:3: not UTF-8 text (byte 0xe9))",
        ),
        (make_empty_dir, "holds no papers"),
    ],
)
def test_bad_paths_give_one_line_and_exit_2(tmp_path: Path, make, problem: str) -> None:
    path = make(tmp_path)
    result = run_process(str(path))
    assert result.returncode == 2
    assert result.stderr == f"tui-reader: {path}: {problem.format(path=path)}\n"
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("arguments", "told"),
    [
        (
            ["--since", "2025-13"],
            "tui-reader: argument --since: not a date: '2025-13' (like 2026-06-01)"
            " (see tui-reader --help)",
        ),
        (
            ["search", "foo", "--limit", "x"],
            "tui-reader search: argument --limit: invalid int value: 'x'"
            " (see tui-reader search --help)",
        ),
    ],
)
def test_a_mistaken_argument_is_one_line_and_exit_2(arguments: list[str], told: str) -> None:
    result = run_process(*arguments)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", told + "\n")


def test_help_lists_the_paths_argument() -> None:
    result = run_process("--help")
    assert result.returncode == 0
    assert "PATH" in result.stdout


LOAM = "28f1d9d7a354"


def test_tag_untag_bookmark_and_list_share_the_library(private_library: Path) -> None:
    assert (
        run_process("tag", LOAM, "to-read", "RL/Theory").stdout
        == f"{LOAM}: not bookmarked, #rl/theory #to-read\n"
    )
    assert run_process("bookmark", LOAM[:6]).stdout == f"{LOAM}: bookmarked, #rl/theory #to-read\n"
    assert run_process("untag", LOAM, "rl/theory").returncode == 0
    assert run_process("tags").stdout == "to-read\t1\n"
    text = run_process("list", "--tag", "to-read").stdout.splitlines()
    assert text == [f"{LOAM} *   LOAM: LLM-based design of Observation and Action Models  #to-read"]
    records = [
        json.loads(line) for line in run_process("list", "--format", "jsonl").stdout.splitlines()
    ]
    assert len(records) == 38
    assert records[0]["id"] == LOAM and records[0]["bookmarked"] is True
    assert records[0]["tags"] == ["to-read"]
    assert {"id", "headline", "abstract", "tags", "bookmarked"} <= records[0].keys()
    assert [r["id"] for r in records if r["bookmarked"]] == [LOAM]
    bookmarked = run_process("list", "--bookmarked", "--format", "jsonl").stdout.splitlines()
    assert len(bookmarked) == 1
    assert run_process("unbookmark", LOAM).stdout == f"{LOAM}: not bookmarked, #to-read\n"
    assert Library.open(private_library)[0].is_bookmarked(LOAM) is False


def test_a_later_paper_bookmarked_by_the_command_is_no_longer_later(
    private_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the reader's `b` and triage's keep make it: kept is not put off."""
    assert run(capsys, "tag", LOAM, "later", "theory")[0] == 0
    assert run(capsys, "bookmark", LOAM) == (0, f"{LOAM}: bookmarked, #theory\n", "")


def test_a_tag_typed_with_a_combining_accent_is_the_tag_of_the_accented_letter(
    private_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """e and a combining acute was no tag, while é was one."""
    assert run(capsys, "tag", LOAM, "cafe\u0301") == (0, f"{LOAM}: not bookmarked, #café\n", "")
    assert run(capsys, "untag", LOAM, "café") == (0, f"{LOAM}: not bookmarked, no tags\n", "")


def test_list_query_either_tag_lists_the_papers_with_either(private_library: Path) -> None:
    bandit = "9063b1487375"
    assert run_process("tag", LOAM, "later").returncode == 0
    assert run_process("tag", bandit, "to-read").returncode == 0
    listed = run_process("list", "--query", "#later | #to-read").stdout.splitlines()
    assert [line.split()[0] for line in listed] == [LOAM, bandit]
    searched = run_process("search", "bandit | #later").stdout.splitlines()
    assert [line.split()[1] for line in searched] == [LOAM, bandit]
    searched = run_process("search", "#later | #to-read").stdout.splitlines()  # filters alone
    assert [line.split()[1] for line in searched] == [LOAM, bandit]


def test_unknown_or_bad_arguments_exit_2_naming_them(private_library: Path) -> None:
    result = run_process("tag", "ffffffffffff", "x")
    assert (result.returncode, result.stderr) == (2, "tui-reader: unknown paper id: ffffffffffff\n")
    result = run_process("tag", LOAM, "two words")
    assert result.returncode == 2 and "not a tag: 'two words'" in result.stderr
    result = run_process("tag", LOAM, "w" * 41)
    said = f"not a tag: '{'w' * 41}' (tags are at most 40 characters)"
    assert result.returncode == 2 and said in result.stderr
    assert not private_library.exists()


def test_library_option_and_papers_option(tmp_path: Path, write_seed) -> None:
    seed = write_seed("Our own abstract about cats.")
    other = tmp_path / "other.json"
    from tui_reader.core.loading import load_paths

    paper_id = load_paths([seed]).papers[0].id
    result = run_process("tag", paper_id, "cats", "--library", str(other), "--papers", str(seed))
    assert result.returncode == 0, result.stderr
    assert json.loads(other.read_text())["papers"][paper_id]["tags"].keys() == {"cats"}


def test_damaged_library_is_reported_on_stderr(private_library: Path) -> None:
    private_library.write_text('{"version": 1, "papers": {"x', encoding="utf-8")
    result = run_process("tags")
    assert result.returncode == 0
    assert "is damaged (it is not valid JSON" in result.stderr
    assert not list(private_library.parent.glob("library.json.corrupt-*")), "tags only reads"
    from tui_reader.core.loading import load_paths

    paper_id = load_paths([SEEDS]).papers[0].id
    result = run_process("bookmark", paper_id)
    assert result.returncode == 0
    assert "was damaged (it is not valid JSON" in result.stderr
    assert "moved to library.json.corrupt-" in result.stderr


@pytest.mark.slow
def test_two_command_line_loops_at_once_lose_nothing(private_library: Path) -> None:
    script = (
        "import subprocess, sys\n"
        "for n in range(8):\n"
        "    subprocess.run([sys.executable, '-m', 'tui_reader', 'tag', sys.argv[1], "
        "f'{sys.argv[2]}{n}'], check=True, capture_output=True)\n"
    )
    loops = [
        subprocess.Popen([sys.executable, "-c", script, LOAM, prefix]) for prefix in ("a", "b")
    ]
    assert [loop.wait(timeout=120) for loop in loops] == [0, 0]
    tags = Library.open(private_library)[0].tags(LOAM)  # the file and its journal
    assert tags == sorted(f"{p}{n}" for p in "ab" for n in range(8))


def test_a_change_made_just_before_quitting_is_saved(private_library: Path, monkeypatch) -> None:
    from tui_reader.cli.program import main
    from tui_reader.ui.app import ReaderApp

    def run_and_quit_at_once(app: ReaderApp) -> None:
        app.library.change_tags([LOAM], add=["last-second"])

    monkeypatch.setattr(ReaderApp, "run", run_and_quit_at_once)
    assert main([]) == 0
    assert "last-second" in json.loads(private_library.read_text())["papers"][LOAM]["tags"]


def test_unsaveable_changes_at_exit_are_reported(tmp_path: Path, monkeypatch, capsys) -> None:
    from tui_reader.cli.program import main
    from tui_reader.ui.app import ReaderApp

    gone = tmp_path / "gone"
    gone.mkdir()

    def run(app: ReaderApp) -> None:
        gone.rmdir()  # the folder gone while the reader ran
        app.library.set_bookmarked([LOAM], True)

    monkeypatch.setattr(ReaderApp, "run", run)
    assert main(["--library", str(gone / "library.json")]) == 1
    assert "changes could not be saved" in capsys.readouterr().err


def test_the_reader_keeps_changes_to_a_read_only_library_for_its_session(
    private_library: Path, monkeypatch, capsys
) -> None:
    from tui_reader.cli.program import main
    from tui_reader.ui.app import ReaderApp

    Library.open(private_library)[0].save()
    private_library.chmod(0o444)
    monkeypatch.setattr(ReaderApp, "run", lambda app: None)
    assert main([]) == 0
    assert capsys.readouterr().err == (
        f"tui-reader: {private_library} is read-only: changes are kept for this session only\n"
    )


def test_export_every_format_to_stdout_and_files(tmp_path: Path) -> None:
    run_process("tag", LOAM, "to-read")
    markdown = run_process("export", "--format", "md", "--tag", "to-read")
    assert markdown.stdout.startswith("# Reading list (1 paper)\n\n- [LOAM: LLM-based design")
    records = json.loads(run_process("export", "--format", "json").stdout)
    assert len(records) == 38
    query = json.loads(
        run_process("export", "--format", "json", "--query", "difusion tabular").stdout
    )
    assert [r["headline"][:18] for r in query] == ["We propose AugMask"]  # whole, not cut
    states = json.loads(run_process("export", "--format", "json", "--query", "#to-read").stdout)
    assert [r["id"] for r in states] == [LOAM]
    out = tmp_path / "papers.bib"
    result = run_process("export", "--format", "bib", "-o", str(out))
    keys = f"tui-reader: 38 citation keys given, kept in {default_path()}\n"
    assert result.returncode == 0 and result.stderr == f"{keys}wrote 38 papers to {out}\n"
    assert out.read_text().count("@misc{") == 38
    again = run_process("export", "--format", "bib", "-o", str(out))
    assert again.returncode == 2 and "already exists (use --force" in again.stderr
    one = run_process("export", "--tag", "to-read", "-o", str(out), "--force")
    assert one.returncode == 0 and one.stderr == f"wrote 1 paper to {out}\n"
    assert out.read_text().count("@misc{") == 1
    table = tmp_path / "papers.csv"
    assert run_process("export", "--format", "csv", "-o", str(table)).returncode == 0
    assert table.read_text().startswith("id,headline,title,authors,venue,url,tags,")


def test_search_url_option_is_checked_and_used(tmp_path: Path, monkeypatch) -> None:
    bad = run_process("export", "--format", "json", "--search-url", "https://s.org/")
    assert bad.returncode == 2 and "has no {query} slot" in bad.stderr
    good = run_process("export", "--format", "json", "--search-url", "https://s.org/?q={query}")
    assert json.loads(good.stdout)[0]["url"].startswith("https://s.org/?q=LOAM%3A+LLM-based")
    config = tmp_path / "config.toml"
    config.write_text('search_url = "https://cfg.org/{query}"\n')
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    assert json.loads(run_process("export", "--format", "json").stdout)[0]["url"].startswith(
        "https://cfg.org/"
    )
    config.write_text('search_url = "https://cfg.org/{query}\n')
    broken = run_process("export", "--format", "json")
    assert (
        broken.returncode == 0
        and "line 1" in broken.stderr
        and "using the default" in broken.stderr
    )
    assert "scholar.google.com" in json.loads(broken.stdout)[0]["url"]


def test_the_session_is_saved_at_exit_and_fresh_ignores_it(monkeypatch) -> None:
    from tui_reader.cli.program import main
    from tui_reader.ui.app import ReaderApp

    restored = []

    def run(app: ReaderApp) -> None:
        restored.append(app.workspace._restore)
        app.workspace.filtering.query = "kept query"

    monkeypatch.setattr(ReaderApp, "run", run)
    assert main([]) == 0
    assert main([]) == 0
    assert restored[1] is not None and restored[1].query == "kept query"
    assert main(["--fresh"]) == 0
    assert restored[2] is None


def test_the_query_is_restored_only_for_the_files_it_was_typed_in(monkeypatch, write_seed) -> None:
    from tui_reader.cli.program import main
    from tui_reader.ui.app import ReaderApp
    from tui_reader.ui.workspace import Workspace

    restored = []

    def run(app: ReaderApp) -> None:
        restored.append(app.workspace._restore)
        app.workspace.filtering.query = "kept query"
        app.workspace.set_reactive(Workspace.sort, "headline")

    monkeypatch.setattr(ReaderApp, "run", run)
    other = write_seed("One abstract about bandits.", name="other.txt")
    assert main([]) == 0  # the bundled seeds
    assert main([str(other)]) == 0
    assert restored[1] is not None
    assert (restored[1].query, restored[1].sort) == ("", "headline")  # its settings only
    assert main([str(other)]) == 0
    assert restored[2] is not None and restored[2].query == "kept query"


def test_the_reader_opens_the_config_paths_and_shows_config_problems(
    tmp_path: Path, monkeypatch, write_seed
) -> None:
    from tui_reader.cli.program import main
    from tui_reader.ui.app import ReaderApp

    write_seed("Only this paper.", header="From Config")
    config = tmp_path / "config.toml"
    config.write_text('paths = ["test.txt"]\ncolour = "red"\n[keys]\nbookmark = "B"\n')
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    opened = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: opened.append(app))
    assert main([]) == 0
    app = opened[0]
    assert app.store.title == "From Config" and len(app.store) == 1
    assert app.config.keys == {"bookmark": "B"}
    assert app.workspace._messages == [f"{config}, line 2: unknown setting 'colour'; it is ignored"]
    assert main([str(SEEDS)]) == 0  # paths given on the command line win
    assert len(opened[1].store) == 38


def test_records_the_reader_skips_at_start_are_named_on_its_screen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Printed before the screen was drawn, they were read only after quitting."""
    from tui_reader.cli import reader
    from tui_reader.cli.program import main
    from tui_reader.ui.app import ReaderApp

    monkeypatch.setattr(reader, "SKIPPED_SHOWN", 2)
    path = tmp_path / "papers.jsonl"
    good = json.dumps({"title": "Good", "abstract": "A good abstract."})
    path.write_text("\n".join([good, "{oops", "[1]", "{}"]) + "\n", encoding="utf-8")
    told = []

    def run(app: ReaderApp) -> None:
        told.extend(app.workspace._messages)

    monkeypatch.setattr(ReaderApp, "run", run)
    assert main([str(path)]) == 0
    assert told[:2] == [
        f"{path}:2: not valid JSON (Expecting property name enclosed in double quotes)",
        f"{path}:3: not a JSON object",
    ]
    assert told[2] == "…and 1 more problem reading the papers"
    assert "skipped" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "arguments", [["tags"], ["recommend"], ["search", "#x"], ["search", "is:read bandits"]]
)
def test_a_misplaced_library_is_said_before_any_paper_file_s_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str]
) -> None:
    papers = tmp_path / "papers.jsonl"
    papers.write_text('{"title": "No abstract"}\n{"abstract": "Bandits with regret."}\n')
    status, _, err = run(capsys, *arguments, "--papers", str(papers), "--library", str(tmp_path))
    assert status == 2
    assert err == f"tui-reader: {tmp_path}: is a folder, not a library file\n"


def test_an_empty_library_variable_is_no_library_named(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    seed_store: PaperStore,
) -> None:
    """`TUI_READER_LIBRARY=` named the default library as a mistyped path, whose folder (not
    made yet) did not exist; unset, the folder is made."""
    monkeypatch.setenv("TUI_READER_LIBRARY", "")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert run(capsys, "tag", seed_store[0].id, "x")[::2] == (0, "")
    assert (tmp_path / "data" / "tui-reader" / "library.json").is_file()


@pytest.mark.parametrize("arguments", [["tags"], ["list"], ["tag", "abc", "x"], []])
def test_a_new_library_in_no_folder_of_a_papers_name_or_a_libraries_backup_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str]
) -> None:
    from tui_reader.ui.app import ReaderApp

    missing = tmp_path / "nope" / "library.json"
    library = tmp_path / "library.json"
    library.write_text('{"version": 1, "papers": {}}\n')
    backup = tmp_path / "library.json.bak"
    backup.write_text('{"version": 1, "papers": {"abc": {"tags": {"old": ""}}}}\n')
    files = sorted(tmp_path.iterdir())
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(ReaderApp, "run", lambda app: pytest.fail("the reader started"))
        assert run(capsys, *arguments, "--library", str(missing)) == (
            2,
            "",
            f"tui-reader: {missing}: the folder {missing.parent} does not exist\n",
        )
        told = f"{backup}: the backup of {library}: name {library}, or a copy of this"
        assert run(capsys, *arguments, "--library", str(backup)) == (2, "", f"tui-reader: {told}\n")
        # --library for --papers: a JSON library was made under the papers' name.
        for name in ("papers.jsonl.gz", "refs.bib", "abstracts.TXT"):
            told = (
                f"{tmp_path / name}: no such library, and the name is one of papers: give "
                "papers with --papers, or name a new library .json"
            )
            assert run(capsys, *arguments, "--library", str(tmp_path / name)) == (
                2,
                "",
                f"tui-reader: {told}\n",
            )
    assert sorted(tmp_path.iterdir()) == files
