"""References out: BibTeX, RIS and CSL-JSON of papers with metadata, parsed back by
independent parsers (bibtexparser, rispy, citeproc-py)."""

import json
from pathlib import Path

import bibtexparser
import citeproc
import rispy
from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON
from pylatexenc.latex2text import LatexNodes2Text

from tui_reader.core.citation_keys import key_base, keys_of
from tui_reader.core.export import copy_forms, format_of, render
from tui_reader.core.formats.bibtex import author_of
from tui_reader.core.latex_text import unicode_text
from tui_reader.core.library import Library
from tui_reader.core.paper import Paper
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.reference_names import parse_name
from tui_reader.core.references import citation, markdown_link

STYLE = "data/styles/harvard-cite-them-right.csl"  # the style citeproc-py ships
HOSTILE = "Attacks [/b] on [CLS] tokens\x1b]52;c;aGk=\x07 & 100% {unbalanced"


def arxiv_paper(
    title: str = "On the Attention of Transformers", version: int = 2, arxiv_id: str = "2501.01234"
) -> Paper:
    return Paper.from_abstract(
        f"Abstract of {title}. $x^2$ and 50% more.\nSecond line.",
        "fetched",
        Path("fetched.jsonl"),
        title=title,
        authors=("Ada Lovelace", "van Beethoven, Ludwig", "Émile Borel"),
        url=f"https://arxiv.org/abs/{arxiv_id}",
        venue="arXiv",
        metadata={
            "year": 2025,
            "published": "2025-01-03",
            "arxiv_id": arxiv_id,
            "arxiv_version": version,
            "doi": f"10.48550/arXiv.{arxiv_id}",
            "categories": ("cs.LG", "stat.ML"),
        },
    )


def venue_paper() -> Paper:
    return Paper.from_abstract(
        "A conference paper.",
        "ICML 2026",
        Path("icml.jsonl"),
        title="Émergence of Skills",
        authors=("Borel, Émile",),
        venue="ICML 2026",
    )


def bare_paper(text: str = "LOAM: design of observation models. More.") -> Paper:
    return Paper.from_abstract(text, "ICML 2026 Papers", Path("seeds.txt"))


def papers() -> list[Paper]:
    # Two papers whose keys would be the same: the later id gets "a".
    twin = arxiv_paper("Attention, Revisited", arxiv_id="2501.09999")
    return [arxiv_paper(), twin, venue_paper(), bare_paper(), bare_paper(HOSTILE)]


def state(tmp_path: Path, paper: Paper) -> Library:
    library, _ = Library.open(tmp_path / "lib.json")
    library.set_note(paper.id, 'Read "this"\n& that')
    return library


def test_keys_are_author_year_and_title_word_deduplicated_like_better_bibtex() -> None:
    first, twin, venue, bare, hostile = papers()
    assert key_base(first) == "lovelace2025attention"
    assert key_base(venue) == "borel2026emergence"
    # A paper met twice is one paper, with one key; of two given keys at once, the later
    # (by date, then id) has the suffix, in whatever order they come.
    keys = ["lovelace2025attention", "lovelace2025attentiona", "lovelace2025attention"]
    assert keys_of([first, twin, first], NO_STATE) == keys
    assert keys_of([twin, first], NO_STATE) == keys[1::-1]
    # Without authors: the headline's first word, the year and the id, whatever else is exported.
    # A seed has no year: its collection's name ("ICML 2026 Papers") is no venue, and `year:`
    # finds it in no year.
    assert key_base(bare) == f"loam_{bare.id[:6]}"
    assert keys_of([bare, hostile], NO_STATE)[0] == keys_of([bare], NO_STATE)[0]
    assert keys_of([hostile], NO_STATE)[0] == f"attacks_{hostile.id[:6]}"


def test_bibtex_has_authors_year_eprint_doi_and_url(tmp_path: Path) -> None:
    items = papers()
    library = state(tmp_path, items[0])
    parsed = bibtexparser.parse_string(render("bib", items, library))
    assert parsed.failed_blocks == []
    assert [entry.key for entry in parsed.entries] == keys_of(items, library)
    assert [entry.entry_type for entry in parsed.entries] == [
        "misc", "misc", "inproceedings", "misc", "misc"
    ]  # fmt: skip
    first = parsed.entries[0].fields_dict
    # Family name first: no reader splits a name written so otherwise.
    assert first["author"].value == "Lovelace, Ada and van Beethoven, Ludwig and Borel, {\\'E}mile"
    assert first["year"].value == "2025"
    assert first["eprint"].value == "2501.01234"
    assert first["archivePrefix"].value == "arXiv"
    assert first["primaryClass"].value == "cs.LG"
    assert first["doi"].value == "10.48550/arXiv.2501.01234"
    assert first["url"].value == "https://arxiv.org/abs/2501.01234"
    assert "eprint" not in parsed.entries[2].fields_dict


