"""Piping papers to another program: a shell command named in the config gets the papers on
its standard input, as JSON Lines, BibTeX or plain text, and its output is read back.

The command runs in a session of its own, so that cancelling it ends it and whatever it started
(`sh -c 'sleep 60 | cat'`); its output goes to temporary files, so a command that writes a lot
fills no pipe and no memory: the first MAX_OUTPUT bytes are read back.
"""

import contextlib
import json
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState
from tui_reader.core.references import bibtex, paper_record, reference_title
from tui_reader.core.text import strip_controls

FORMATS = {"jsonl": "JSON Lines", "bib": "BibTeX", "text": "plain text"}
MAX_OUTPUT = 1_000_000  # bytes of output (and of errors) read back
KILL_AFTER = 1.0  # seconds a cancelled command has to end before it is killed


def pipe_input(kind: str, papers: Sequence[Paper], state: PaperState, template: str) -> str:
    """The papers as a command reads them: one JSON object a line (the fields of `list
    --format jsonl`), BibTeX entries, or each paper's title and abstract."""
    if kind == "jsonl":
        return "".join(
            json.dumps(paper_record(paper, state, template), ensure_ascii=False) + "\n"
            for paper in papers
        )
    if kind == "bib":
        return bibtex(papers, state, template)
    if kind == "text":
        return "\n\n".join(f"{reference_title(paper)}\n\n{paper.abstract}" for paper in papers)
    raise ValueError(f"unknown format {kind!r}: choose one of {', '.join(FORMATS)}")


@dataclass(frozen=True)
class Outcome:
    """How a command ended: its exit status (None when it was cancelled or did not start),
    what it wrote (control characters taken out), and whether the output was cut."""

    status: int | None
    output: str
    errors: str
    cut: bool
    seconds: float
    problem: str = ""  # why it did not start

    @property
    def failed(self) -> bool:
        return self.status != 0


def _read_back(file: IO[bytes]) -> tuple[str, bool]:
    file.seek(0)
    data = file.read(MAX_OUTPUT + 1)
    text = data[:MAX_OUTPUT].decode("utf-8", errors="replace")
    return strip_controls(text), len(data) > MAX_OUTPUT


class PipeRun:
    """One run of a command on some input; `run` in a thread, `cancel` from any other."""

    def __init__(self, command: str, data: str) -> None:
        self.command = command
        self._data = data.encode("utf-8")
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self.cancelled = False

    def run(self) -> Outcome:
        """Run the command to its end (or until cancelled) and read its output back."""
        start = time.monotonic()
        with tempfile.TemporaryFile() as output, tempfile.TemporaryFile() as errors:
            with self._lock:
                if self.cancelled:
                    return Outcome(None, "", "", False, 0.0)
                try:
                    self._process = subprocess.Popen(
                        self.command,
                        shell=True,
                        stdin=subprocess.PIPE,
                        stdout=output,
                        stderr=errors,
                        start_new_session=True,
                    )
                except OSError as error:
                    problem = f"it could not be started: {error.strerror or error}"
                    return Outcome(None, "", "", False, 0.0, problem)
            # A command that ends without reading all of its input is fine.
            with contextlib.suppress(BrokenPipeError):
                self._process.communicate(self._data)
            text, cut = _read_back(output)
            error_text, _ = _read_back(errors)
            status = None if self.cancelled else self._process.returncode
            return Outcome(status, text, error_text, cut, time.monotonic() - start)

    def cancel(self) -> None:
        """End the command and what it started: asked first, killed after KILL_AFTER."""
        with self._lock:
            self.cancelled = True
            process = self._process
        if process is None or process.poll() is not None:
            return
        self._signal(process, signal.SIGTERM)
        killer = threading.Timer(KILL_AFTER, self._signal, (process, signal.SIGKILL))
        killer.daemon = True
        killer.start()

    @staticmethod
    def _signal(process: subprocess.Popen[bytes], number: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, number)  # its session's group: the shell and its children
