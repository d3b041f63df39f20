"""The commands for scripts, one row each: the table the reader's help lists, "did you mean"
looks among, and `run` parses and runs a command from.

Each command is a module of `tui_reader/cli/commands/`, imported only when its command runs
(`fetch` brings an HTTP client, `recommend` a model): its `add_arguments(parser)` describes
it and adds its arguments to the parser made for it (`tui-reader NAME`), and its
`run(arguments)` runs it and gives the exit status.
"""

import argparse
import difflib
import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from tui_reader.cli.shared import PARSED_BY, OneLineParser, UsageError


class CommandModule(Protocol):
    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, arguments: argparse.Namespace) -> int: ...


@dataclass(frozen=True)
class Command:
    name: str  # as typed: `tui-reader NAME`
    module: str = ""  # its module in tui_reader.cli.commands, when not named as the command
    # Whether a mistake its run finds is told as argparse's are, naming the command (its
    # subcommand) and its help (`tui-reader fetch arxiv: … (see tui-reader fetch arxiv
    # --help)`), not as `tui-reader: …`.
    tells_help: bool = False

    def parser(self) -> argparse.ArgumentParser:
        """Its parser, its module's arguments added: a mistake in them is one line naming
        the command (or subcommand) and its help, not argparse's usage and error."""
        parser = OneLineParser(prog=f"tui-reader {self.name}")
        self._module().add_arguments(parser)
        return parser

    def run(self, argv: Sequence[str]) -> int:
        """Parse the arguments and run the command; its exit status."""
        arguments = self.parser().parse_args(argv)
        try:
            return self._module().run(arguments)
        except UsageError as error:
            if self.tells_help and not error.command:  # the subcommand's: `tui-reader fetch arxiv`
                raise UsageError(str(error), getattr(arguments, PARSED_BY)) from None
            raise

    def _module(self) -> CommandModule:
        name = f"tui_reader.cli.commands.{self.module or self.name}"
        return cast(CommandModule, importlib.import_module(name))


COMMANDS = (
    Command("tag"),
    Command("untag"),
    Command("bookmark"),
    Command("unbookmark"),
    Command("tags"),
    Command("list", module="listing"),
    Command("export"),
    Command("search"),
    Command("searches"),
    Command("digest"),
    Command("recommend"),
    Command("fetch", tells_help=True),
    Command("resolve", tells_help=True),
    Command("library"),
    Command("cache", tells_help=True),
)
_NAMED = {command.name: command for command in COMMANDS}


def command_named(word: str) -> Command | None:
    return _NAMED.get(word)


def closest(word: str) -> str | None:
    """The command a mistyped word was most likely meant to be (`serach`: search), if any."""
    close = difflib.get_close_matches(word, list(_NAMED), n=1)
    return close[0] if close else None


def listing() -> str:
    """The commands, as the reader's help lists them."""
    names = ", ".join(command.name for command in COMMANDS)
    return f"commands for scripts: {names} (tui-reader COMMAND --help)"
