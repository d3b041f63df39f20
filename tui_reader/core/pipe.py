"""Piping papers to another program: a shell command named in the config gets the papers on
its standard input, as JSON Lines, BibTeX or plain text, and its output is read back.

The command runs in a session of its own, so that ending it ends whatever it started
(`sh -c 'sleep 60 | cat'`). Its input is written and its output read through pipes in one
loop, each when it is ready: a command that never reads its input holds nothing up, and what
it writes is kept as it comes, up to MAX_OUTPUT bytes and MAX_LINES lines of each stream. At
either the command is ended, so one that writes without end (`yes`) fills neither memory nor
disk, and what is kept can be shown.
"""

import codecs
import contextlib
import json
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

from tui_reader.core.export import render
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState
from tui_reader.core.references import paper_record, reference_title
from tui_reader.core.text import strip_controls

FORMATS = {"jsonl": "JSON Lines", "bib": "BibTeX", "text": "plain text"}
MAX_OUTPUT = 1_000_000  # bytes of output (and of errors) kept
# Lines of each kept: a text pane's every key and frame take longer with each line it holds
# (a megabyte of `yes`, half a million lines, held the reader for over ten seconds).
MAX_LINES = 20_000
KILL_AFTER = 1.0  # seconds an ended command has to go before it is killed
LOOK_EVERY = 0.05  # seconds between looks at whether the command has exited
CHUNK = 65_536  # bytes read or written at a time


def pipe_input(kind: str, papers: Sequence[Paper], state: PaperState, template: str) -> str:
    """The papers as a command reads them: one JSON object a line (the fields of `list
    --format jsonl`), BibTeX entries, or each paper's title and abstract."""
    if kind == "jsonl":
        return "".join(
            json.dumps(paper_record(paper, state, template), ensure_ascii=False) + "\n"
            for paper in papers
        )
    if kind == "bib":
        return render("bib", papers, state, template)
    if kind == "text":
        return "\n\n".join(f"{reference_title(paper)}\n\n{paper.abstract}" for paper in papers)
    raise ValueError(f"unknown format {kind!r}: choose one of {', '.join(FORMATS)}")


@dataclass(frozen=True)
class Outcome:
    """How a command ended: its exit status (None when it was ended here, cancelled or cut,
    or did not start), what it wrote (control characters taken out), what was cut ("its
    output reached 1,000,000 bytes"; empty when nothing was) and how long it ran."""

    status: int | None
    output: str
    errors: str
    cut: str
    seconds: float
    problem: str = ""  # why it did not start

    @property
    def failed(self) -> bool:
        return self.status != 0


