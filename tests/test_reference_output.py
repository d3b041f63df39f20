"""References as BibTeX, Pandoc and Zotero take them: papers read from files written as arXiv,
OpenReview, Zotero and spreadsheets write them, exported in every reference format and read
back by bibtexparser, rispy, citeproc-py and, where it is installed, Pandoc."""

import csv
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import bibtexparser
import citeproc
import pytest
import rispy
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors, SplitNameParts
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON
from pylatexenc.latex2text import LatexNodes2Text

from tui_reader.core.export import render
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.paper import Paper
from tui_reader.core.references import citation, primary_link

STYLE = "data/styles/harvard-cite-them-right.csl"  # the style citeproc-py ships
ARXIV = {
    "title": r"Schr\"odinger bridges --- na\"{\i}ve bounds of $\mathcal{O}(n^2)$ for {GAN}s",
    "abstract": r"We show \emph{tight} bounds of $\mathcal{O}(n^2)$ -- in 50\% of cases.",
    "authors": ["The ATLAS Collaboration", "Vincent van Gogh", "李 小龙"],
    "arxiv_id": "2501.01234",
    "published": "2025-03-04",
    "year": 2025,
    "categories": ["cs.LG", "stat.ML"],
    "venue": "arXiv",
}
JOURNAL_REF = {
    "title": "Neutrino masses from a journal",
    "abstract": "A journal article.",
    "authors": ["Ada Lovelace", "Google DeepMind"],
    "arxiv_id": "0704.0001",
    "year": 2007,
    "venue": "Phys.Rev.D76:013009,2007",
}
ACCEPTED = {
    "title": "An accepted idea",
    "abstract": "Accepted.",
    "authors": ["Ada Lovelace"],
    "year": 2025,
    "venue": "ICLR 2025 Poster",
    "decision": "accepted",
    "openreview_forum": "acc123",
    "keywords": ["bandits", "regret"],
}
REJECTED = {
    "title": "A rejected idea",
    "abstract": "Rejected.",
    "authors": ["Émile Borel"],
    "year": 2025,
    "venue": "Submitted to ICLR 2025",
    "decision": "rejected",
    "openreview_forum": "rej123",
}
WITHDRAWN = {
    "title": "A withdrawn idea",
    "abstract": "Withdrawn.",
    "authors": ["Bo Chen"],
    "year": 2025,
    "venue": "ICLR 2025 Conference Withdrawn Submission",
    "decision": "withdrawn",
}
UNTITLED = {"abstract": "A method for everything, with no title given.", "year": 2024}
BIBTEX = """@article{borel1909,
  author = {Borel, {\\'E}mile},
  title = {Les probabilit{\\'e}s d{\\'e}nombrables},
  journal = {Nature Physics},
  year = {1909},
  abstract = {A journal article without numbers in its venue.},
}
"""


def papers(tmp_path: Path) -> list[Paper]:
    """Papers from a JSON Lines file named My_Library and a BibTeX file named refs."""
    lines = tmp_path / "My_Library.jsonl"
    records = [ARXIV, JOURNAL_REF, ACCEPTED, REJECTED, WITHDRAWN, UNTITLED]
    lines.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    bib = tmp_path / "refs.bib"
    bib.write_text(BIBTEX, encoding="utf-8")
    return list(load_paths([lines, bib]).papers)


def library(tmp_path: Path, papers: list[Paper]) -> Library:
    opened, _ = Library.open(tmp_path / "library.json")
    opened.set_note(papers[0].id, "Private: the proof looks wrong")
    return opened


def bibtex_entries(text: str) -> list[bibtexparser.model.Entry]:
    parsed = bibtexparser.parse_string(text)
    assert parsed.failed_blocks == []
    return list(parsed.entries)


def test_the_venue_is_the_records_never_the_files_name(tmp_path: Path) -> None:
    items = papers(tmp_path)
    state = library(tmp_path, items)
    venues = {"journal", "booktitle", "howpublished", "note", "publisher"}
    for entry in bibtex_entries(render("bib", items, state)):
        values = [field.value for field in entry.fields if field.key in venues]
        assert not any("Library" in value or "refs" in value for value in values), entry.key
    for record in rispy.loads(render("ris", items, state)):
        for tag in ("secondary_title", "publisher", "type_of_work"):
            assert record.get(tag) not in ("My_Library", "refs"), record
    for item in json.loads(render("csl-json", items, state)):
        for name in ("container-title", "publisher", "genre"):
            assert item.get(name) not in ("My_Library", "refs"), item
    for paper in items:
        said = citation(paper, primary_link(paper))
        assert "My_Library" not in said and " refs." not in said, said