def test_ris_parses_back_with_rispy(tmp_path: Path) -> None:
    items = papers()
    records = rispy.loads(render("ris", items, state(tmp_path, items[0])))
    assert len(records) == 5
    first = records[0]
    assert first["type_of_reference"] == "UNPB"
    assert first["id"] == "lovelace2025attention"
    assert first["title"] == "On the Attention of Transformers"
    assert first["authors"] == ["Lovelace, Ada", "van Beethoven, Ludwig", "Borel, Émile"]
    assert (first["year"], first["date"]) == ("2025", "2025/01/03")
    assert first["doi"] == "10.48550/arXiv.2501.01234"
    assert first["urls"] == ["https://arxiv.org/abs/2501.01234"]
    assert (
        first["abstract"]
        == "Abstract of On the Attention of Transformers. x² and 50% more. Second line."
    )
    assert first["keywords"] == ["cs.LG", "stat.ML"]
    assert "notes" not in first  # the user's note is private unless asked for
    asked = rispy.loads(render("ris", items, state(tmp_path, items[0]), include_notes=True))
    assert asked[0]["notes"] == ['Read "this" & that']
    assert records[2]["type_of_reference"] == "CPAPER"
    assert records[2]["secondary_title"] == "ICML 2026"
    assert records[4]["type_of_reference"] == "GEN"
    assert records[4]["abstract"].startswith("Attacks [/b] on [CLS] tokens")


def test_csl_json_has_the_shape_of_the_schema_and_citeproc_reads_it(tmp_path: Path) -> None:
    items = papers()
    library = state(tmp_path, items[0])
    data = json.loads(render("csl-json", items, library))
    assert [item["id"] for item in data] == keys_of(items, library)
    first = data[0]
    assert first["type"] == "article" and first["title"] == "On the Attention of Transformers"
    assert first["author"] == [
        {"family": "Lovelace", "given": "Ada"},
        {"family": "van Beethoven", "given": "Ludwig"},
        {"family": "Borel", "given": "Émile"},
    ]
    assert first["issued"] == {"date-parts": [[2025, 1, 3]]}
    assert first["DOI"] == "10.48550/arXiv.2501.01234"
    assert first["URL"] == "https://arxiv.org/abs/2501.01234"
    assert data[2]["type"] == "paper-conference"
    assert data[2]["container-title"] == "ICML 2026"
    assert data[2]["issued"] == {"date-parts": [[2026]]}  # the year its venue names
    assert "issued" not in data[3] and "author" not in data[3]

    style = CitationStylesStyle(str(Path(citeproc.__file__).parent / STYLE))
    bibliography = CitationStylesBibliography(style, CiteProcJSON(data), formatter.plain)
    for item in data:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == 5
    assert any("Lovelace, A., van Beethoven, L. and Borel, É. (2025)" in e for e in rendered)


def test_the_reference_formats_are_files_and_copies() -> None:
    assert format_of(Path("refs.ris")) == "ris"
    assert format_of(Path("refs.csl.json")) == "csl-json"
    assert format_of(Path("papers.json")) == "json"
    assert {"bib", "ris", "csl-json"} <= {row.name for row in copy_forms()}


def latex_paper(title: str, authors: tuple[str, ...], abstract: str = "An abstract.") -> Paper:
    """A paper as arXiv's metadata writes it: LaTeX in its title, authors and abstract."""
    return Paper.from_abstract(
        abstract,
        "arXiv",
        Path("arxiv.jsonl"),
        title=title,
        authors=authors,
        venue="arXiv",
        metadata={"year": 2026},
    )


LATEX_TITLE = (
    r"A Schr\"odinger bridge: Caf\'e \textbf{bold}, The {GAN} zoo, 50\% less, $\alpha$-div"
)
UNICODE_TITLE = r"A Schrödinger bridge: Café bold, The GAN zoo, 50% less, $\alpha$-div"


