"""What the commands print goes through here: paper text, a server's answer or a library copy
may hold escapes, and none of them reaches the terminal (or a file a terminal shows later).

Standard error keeps one sequence of our own: a carriage return and "erase the line", with
which `fetch` and `resolve` redraw their progress in place."""

import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TextIO

from tui_reader.core.text import for_terminal

REDRAW = "\r\x1b[K"  # back to the line's start, and erase it


class OutputFailed(Exception):
    """What a command printed could not be written (a full disk, standard output closed);
    the message says why. A reader gone (a broken pipe) is no failure: BrokenPipeError."""


class _WithoutControls(io.TextIOBase):
    """A text stream that writes what it is given without its control characters, but for
    the redrawing of a line (`REDRAW`) when `redraws`; None: standard output closed."""

    def __init__(self, stream: TextIO | None, redraws: bool = False) -> None:
        self._stream = stream
        self._redraws = redraws

    def write(self, text: str) -> int:
        if self._redraws and REDRAW in text:
            shown = REDRAW.join(for_terminal(part) for part in text.split(REDRAW))
        else:
            shown = for_terminal(text)
        with self._failing():
            if self._stream is None:
                raise OutputFailed("standard output is closed")
            self._stream.write(shown)
        return len(text)

    def flush(self) -> None:
        with self._failing():
            if self._stream is not None:
                self._stream.flush()

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    @contextmanager
    def _failing(self) -> Iterator[None]:
        """OutputFailed for a write that failed; what is left of the output is dropped, not
        written again (and failing again, with a traceback) as the interpreter ends."""
        try:
            yield
        except BrokenPipeError:
            raise
        except OSError as error:
            with suppress(OSError, ValueError):
                written = self._stream.fileno()  # type: ignore[union-attr]
                null = os.open(os.devnull, os.O_WRONLY)
                try:
                    os.dup2(null, written)
                finally:
                    os.close(null)
            raise OutputFailed(error.strerror or str(error)) from error


@contextmanager
def output_without_controls(standard_output: bool = True) -> Iterator[None]:
    """While the block runs, standard error (and standard output, unless the reader draws
    there itself) writes no control character but tab, newline and `REDRAW`."""
    out, err = sys.stdout, sys.stderr
    if standard_output:
        sys.stdout = _WithoutControls(out)
    # Standard error closed: nothing can be said.
    sys.stderr = _WithoutControls(err, redraws=True) if err is not None else io.StringIO()
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
