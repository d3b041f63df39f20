"""A .bib file's fields are read as the text they stand for: titles, abstracts and venues
without the braces that protect case, accents as letters, authors as "Given Family", so the
list, the detail pane, search and every export say the same."""

import csv
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import bibtexparser
import pytest
import rispy
from hypothesis import given
from hypothesis import strategies as st

from tests.cli_helpers import run
from tests.pilot_helpers import detail, rows, store_from, type_filter
from tui_reader.core.export import render
from tui_reader.core.formats import readings
from tui_reader.core.formats.bibtex import read_bibtex
from tui_reader.core.formats.records import Record
from tui_reader.core.index_cache import load_cached
from tui_reader.core.latex_text import latex_to_unicode
from tui_reader.core.library import Library
from tui_reader.core.loading import check_paths, load_paths
from tui_reader.core.opening import Opening, open_papers
from tui_reader.core.paper import Paper, paper_id
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.references import citation, headline_text, markdown_link
from tui_reader.core.search_service import build_index, search_papers
from tui_reader.ui.app import ReaderApp

# As Zotero writes them: capitals protected word by word, accents and escapes in LaTeX, an
# arXiv abstract's own LaTeX escaped whole.
ZOTERO = r"""@misc{vaswani_attention_2017,
	title = {Attention {Is} {All} {You} {Need}},
	url = {http://arxiv.org/abs/1706.03762},
	abstract = {The dominant models use attention: 50\% fewer steps \& less cost.},
	author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki},
	year = {2017},
}

@article{godel_2025,
	title = {Schr\"odinger bridges for {G}\"{o}del machines},
	journal = {Journal of {M}achine {L}earning \& {R}obots},
	abstract = {We bound the regret by \${\textbackslash}mathcal\{O\}({\textbackslash}sqrt\{T\})\$
		for G\"{o}del's machines.},
	author = {{Barack Obama} and von Neumann, John and King, Jr., Martin Luther and
		Ada Lovelace and others},
	year = {2025},
}

@inproceedings{sets_2024,
	title = {Sets \{a, b\} and 50\% of {R}\&{D} for $\alpha$-nets},
	booktitle = {Proceedings of {ICML}},
	abstract = {A plain abstract about {GAN}s and $x^2$.},
	author = {Erd{\H{o}}s, Paul and Emmy N\"other},
	year = {2024},
}
"""
TITLES = [
    "Attention Is All You Need",
    "Schrödinger bridges for Gödel machines",
    r"Sets \{a, b\} and 50% of R&D for $\alpha$-nets",
]


def zotero_file(tmp_path: Path) -> Path:
    path = tmp_path / "My Library.bib"
    path.write_text(ZOTERO, encoding="utf-8")
    return path


def test_titles_venues_and_abstracts_are_read_as_text_math_as_written(tmp_path: Path) -> None:
    attention, godel, sets = load_paths([zotero_file(tmp_path)]).papers
    assert [paper.headline for paper in (attention, godel, sets)] == TITLES
    assert [paper.title for paper in (attention, godel, sets)] == TITLES
    assert attention.abstract == "The dominant models use attention: 50% fewer steps & less cost."
    # Zotero's escaped LaTeX read back to the LaTeX the paper's abstract holds.
    assert godel.abstract == r"We bound the regret by $\mathcal{O}(\sqrt{T})$ for Gödel's machines."
    assert sets.abstract == "A plain abstract about GANs and $x^2$."
    assert (godel.venue, sets.venue) == (
        "Journal of Machine Learning & Robots",
        "Proceedings of ICML",
    )
    # What names a paper in a Markdown link or a dialog is what the list shows.
    assert [headline_text(paper) for paper in (attention, godel)] == TITLES[:2]
    assert headline_text(sets) == "Sets {a, b} and 50% of R&D for α-nets"
    assert markdown_link(godel, "https://x.org") == (
        "[Schrödinger bridges for Gödel machines](https://x.org)"
    )


