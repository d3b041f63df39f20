"""`tui-reader`'s main: a command for scripts when the first word names one (the registry),
else the reader; each outcome's exit status and one line on stderr for a problem."""

import os
import sys
from collections.abc import Sequence

from tui_reader import startup
from tui_reader.cli.reader import reader_parser, run_reader
from tui_reader.cli.registry import Command, closest, command_named
from tui_reader.cli.shared import INTERRUPTED, NoMatch, UsageError, warn
from tui_reader.cli.signals import Ended, end_commands_on_signals
from tui_reader.core.config import ConfigError
from tui_reader.core.export import ExportError, ExportFailed
from tui_reader.core.index_cache import damage_noted
from tui_reader.core.library import LibraryError, LibraryPathError
from tui_reader.core.loading import LoadError
from tui_reader.core.pools import stop_pools
from tui_reader.core.scratch import ScratchError
from tui_reader.core.session import SessionError
from tui_reader.core.text import for_terminal
from tui_reader.terminal_output import OutputFailed, output_without_controls


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    startup.release_collector()  # this module's imports are in (see __main__)
    command = command_named(argv[0]) if argv else None
    # The reader draws on the terminal itself: only its lines before and after are filtered.
    with output_without_controls(standard_output=command is not None):
        status = _main(argv, command)
        if told := damage_noted():  # texts of the cache read back as U+FFFD
            warn(told)
        return status


def _main(argv: list[str], command: Command | None) -> int:
    try:
        if command is not None:
            end_commands_on_signals()
            status = command.run(argv[1:])
            sys.stdout.flush()  # a full disk is told here, not as the interpreter ends
            return status
        _not_a_mistyped_command(argv)
        return run_reader(reader_parser().parse_args(argv))
    except NoMatch as error:  # as grep and `fzf --filter` say nothing matched
        warn(for_terminal(str(error)))
        return 1
    except UsageError as error:
        print(for_terminal(error.line()), file=sys.stderr)
        return 2
    except ExportFailed as error:
        warn(for_terminal(str(error)))
        return 1
    except (
        LoadError,
        ExportError,
        LibraryPathError,
        ConfigError,
        SessionError,
    ) as error:
        warn(for_terminal(str(error)))
        return 2
    except LibraryError as error:
        warn(f"changes could not be saved: {for_terminal(str(error))}")
        return 1
    except ScratchError as error:  # a full disk, say: nothing was kept of the build
        warn(f"the papers could not be read and indexed: {for_terminal(str(error))}")
        return 1
    except BrokenPipeError:
        return 0
    except OutputFailed as error:
        warn(f"the output could not be written: {error}")
        return 1
    except KeyboardInterrupt:  # Ctrl-C: what was being written is removed as it unwound
        stop_pools()
        warn("interrupted")
        return INTERRUPTED
    except Ended as ended:  # SIGTERM, SIGHUP: as Ctrl-C
        stop_pools()
        warn(f"ended ({ended})")
        return 128 + ended.signum
    except MemoryError:
        stop_pools()
        warn("out of memory: the command stopped")
        return 1


def _not_a_mistyped_command(argv: Sequence[str]) -> None:
    """UsageError for a first word that is no file but a command mistyped (`serach`): the
    reader said only that no such file exists."""
    if not argv or argv[0].startswith("-") or os.path.lexists(argv[0]):
        return
    if close := closest(argv[0]):
        raise UsageError(
            f"{argv[0]}: no such file or directory, nor a command: "
            f"did you mean `tui-reader {close}`?"
        )