KINDS = [  # BibTeX, RIS, CSL-JSON, the field of the venue in each
    ("misc", "UNPB", "article", "howpublished", "publisher", "publisher"),
    ("article", "JOUR", "article-journal", "journal", "secondary_title", "container-title"),
    ("inproceedings", "CPAPER", "paper-conference", "booktitle", "secondary_title",
     "container-title"),
    ("unpublished", "UNPB", "manuscript", "note", "type_of_work", "genre"),
    ("unpublished", "UNPB", "manuscript", "note", "type_of_work", "genre"),
    ("misc", "GEN", "article", None, None, None),
    ("article", "JOUR", "article-journal", "journal", "secondary_title", "container-title"),
]  # fmt: skip


def test_each_kind_of_publication_has_its_type_and_venue_field_in_every_format(
    tmp_path: Path,
) -> None:
    items = papers(tmp_path)
    state = library(tmp_path, items)
    entries = bibtex_entries(render("bib", items, state))
    records = rispy.loads(render("ris", items, state))
    data = json.loads(render("csl-json", items, state))
    for paper, entry, record, item, kind in zip(items, entries, records, data, KINDS, strict=True):
        bib_venue, ris_venue, csl_venue = kind[3:]
        assert (entry.entry_type, record["type_of_reference"], item["type"]) == kind[:3]
        if bib_venue is None:
            assert not {"journal", "booktitle", "howpublished"} & set(entry.fields_dict)
            continue
        assert entry.fields_dict[bib_venue].value.replace("{", "").replace("}", "") == paper.venue
        assert record[ris_venue] == item[csl_venue] == paper.venue
    # A preprint is arXiv's: its eprint, as Zotero and Better BibTeX write it.
    preprint = entries[0].fields_dict
    assert (preprint["eprint"].value, preprint["archivePrefix"].value) == ("2501.01234", "arXiv")
    assert preprint["primaryClass"].value == "cs.LG"
    # Rejected and withdrawn submissions are never "in" their venue.
    for unpublished in (data[3], data[4]):
        assert "container-title" not in unpublished


def test_ris_and_csl_json_hold_unicode_and_no_latex(tmp_path: Path) -> None:
    items = papers(tmp_path)
    state = library(tmp_path, items)
    title = "Schrödinger bridges — naïve bounds of 𝒪(n²) for GANs"
    abstract = "We show tight bounds of 𝒪(n²) – in 50% of cases."
    record = rispy.loads(render("ris", items, state))[0]
    item = json.loads(render("csl-json", items, state))[0]
    assert (record["title"], record["abstract"]) == (item["title"], item["abstract"])
    assert (item["title"], item["abstract"]) == (title, abstract)
    assert citation(items[0], "https://u").startswith("The ATLAS Collaboration, ")


def read_latex(text: str) -> str:
    return str(LatexNodes2Text(math_mode="verbatim").latex_to_text(text))


def test_bibtex_writes_escapes_that_bibtex_biber_and_pandoc_read_alike(tmp_path: Path) -> None:
    items = papers(tmp_path)
    text = render("bib", items, library(tmp_path, items))
    # Pandoc drops {\textemdash}; {\"\i} reads as a dotless i with a diaeresis.
    for unread in ("\\textemdash", "\\textendash", '\\"\\i', "\\'\\i", "\\ensuremath{\\mathcal"):
        assert unread not in text
    title = bibtex_entries(text)[0].fields_dict["title"].value
    assert title == (
        r"Schr{\"o}dinger bridges --- na{\"i}ve bounds of {$\mathcal{O}(n^2)$} for {GANs}"
    )
    assert read_latex(title) == r"Schrödinger bridges — naïve bounds of $\mathcal{O}(n^2)$ for GANs"


