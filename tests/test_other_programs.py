"""Working with other programs: a note edited in $EDITOR, papers piped to a command."""

import json
import os
import signal
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pyperclip
import pytest
from textual.app import App
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Static, TextArea

from tui_reader.core import pipe
from tui_reader.core.config import Config
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.locations import config_path
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.pipe import PipeRun, pipe_input
from tui_reader.core.store import PaperStore
from tui_reader.resources import bundled
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.external_editor import edit_in_editor
from tui_reader.ui.note_editor import NoteEditor
from tui_reader.ui.pipe_screen import NO_COMMANDS, PipeOutputScreen, PipePicker

from .pilot_helpers import wait_until

TEMPLATE = "https://example.org/?q={query}"
ENDED = 10.0  # seconds a cancelled command has to be gone
# Seconds in which a key is answered, however much a command wrote: a bound on a wait, many
# times what a quick answer takes, not a measure.
SOON = 3.0


class Host(App[None]):
    """An app that opens a screen at once and keeps what it was dismissed with."""

    def __init__(self, screen: Screen[Any] | None = None) -> None:
        super().__init__()
        self.first = screen
        self.results: list[Any] = []

    def on_mount(self) -> None:
        if self.first is not None:
            self.push_screen(self.first, self.results.append)


def script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def status_line(screen: Screen[Any], selector: str) -> str:
    content = screen.query_one(selector, Static).content
    assert isinstance(content, Content)
    return content.plain


def notices(app: App[Any]) -> list[str]:
    return [notification.message for notification in app._notifications]


@pytest.fixture
def papers() -> list[Paper]:
    return load_paths([bundled("seeds")]).papers[:3]


# The note in $EDITOR


async def test_ctrl_e_edits_the_note_in_the_editor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor = script(tmp_path, "editor", 'printf "added in the editor [/b]\\n" >> "$2"\n')
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", f"{editor} --flag")  # a command line, split as a shell would
    app = Host(NoteEditor("Note on a paper", "my note", lambda text: None))
    async with app.run_test() as pilot:
        await pilot.press("ctrl+e")
        text_area = app.screen.query_one(TextArea)
        assert text_area.text == "my note\nadded in the editor [/b]"
        await pilot.press("ctrl+z")
        assert text_area.text == "my note", "the editor's change is one edit to undo"
        await pilot.press("ctrl+e", "escape")
    assert app.results == ["my note\nadded in the editor [/b]"]


@pytest.mark.parametrize(
    ("note", "given"),
    [("my note", "my note\n"), ("two\nlines\n", "two\nlines\n"), ("", "")],
)
async def test_the_note_given_to_the_editor_ends_with_a_newline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, note: str, given: str
) -> None:
    """And what comes back has none added: the note is as it was."""
    seen = tmp_path / "seen.md"
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script(tmp_path, "editor", f'cp "$1" "{seen}"\n')))
    app = Host(NoteEditor("Note on a paper", note, lambda text: None))
    async with app.run_test() as pilot:
        await pilot.press("ctrl+e")
        await wait_until(pilot, seen.exists, "the editor run")
        assert seen.read_bytes() == given.encode()
        assert app.screen.query_one(TextArea).text == note.rstrip("\n")


@pytest.mark.parametrize(
    ("editor", "said"),
    [
        ("", "No editor is set: set $EDITOR (or $VISUAL), such as EDITOR=nano"),
        ("/no/such/editor", "The editor /no/such/editor could not be started: No such file"),
        ("FAIL", "The editor {fail} failed (exit status 3)"),
    ],
)
async def test_a_missing_or_failing_editor_is_said_and_the_note_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, editor: str, said: str
) -> None:
    failing = script(tmp_path, "failing", 'echo "garbage" > "$1"\nexit 3\n')
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(failing) if editor == "FAIL" else editor)
    app = Host(NoteEditor("Note on a paper", "kept [CLS]", lambda text: None))
    async with app.run_test() as pilot:
        await pilot.press("ctrl+e")
        assert app.screen.query_one(TextArea).text == "kept [CLS]"
        (message,) = notices(app)
        assert message.startswith(said.format(fail=failing))
        assert message.endswith("; the note is as it was")


