"""BibTeX entries with an abstract field."""

import logging
from collections.abc import Iterator

from tui_reader.core.formats.records import Problem, Record, record_from

# bibtexparser logs each block it cannot parse; it is reported as a Problem with its line
# instead, so the log's lines on stderr would only say it again, over several lines.
logging.getLogger("bibtexparser").setLevel(logging.ERROR)


def read_bibtex(text: str) -> Iterator[Record | Problem]:
    import bibtexparser  # imported for a .bib file only: 0.02 s of every start otherwise

    library = bibtexparser.parse_string(text)  # type: ignore[attr-defined]
    for block in library.failed_blocks:
        yield Problem((block.start_line or 0) + 1, "not a valid BibTeX entry")
    for entry in library.entries:
        fields = {key.lower(): f.value for key, f in entry.fields_dict.items()}
        venue = fields.get("journal") or fields.get("booktitle") or fields.get("howpublished")
        data = {**fields, "venue": venue, "authors": fields.get("author", "")}
        result = record_from(data, (entry.start_line or 0) + 1)
        if isinstance(result, Problem):
            yield Problem(result.line, f"entry {entry.key}: {result.message}")
        else:
            yield result