def test_latex_in_titles_and_authors_is_unicode_in_references(tmp_path: Path) -> None:
    paper = latex_paper(
        LATEX_TITLE,
        (r"Kurt G\"odel", r"Paul Erd\H{o}s"),
        r"We study Schr\"odinger bridges in \emph{few} steps, $\sqrt{k \log k}$ of them.",
    )
    library = Library(None)
    assert unicode_text(LATEX_TITLE) == UNICODE_TITLE
    assert unicode_text("Plain -- ``quoted'' ~ 5% {unpaired") == "Plain -- “quoted” ~ 5% {unpaired"
    csl = json.loads(render("csl-json", [paper], library))[0]
    plain_title = UNICODE_TITLE.replace("$\\alpha$", "α")  # no LaTeX, math read too
    assert csl["title"] == plain_title
    assert csl["author"] == [
        {"family": "Gödel", "given": "Kurt"},
        {"family": "Erdős", "given": "Paul"},
    ]
    assert csl["abstract"] == "We study Schrödinger bridges in few steps, √(k log k) of them."
    ris = rispy.loads(render("ris", [paper], library))[0]
    assert (ris["title"], ris["authors"]) == (plain_title, ["Gödel, Kurt", "Erdős, Paul"])
    assert markdown_link(paper, "https://u").startswith("[A Schrödinger bridge: Café bold,")
    assert citation(paper, "https://u").startswith("Kurt Gödel, Paul Erdős. A Schrödinger")


def test_references_read_tex_quotes_and_mend_what_pdf_extraction_broke() -> None:
    """Old NeurIPS abstracts as ml-abstracts-31k has them: a reference manager showed
    "piri(cid:173) form", "eﬃcient" (found by no search for "efficient") and ``TeX quotes''."""
    paper = latex_paper(
        "The ``piriform'' cortex, eﬃciently",
        ("Ada Lovelace",),
        "Modelling of piri(cid:173) form cortex with e(cid:14)cient ``place'' (cid:12)elds, 100%.",
    )
    title = "The “piriform” cortex, efficiently"
    abstract = "Modelling of piriform cortex with efficient “place” fields, 100%."
    library = Library(None)
    csl = json.loads(render("csl-json", [paper], library))[0]
    assert (csl["title"], csl["abstract"]) == (title, abstract)
    ris = rispy.loads(render("ris", [paper], library))[0]
    assert (ris["title"], ris["abstract"]) == (title, abstract)
    entry = bibtexparser.parse_string(render("bib", [paper], library)).entries[0]
    assert entry.fields_dict["abstract"].value == (
        "Modelling of piriform cortex with efficient ``place'' fields, 100\\%."
    )
    assert citation(paper, "https://u") == f"Ada Lovelace. {title}. arXiv, 2026. https://u"
    # The data exports keep the text as the file gave it: loaded again, it is the same paper.
    assert json.loads(render("json", [paper], library))[0]["abstract"] == paper.abstract


def read_latex(text: str) -> str:
    return str(LatexNodes2Text(math_mode="verbatim").latex_to_text(text))


def test_bibtex_of_latex_reads_back_as_the_reference_text() -> None:
    paper = latex_paper(LATEX_TITLE, (r"Kurt G\"odel", r"Paul Erd\H{o}s", "Émile Borel"))
    entry = bibtexparser.parse_string(render("bib", [paper], Library(None))).entries[0]
    title = entry.fields_dict["title"].value
    # In sentence case: its capitalised words are protected, as proper names.
    assert title == (
        r"A {Schr{\"o}dinger} bridge: Caf{\'e} bold, {The} {GAN} zoo, 50\% less, {$\alpha$}-div"
    )
    assert read_latex(title) == UNICODE_TITLE
    authors = entry.fields_dict["author"].value.split(" and ")
    assert [read_latex(author) for author in authors] == [
        "Gödel, Kurt",
        "Erdős, Paul",
        "Borel, Émile",
    ]
    # Read back by the reader of .bib files: the names as the paper holds them.
    assert [author_of(author) for author in authors] == ["Kurt Gödel", "Paul Erdős", "Émile Borel"]


