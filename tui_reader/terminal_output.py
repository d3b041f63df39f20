"""What the commands print goes through here: paper text, a server's answer or a library copy
may hold escapes, and none of them reaches the terminal (or a file a terminal shows later).

Standard error keeps one sequence of our own: a carriage return and "erase the line", with
which `fetch` and `resolve` redraw their progress in place."""

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from tui_reader.core.text import for_terminal

REDRAW = "\r\x1b[K"  # back to the line's start, and erase it


class _WithoutControls(io.TextIOBase):
    """A text stream that writes what it is given without its control characters, but for
    the redrawing of a line (`REDRAW`) when `redraws`."""

    def __init__(self, stream: TextIO, redraws: bool = False) -> None:
        self._stream = stream
        self._redraws = redraws

    def write(self, text: str) -> int:
        if self._redraws and REDRAW in text:
            self._stream.write(REDRAW.join(for_terminal(part) for part in text.split(REDRAW)))
        else:
            self._stream.write(for_terminal(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()


@contextmanager
def output_without_controls(standard_output: bool = True) -> Iterator[None]:
    """While the block runs, standard error (and standard output, unless the reader draws
    there itself) writes no control character but tab, newline and `REDRAW`."""
    out, err = sys.stdout, sys.stderr
    if standard_output:
        sys.stdout = _WithoutControls(out)
    sys.stderr = _WithoutControls(err, redraws=True)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
