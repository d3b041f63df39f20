"""BibTeX entries with an abstract field (Zotero's, Better BibTeX's, arXiv's and others').

The venue is the entry's `journal` (`journaltitle`), `booktitle` or `howpublished`; what kind
it is, the entry's type (`@article`: a journal, `@inproceedings`: a conference,
`@unpublished`); the date its `date`, else its `year` and `month`. Ids and links are read as
core.formats.records reads every format's (`eprint` with `archivePrefix`, an arxiv.org `url`).
"""

import logging
import re
from collections.abc import Iterator

from tui_reader.core.formats.records import Problem, Record, record_from

_VENUE_KINDS = {
    "article": "journal", "inproceedings": "conference", "conference": "conference",
    "unpublished": "unpublished",
}  # fmt: skip
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_DATE = re.compile(r"\d{4}(?:-\d\d){0,2}")

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
        journal = fields.get("journal") or fields.get("journaltitle")
        venue = journal or fields.get("booktitle") or fields.get("howpublished")
        data = {**fields, "venue": venue, "authors": fields.get("author", "")}
        data["venue_kind"] = _VENUE_KINDS.get(entry.entry_type.lower(), "")
        if published := _published(fields):
            data["published"] = published
            data.setdefault("year", published[:4])
        result = record_from(data, (entry.start_line or 0) + 1)
        if isinstance(result, Problem):
            yield Problem(result.line, f"entry {entry.key}: {result.message}")
        else:
            yield result


def _published(fields: dict[str, str]) -> str:
    """The entry's date as ISO (`2025-03-04`, `2025-03`): its `date`, else `year` and `month`
    (`mar`, `March`, `3`); "" when it says no more than a year."""
    date = fields.get("date", "").strip()
    if _DATE.fullmatch(date) and "-" in date:
        return date
    year, month = fields.get("year", "").strip(), fields.get("month", "").strip().lower()
    if month.isdigit():
        number = int(month)
    else:
        number = _MONTHS.index(month[:3]) + 1 if month[:3] in _MONTHS else 0
    return f"{year}-{number:02d}" if len(year) == 4 and year.isdigit() and 1 <= number <= 12 else ""