class _Kept:
    """What a command writes to one stream, as text, up to MAX_OUTPUT bytes and MAX_LINES
    lines. `read` in the run's thread, `text` from any."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cut = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._bytes = self._lines = 0
        self._held = ""  # a CR ending a piece, which may be the start of a CRLF
        self._pieces: list[str] = []
        self._lock = threading.Lock()

    def read(self, fd: int) -> bool:
        """Read what the stream has ready; False at its end, or at a cap."""
        room = MAX_OUTPUT - self._bytes
        data = os.read(fd, min(CHUNK, room + 1))
        if len(data) > room:
            self.cut = f"its {self.name} reached {MAX_OUTPUT:,} bytes"
            data = data[:room]
        self._bytes += len(data)
        at_end = not data
        # Cut, a character whose bytes the cap split is left out, not shown as U+FFFD.
        text = self._decoder.decode(data, final=at_end and not self.cut)
        self._add(text, final=at_end or bool(self.cut))
        return bool(data) and not self.cut

    def _add(self, text: str, final: bool) -> None:
        text, self._held = self._held + text, ""
        if text.endswith("\r") and not final:
            text, self._held = text[:-1], "\r"
        text = strip_controls(text)
        room = MAX_LINES - self._lines
        lines = text.split("\n", room)
        if len(lines) > room and lines[room]:
            if not self.cut:
                self.cut = f"its {self.name} reached {MAX_LINES:,} lines"
            text = "".join(line + "\n" for line in lines[:room])
        self._lines += text.count("\n")
        with self._lock:
            self._pieces.append(text)

    def text(self) -> str:
        with self._lock:
            joined = "".join(self._pieces)
            self._pieces = [joined]
            return joined


class PipeRun:
    """One run of a command on some input; `run` in a thread, `progress` and `cancel` from
    any other."""

    def __init__(self, command: str, data: str) -> None:
        self.command = command
        self._data = data.encode("utf-8")
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._output, self._errors = _Kept("output"), _Kept("errors")
        self.cancelled = False
        self._done = False

    def run(self) -> Outcome:
        """Run the command to its end (or until cancelled or cut), keeping what it writes."""
        with self._lock:
            if self.cancelled:
                return Outcome(None, "", "", "", 0.0)
            start = time.monotonic()
            try:
                process = self._process = subprocess.Popen(
                    self.command,
                    shell=True,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    start_new_session=True,
                )
            except OSError as error:
                problem = f"it could not be started: {error.strerror or error}"
                return Outcome(None, "", "", "", 0.0, problem)
        ended = self._exchange(process)
        with self._lock:
            self._done = True
        cut = self._output.cut or self._errors.cut
        status = None if self.cancelled or cut else process.returncode
        output, errors = self.progress()
        return Outcome(status, output, errors, cut, ended - start)

    def _exchange(self, process: subprocess.Popen[bytes]) -> float:
        """Write the input and keep the output until the command exits; when it did."""
        stdin, stdout, stderr = process.stdin, process.stdout, process.stderr
        assert stdin is not None and stdout is not None and stderr is not None
        data = memoryview(self._data)
        with stdin, stdout, stderr, selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ, (stdout, self._output))
            selector.register(stderr, selectors.EVENT_READ, (stderr, self._errors))
            if data:
                os.set_blocking(stdin.fileno(), False)
                selector.register(stdin, selectors.EVENT_WRITE)
            else:
                stdin.close()
            while process.poll() is None:
                for key, _ in selector.select(LOOK_EVERY):
                    if key.data is None:
                        data = self._write(stdin, data)
                        if not data:
                            selector.unregister(stdin)
                            stdin.close()
                    else:
                        self._read(selector, key, process)
            ended = time.monotonic()
            # What it wrote before it exited; whatever it left running may write on, unread.
            if not stdin.closed:
                selector.unregister(stdin)
            while events := selector.select(0):
                for key, _ in events:
                    self._read(selector, key, process)
        return ended

    @staticmethod
    def _write(stdin: IO[bytes], data: memoryview) -> memoryview:
        """Write what the pipe takes of `data`; what is left to write."""
        try:
            return data[os.write(stdin.fileno(), data[:CHUNK]) :]
        except BlockingIOError:
            return data
        except BrokenPipeError:  # a command that ends without reading all of its input is fine
            return data[:0]

    def _read(
        self,
        selector: selectors.BaseSelector,
        key: selectors.SelectorKey,
        process: subprocess.Popen[bytes],
    ) -> None:
        stream, kept = key.data
        if not kept.read(stream.fileno()):
            selector.unregister(stream)
            if kept.cut:
                self._end(process)

    def progress(self) -> tuple[str, str]:
        """What the command has written so far: its output and its errors."""
        return self._output.text(), self._errors.text()

    def cancel(self) -> None:
        """End the command and what it started: asked first, killed after KILL_AFTER."""
        with self._lock:
            self.cancelled = True
            process = None if self._done else self._process
        if process is not None:
            self._end(process)

    def _end(self, process: subprocess.Popen[bytes]) -> None:
        """End the command's group, leader and all, even once the leader has exited."""
        self._signal(process, signal.SIGTERM)
        killer = threading.Timer(KILL_AFTER, self._signal, (process, signal.SIGKILL))
        killer.daemon = True
        killer.start()

    @staticmethod
    def _signal(process: subprocess.Popen[bytes], number: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, number)  # its session's group: the shell and its children
