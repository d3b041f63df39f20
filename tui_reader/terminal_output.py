"""What the commands print goes through here: paper text, a server's answer or a library copy
may hold escapes, and none of them reaches the terminal (or a file a terminal shows later)."""

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from tui_reader.core.text import for_terminal


class _WithoutControls(io.TextIOBase):
    """A text stream that writes what it is given without its control characters."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(for_terminal(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()


@contextmanager
def standard_output_without_controls() -> Iterator[None]:
    """Standard output, while the block runs, writes no control character but tab and newline.
    (Standard error is the commands' own: their progress lines redraw with escapes.)"""
    stream = sys.stdout
    sys.stdout = _WithoutControls(stream)
    try:
        yield
    finally:
        sys.stdout = stream