def test_an_editor_not_found_gives_the_terminal_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual resumes a suspended terminal only when the code inside ends without raising:
    an editor that is not a program left the screen blank for good, and the note lost."""

    class Terminal:
        is_headless = False
        given_back = False

        @contextmanager
        def suspend(self) -> Iterator[None]:
            yield
            self.given_back = True  # as Textual's suspend: not reached when the code raised

    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "no-such-editor-anywhere")
    terminal = Terminal()
    edited, problem = edit_in_editor(terminal, "kept")  # type: ignore[arg-type]
    assert edited is None and problem.startswith("The editor no-such-editor-anywhere could not")
    assert terminal.given_back


async def test_visual_is_preferred_to_editor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VISUAL", str(script(tmp_path, "visual", 'echo visual > "$1"\n')))
    monkeypatch.setenv("EDITOR", str(script(tmp_path, "editor", 'echo editor > "$1"\n')))
    app = Host(NoteEditor("Note", "", lambda text: None))
    async with app.run_test() as pilot:
        await pilot.press("ctrl+e")
        assert app.screen.query_one(TextArea).text == "visual"


# Piping papers: the core


def test_the_papers_go_in_as_json_lines_bibtex_or_plain_text(papers: list[Paper]) -> None:
    state = Library(None)
    state.change_tags([papers[0].id], add=["x"])
    lines = pipe_input("jsonl", papers, state, TEMPLATE).splitlines()
    assert [json.loads(line)["id"] for line in lines] == [paper.id for paper in papers]
    assert json.loads(lines[0])["tags"] == ["x"]
    assert pipe_input("bib", papers, state, TEMPLATE).count("@misc{") == 3
    text = pipe_input("text", papers, state, TEMPLATE)
    assert text.startswith(papers[0].headline) and papers[2].abstract in text


def test_a_command_reads_the_papers_and_its_output_is_read_back(papers: list[Paper]) -> None:
    data = pipe_input("jsonl", papers, Library(None), TEMPLATE)
    outcome = PipeRun("wc -l", data).run()
    assert (outcome.status, outcome.output.strip(), outcome.errors) == (0, "3", "")


def test_a_failing_command_gives_its_status_and_errors() -> None:
    outcome = PipeRun("echo partial; echo 'no such model \x1b]52;c;aGk=\x07' >&2; exit 3", "").run()
    assert (outcome.status, outcome.output, outcome.failed) == (3, "partial\n", True)
    assert outcome.errors == "no such model \n"  # no escape reaches the terminal


def outcome_within(run: PipeRun, seconds: float = ENDED) -> pipe.Outcome:
    """The run's outcome, run in a thread; a run still going after `seconds` is cancelled, and
    the test fails."""
    finished: list[pipe.Outcome] = []
    worker = threading.Thread(target=lambda: finished.append(run.run()))
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        run.cancel()
        worker.join(ENDED)
        pytest.fail(f"the command still ran after {seconds:g} s", pytrace=False)
    return finished[0]


def assert_gone(group: int) -> None:
    """Fail unless the processes of this group are gone within ENDED seconds."""
    deadline = time.monotonic() + ENDED
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail(f"the command's processes were still there {ENDED} s after it was ended")


def test_a_command_writing_without_end_is_ended_at_the_cap_on_a_whole_character(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pipe, "MAX_OUTPUT", 1000)
    run = PipeRun("yes é", "")  # 3 bytes a line: the cap falls inside an é
    outcome = outcome_within(run)
    assert outcome.output == "é\n" * 333  # no U+FFFD for the é cut in two
    assert (outcome.cut, outcome.status) == ("its output reached 1,000 bytes", None)
    assert run._process is not None
    assert_gone(run._process.pid)


def test_a_command_is_ended_at_as_many_lines_as_a_pane_can_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pipe, "MAX_LINES", 100)
    outcome = outcome_within(PipeRun("yes >&2", ""))
    assert (outcome.errors, outcome.cut) == ("y\n" * 100, "its errors reached 100 lines")


def test_what_a_command_writes_goes_through_pipes_not_files() -> None:
    outcome = PipeRun("[ -p /dev/stdout ] && [ -p /dev/stderr ] && echo pipes", "").run()
    assert (outcome.status, outcome.output) == (0, "pipes\n")


def test_what_a_command_writes_can_be_read_while_it_runs_whole() -> None:
    """Pieces as they come: a CR waits for the LF that may follow it, a character split
    between two writes is shown once whole."""
    run = PipeRun(r"printf 'a\r'; sleep 0.3; printf '\nb \303'; sleep 0.3; printf '\251\n'", "")
    seen: list[str] = []
    worker = threading.Thread(target=run.run)
    worker.start()
    deadline = time.monotonic() + ENDED
    while worker.is_alive() and time.monotonic() < deadline:
        seen.append(run.progress()[0])
        time.sleep(0.01)
    worker.join(ENDED)
    assert "a" in seen, "the first line, before the command ended"
    assert all("a\nb é\n".startswith(text) for text in seen), seen
    assert run.progress()[0] == "a\nb é\n"


def test_the_time_said_is_the_time_the_command_ran() -> None:
    """The shell ends after a second, leaving a child that holds its input unread: neither
    the run nor the time it says waits for that input to be taken."""
    run = PipeRun("exec 3<&0; sleep 30 & sleep 1", "x" * 10_000_000)
    try:
        outcome = outcome_within(run, 5.0)
        assert 0.9 < outcome.seconds < 5.0 and outcome.status == 0
    finally:
        assert run._process is not None
        with suppress(ProcessLookupError):
            os.killpg(run._process.pid, signal.SIGKILL)


def test_a_command_that_hangs_is_cancelled_with_what_it_started() -> None:
    run = PipeRun("sleep 60 | cat; echo never", "ignored input\n" * 100_000)  # over a pipe's fill
    finished: list[pipe.Outcome] = []
    worker = threading.Thread(target=lambda: finished.append(run.run()))
    worker.start()
    deadline = time.monotonic() + ENDED
    while run._process is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert run._process is not None, "the command started"
    run.cancel()
    worker.join(ENDED)
    assert not worker.is_alive(), f"the run ended within {ENDED} s of cancelling"
    assert finished[0].status is None
    assert_gone(run._process.pid)


# Piping papers: the screens


def piping_reader(papers: list[Paper], commands: dict[str, str]) -> ReaderApp:
    """The reader over these papers, with these commands to pipe to."""
    config = Config(read_after=0, commands=commands, search_url=TEMPLATE)
    return ReaderApp(Opening(PaperStore(papers)), Library(None), config)


async def test_pipe_to_wc_shows_the_output_and_y_copies_it(
    papers: list[Paper], monkeypatch: pytest.MonkeyPatch
) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    commands = {"count": "wc -l", "words [/b]": "wc -w"}
    app = piping_reader(papers, commands)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("A", "vertical_line")  # every paper shown, to a command
        picker = app.screen
        assert isinstance(picker, PipePicker)
        assert "JSON Lines" in status_line(picker, "#pipe-format")
        options = picker.query_one(OptionList)
        prompts = [str(options.get_option_at_index(n).prompt) for n in range(2)]
        assert [prompt.index("wc -") for prompt in prompts] == [13, 13], "commands in a column"
        assert prompts[1].startswith("words [/b]")
        await pilot.press("tab", "tab", "tab")  # round the formats to JSON Lines again
        assert picker.kind == "jsonl"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PipeOutputScreen), "the output")
        output = app.screen
        assert isinstance(output, PipeOutputScreen)
        await wait_until(pilot, lambda: not output.running, "wc to end", ENDED)
        assert output.query_one(TextArea).text.strip() == "3"
        assert status_line(output, "#pipe-status").startswith("Done in ")
        await pilot.press("y")
        assert copied == [output.query_one(TextArea).text]
        assert notices(app)[-1] == "Copied the output of count to the clipboard · c shows it"
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not output, "the pane closed")


async def test_plain_text_goes_to_the_command_chosen(papers: list[Paper]) -> None:
    app = piping_reader(papers[:1], {"a": "wc -l", "head": "head -n 1"})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(
            "vertical_line", "f", "f", "down", "enter"
        )  # plain text, the second command
        await wait_until(pilot, lambda: isinstance(app.screen, PipeOutputScreen), "the output")
        output = app.screen
        assert isinstance(output, PipeOutputScreen)
        await wait_until(pilot, lambda: not output.running, "head to end", ENDED)
        assert output.query_one(TextArea).text == papers[0].headline + "\n"


async def test_a_failing_command_is_reported_with_its_errors(papers: list[Paper]) -> None:
    app = Host(PipeOutputScreen("bad", "echo oops >&2; exit 4", "", "3 papers as BibTeX"))
    async with app.run_test(size=(100, 30)) as pilot:
        output = app.screen
        assert isinstance(output, PipeOutputScreen)
        await wait_until(pilot, lambda: not output.running, "the command to end", ENDED)
        status = status_line(output, "#pipe-status")
        assert status.startswith("Failed: exit status 4 after ")
        assert "(its errors are at the end of the text)" in status
        assert output.query_one(TextArea).text == "oops\n"


async def test_a_slow_command_is_cancelled_with_escape(papers: list[Paper]) -> None:
    app = Host(PipeOutputScreen("slow", "sleep 60; echo never", "", "1 paper as JSON Lines"))
    async with app.run_test(size=(100, 30)) as pilot:
        output = app.screen
        assert isinstance(output, PipeOutputScreen)
        assert status_line(output, "#pipe-status") == "Running… Escape cancels"
        await pilot.press("escape")
        await wait_until(pilot, lambda: not output.running, "the command cancelled", ENDED)
        assert status_line(output, "#pipe-status").startswith("Cancelled after ")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not output, "the pane closed")
    assert app.results == [None]


async def test_output_shows_while_the_command_runs_and_stays_when_it_is_cancelled() -> None:
    app = Host(PipeOutputScreen("slow", "echo a; sleep 30; echo b", "", "1 paper as BibTeX"))
    async with app.run_test(size=(100, 30)) as pilot:
        output = app.screen
        assert isinstance(output, PipeOutputScreen)
        text = output.query_one(TextArea)
        await wait_until(pilot, lambda: text.text == "a\n", "the first line", ENDED)
        assert output.running
        await pilot.press("escape")
        await wait_until(pilot, lambda: not output.running, "the command cancelled", ENDED)
        assert text.text == "a\n"


async def test_a_command_cut_at_the_cap_is_said_to_be_ended(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pipe, "MAX_OUTPUT", 1000)
    app = Host(PipeOutputScreen("yes", "yes", "", "1 paper as JSON Lines"))
    async with app.run_test(size=(100, 30)) as pilot:
        output = app.screen
        assert isinstance(output, PipeOutputScreen)
        await wait_until(pilot, lambda: not output.running, "yes to be ended", ENDED)
        assert output.query_one(TextArea).text == "y\n" * 500
        status = status_line(output, "#pipe-status")
        assert status.startswith("Cut: its output reached 1,000 bytes, so it was ended after ")


async def test_escape_on_yes_ends_it_and_closes_the_pane_within_seconds() -> None:
    """What `yes` writes up to the caps, shown, leaves the pane quick to answer a key."""
    app = Host(PipeOutputScreen("yes", "yes", "", "1 paper as JSON Lines"))
    async with app.run_test(size=(100, 30)) as pilot:
        output = app.screen
        assert isinstance(output, PipeOutputScreen)
        await pilot.press("escape")  # cancels it, or closes the pane once it was cut
        await wait_until(pilot, lambda: not output.running, "yes to end", SOON)
        if app.screen is output:
            await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not output, "the pane closed", SOON)


async def test_no_commands_says_how_to_name_them_and_where() -> None:
    app = Host(PipePicker({}, 2))
    async with app.run_test(size=(100, 30)) as pilot:
        hint = status_line(app.screen, ".dialog-hint")
        assert hint.startswith(NO_COMMANDS) and f"({config_path()})" in hint
        await pilot.press("q")
        assert app.results == [None]
