"""Editing text in the user's own editor ($VISUAL, else $EDITOR): the reader hands the terminal
over, the editor edits a temporary file, and the reader reads it back when the editor ends."""

import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from textual.app import App, SuspendNotSupported

from tui_reader.core.text import strip_controls


def editor_command() -> list[str] | None:
    """The editor's command line ("code --wait" is two words), or None when none is set."""
    for variable in ("VISUAL", "EDITOR"):
        if (value := os.environ.get(variable, "").strip()) and (words := shlex.split(value)):
            return words
    return None


def _run(app: App[Any], command: list[str]) -> int:
    if app.is_headless:  # no terminal to hand over (tests): the editor runs without one
        return subprocess.run(command, stdin=subprocess.DEVNULL, check=False).returncode
    failed: OSError | None = None
    with app.suspend():
        # Textual resumes the terminal only when this block ends without raising: an editor
        # not found left the screen blank, the note lost, and no key would do anything.
        try:
            return subprocess.run(command, check=False).returncode
        except OSError as error:
            failed = error
    raise failed


def edit_in_editor(app: App[Any], text: str) -> tuple[str | None, str]:
    """The text as the editor left it, or None and what went wrong (no editor set, one that
    cannot be started or that failed), in which case the text is to be kept as it was."""
    command = editor_command()
    if command is None:
        return None, "No editor is set: set $EDITOR (or $VISUAL), such as EDITOR=nano"
    shown = shlex.join(command)
    with tempfile.TemporaryDirectory(prefix="tui-reader-") as folder:
        path = Path(folder) / "note.md"
        # Its last line ends with a newline, as POSIX text does: editors otherwise say
        # "no newline at end of file" or add one, and `cat` runs it into the prompt.
        path.write_text(text.rstrip("\n") + "\n" if text else "", encoding="utf-8")
        try:
            status = _run(app, [*command, str(path)])
        except SuspendNotSupported:
            return None, "This terminal cannot be handed over to an editor"
        except OSError as error:
            return None, f"The editor {shown} could not be started: {error.strerror or error}"
        if status != 0:
            return None, f"The editor {shown} failed (exit status {status})"
        try:
            edited = path.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            return None, f"The note could not be read back: {error.strerror or error}"
    return strip_controls(edited).rstrip("\n"), ""
