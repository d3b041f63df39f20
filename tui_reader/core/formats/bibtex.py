"""BibTeX entries with an abstract field (Zotero's, Better BibTeX's, arXiv's and others').

A field's text is read as the text it stands for, as a record of any other format gives it:
the title, abstract, venue and keywords with their accents and escapes as Unicode and the
braces that protect case dropped (`Attention {Is} {All}`, `Schr\\"odinger`, `50\\%`:
Attention Is All, Schrödinger, 50%), a control space (`et al.\\ show`) a space, math as
written (`$\\alpha$`). A field that holds an escaped backslash or dollar is LaTeX escaped
whole (Zotero writes an arXiv abstract's `$\\mathcal{O}(n)$` so:
`\\${\\textbackslash}mathcal\\{O\\}(n)\\$`) and is read back to it; in any other, `\\{` and
`\\}` stay written so, braces as characters. The paper's id is of the abstract as written,
unless the entry gives it: tui-reader's own export writes it as `tui-reader-id`, checked
against the abstract as written.
Authors are split by BibTeX's rules (bibtexparser) and each written "Given von Family Jr."
(`Vaswani, Ashish`: Ashish Vaswani), a name braced whole kept so when it has several words
(`{Barack Obama}`), `and others` wherever it stands as the last name `et al.` (biber's rule:
`A and others and B` is A, B, et al.).

The venue is the entry's `journal` (`journaltitle`), `booktitle` or `howpublished`; what kind
it is, the entry's type (`@article`: a journal, `@inproceedings`: a conference,
`@unpublished`); where in it, its `volume`, `number` (the issue) and `pages`; the date its
`date`, else its `year` and `month`. Ids and links are read as
core.formats.records reads every format's (`eprint` with `archivePrefix`, an arxiv.org `url`).
"""

import hashlib
import logging
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from tui_reader.core.formats.records import Problem, Record, record_from
from tui_reader.core.paper import ET_AL, ID_LENGTH, braced_whole
from tui_reader.core.text import clean, normalise

_VENUE_KINDS = {
    "article": "journal", "inproceedings": "conference", "conference": "conference",
    "unpublished": "unpublished",
}  # fmt: skip
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_DATE = re.compile(r"\d{4}(?:-\d\d){0,2}")
# The id tui-reader's export gives a paper known by its text (core.reference_formats), with
# a check of it and the abstract as written (`id_field`): read back, the paper keeps it, and
# what the user made of it.
ID_FIELD = "tui-reader-id"
# The tags tui-reader's export added to a paper's keywords (Zotero takes keywords as its tags):
# read back, they are the library's, not the paper's keywords (a tag removed since stays so).
TAGS_FIELD = "tui-reader-tags"
_GIVEN_ID = re.compile(f"([0-9a-f]{{{ID_LENGTH}}})-([0-9a-f]{{8}})")
_TEXTS = (
    "title", "abstract", "journal", "journaltitle", "booktitle", "howpublished", "keywords",
    "volume", "number", "pages", TAGS_FIELD,
)  # fmt: skip
# Stand-ins for braces that are characters while the LaTeX around them is read.
_BRACES = {"\\{": "\ue000", "\\}": "\ue001"}
_ESCAPED_BRACE = re.compile(r"\\\\|\\[{}]")
# LaTeX's control space (`et al.\ show`), which a .bib file means as a space; a backslash
# alone elsewhere (a record's title) is shown as written.
_CONTROL_SPACE = re.compile(r"(?<!\\)((?:\\\\)*)\\ ")

# bibtexparser logs each block it cannot parse; it is reported as a Problem with its line
# instead, so the log's lines on stderr would only say it again, over several lines.
logging.getLogger("bibtexparser").setLevel(logging.ERROR)


