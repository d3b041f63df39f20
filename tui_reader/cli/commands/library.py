"""`tui-reader library merge OTHER`: fold another copy of the library into this one.

For a library kept on two machines (synced by Syncthing, git or by hand): the copy is only
read, and merged with the rules of concurrent saves, so running it twice, or on a copy that
already holds everything, changes nothing. Exit status 0 when merged, 2 with one line when the
copy cannot be read, 1 when the result cannot be saved.
"""

import argparse
from pathlib import Path

from tui_reader.cli.shared import add_library_option, warn
from tui_reader.core.library import Library, LibraryError, default_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "Work with the library file as a whole."
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    merge = commands.add_parser(
        "merge",
        help="fold another copy of the library into this one",
        description="Fold another copy of the library (another machine's, a synced or backed "
        "up one) into this one: per paper and field the later change wins, each tag on its "
        "own, and a removal is a change too. The copy is never written.",
    )
    merge.add_argument("other", type=Path, metavar="OTHER", help="the copy to fold in")
    add_library_option(merge)


def run(arguments: argparse.Namespace) -> int:
    library, messages = Library.open(arguments.library or default_path())
    try:
        report = library.merge_copy(arguments.other)
    except LibraryError as error:
        warn(str(error))
        return 2
    messages += library.save()  # LibraryError: the command's exit status 1
    for message in messages:
        warn(message)
    print(f"merged {arguments.other}: {report}")
    return 0