def test_accents_written_as_a_letter_and_a_combining_mark_keep_their_letter(
    tmp_path: Path,
) -> None:
    """Text written decomposed (NFD), as 12 titles and author lists of a corpus of 31k papers
    are, was written `Schro\\ensuremath{\\ddot{}}dinger` in BibTeX, which bibtexparser reads
    `Schrodinger`; a dotless i under an accent (`Dud\\u0131\\u0301k`, from PDF extraction) is
    an i."""
    record = {
        "title": "Schro\u0308dinger bridges for Krei\u0306n spaces, q\u0308 and Le \u0301vy",
        "abstract": "As Nystro\u0308m did, after Gai\u0308ffas.",
        "authors": [
            "Kurt Go\u0308del",
            "Miroslav Dud\u0131\u0301k",
            "Christophe Ga\u0131\u0308ffas",
        ],
        "year": 2025,
    }
    lines = tmp_path / "papers.jsonl"
    lines.write_text(json.dumps(record) + "\n", encoding="utf-8")
    items = list(load_paths([lines]).papers)
    text = render("bib", items, library(tmp_path, items))
    assert "ensuremath" not in text and "\\i" not in text
    entry = bibtexparser.parse_string(text, append_middleware=[LatexDecodingMiddleware()])
    fields = entry.entries[0].fields_dict
    assert fields["title"].value == "Schrödinger bridges for Kreĭn spaces, q\u0308 and Le \u0301vy"
    assert fields["author"].value == "Gödel, Kurt and Dudík, Miroslav and Gaïffas, Christophe"
    assert fields["abstract"].value == "As Nyström did, after Gaïffas."
    item = json.loads(render("csl-json", items, library(tmp_path, items)))[0]
    assert item["title"].startswith("Schrödinger bridges for Kreĭn spaces")
    assert [author["family"] for author in item["author"]] == [
        "Gödel",
        "Dud\u0131\u0301k",
        "Ga\u0131\u0308ffas",
    ]
    assert item["abstract"] == "As Nyström did, after Gaïffas."


def test_a_backslash_that_escapes_nothing_is_kept_in_every_reference(tmp_path: Path) -> None:
    """The list and CSV show it; BibTeX, RIS, CSL-JSON and the citation dropped it (`a
    backslash`, two spaces): LaTeX's control space is no reading of a title's text."""
    record = {
        "title": r"A ] closing bracket and a \ backslash",
        "abstract": r"An abstract with a \ backslash.",
        "authors": ["Ada Lovelace"],
        "year": 2025,
    }
    lines = tmp_path / "papers.jsonl"
    lines.write_text(json.dumps(record) + "\n", encoding="utf-8")
    items = list(load_paths([lines]).papers)
    state = library(tmp_path, items)
    title, abstract = record["title"], record["abstract"]
    (ris_record,) = rispy.loads(render("ris", items, state))
    (item,) = json.loads(render("csl-json", items, state))
    assert (ris_record["title"], ris_record["abstract"]) == (title, abstract)
    assert (item["title"], item["abstract"]) == (title, abstract)
    assert f" {title}. " in citation(items[0], "https://u")
    text = render("bib", items, state)
    assert r"a {\textbackslash} backslash" in text
    parsed = bibtexparser.parse_string(text, append_middleware=[LatexDecodingMiddleware()])
    assert parsed.entries[0].fields_dict["title"].value == title
    (again,) = load_paths([_written(tmp_path / "again.bib", text)]).papers
    assert again.title == title


