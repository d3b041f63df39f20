"""`tui-reader export`: papers as a reading list, references (BibTeX, RIS, CSL-JSON), JSON or
CSV, to stdout or to a file. A reference export is the one time it writes the library: the
citation keys it gives papers that had none."""

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tui_reader.cli.selection import add_selection_options, selected_papers
from tui_reader.cli.shared import (
    UsageError,
    add_search_url_option,
    open_library,
    search_template,
    settings,
    warn,
)
from tui_reader.core.citation_keys import give_keys, keyless
from tui_reader.core.export import (
    ExportError,
    exporter,
    file_formats,
    format_of,
    kept_file,
    render,
    write_export,
)
from tui_reader.core.library import Library, LibraryError
from tui_reader.core.paper import Paper
from tui_reader.core.text import displayed, for_terminal
from tui_reader.core.wording import count


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "write papers as a reading list, BibTeX, RIS, CSL-JSON, JSON or CSV"
    add_selection_options(parser)
    parser.add_argument(
        "--format",
        choices=[row.name for row in file_formats()],
        help="default: the one FILE's name ends in (.md, .bib...)",
    )
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="default: stdout")
    parser.add_argument("--force", action="store_true", help="replace an existing FILE")
    add_search_url_option(parser)


def run(arguments: argparse.Namespace) -> int:
    config = settings()
    papers, library, files = selected_papers(arguments, config)
    kind = export_format(arguments.format, arguments.output)
    if arguments.output is not None and (
        kept := kept_file(arguments.output, library.own_files(), files)
    ):
        raise ExportError(kept)  # before a reference's citation keys are given
    template = search_template(arguments.search_url, config)
    if exporter(kind).reference and keyless(papers, library):
        library = library_with_citation_keys(arguments.library, papers)
    text = render(kind, papers, library, template, config.include_notes)
    if arguments.output is None:
        sys.stdout.write(text)
    else:
        write_export(arguments.output, text, arguments.force)
        print(f"wrote {count(len(papers), 'paper')} to {arguments.output}", file=sys.stderr)
    return 0


def export_format(given: str | None, output: Path | None) -> str:
    """The format to write: --format, else the one the file's name asks for; both must agree."""
    named = format_of(output) if output is not None else None
    if given and named and given != named:
        raise UsageError(
            f"--format {given} does not match {output}: name the file {exporter(given).suffix}, "
            "or leave --format out"
        )
    if kind := given or named:
        return kind
    if output is None:
        names = ", ".join(row.name for row in file_formats())
        raise UsageError(f"--format is needed to write to stdout: {names}")
    endings = ", ".join(row.suffix for row in file_formats())
    raise UsageError(f"cannot tell the format of {output}: name it {endings}, or give --format")


def library_with_citation_keys(path: Path | None, papers: Sequence[Paper]) -> Library:
    """The library, opened to be written, holding the papers' citation keys: those without
    one are given theirs and saved in it, which is said on stderr (the one change `export`
    makes). Keys that cannot be saved are said to hold for this export only."""
    library, _ = open_library(path)
    try:
        new, messages = give_keys(papers, library)
    except LibraryError as error:
        warn(
            f"citation keys could not be kept ({for_terminal(str(error))}); "
            "they hold for this export only"
        )
        return library
    for message in messages:
        warn(message)
    if new:
        warn(f"{count(new, 'citation key')} given, kept in {displayed(library.path or '')}")
    return library