def read_bibtex(text: str) -> Iterator[Record | Problem]:
    import bibtexparser  # imported for a .bib file only: 0.02 s of every start otherwise
    from bibtexparser.middlewares.names import split_multiple_persons_names as split_persons

    library = bibtexparser.parse_string(text)  # type: ignore[attr-defined]
    for block in library.failed_blocks:
        yield Problem((block.start_line or 0) + 1, "not a valid BibTeX entry")
    for entry in library.entries:
        written = {key.lower(): f.value for key, f in entry.fields_dict.items()}
        fields = {key: text_of(value) if key in _TEXTS else value for key, value in written.items()}
        journal = fields.get("journal") or fields.get("journaltitle")
        venue = journal or fields.get("booktitle") or fields.get("howpublished")
        names = [name for name in map(author_of, split_persons(written.get("author", ""))) if name]
        # `others` anywhere stands for the authors not named, as biber reads it (plain.bst
        # reads it so only last, and prints one before as a name): the last, `et al.`.
        authors = [name for name in names if name != ET_AL]
        if authors and len(authors) < len(names):
            authors.append(ET_AL)
        data: dict[str, Any] = {**fields, "venue": venue, "authors": authors}
        if tags := fields.get(TAGS_FIELD):
            data["keywords"] = _without(fields.get("keywords", ""), tags)
        data["venue_kind"] = _VENUE_KINDS.get(entry.entry_type.lower(), "")
        if number := fields.get("number"):  # a journal's issue
            data["issue"] = number
        if published := _published(fields):
            data["published"] = published
            data.setdefault("year", published[:4])
        result = record_from(data, (entry.start_line or 0) + 1)
        if isinstance(result, Problem):
            yield Problem(result.line, f"entry {entry.key}: {result.message}")
            continue
        abstract = clean(written.get("abstract", ""))
        given = _given_id(written.get(ID_FIELD, ""), abstract)
        if abstract != result.abstract or given:
            result = replace(
                result,
                written_abstract="" if abstract == result.abstract else abstract,
                given_id=given,
            )
        yield result


def _without(keywords: str, tags: str) -> str:
    """The keywords but the tags (each list split at commas, in any case)."""
    added = {tag.strip().casefold() for tag in tags.split(",")}
    return ", ".join(w for w in keywords.split(",") if w.strip().casefold() not in added)


def id_field(paper_id: str, abstract: str) -> str:
    """The value of ID_FIELD for a paper and its abstract as BibTeX writes it."""
    return f"{paper_id}-{_check(paper_id, abstract)}"


def _given_id(value: str, abstract: str) -> str:
    """The id ID_FIELD's value gives the paper of this abstract as written; "" when it gives
    none: not ours, or its check fails, an entry copied and given another abstract, or
    another paper's id pasted in (either would take the paper's place, and its tags)."""
    found = _GIVEN_ID.fullmatch(value.strip().lower())
    return found[1] if found and found[2] == _check(found[1], abstract) else ""


def _check(paper_id: str, abstract: str) -> str:
    return hashlib.sha256(f"{paper_id} {normalise(abstract)}".encode()).hexdigest()[:8]


def text_of(value: str) -> str:
    """A field's value as the text it stands for (see the module)."""
    from tui_reader.core.latex_text import unicode_text  # pylatexenc: for a .bib file only

    value = _CONTROL_SPACE.sub(r"\1 ", value)
    if "{\\textbackslash}" in value or "\\$" in value:
        return unicode_text(value)
    kept = _ESCAPED_BRACE.sub(lambda escape: _BRACES.get(escape[0], escape[0]), value)
    text = unicode_text(kept)
    for brace, stand_in in _BRACES.items():
        text = text.replace(stand_in, brace)
    return text


def author_of(name: str) -> str:
    """One author of an `author` field as "Given von Family Jr." (see the module); "" for none."""
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    from tui_reader.core.latex_text import unicode_text

    name = name.strip()
    if name.lower() == "others":
        return ET_AL
    if braced_whole(name):
        inner = unicode_text(name[1:-1]).strip()
        return f"{{{inner}}}" if " " in inner else inner
    try:
        parts = parse_single_name_into_parts(name, strict=False)
    except Exception:  # the parser raises plain exceptions on names like "a,b,c,d"
        return clean(unicode_text(name))
    words = [*parts.first, *parts.von, *parts.last, *parts.jr]
    return clean(unicode_text(" ".join(words)))


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
