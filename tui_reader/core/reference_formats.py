"""References for reference managers, each paper with its citation key (core.citation_keys):
BibTeX (LaTeX, Pandoc, Zotero, JabRef), RIS (EndNote, Zotero, Mendeley) and CSL-JSON (Zotero,
Pandoc, citeproc).

Each format's type, and the field of the venue, follow the kind of publication
(references.kind_of):

| kind | BibTeX | RIS | CSL-JSON |
|---|---|---|---|
| journal | `@article`, `journal` | `JOUR`, `T2` | `article-journal`, `container-title` |
| conference | `@inproceedings`, `booktitle` | `CPAPER`, `T2` | `paper-conference`, same |
| preprint | `@misc`, `eprint`, `howpublished` | `UNPB`, `PB` | `article`, `publisher` |
| unpublished | `@unpublished`, `note` | `UNPB`, `M3` | `manuscript`, `genre` |
| other | `@misc` | `GEN` | `article` |

BibTeX's text is LaTeX that BibTeX, biber and Pandoc read alike (core.bibtex_text); RIS and
CSL-JSON hold plain Unicode, LaTeX read (core.latex_text.plain_text). Names are split only
where their parts can be told (core.reference_names). The user's note is written only when
asked (`[export] include_notes`), as BibTeX's `annote`, RIS's `N1`, CSL-JSON's `annote`:
never as a `note`, which styles print.
"""

import json
import re
from collections.abc import Sequence

from tui_reader.core.bibtex_text import bibtex_source, bibtex_text, bibtex_title
from tui_reader.core.citation_keys import keys_of
from tui_reader.core.formats.bibtex import ID_FIELD, TAGS_FIELD, id_field
from tui_reader.core.latex_text import plain_text, unpaired_braces
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import NO_STATE, PaperState
from tui_reader.core.reference_names import bibtex_authors, csl_name, named, ris_name
from tui_reader.core.references import (
    Kind,
    date_of,
    keywords_of,
    kind_of,
    own_link,
    pages_of,
    reference_title,
    year_of,
)
from tui_reader.core.text import without_debris

_LINE_BREAKS = re.compile(r"\s*[\r\n]+\s*")
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_BIBTEX_TYPES = {
    "journal": "article", "conference": "inproceedings", "preprint": "misc",
    "unpublished": "unpublished", "other": "misc",
}  # fmt: skip
_BIBTEX_VENUES = {
    "journal": "journal", "conference": "booktitle", "preprint": "howpublished",
    "unpublished": "note",
}  # fmt: skip
_RIS_TYPES = {
    "journal": "JOUR", "conference": "CPAPER", "preprint": "UNPB", "unpublished": "UNPB",
    "other": "GEN",
}  # fmt: skip
_RIS_VENUES = {"journal": "T2", "conference": "T2", "preprint": "PB", "unpublished": "M3"}
_CSL_TYPES = {
    "journal": "article-journal", "conference": "paper-conference", "preprint": "article",
    "unpublished": "manuscript", "other": "article",
}  # fmt: skip
_CSL_VENUES = {
    "journal": "container-title", "conference": "container-title", "preprint": "publisher",
    "unpublished": "genre",
}  # fmt: skip


