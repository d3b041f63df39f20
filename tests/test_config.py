import json
import os
from pathlib import Path

import pytest

from tests.test_app import store_from
from tui_reader.core.config import MAX_PROBLEMS_LISTED, Config, load_config
from tui_reader.core.links import DEFAULT_SEARCH_URL
from tui_reader.core.opening import Opening
from tui_reader.core.session import Session
from tui_reader.core.sources import arxiv, openreview
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.keymap import check_keys
from tui_reader.ui.workspace import Workspace


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_gives_the_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "missing.toml") == (Config(), [])
    assert Config() == Config(DEFAULT_SEARCH_URL, None, (), {})


@pytest.mark.parametrize("command", [[], ["list"]])
def test_a_missing_file_the_variable_names_is_said_and_the_defaults_used(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """A config file named by $TUI_READER_CONFIG and not found is a mistyped name: the
    default one not found is no config."""
    from tui_reader.cli.program import main

    missing = tmp_path / "confg.toml"
    monkeypatch.setenv("TUI_READER_CONFIG", str(missing))
    said = f"{missing}: no such file (TUI_READER_CONFIG names it); using the default settings"
    assert load_config(missing, named=True) == (Config(), [said])
    if command:
        assert main(command) == 0
        assert capsys.readouterr().err == f"tui-reader: {said}\n"
        return
    opened: list[ReaderApp] = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: opened.append(app))
    assert main(command) == 0
    assert opened[0].workspace._messages == [said]  # the problems the reader lists at start


@pytest.mark.parametrize(
    "command",
    [
        ["export", "--format", "md"],
        ["search", "regret", "--papers", "seeds"],
        ["list", "--papers", "seeds"],
        ["tags", "--papers", "seeds"],
        ["cache", "prune"],  # the one command using [cache] limit, which told none
    ],
)
def test_a_command_tells_a_bad_setting_once_also_with_papers_named(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """`export` told each problem twice; `search` and `list` given --papers none (the
    cache's size bound read from the file all the same)."""
    from tui_reader.cli.program import main

    config = write(tmp_path, "read_after = -1\n")
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    assert main(command) == 0
    told = [line for line in capsys.readouterr().err.splitlines() if str(config) in line]
    assert len(told) == 1 and told[0].startswith(f"tui-reader: {config}, line 1: read_after")


def test_every_setting_is_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'theme = "nord"\n'
        'search_url = "https://s.org/?q={query}"\n'
        'paths = ["~/papers/a.jsonl", "b.bib"]\n'
        "[keys]\n"
        'bookmark = "B"\n'
        'quit = "ctrl+q,f10"\n',
    )
    config, problems = load_config(path, check_keys)
    assert problems == []
    assert config.theme == "nord"
    assert config.search_url == "https://s.org/?q={query}"
    assert config.paths == (Path.home() / "papers/a.jsonl", tmp_path / "b.bib")
    assert config.keys == {"bookmark": "B", "quit": "ctrl+q,f10"}


def test_a_bad_setting_is_reported_with_its_line_and_the_rest_is_kept(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'theme = "nord"\n'
        "paths = 3\n"
        'colour = "red"\n'
        'search_url = "https://s.org/"\n'
        "[keys]\n"
        'bookmark = "B"\n'
        'teleport = "x"\n'
        'quit = "ctrl+"\n'
        "undo = 5\n",
    )
    config, problems = load_config(path, check_keys)
    assert config == Config(theme="nord", keys={"bookmark": "B"})
    assert problems == [
        f"{path}, line 2: paths must be a list of strings, such as "
        '["~/papers/icml.jsonl"]; using the default',
        f"{path}, line 3: unknown setting 'colour'; it is ignored",
        f"{path}, line 4: the search link 'https://s.org/' has no {{query}} slot;"
        " using the default",
        f"{path}, line 7: keys.teleport: no such action (the README lists them); it is ignored",
        f"{path}, line 8: keys.quit: 'ctrl+' is not a key name; it is ignored",
        f'{path}, line 9: keys.undo must be a string such as "ctrl+b"; it is ignored',
    ]


def test_notes_go_into_references_only_when_the_export_table_asks(tmp_path: Path) -> None:
    assert Config().include_notes is False
    config, problems = load_config(write(tmp_path, "[export]\ninclude_notes = true\n"))
    assert (config.include_notes, problems) == (True, [])
    path = write(tmp_path, '[export]\ninclude_notes = "yes"\nnotes = 1\n')
    config, problems = load_config(path)
    assert config.include_notes is False
    assert problems == [
        f"{path}, line 2: export.include_notes must be true or false; using false",
        f"{path}, line 3: unknown setting export.notes; it is ignored",
    ]


def test_a_file_that_is_not_toml_is_reported_with_its_line(tmp_path: Path) -> None:
    config, problems = load_config(write(tmp_path, 'theme = "nord"\ntheme = \n'))
    assert config == Config()
    assert len(problems) == 1 and "line 2" in problems[0] and "default settings" in problems[0]


