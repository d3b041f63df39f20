"""References for reference managers: RIS (EndNote, Zotero, Mendeley) and CSL-JSON (Zotero,
Pandoc, citeproc), each paper with the same citation key as its BibTeX entry."""

import json
import re
from collections.abc import Sequence

from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import PaperState
from tui_reader.core.references import (
    citation_keys,
    name_parts,
    primary_link,
    reference_title,
    unicode_text,
    venue_of,
    year_of,
)

_DATE = re.compile(r"(\d{4})-(\d\d)(?:-(\d\d))?")
_LINE_BREAKS = re.compile(r"\s*[\r\n]+\s*")


def _is_preprint(paper: Paper) -> bool:
    return bool(paper.arxiv_id) and venue_of(paper).lower() in ("arxiv", "")


def _date_parts(paper: Paper) -> list[int]:
    """The paper's date as CSL's date-parts: year, month, day when it has them."""
    if match := _DATE.match(paper.published):
        return [int(part) for part in match.groups() if part]
    year = year_of(paper)
    return [int(year)] if year else []


def csl_json(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    """The papers as a CSL-JSON array."""
    items = []
    for paper, key in zip(papers, citation_keys(papers), strict=True):
        item: dict[str, object] = {
            "id": key,
            "type": "article" if _is_preprint(paper) or not paper.venue else "paper-conference",
            "title": unicode_text(reference_title(paper)),
        }
        if paper.authors:
            item["author"] = [_csl_name(author) for author in paper.authors]
        if date := _date_parts(paper):
            item["issued"] = {"date-parts": [date]}
        if venue := venue_of(paper):
            item["publisher" if _is_preprint(paper) else "container-title"] = venue
        if paper.arxiv_id:
            item["number"] = f"arXiv:{paper.arxiv_id}"
        if paper.doi:
            item["DOI"] = paper.doi
        item["URL"] = primary_link(paper, template)
        item["abstract"] = unicode_text(paper.abstract)
        if paper.keywords or paper.categories:
            item["keyword"] = ", ".join(paper.keywords or paper.categories)
        if note := state.note(paper.id):
            item["note"] = note
        items.append(item)
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def _csl_name(author: str) -> dict[str, str]:
    family, given, suffix = name_parts(author)
    if not (given or suffix):
        return {"literal": family}
    parts = {"family": family, "given": given, "suffix": suffix}
    return {part: name for part, name in parts.items() if name}


def _ris_line(tag: str, value: str) -> str:
    """One RIS field on one line: a field's line breaks become spaces."""
    return f"{tag}  - {_LINE_BREAKS.sub(' ', value).strip()}"


def ris(papers: Sequence[Paper], state: PaperState, template: str) -> str:
    """The papers as RIS records."""
    lines = []
    for paper, key in zip(papers, citation_keys(papers), strict=True):
        kind = "UNPB" if _is_preprint(paper) else "CPAPER" if paper.venue else "GEN"
        fields = [("TY", kind), ("ID", key), ("TI", unicode_text(reference_title(paper)))]
        fields += [("AU", _ris_name(author)) for author in paper.authors]
        if year := year_of(paper):
            fields.append(("PY", year))
        if match := _DATE.match(paper.published):
            fields.append(("DA", "/".join(part for part in match.groups() if part)))
        if venue := venue_of(paper):
            fields.append(("PB" if _is_preprint(paper) else "T2", venue))
        if paper.arxiv_id:
            fields.append(("M1", f"arXiv:{paper.arxiv_id}"))
        if paper.doi:
            fields.append(("DO", paper.doi))
        fields += [("UR", primary_link(paper, template)), ("AB", unicode_text(paper.abstract))]
        fields += [("KW", word) for word in paper.keywords or paper.categories]
        if note := state.note(paper.id):
            fields.append(("N1", note))
        lines += [_ris_line(tag, value) for tag, value in fields if value.strip()]
        lines += ["ER  - ", ""]
    return "\n".join(lines)


def _ris_name(author: str) -> str:
    """RIS's "Family, Given, Suffix"."""
    family, given, suffix = name_parts(author)
    return ", ".join(part for part in (family, given, suffix) if part)