def _written(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_only_the_capitalised_words_of_a_title_are_protected() -> None:
    def title(text: str) -> str:
        paper = Paper.from_abstract("An abstract.", "c", Path("c.jsonl"), title=text)
        return bibtex_entries(render("bib", [paper], Library(None)))[0].fields_dict["title"].value

    # Title case: the words a style may not lower (acronyms, inner capitals) are protected.
    assert title("Attention Is All You Need for BERT and ImageNet") == (
        "Attention Is All You Need for {BERT} and {ImageNet}"
    )
    # Sentence case: its capitalised words are proper names, and protected too.
    assert title("A Bayesian view of bridges: the case of Gaussian noise in ImageNet") == (
        "A {Bayesian} view of bridges: the case of {Gaussian} noise in {ImageNet}"
    )


def test_words_the_writer_protected_stay_protected_and_so_do_a_venues() -> None:
    paper = Paper.from_abstract(
        "An abstract.",
        "c",
        Path("c.bib"),
        title="Attention {Is} {All} {You} {Need} for the {GAN} zoo",
        venue="Proceedings of X",
        metadata={"venue_kind": "conference"},
    )
    fields = bibtex_entries(render("bib", [paper], Library(None)))[0].fields_dict
    assert fields["title"].value == "Attention {Is} {All} {You} {Need} for the {GAN} zoo"
    assert fields["booktitle"].value == "Proceedings of {X}"


def test_a_date_is_the_years_its_month_only_when_published_that_year(tmp_path: Path) -> None:
    """An OpenReview paper's year is its venue's; its submission, a year before, is no
    month of it (ICLR 2025, submitted 2024-10-01, was cited as 2025 oct in BibTeX and as
    2024 in CSL-JSON)."""
    submitted = {**ACCEPTED, "published": "2024-10-01"}
    path = tmp_path / "iclr.jsonl"
    path.write_text(json.dumps(submitted) + "\n", encoding="utf-8")
    papers = list(load_paths([path]).papers)
    fields = bibtex_entries(render("bib", papers, Library(None)))[0].fields_dict
    assert fields["year"].value == "2025" and "month" not in fields
    assert json.loads(render("csl-json", papers, Library(None)))[0]["issued"] == {
        "date-parts": [[2025]]
    }
    record = rispy.loads(render("ris", papers, Library(None)))[0]
    assert record["year"] == "2025" and "date" not in record


def test_organisations_non_western_names_and_particles_are_kept_as_written(tmp_path: Path) -> None:
    items = papers(tmp_path)
    state = library(tmp_path, items)
    entry = bibtexparser.parse_string(
        render("bib", items[:2], state), append_middleware=[SeparateCoAuthors(), SplitNameParts()]
    ).entries
    atlas, gogh, li = entry[0].fields_dict["author"].value
    assert (atlas.first, atlas.last) == ([], ["{The ATLAS Collaboration}"])
    assert (gogh.first, gogh.von, gogh.last) == (["Vincent"], ["van"], ["Gogh"])
    assert (li.first, li.last) == ([], ["{李 小龙}"])
    deepmind = entry[1].fields_dict["author"].value[1]
    assert (deepmind.first, deepmind.last) == ([], ["{Google DeepMind}"])
    item = json.loads(render("csl-json", items[:1], state))[0]
    assert item["author"] == [
        {"literal": "The ATLAS Collaboration"},
        {"family": "van Gogh", "given": "Vincent"},
        {"literal": "李 小龙"},
    ]
    record = rispy.loads(render("ris", items[:1], state))[0]
    assert record["authors"] == ["The ATLAS Collaboration", "van Gogh, Vincent", "李 小龙"]


def test_notes_stay_private_unless_the_setting_asks_for_them(tmp_path: Path) -> None:
    items = papers(tmp_path)
    state = library(tmp_path, items)
    note = "Private: the proof looks wrong"
    for kind in ("bib", "ris", "csl-json"):
        assert "proof looks wrong" not in render(kind, items, state), kind
    entry = bibtex_entries(render("bib", items, state, include_notes=True))[0].fields_dict
    assert entry["annote"].value == note and "note" not in entry
    assert rispy.loads(render("ris", items, state, include_notes=True))[0]["notes"] == [note]
    item = json.loads(render("csl-json", items, state, include_notes=True))[0]
    assert item["annote"] == note and "note" not in item


def test_citations_have_their_year_and_references_their_keywords_and_month(
    tmp_path: Path,
) -> None:
    items = papers(tmp_path)
    state = library(tmp_path, items)
    accepted = items[2]
    state.change_tags([items[0].id], add=["dueling", "stat.ml"])  # the user's tags go first
    assert citation(accepted, "https://u") == (
        "Ada Lovelace. An accepted idea. ICLR 2025 Poster. https://u"
    )
    assert citation(items[5], "https://u").endswith(". 2024. https://u")
    bib = render("bib", items, state)
    assert re.search(r"\tmonth = mar,\n", bib)  # a macro: every style reads it
    entries = bibtex_entries(bib)
    assert entries[0].fields_dict["month"].value == "mar"
    assert entries[0].fields_dict["keywords"].value == "dueling, stat.ml, cs.LG"
    assert entries[2].fields_dict["keywords"].value == "bandits, regret"
    references = rispy.loads(render("ris", items, state))
    assert [references[n]["keywords"] for n in (0, 2)] == [
        ["dueling", "stat.ml", "cs.LG"],
        ["bandits", "regret"],
    ]
    data = json.loads(render("csl-json", items, state))
    assert data[0]["keyword"] == "dueling, stat.ml, cs.LG"
    assert (data[2]["keyword"], data[0]["issued"]) == (
        "bandits, regret",
        {"date-parts": [[2025, 3, 4]]},
    )


CSL_TYPES = {"article", "article-journal", "paper-conference", "manuscript"}
CSL_NAME_PARTS = {"family", "given", "suffix", "literal", "non-dropping-particle"}


def test_csl_json_has_the_shape_csl_requires_and_citeproc_renders_it(tmp_path: Path) -> None:
    """The official CSL-JSON schema is not available offline: its rules that apply here are
    checked one by one (an id and a known type for every item, names as objects of name
    parts, dates as date-parts of numbers, every other value a string)."""
    items = papers(tmp_path)
    data = json.loads(render("csl-json", items, library(tmp_path, items)))
    assert len({item["id"] for item in data}) == len(data)
    for item in data:
        assert isinstance(item["id"], str) and item["type"] in CSL_TYPES
        for name in item.get("author", []):
            assert set(name) <= CSL_NAME_PARTS and all(isinstance(v, str) for v in name.values())
            assert "literal" in name or "family" in name
        for parts in item.get("issued", {"date-parts": [[1]]})["date-parts"]:
            assert 1 <= len(parts) <= 3 and all(isinstance(part, int) for part in parts)
        others = {k: v for k, v in item.items() if k not in ("author", "issued")}
        assert all(isinstance(value, str) for value in others.values()), item
    style = CitationStylesStyle(str(Path(citeproc.__file__).parent / STYLE))
    bibliography = CitationStylesBibliography(style, CiteProcJSON(data), formatter.plain)
    for item in data:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == len(data)
    assert any(entry.startswith("The ATLAS Collaboration, van Gogh, V.") for entry in rendered)


@pytest.mark.skipif(
    shutil.which("pandoc") is None,
    reason="pandoc is not installed (Debian's pandoc package renders the references)",
)
@pytest.mark.parametrize("kind", ["bib", "csl-json"])
def test_pandoc_renders_every_entry_with_its_authors_and_year(tmp_path: Path, kind: str) -> None:
    items = papers(tmp_path)
    references = tmp_path / f"references.{'bib' if kind == 'bib' else 'json'}"
    references.write_text(render(kind, items, library(tmp_path, items)), encoding="utf-8")
    document = tmp_path / "paper.md"
    document.write_text('---\nnocite: "@*"\n---\n', encoding="utf-8")
    pandoc = ["pandoc", str(document), "--citeproc", "--bibliography", str(references)]
    result = subprocess.run(
        [*pandoc, "--to", "plain", "--wrap", "none"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stderr) == (0, "")
    entries = result.stdout.strip().split("\n\n")
    assert len(entries) == len(items)
    text = result.stdout
    for said in (
        "The ATLAS Collaboration, Vincent van Gogh, and 李 小龙. 2025.",
        "Lovelace, Ada, and Google DeepMind. 2007.",
        "Borel, Émile. 1909.",
        "Schrödinger Bridges — Naïve Bounds",
        "In ICLR 2025 Poster.",
    ):
        assert said in text, (said, text)
    for never in (
        "In Submitted",
        "In ICLR 2025 Conference Withdrawn",
        "Collaboration, The",
        "My_Library",
        "refs",
    ):
        assert never not in text, (never, text)


def test_the_authors_comments_are_carried_where_the_format_has_a_field(tmp_path: Path) -> None:
    """arXiv's comments ("12 pages, accepted at ICML") were dropped from every export."""
    snapshot = tmp_path / "arxiv-metadata-oai-snapshot.json"
    record = {
        "id": "2501.00001", "title": "A title", "abstract": "Words of it.",
        "authors_parsed": [["Lovelace", "Ada", ""]], "comments": "12 pages, accepted at ICML",
        "categories": "cs.LG", "versions": [{"created": "Mon, 6 Jan 2025 10:00:00 GMT"}],
    }  # fmt: skip
    snapshot.write_text(json.dumps(record) + "\n", encoding="utf-8")
    (paper,) = load_paths([snapshot]).papers
    assert paper.comments == "12 pages, accepted at ICML"
    library = Library(None)
    entry = bibtexparser.parse_string(render("bib", [paper], library)).entries[0]
    assert entry.fields_dict["comment"].value == "12 pages, accepted at ICML"
    assert json.loads(render("json", [paper], library))[0]["comments"] == paper.comments
    rows = list(csv.DictReader(io.StringIO(render("csv", [paper], library))))
    assert rows[0]["comments"] == paper.comments and rows[0]["keywords"] == ""


VOLUMES = {
    "refs.bib": """@article{shannon1948,
  author = {Shannon, Claude E.},
  title = {A mathematical theory of communication},
  journal = {Bell System Technical Journal},
  volume = {27}, number = {3}, pages = {379--423}, year = {1948},
  abstract = {A theory of communication.},
}
""",
    # CSL-JSON's and Crossref's names, as a JSON Lines record may give them.
    "crossref.jsonl": json.dumps(
        {
            "title": "On computable numbers",
            "abstract": "Computable numbers.",
            "year": 1937,
            "journal": "Proceedings of the London Mathematical Society",
            "volume": 42,
            "issue": "1",
            "page": "230-265",
        }
    )
    + "\n",
    "zotero.csv": "Title,Abstract,Journal,Volume,Issue,Pages\n"
    "Lettres,A letter.,Comptes rendus,12,,e1234\n",
}


def test_volume_issue_and_pages_are_carried_into_every_format_with_a_place_for_them(
    tmp_path: Path,
) -> None:
    """A .bib entry's volume, number and pages (and a JSON Lines or CSV record's) were read
    and dropped: no export had them."""
    for name, text in VOLUMES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    items = list(load_paths([tmp_path / name for name in VOLUMES]).papers)
    assert [(p.volume, p.issue, p.pages) for p in items] == [
        ("27", "3", "379--423"),
        ("42", "1", "230-265"),
        ("12", "", "e1234"),
    ]
    state = Library(None)
    fields = [entry.fields_dict for entry in bibtex_entries(render("bib", items, state))]
    assert [
        {name: f[name].value for name in ("volume", "number", "pages") if name in f} for f in fields
    ] == [
        {"volume": "27", "number": "3", "pages": "379--423"},
        {"volume": "42", "number": "1", "pages": "230--265"},
        {"volume": "12", "pages": "e1234"},
    ]
    records = rispy.loads(render("ris", items, state))
    assert [
        {tag: r[tag] for tag in ("volume", "number", "start_page", "end_page") if tag in r}
        for r in records
    ] == [
        {"volume": "27", "number": "3", "start_page": "379", "end_page": "423"},
        {"volume": "42", "number": "1", "start_page": "230", "end_page": "265"},
        {"volume": "12", "start_page": "e1234"},
    ]
    data = json.loads(render("csl-json", items, state))
    assert [{k: i[k] for k in ("volume", "issue", "page") if k in i} for i in data] == [
        {"volume": "27", "issue": "3", "page": "379-423"},
        {"volume": "42", "issue": "1", "page": "230-265"},
        {"volume": "12", "page": "e1234"},
    ]
    style = CitationStylesStyle(str(Path(citeproc.__file__).parent / STYLE))
    bibliography = CitationStylesBibliography(style, CiteProcJSON(data[:1]), formatter.plain)
    bibliography.register(Citation([CitationItem(data[0]["id"])]))
    assert "Bell System Technical Journal, 27(3), pp. 379–423." in str(
        bibliography.bibliography()[0]
    )
    for record in [*json.loads(render("json", items, state)), *csv.DictReader(
        io.StringIO(render("csv", items, state))
    )]:  # fmt: skip
        paper = items[[p.title for p in items].index(record["title"])]
        assert (record["volume"], record["issue"], record["pages"]) == (
            paper.volume, paper.issue, paper.pages,
        )  # fmt: skip
    assert citation(items[0], "https://u") == (
        "Claude E. Shannon. A mathematical theory of communication. "
        "Bell System Technical Journal, 27(3):379–423, 1948. https://u"
    )
    assert "Comptes rendus, 12:e1234." in citation(items[2], "https://u")