def bibtex_balanced(value: str) -> bool:
    """BibTeX's rule: every brace counts, escaped or not."""
    depth = 0
    for char in value:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def test_bibtex_keeps_the_latex_of_abstracts_and_pairs_every_brace() -> None:
    abstracts = {
        r"$\begin{array}{c}N/2 \\{k}\end{array}$ and (O$(\sqrt{k \log k}))^n$": (
            r"$\begin{array}{c}N/2 \\ {k}\end{array}$ and (O$(\sqrt{k \log k}))^n$"
        ),
        r"A stray { brace, \emph{mild} as written.": (
            r"A stray \textbraceleft{} brace, \emph{mild} as written."
        ),
        r"The set \{1, 2, a close } and \} alone.": (
            r"The set \{1, 2, a close \textbraceright{} and \} alone."
        ),
        r"Paired \{x\} and 50% of A&B #1, 34.8\%.": r"Paired \{x\} and 50\% of A\&B \#1, 34.8\%.",
        # Money as the screen reads it: LaTeX read "a $10K program" as math ("a10K program").
        r"A $100K prize, a $10K program, $x^2$ and \$5.": (
            r"A \$100K prize, a \$10K program, $x^2$ and \$5."
        ),
        # LaTeX stops at a _ in text: Markdown's emphasis, a name.
        r"An _emphasis_, a_b and $x_i$ as math, \_ escaped.": (
            r"An \_emphasis\_, a\_b and $x_i$ as math, \_ escaped."
        ),
    }
    papers = [
        latex_paper(f"Paper {n}", ("Ada Lovelace",), text) for n, text in enumerate(abstracts)
    ]
    parsed = bibtexparser.parse_string(render("bib", papers, Library(None)))
    assert parsed.failed_blocks == []
    assert [entry.fields_dict["abstract"].value for entry in parsed.entries] == list(
        abstracts.values()
    )
    assert all(bibtex_balanced(field.value) for entry in parsed.entries for field in entry.fields)


def test_keys_fold_names_as_better_bibtex() -> None:
    keys = [
        key_base(latex_paper(LATEX_TITLE, (author,)))
        for author in (r"Kurt G\"odel", "José Müller-Øst", "Renée O'Brien", "D'Angelo, Maria")
    ]
    assert keys == [
        "godel2026schrodinger",
        "mullerost2026schrodinger",
        "obrien2026schrodinger",
        "dangelo2026schrodinger",
    ]


def parts(author: str) -> tuple[str, str, str]:
    name = parse_name(author)
    return name.family, name.given, name.suffix


def test_a_name_suffix_is_a_suffix_in_every_format() -> None:
    for written in (
        "Martin Luther King, Jr.",
        "King, Jr., Martin Luther",
        "King, Martin Luther, Jr.",
    ):
        assert parts(written) == ("King", "Martin Luther", "Jr."), written
    assert parts("John Smith III") == ("Smith", "John", "III")
    assert parts("van Beethoven, Ludwig") == ("van Beethoven", "Ludwig", "")
    assert parts("Ada Lovelace") == ("Lovelace", "Ada", "")

    paper = latex_paper("Dreams", ("Martin Luther King, Jr.", "Ada Lovelace"))
    library = Library(None)
    csl = json.loads(render("csl-json", [paper], library))[0]
    assert csl["author"][0] == {"family": "King", "given": "Martin Luther", "suffix": "Jr."}
    assert rispy.loads(render("ris", [paper], library))[0]["authors"] == [
        "King, Martin Luther, Jr.",
        "Lovelace, Ada",
    ]
    bib = bibtexparser.parse_string(
        render("bib", [paper], library),
        append_middleware=[SeparateCoAuthors(), SplitNameParts()],
    )
    king = bib.entries[0].fields_dict["author"].value[0]
    assert (king.first, king.last, king.jr) == (["Martin", "Luther"], ["King"], ["Jr."])
    assert key_base(paper) == "king2026dreams"


def test_a_trailing_backslash_or_a_line_break_before_a_brace_in_math_keeps_bibtex_whole() -> None:
    """`C:\\` at an abstract's end escaped the field's closing brace, and `$a \\\\{b}$` in a
    title read as an escaped brace: bibtexparser dropped the entry, or every field after."""
    papers = [
        latex_paper("Paths", ("Ann Lee",), abstract="Files are kept under C:\\"),
        latex_paper(r"Math $a \\{b}$ here", ("Bo Chen",), abstract="Plain."),
    ]
    library = Library(None)
    parsed = bibtexparser.parse_string(render("bib", papers, library))
    assert not parsed.failed_blocks
    entries = parsed.entries
    assert [sorted(entry.fields_dict) for entry in entries] == [
        ["abstract", "author", "howpublished", "title", "tui-reader-id", "year"]
    ] * 2, "every field read back"
    assert entries[0].fields_dict["abstract"].value.endswith(r"C:\textbackslash{}")
    assert all(bibtex_balanced(f.value) for entry in entries for f in entry.fields)


def test_a_trailing_backslash_in_a_title_or_name_is_kept() -> None:
    """Read as LaTeX, a backslash at the end was nothing: an author "\\\\" left an empty
    name in BibTeX (`and  and`)."""
    paper = latex_paper("Paths under C:\\", ("Ann Lee", "\\"))
    assert unicode_text(paper.title) == "Paths under C:\\"
    entry = bibtexparser.parse_string(render("bib", [paper], Library(None))).entries[0]
    assert " and  and " not in entry.fields_dict["author"].value
    assert read_latex(entry.fields_dict["author"].value).endswith("\\")
