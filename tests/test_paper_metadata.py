"""A paper's metadata, read from the collections `tui-reader fetch` writes, and its id."""

import json
from pathlib import Path

from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.paper import Paper, paper_id
from tui_reader.core.sources.record import SourceRecord, arxiv_links
from tui_reader.ui.detail_pane import ABSTRACT_SHOWN, paper_content

ABSTRACT = "We study attention. [/b] [CLS] tokens are data."


def arxiv_record(abstract: str = ABSTRACT, version: int = 1) -> SourceRecord:
    return SourceRecord(
        source_id="arxiv:2501.01234",
        title="Attention Again",
        abstract=abstract,
        authors=("Ada Lovelace", "Alan Turing"),
        venue="arXiv",
        year=2025,
        published="2025-01-03",
        updated=f"2025-0{version}-05",
        arxiv_id="2501.01234",
        arxiv_version=version,
        doi="10.1000/xyz.1",
        categories=("cs.LG", "stat.ML"),
        keywords=("attention",),
        links=arxiv_links("2501.01234", "10.1000/xyz.1"),
    )


def load(tmp_path: Path, *records: SourceRecord, name: str = "fetched.jsonl") -> list[Paper]:
    path = tmp_path / name
    path.write_text("".join(r.to_json() + "\n" for r in records), encoding="utf-8")
    loaded = load_paths([path])
    assert loaded.problems == []
    return loaded.papers


def test_a_fetched_collection_gives_its_metadata(tmp_path: Path) -> None:
    [paper] = load(tmp_path, arxiv_record(version=2))
    assert paper.id == "2501.01234"
    assert (paper.year, paper.published, paper.updated) == (2025, "2025-01-03", "2025-02-05")
    assert (paper.arxiv_id, paper.arxiv_version, paper.doi) == ("2501.01234", 2, "10.1000/xyz.1")
    assert paper.categories == ("cs.LG", "stat.ML")
    assert paper.keywords == ("attention",)
    assert dict(paper.kind_links) == {
        "abstract": "https://arxiv.org/abs/2501.01234",
        "pdf": "https://arxiv.org/pdf/2501.01234",
        "doi": "https://doi.org/10.1000/xyz.1",
    }


def test_an_arxiv_id_with_its_version_in_a_json_record(tmp_path: Path) -> None:
    path = tmp_path / "papers.json"
    record = {"abstract": ABSTRACT, "arxiv_id": "hep-th/9901001v3", "categories": "hep-th gr-qc"}
    path.write_text(json.dumps([record, {"abstract": "Other.", "year": "twenty"}]), "utf-8")
    first, second = load_paths([path]).papers
    assert (first.id, first.arxiv_version, first.categories) == (
        "hep-th/9901001",
        3,
        ("hep-th", "gr-qc"),
    )
    assert (second.id, second.year, second.arxiv_id) == (paper_id("Other."), None, "")


def test_ids_of_papers_without_an_arxiv_id_are_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text(json.dumps({"abstract": ABSTRACT, "doi": "10.1/x"}) + "\n", "utf-8")
    [paper] = load_paths([path]).papers
    assert paper.id == paper_id(ABSTRACT) and len(paper.id) == 12


def test_tags_follow_a_paper_through_a_revised_abstract_and_a_new_version(
    tmp_path: Path,
) -> None:
    [first] = load(tmp_path, arxiv_record(version=1), name="before.jsonl")
    library, _ = Library.open(tmp_path / "library.json")
    library.change_tags([first.id], add=["to-read"])
    assert library.save() == []

    revised = arxiv_record("We study attention again, revised.", version=2)
    [again] = load(tmp_path, revised, name="after.jsonl")
    assert again.abstract != first.abstract and again.arxiv_version == 2
    reopened, _ = Library.open(tmp_path / "library.json")
    assert reopened.tags(again.id) == ["to-read"]


def test_the_detail_pane_shows_authors_venue_date_arxiv_id_doi_and_categories(
    tmp_path: Path,
) -> None:
    [paper] = load(tmp_path, arxiv_record(version=2))
    library, _ = Library.open(None)
    text = paper_content(paper, library, []).plain
    assert (
        "Ada Lovelace, Alan Turing\narXiv 2025-01-03\narXiv 2501.01234v2\nDOI 10.1000/xyz.1\n"
        "cs.LG · stat.ML\n"
    ) in text
    assert "[/b] [CLS]" in text


def test_the_detail_pane_reads_the_latex_of_authors_names(tmp_path: Path) -> None:
    authors = (r"Fran\c{c}ois Dupont", r"Kurt G\"{o}del", "[b]Mallory[/b]")
    paper = Paper.from_abstract(ABSTRACT, "c", tmp_path / "x.jsonl", authors=authors)
    library, _ = Library.open(None)
    assert (
        "\nFrançois Dupont, Kurt Gödel, [b]Mallory[/b]\n" in paper_content(paper, library, []).plain
    )
    raw = paper_content(paper, library, [], raw=True).plain
    assert "\n" + ", ".join(authors) + "\n" in raw


def test_the_detail_pane_shows_no_metadata_lines_for_a_bare_abstract(tmp_path: Path) -> None:
    paper = Paper.from_abstract(ABSTRACT, "seeds", tmp_path / "seeds.txt")
    library, _ = Library.open(None)
    text = paper_content(paper, library, []).plain
    assert f"id {paper.id}\nunread" in text


def test_an_abstract_of_megabytes_is_shown_in_part(tmp_path: Path) -> None:
    """One of 6.8 MB held the screen for two minutes while it was typeset and wrapped."""
    sentence = "We bound $\\alpha$ by *emphasis* on https://example.org/x and more. "
    paper = Paper.from_abstract(sentence * 30_000, "seeds", tmp_path / "seeds.txt")
    library, _ = Library.open(None)
    text = paper_content(paper, library, []).plain
    assert len(text) < ABSTRACT_SHOWN + 1_000
    assert "\n\nWe bound α by emphasis on https://example.org/x and more. We bound" in text
    left = len(paper.abstract) - ABSTRACT_SHOWN
    assert f"\n… and {left:,} more characters, not shown\n\nLinks" in text


def test_the_pane_numbers_the_first_fifty_links(tmp_path: Path) -> None:
    urls = [f"https://example.org/{n}" for n in range(120)]
    paper = Paper.from_abstract(" and ".join(urls) + ".", "seeds", tmp_path / "seeds.txt")
    assert list(paper.links) == urls  # each once, in order
    library, _ = Library.open(None)
    text = paper_content(paper, library, list(paper.links)).plain
    assert "50 https://example.org/49\n   … and 70 more links" in text
    assert "https://example.org/50\n" not in text.split("Links", 1)[1]
