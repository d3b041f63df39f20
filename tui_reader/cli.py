"""The `tui-reader` command."""

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tui_reader import __version__
from tui_reader.core.loading import LoadError, load_paths
from tui_reader.core.store import PaperStore
from tui_reader.resources import bundled


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tui-reader",
        description="Read, filter and triage research-paper abstracts in the terminal.",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="a seed-format file or a directory of them (default: the bundled ICML 2026 abstracts)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    paths = arguments.paths or [bundled("seeds")]
    try:
        loaded = load_paths(paths)
    except LoadError as error:
        print(f"tui-reader: {error}", file=sys.stderr)
        return 2
    from tui_reader.ui.app import ReaderApp

    ReaderApp(PaperStore(loaded.papers, loaded.collections)).run()
    return 0