def test_a_file_that_is_not_text_is_said_so(tmp_path: Path) -> None:
    path = tmp_path / "notes.pdf"
    path.write_bytes(b"%PDF-1.4\n\xe2\x28\xa1 binary")
    assert load_config(path) == (
        Config(),
        [f"{path}: is not UTF-8 text (a config file is TOML); using the default settings"],
    )


async def test_rebound_keys_act_and_are_shown(write_seed) -> None:
    store = store_from(write_seed("One paper.", "Another paper."))
    app = ReaderApp(Opening(store), config=Config(keys={"bookmark": "B", "next-paper": "ctrl+n"}))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("b")
        assert not app.library.is_bookmarked(store[0].id)
        await pilot.press("B")
        assert app.library.is_bookmarked(store[0].id)
        await pilot.press("ctrl+n")
        assert app.query_one("PaperList").cursor == 1
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert commands["Bookmark"] == "key: B"


async def test_the_config_theme_applies_until_one_is_chosen_in_the_app(seed_store) -> None:
    app = ReaderApp(Opening(seed_store), config=Config(theme="nord"))
    async with app.run_test():
        assert app.theme == "nord"
    session = Session("", "", "relevance", "gruvbox")
    app = ReaderApp(Opening(seed_store, session=session), config=Config(theme="nord"))
    async with app.run_test():
        assert app.theme == "gruvbox"
    app = ReaderApp(Opening(seed_store), config=Config(theme="no-such-theme"))
    async with app.run_test():
        assert app.theme == "textual-dark"
        assert not app._notifications  # reading the config names it, with its line


async def test_a_theme_not_chosen_in_the_app_is_not_kept_to_hide_the_configs(
    seed_store, tmp_path: Path
) -> None:
    from tui_reader.core.session import load_session

    app = ReaderApp(Opening(seed_store))
    async with app.run_test():
        assert app.session().chosen_theme == ""  # Textual's, not chosen
        app.theme = "gruvbox"  # chosen in the app (Ctrl+P, "Theme")
        assert app.session().chosen_theme == "gruvbox"
    app = ReaderApp(Opening(seed_store), config=Config(theme="nord"))
    async with app.run_test():
        assert app.session().chosen_theme == ""
    # A session an earlier version wrote holds the theme it quit with, chosen or not.
    old = tmp_path / "session.json"
    old.write_text('{"query": "", "sort": "relevance", "theme": "textual-dark"}')
    app = ReaderApp(Opening(seed_store, session=load_session(old)), config=Config(theme="nord"))
    async with app.run_test():
        assert app.theme == "nord"


def test_the_readme_documents_every_setting_and_key_with_its_default(tmp_path: Path) -> None:
    from textual.binding import Binding

    from tui_reader.ui.detail_pane import DetailPane
    from tui_reader.ui.keymap import binding_ids
    from tui_reader.ui.paper_list import PaperList

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Config file", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    config, problems = load_config(write(tmp_path, block), check_keys)
    assert problems == []
    assert config.search_url == DEFAULT_SEARCH_URL and config.paths == ()
    assert config.sources == {
        "arxiv_api": arxiv.API_DEFAULT,
        "arxiv_oai": arxiv.OAI_DEFAULT,
        "openreview_api": openreview.API_DEFAULT,
    }
    assert config.theme == ReaderApp(Opening(PaperStore())).theme  # Textual's default
    bindings = [*Workspace.BINDINGS, *PaperList.BINDINGS, *DetailPane.BINDINGS]
    defaults = {b.id: b.key for b in bindings if isinstance(b, Binding) and b.id}
    assert defaults.keys() - config.keys.keys() == {f"related-{n}" for n in range(2, 6)}
    assert binding_ids() == defaults.keys()
    for binding_id, keys in config.keys.items():
        assert keys == defaults[binding_id], binding_id


def test_an_action_left_without_a_key_is_reported(tmp_path: Path, monkeypatch) -> None:
    from tui_reader.cli.program import main
    from tui_reader.ui.keymap import keys_taken

    assert keys_taken({"bookmark": "t"}) == ["Tags"]
    assert keys_taken({"bookmark": "t", "tags": "ctrl+t"}) == []
    assert keys_taken({"next-paper": "n"}) == ["Note"]  # in the list, n would be next
    assert keys_taken({"next-paper": "ctrl+n", "scroll-down": "J"}) == []
    assert keys_taken({"scroll-down": "k"}) == ["Scroll up"]
    config = write(tmp_path, '[keys]\nbookmark = "t"\n')
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    opened = []
    monkeypatch.setattr(ReaderApp, "run", lambda app: opened.append(app))
    assert main([]) == 0
    assert opened[0].workspace._messages == [
        f"{config}, line 2: keys.bookmark: 't' is the key of both Bookmark and Tags app-wide, "
        "but only one can have it; Tags has no other key"
    ]