def test_a_control_space_reads_as_a_space_and_a_backslash_as_one(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(
        "@misc{a, title = {Results of Smith et al.\\ on {GAN}s},\n"
        "  abstract = {As Smith et al.\\ show, a {\\textbackslash} stays, and a\\\\ line ends.}}\n",
        encoding="utf-8",
    )
    (paper,) = load_paths([path]).papers
    assert paper.title == "Results of Smith et al. on GANs"
    assert paper.abstract == "As Smith et al. show, a \\ stays, and a\\\\ line ends."


def test_a_paper_keeps_the_id_of_its_abstract_as_written(tmp_path: Path) -> None:
    """What the user made of a paper is kept by its id: reading its text changes none."""
    _, godel, sets = load_paths([zotero_file(tmp_path)]).papers
    written = ZOTERO.split("abstract = {")[2].split("},\n")[0]
    assert godel.id == paper_id(written) == "c35893d2dbc6"  # as before its text was read
    assert sets.id == paper_id("A plain abstract about {GAN}s and $x^2$.")


def test_authors_are_split_by_bibtex_and_named_given_name_first(tmp_path: Path) -> None:
    attention, godel, sets = load_paths([zotero_file(tmp_path)]).papers
    assert attention.authors == ("Ashish Vaswani", "Noam Shazeer", "Niki Parmar")
    assert godel.authors == (
        "{Barack Obama}",  # braced whole: never split into a family and a given name
        "John von Neumann",
        "Martin Luther King Jr.",
        "Ada Lovelace",
        "et al.",
    )
    assert sets.authors == ("Paul Erdős", "Emmy Nöther")
    url = "https://arxiv.org/abs/1706.03762"
    assert citation(attention, url) == (
        f"Ashish Vaswani, Noam Shazeer, Niki Parmar. Attention Is All You Need. 2017. {url}"
    )
    assert citation(godel, "https://x.org").startswith(
        "Barack Obama, John von Neumann, Martin Luther King Jr., Ada Lovelace, et al. "
        "Schrödinger bridges for Gödel machines. Journal of Machine Learning & Robots, 2025."
    )


def test_only_others_names_no_author() -> None:
    entry = "@misc{k, title = {T}, author = {others}, abstract = {A.}}"
    (record,) = read_bibtex(entry)
    assert isinstance(record, Record) and record.authors == ()


def test_exported_bibtex_is_valid_and_reads_back_as_the_same_text(tmp_path: Path) -> None:
    papers = list(load_paths([zotero_file(tmp_path)]).papers)
    text = render("bib", papers, Library(None))
    parsed = bibtexparser.parse_string(text)
    assert parsed.failed_blocks == []
    authors = [entry.fields_dict["author"].value for entry in parsed.entries]
    assert authors == [
        "Vaswani, Ashish and Shazeer, Noam and Parmar, Niki",
        "{Barack Obama} and von Neumann, John and King, Jr., Martin Luther and Lovelace, Ada"
        " and others",
        'Erd{\\H o}s, Paul and N{\\"o}ther, Emmy',
    ]
    titles = [entry.fields_dict["title"].value for entry in parsed.entries]
    assert titles[2] == r"Sets \{a, b\} and 50\% of {R\&D} for {$\alpha$}-nets"
    again = [record for record in read_bibtex(text) if isinstance(record, Record)]
    assert [record.title for record in again] == TITLES
    assert [record.authors for record in again] == [paper.authors for paper in papers]
    assert [record.abstract for record in again] == [paper.abstract for paper in papers]
    # RIS and CSL-JSON have no way to say "and others": the authors named only.
    assert "et al" not in render("ris", papers, Library(None))
    assert "et al" not in render("csl-json", papers, Library(None))


def test_a_zotero_paper_exported_to_bibtex_and_read_back_is_the_same_paper(
    tmp_path: Path,
) -> None:
    path = zotero_file(tmp_path)
    files = check_paths([path])
    open_papers([path], files, indexed=True)  # kept in the cache
    papers = list(open_papers([path], files, indexed=True).store)  # read from it
    exported = tmp_path / "exported.bib"
    exported.write_text(render("bib", papers, Library(None)), encoding="utf-8")
    again = list(load_paths([exported]).papers)
    # Its abstract as Zotero wrote it, whose id the paper has: tags and notes follow it.
    assert [paper.id for paper in again] == [paper.id for paper in papers]
    assert [paper.abstract for paper in again] == [paper.abstract for paper in papers]
    assert r"{\textbackslash}mathcal\{O\}" in exported.read_text(encoding="utf-8")


def test_tags_written_as_keywords_are_not_read_back_as_the_papers_keywords(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read back, the tags a .bib wrote among the keywords were the paper's keywords: a tag
    removed since came back in every export made from that .bib."""
    papers = tmp_path / "k.jsonl"
    record = {"title": "Deep RL", "abstract": "Agents learn.", "keywords": ["RL", "Deep Learning"]}
    papers.write_text(json.dumps(record) + "\n")
    (paper,) = load_paths([papers]).papers
    library = Library.open(tmp_path / "library.json")[0]
    library.change_tags([paper.id], add=["rl", "mine", "Später"])
    library.save()
    given = ["--library", str(tmp_path / "library.json")]
    bib = tmp_path / "k.bib"
    assert run(capsys, "export", *given, "--papers", str(papers), "-o", str(bib))[0] == 0
    (entry,) = bibtexparser.parse_string(bib.read_text(encoding="utf-8")).entries
    assert entry.fields_dict["keywords"].value == r"mine, rl, sp{\"a}ter, Deep Learning"
    (again,) = load_paths([bib]).papers
    assert (again.id, again.keywords) == (paper.id, ("rl", "Deep Learning"))
    assert run(capsys, "untag", *given, "--papers", str(bib), paper.id, "mine")[0] == 0
    status, out, _ = run(capsys, "export", *given, "--papers", str(bib), "--format", "bib")
    (entry,) = bibtexparser.parse_string(out).entries
    assert status == 0 and entry.fields_dict["keywords"].value == r"rl, sp{\"a}ter, Deep Learning"


def test_papers_exported_to_bibtex_and_read_back_keep_their_ids_whatever_their_text_became(
    tmp_path: Path,
) -> None:
    """A `%`, `&` or PDF debris in an abstract comes back otherwise (`96.0\\%`, the debris
    left out): read back, a paper known by its text had another id, its tags and citation key
    left behind (a tenth of a real collection's papers)."""
    source = tmp_path / "papers.jsonl"
    abstracts = ["We reach 96.0% on R&D data (cid:173) with kernels.", "Plain words only."]
    source.write_text(
        "".join(
            json.dumps({"title": f"P{n}", "abstract": a}) + "\n" for n, a in enumerate(abstracts)
        ),
        encoding="utf-8",
    )
    papers = list(load_paths([source]).papers)
    library = Library(None)
    text = render("bib", papers, library)
    exported = tmp_path / "exported.bib"
    exported.write_text(text, encoding="utf-8")
    again = list(load_paths([exported]).papers)
    assert [paper.id for paper in again] == [paper.id for paper in papers]
    assert again[0].abstract != papers[0].abstract  # its text came back otherwise
    assert render("bib", again, library) == text  # the same citation keys
    # A value that is no id of tui-reader's is passed over: the paper is known by its text.
    exported.write_text(text.replace(papers[0].id, "2501.01234"), encoding="utf-8")
    (reread, _) = load_paths([exported]).papers
    assert reread.id == paper_id(reread.written_abstract) != papers[0].id
    # Another paper's id pasted in, or an entry copied (before the first, or in a file read
    # first) and given another abstract: known by its text, not taking the paper's place.
    exported.write_text(text.replace(papers[1].id, papers[0].id), encoding="utf-8")
    assert [paper.id for paper in load_paths([exported]).papers] == [p.id for p in papers]
    copy = text.split("\n\n")[0].replace("{P0}", "{P0, edited}").replace("We reach", "We got")
    exported.write_text(copy.replace("@misc{", "@misc{copy") + "\n\n" + text, encoding="utf-8")
    assert [paper.id for paper in load_paths([exported]).papers][1:] == [p.id for p in papers]
    upper = re.sub(r"(?<=tui-reader-id = \{)[^}]+", lambda found: found[0].upper(), text)
    exported.write_text(upper.replace("tui-reader-id", "TUI-Reader-ID"), encoding="utf-8")
    assert [paper.id for paper in load_paths([exported]).papers] == [p.id for p in papers]


def test_search_finds_the_text_with_or_without_its_accents(tmp_path: Path) -> None:
    store = load_paths([zotero_file(tmp_path)]).papers
    index = build_index(store)
    for query, titles in (
        ("Godel", [TITLES[1]]),
        ("Gödel", [TITLES[1]]),
        ("attention", [TITLES[0]]),
        ("Schrodinger", [TITLES[1]]),
        ("neumann", [TITLES[1]]),
    ):
        found = search_papers(index, query, NO_STATE, "relevance", store)
        assert [store[int(number)].title for number in found.numbers] == titles, query


async def test_the_list_and_the_detail_pane_show_the_title_as_text(tmp_path: Path) -> None:
    app = ReaderApp(Opening(store_from(zotero_file(tmp_path))))
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.pause()
        assert [row.split("  ")[0] for row in rows(app)] == [
            "Attention Is All You Need",
            "Schrödinger bridges for Gödel machines",
            "Sets {a, b} and 50% of R&D for α-nets",
        ]
        assert detail(app).startswith(
            "Attention Is All You Need\nMy Library · My Library.bib\nid 1706.03762\n"
            "Ashish Vaswani, Noam Shazeer, Niki Parmar\n"
        )
        await type_filter(pilot, "godel")
        assert rows(app) == ["Schrödinger bridges for Gödel machines"]


def test_papers_kept_as_a_version_reading_bibtex_otherwise_read_them_are_read_again(
    tmp_path: Path,
) -> None:
    path = zotero_file(tmp_path)
    files = check_paths([path])
    assert open_papers([path], files, indexed=True).index is not None
    (manifest,) = (tmp_path / "cache").glob("papers-v*/parts/*/manifest.json")
    kept = json.loads(manifest.read_text(encoding="utf-8"))
    assert kept.pop("readings") == readings() and readings()["bib"] == 4

    def as_an_earlier_version_kept_it() -> None:
        manifest.write_text(json.dumps(kept), encoding="utf-8")

    as_an_earlier_version_kept_it()
    unusable: list[Exception] = []
    assert load_cached(files, unusable=unusable) is None
    assert [str(reason) for reason in unusable] == [
        f"{manifest.parent}: {path} is read otherwise now"
    ]
    # An upgrade, not a fault: a command says so in its words, the reader says nothing.
    assert open_papers([path], files, stream_from=0).cache_problems == []
    as_an_earlier_version_kept_it()
    opening = open_papers([path], files, indexed=True)
    assert opening.cache_problems == [
        "the papers kept in the cache were read by another version of tui-reader: loaded anew"
    ]
    assert [p.headline for p in opening.store] == TITLES
    assert load_cached(files) is not None  # kept again, as read now


# Text with braces and escaped characters but no command: what BibTeX fields hold most.
_PIECES = ["a", "B", " ", "{", "}", "%", "&", "#", "_", r"\%", r"\&", r"\{", r"\}", r"\#", r"\_"]


@given(st.lists(st.sampled_from([*_PIECES, r"\$", "{G}", "é"]), max_size=16).map("".join))
def test_braces_and_escapes_read_alike_with_or_without_a_command_after(text: str) -> None:
    """Text with no command is read without the LaTeX parser, as the parser reads it (a
    command after it, read as nothing, has the parser read it all)."""
    assert latex_to_unicode(text) == latex_to_unicode(text + r"\emph{}")


def test_papers_kept_before_volumes_were_read_are_read_again_and_kept_with_them(
    tmp_path: Path,
) -> None:
    """The cache kept the papers of a .bib or JSON Lines file as read without their volume,
    issue and pages: they are read again, once, and kept with them."""
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{a, title = {T}, journal = {J}, volume = {27}, number = {3},\n"
        "  pages = {379--423}, year = {1948}, abstract = {Words.}}\n",
        encoding="utf-8",
    )
    lines = tmp_path / "refs.jsonl"
    record = {"title": "U", "abstract": "Other words.", "volume": "42", "page": "230-265"}
    lines.write_text(json.dumps(record) + "\n", encoding="utf-8")
    files = check_paths([bib, lines])
    assert open_papers([bib, lines], files, indexed=True).index is not None
    for manifest in (tmp_path / "cache").glob("papers-v*/parts/*/manifest.json"):
        kept = json.loads(manifest.read_text(encoding="utf-8"))
        kept["readings"] = {"bib": 2}  # as the version before them kept it
        manifest.write_text(json.dumps(kept), encoding="utf-8")
    assert load_cached(files) is None
    assert [
        (p.volume, p.issue, p.pages) for p in open_papers([bib, lines], files, indexed=True).store
    ] == [
        ("27", "3", "379--423"),
        ("42", "", "230-265"),
    ]
    cached = load_cached(files)  # kept again, as read now, with them
    assert cached is not None
    assert [(p.volume, p.pages) for p in cached.store] == [("27", "379--423"), ("42", "230-265")]


def test_a_name_braced_whole_reads_without_its_braces_and_stays_one_name_in_bibtex(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSON, CSV and `list --format jsonl` showed `{World Health Organization}`."""
    path = tmp_path / "who.bib"
    path.write_text(
        "@techreport{who, title = {A report}, year = {2020}, abstract = {Words.},\n"
        "  author = {{World Health Organization} and Doe, Jane and {Barack Obama}}}\n",
        encoding="utf-8",
    )
    (paper,) = load_paths([path]).papers
    names = ["World Health Organization", "Jane Doe", "Barack Obama"]
    library = Library(None)
    assert json.loads(render("json", [paper], library))[0]["authors"] == names
    rows = list(csv.DictReader(io.StringIO(render("csv", [paper], library))))
    assert rows[0]["authors"] == "; ".join(names)
    status, out, _ = run(
        capsys, "list", "--papers", str(path), "--format", "jsonl", "--library",
        str(tmp_path / "library.json"),
    )  # fmt: skip
    assert (status, json.loads(out)["authors"]) == (0, names)
    (entry,) = bibtexparser.parse_string(render("bib", [paper], library)).entries
    assert entry.fields_dict["author"].value == (
        "{World Health Organization} and Doe, Jane and {Barack Obama}"
    )


def test_others_anywhere_among_the_authors_is_et_al_after_those_named(tmp_path: Path) -> None:
    """`A and others and B` read as A, et al., B: RIS gave an author `al., et`. Biber reads
    `others` wherever it stands as authors not named (plk/biber, `_name` in
    lib/Biber/Input/file/bibtex.pm: it sets the list's `morenames` and is not added)."""
    path = tmp_path / "odd.bib"
    path.write_text(
        "@article{odd, title = {Odd}, journal = {J}, year = {2021}, abstract = {Words.},\n"
        "  author = {Lovelace, Ada and others and Turing, Alan}}\n",
        encoding="utf-8",
    )
    (paper,) = load_paths([path]).papers
    assert paper.authors == ("Ada Lovelace", "Alan Turing", "et al.")
    library = Library(None)
    (entry,) = bibtexparser.parse_string(render("bib", [paper], library)).entries
    assert entry.fields_dict["author"].value == "Lovelace, Ada and Turing, Alan and others"
    assert rispy.loads(render("ris", [paper], library))[0]["authors"] == [
        "Lovelace, Ada",
        "Turing, Alan",
    ]
    assert json.loads(render("csl-json", [paper], library))[0]["author"] == [
        {"family": "Lovelace", "given": "Ada"},
        {"family": "Turing", "given": "Alan"},
    ]
    assert citation(paper, "https://u").startswith("Ada Lovelace, Alan Turing, et al. Odd.")
    # A record of another format that puts `et al.` among its authors is written alike.
    listed = replace(paper, authors=("Ada Lovelace", "et al.", "Alan Turing"))
    (entry,) = bibtexparser.parse_string(render("bib", [listed], library)).entries
    assert entry.fields_dict["author"].value == "Lovelace, Ada and Turing, Alan and others"
    assert len(rispy.loads(render("ris", [listed], library))[0]["authors"]) == 2


def test_a_titles_math_and_the_letters_joined_to_it_keep_their_case_and_read_back() -> None:
    """`{VO}$Q$L`: a style setting titles in sentence case lowered `$Q$` and `L` (VO$q$l)."""
    paper = Paper.from_abstract(
        "We study offline learning.", "c", Path("c.bib"), title="{VO}$Q$L: a way to $Q$-learn"
    )
    text = render("bib", [paper], Library(None))
    title = bibtexparser.parse_string(text).entries[0].fields_dict["title"].value
    assert title == "{VO}{$Q$}{L:} a way to {$Q$}-learn"
    (record,) = [record for record in read_bibtex(text) if isinstance(record, Record)]
    assert record.title == "VO$Q$L: a way to $Q$-learn"