def bibtex(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    """BibTeX entries for the papers, one each (see the module): title, authors, venue,
    volume, number (the issue) and pages, year and month, arXiv's eprint, archivePrefix and
    primaryClass, DOI, the paper's own link as url, keywords, the abstract, the user's note
    as `annote` when the state gives it, and the id of a paper known by its text
    (`tui-reader-id`), which a `.bib` read back gives it."""
    entries = []
    papers = _each_once(papers)
    for paper, key in zip(papers, keys_of(papers, state), strict=True):
        kind = kind_of(paper)
        fields = [("title", bibtex_title(reference_title(paper)))]
        if paper.authors:
            fields.append(("author", bibtex_authors(paper.authors)))
        if (venue_field := _BIBTEX_VENUES.get(kind)) and (venue := _venue(paper, kind)):
            fields.append((venue_field, bibtex_title(venue)))
        fields += [(name, bibtex_text(value)) for name, value in _volume_issue(paper, "number")]
        if pages := _pages(paper, "--"):
            fields.append(("pages", bibtex_text(pages)))
        if year := year_of(paper):
            fields.append(("year", year))
        if len(date := date_of(paper)) > 1:
            fields.append(("month", _MONTHS[date[1] - 1]))
        if paper.arxiv_id:
            fields += [("eprint", paper.arxiv_id), ("archivePrefix", "arXiv")]
            if paper.categories:
                fields.append(("primaryClass", bibtex_text(paper.categories[0])))
        if paper.doi:
            fields.append(("doi", bibtex_text(paper.doi)))
        if (url := own_link(paper)) and "{" not in url and "}" not in url:
            fields.append(("url", url))
        fields += _bibtex_keywords(paper, state)
        if paper.comments:  # a field styles do not print, as JabRef and Zotero's BibTeX keep
            fields.append(("comment", bibtex_text(paper.comments)))
        fields.append(("abstract", abstract := _bibtex_abstract(paper)))
        if note := state.note(paper.id):
            fields.append(("annote", bibtex_text(note)))
        if paper.id != paper.arxiv_id:  # known by its text, which BibTeX writes otherwise
            fields.append((ID_FIELD, id_field(paper.id, abstract)))
        # The month as a macro (`mar`), which every style reads.
        lines = [f"\t{name} = {v if name == 'month' else '{' + v + '}'}" for name, v in fields]
        entries.append(f"@{_BIBTEX_TYPES[kind]}{{{key},\n" + ",\n".join(lines) + "\n}\n")
    return "\n".join(entries)


def _bibtex_abstract(paper: Paper) -> str:
    """The abstract for BibTeX: as its own BibTeX file wrote it, where it has one, else made."""
    written = paper.written_abstract
    if written and not unpaired_braces(written) and not written.endswith("\\"):
        return written
    return bibtex_source(without_debris(paper.abstract))


def _volume_issue(paper: Paper, issue: str) -> list[tuple[str, str]]:
    """The paper's volume and issue (the field named `issue`), those it has."""
    named = (("volume", paper.volume), (issue, paper.issue))
    return [(name, value) for name, value in named if value]


def _pages(paper: Paper, dash: str) -> str:
    """The paper's pages, a range joined by `dash` ("" for none)."""
    return dash.join(filter(None, pages_of(paper)))


def _each_once(papers: Sequence[Paper]) -> list[Paper]:
    """The papers, one reference each: a paper met twice (by its id) has one key."""
    first: dict[str, Paper] = {}
    for paper in papers:
        first.setdefault(paper.id, paper)
    return list(first.values())


def _bibtex_keywords(paper: Paper, state: PaperState) -> list[tuple[str, str]]:
    """The keywords, tags first, and the tags among them on their own (TAGS_FIELD), which a
    reading tells from the paper's keywords."""
    if not (keywords := keywords_of(paper, state)):
        return []
    own = {word.casefold() for word in keywords_of(paper, NO_STATE)}
    fields = [("keywords", bibtex_text(", ".join(keywords)))]
    if added := [word for word in keywords if word.casefold() not in own]:
        fields.append((TAGS_FIELD, bibtex_text(", ".join(added))))
    return fields


def _venue(paper: Paper, kind: Kind) -> str:
    """Where the paper is published; for an unpublished one, what became of it."""
    return paper.venue or (paper.decision.capitalize() if kind == "unpublished" else "")


def csl_json(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    """The papers as a CSL-JSON array (see the module)."""
    items = []
    papers = _each_once(papers)
    for paper, key in zip(papers, keys_of(papers, state), strict=True):
        kind = kind_of(paper)
        item: dict[str, object] = {
            "id": key,
            "type": _CSL_TYPES[kind],
            "title": plain_text(reference_title(paper)),
        }
        if authors := named(paper.authors):
            item["author"] = [csl_name(author) for author in authors]
        if date := date_of(paper):
            item["issued"] = {"date-parts": [date]}
        if (venue_field := _CSL_VENUES.get(kind)) and (venue := _venue(paper, kind)):
            item[venue_field] = plain_text(venue)
        item |= {name: plain_text(value) for name, value in _volume_issue(paper, "issue")}
        if pages := _pages(paper, "-"):  # CSL's range: processors set the dash a style asks for
            item["page"] = plain_text(pages)
        if paper.arxiv_id:
            item["number"] = f"arXiv:{paper.arxiv_id}"
        if paper.doi:
            item["DOI"] = paper.doi
        if url := own_link(paper):
            item["URL"] = url
        item["abstract"] = plain_text(paper.abstract)
        if keywords := keywords_of(paper, state):
            item["keyword"] = ", ".join(keywords)
        if note := state.note(paper.id):
            item["annote"] = note
        items.append(item)
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def _ris_line(tag: str, value: str) -> str:
    """One RIS field on one line: a field's line breaks become spaces."""
    return f"{tag}  - {_LINE_BREAKS.sub(' ', value).strip()}"


def ris(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    """The papers as RIS records (see the module)."""
    lines = []
    papers = _each_once(papers)
    for paper, key in zip(papers, keys_of(papers, state), strict=True):
        kind = kind_of(paper)
        fields = [("TY", _RIS_TYPES[kind]), ("ID", key), ("TI", plain_text(reference_title(paper)))]
        fields += [("AU", ris_name(author)) for author in named(paper.authors)]
        if year := year_of(paper):
            fields.append(("PY", year))
        if len(date := date_of(paper)) > 1:
            fields.append(("DA", "/".join(f"{part:02d}" for part in date)))
        if (venue_field := _RIS_VENUES.get(kind)) and (venue := _venue(paper, kind)):
            fields.append((venue_field, plain_text(venue)))
        if paper.volume:
            fields.append(("VL", plain_text(paper.volume)))
        if paper.issue:
            fields.append(("IS", plain_text(paper.issue)))
        first, last = pages_of(paper)
        fields += [(tag, plain_text(page)) for tag, page in (("SP", first), ("EP", last)) if page]
        if paper.arxiv_id:
            fields.append(("M1", f"arXiv:{paper.arxiv_id}"))
        if paper.doi:
            fields.append(("DO", paper.doi))
        if url := own_link(paper):
            fields.append(("UR", url))
        fields.append(("AB", plain_text(paper.abstract)))
        fields += [("KW", word) for word in keywords_of(paper, state)]
        if note := state.note(paper.id):
            fields.append(("N1", note))
        lines += [_ris_line(tag, value) for tag, value in fields if value.strip()]
        lines += ["ER  - ", ""]
    return "\n".join(lines)