@pytest.mark.slow
def test_a_config_that_is_a_fifo_or_device_stops_with_one_line(tmp_path: Path, monkeypatch) -> None:
    from tests.cli_helpers import run_process
    from tui_reader.core.config import ConfigError

    with pytest.raises(ConfigError) as raised:
        load_config(Path("/dev/null"))
    assert str(raised.value) == "/dev/null: is a character device, not a regular file"
    with pytest.raises(ConfigError) as raised:
        load_config(tmp_path)
    assert str(raised.value) == f"{tmp_path}: is a folder, not a config file"
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    monkeypatch.setenv("TUI_READER_CONFIG", str(fifo))
    before = sorted(tmp_path.rglob("*"))
    for arguments in (["export", "--format", "json"], []):
        result = run_process(*arguments)
        assert result.returncode == 2, result.stderr
        assert result.stderr == f"tui-reader: {fifo}: is a FIFO (named pipe), not a regular file\n"
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("theme = " + "[" * 5000 + "]" * 5000, "is nested too deeply to read"),
        ("keys = " + "{a = " * 3000 + "1" + "}" * 3000, "is nested too deeply to read"),
        ("theme = 1" + "0" * 5000, "holds a number too long to read"),
    ],
    ids=["deep-array", "deep-table", "long-number"],
)
def test_a_config_too_deep_or_with_a_long_number_is_one_line(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = write(tmp_path, text)
    assert load_config(path) == (Config(), [f"{path}: {problem}; using the default settings"])


def test_a_huge_config_is_refused_by_its_size(tmp_path: Path, monkeypatch) -> None:
    from tui_reader.core import config as configs

    monkeypatch.setattr(configs, "MAX_CONFIG_BYTES", 100)
    path = write(tmp_path, 'theme = "nord"\n' + "# padding\n" * 20)
    assert load_config(path) == (
        Config(),
        [
            f"{path}: is larger than 100 bytes, too large for a config file;"
            " using the default settings"
        ],
    )


@pytest.mark.slow
def test_thousands_of_unknown_settings_take_linear_time_and_a_few_lines(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = write(
        tmp_path,
        "".join(f"unknown{n} = {n}\n" for n in range(10_000))
        + "[keys]\n"
        + "".join(f'action{n} = "x"\n' for n in range(10_000)),
    )
    script = (
        "import sys, json; from pathlib import Path\n"
        "from tui_reader.core.config import load_config\n"
        "from tui_reader.ui.keymap import check_keys\n"
        "print(json.dumps(load_config(Path(sys.argv[1]), check_keys)[1]))\n"
    )
    # Seconds when linear; a quadratic search for each key's line took minutes.
    result = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=60
    )
    problems = json.loads(result.stdout)
    assert problems[:2] == [
        f"{path}, line 1: unknown setting 'unknown0'; it is ignored",
        f"{path}, line 2: unknown setting 'unknown1'; it is ignored",
    ]
    assert len(problems) == 11
    assert problems[-1] == f"{path}: 19,990 more unknown names, ignored"


@pytest.mark.parametrize(
    "command", [[], ["list"], ["search", "graph"], ["recommend"], ["tags"], ["export"]]
)
def test_missing_paths_from_the_config_say_so(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """By the reader and by every command that reads the papers."""
    from tui_reader.cli.program import main

    config = write(tmp_path, 'theme = "nord"\npaths = [\n  "missing.jsonl",\n]\n')
    monkeypatch.setenv("TUI_READER_CONFIG", str(config))
    assert main(command) == 2
    assert capsys.readouterr().err == (
        f"tui-reader: {tmp_path / 'missing.jsonl'}: no such file or directory"
        f" (from paths in {config}, line 2)\n"
    )


def test_the_services_addresses_are_read_from_sources(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "[sources]\n"
        'arxiv_api = "http://127.0.0.1:8080/api/query"\n'
        'openreview_api = "ftp://mirror.example/"\n'
        "arxiv_oai = 3\n"
        'zenodo = "https://zenodo.org"\n',
    )
    config, problems = load_config(path)
    assert config.sources == {"arxiv_api": "http://127.0.0.1:8080/api/query"}
    assert problems == [
        f"{path}, line 3: sources.openreview_api must be an http(s) URL as a string; it is ignored",
        f"{path}, line 4: sources.arxiv_oai must be an http(s) URL as a string; it is ignored",
        f"{path}, line 5: unknown setting sources.zenodo; it is ignored",
    ]
    config, problems = load_config(write(tmp_path, 'sources = "https://arxiv.org"\n'))
    assert config.sources == {} and "sources must be a table" in problems[0]


def test_a_wrong_value_is_listed_however_many_unknown_settings_come_before_it(
    tmp_path: Path,
) -> None:
    """The eleventh problem on was "N more problems like these": a wrong value or a key bound
    twice after ten unknown settings was never seen."""
    path = tmp_path / "config.toml"
    unknown = "".join(f"unknown{n} = 1\n" for n in range(12))
    path.write_text(unknown + 'read_after = "soon"\n', encoding="utf-8")
    problems = load_config(path)[1]
    assert len(problems) == MAX_PROBLEMS_LISTED + 1
    assert any("read_after" in problem for problem in problems)
    assert problems[-1] == f"{path}: 3 more unknown names, ignored"
