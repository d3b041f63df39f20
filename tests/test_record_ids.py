"""A paper's ids, links and kind of venue are read from what its record holds, in every input
format: arXiv ids from `eprint` or arxiv.org addresses, DOIs from doi.org ones, OpenReview's
`forum` and `pdf` columns, BibTeX's entry types."""

import json
from pathlib import Path

from tui_reader.core.loading import load_paths
from tui_reader.core.paper_state import NO_STATE
from tui_reader.core.references import links_of
from tui_reader.core.search_service import search_papers

ZOTERO = """@misc{vaswani_attention_2017,
\ttitle = {Attention {Is} {All} {You} {Need}},
\turl = {http://arxiv.org/abs/1706.03762},
\tdoi = {10.48550/arXiv.1706.03762},
\tabstract = {The dominant sequence transduction models are based on recurrent networks.},
\tpublisher = {arXiv},
\tauthor = {Vaswani, Ashish and Shazeer, Noam},
\tmonth = aug,
\tyear = {2023},
\tnote = {arXiv:1706.03762 [cs]},
\tkeywords = {Computer Science - Computation and Language, Computer Science - Machine Learning},
}
"""
BETTER_BIBTEX = """@article{atlas2019measurement,
  author = {{The ATLAS Collaboration} and Lovelace, Ada},
  title = {Measurement of something},
  journal = {Physical Review D},
  year = {2019},
  eprint = {1901.00001},
  archivePrefix = {arXiv},
  primaryClass = {hep-ex},
  abstract = {We measure a thing.},
}
@inproceedings{lovelace2020talk, author = {Ada Lovelace}, title = {A talk},
  booktitle = {Proceedings of X}, year = {2020}, abstract = {Talk.}}
@unpublished{lovelace2021draft, author = {Ada Lovelace}, title = {A draft},
  note = {Manuscript}, year = {2021}, abstract = {Draft.}}
@misc{other2020, author = {Ada Lovelace}, title = {Not arXiv's}, eprint = {2001.00001},
  archivePrefix = {HAL}, year = {2020}, abstract = {Elsewhere.}}
"""


def test_bibtex_from_zotero_and_better_bibtex_gives_arxiv_ids_links_and_kinds(
    tmp_path: Path,
) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(ZOTERO + BETTER_BIBTEX, encoding="utf-8")
    zotero, atlas, talk, draft, other = load_paths([path]).papers
    # An arxiv.org url gives the id, which is the paper's id: `search 1706.03762` finds it.
    assert (zotero.id, zotero.arxiv_id, zotero.doi) == (
        "1706.03762",
        "1706.03762",
        "10.48550/arXiv.1706.03762",
    )
    assert (zotero.published, zotero.venue) == ("2023-08", "")
    assert zotero.keywords == (
        "Computer Science - Computation and Language",
        "Computer Science - Machine Learning",
    )
    assert (atlas.id, atlas.categories, atlas.venue, atlas.venue_kind) == (
        "1901.00001",
        ("hep-ex",),
        "Physical Review D",
        "journal",
    )
    # The primary link is the paper's own page, never a search for it.
    assert links_of(atlas)[:2] == [
        "https://arxiv.org/abs/1901.00001",
        "https://arxiv.org/pdf/1901.00001",
    ]
    assert (talk.venue, talk.venue_kind) == ("Proceedings of X", "conference")
    assert draft.venue_kind == "unpublished"
    assert other.arxiv_id == "" and len(other.id) == 12  # an eprint of another archive


def test_an_arxiv_id_found_in_bibtex_is_found_by_a_search_for_it(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(ZOTERO + BETTER_BIBTEX, encoding="utf-8")
    store = load_paths([path]).papers
    for query, paper_id in (
        ("1706.03762", "1706.03762"),
        ("arXiv:1901.00001v2", "1901.00001"),
        ("https://arxiv.org/abs/1706.03762v5", "1706.03762"),
    ):
        found = search_papers(None, query, NO_STATE, "relevance", store)
        assert [store[int(number)].id for number in found.numbers] == [paper_id], query


def test_json_lines_with_ids_but_no_url_link_to_the_paper_not_to_a_search(tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    records = [
        {"title": "A", "abstract": "One.", "arxiv_id": "2501.01234v3", "doi": "10.1/x"},
        {"title": "B", "abstract": "Two.", "doi": "https://doi.org/10.1000/xyz"},
        {"title": "C", "abstract": "Three.", "url": "https://arxiv.org/pdf/2502.00002v1.pdf"},
        {"title": "D", "abstract": "Four.", "eprint": "2503.00003", "archivePrefix": "arXiv"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    first, second, third, fourth = load_paths([path]).papers
    assert links_of(first) == [
        "https://arxiv.org/abs/2501.01234",
        "https://arxiv.org/pdf/2501.01234",
        "https://doi.org/10.1/x",
        "https://scholar.google.com/scholar?q=A",
    ]
    assert (second.doi, links_of(second)[0]) == ("10.1000/xyz", "https://doi.org/10.1000/xyz")
    assert (third.id, third.arxiv_version) == ("2502.00002", 1)
    assert links_of(third)[0] == "https://arxiv.org/pdf/2502.00002v1.pdf"  # the record's own
    assert (fourth.id, links_of(fourth)[0]) == ("2503.00003", "https://arxiv.org/abs/2503.00003")


def test_an_openreview_spreadsheet_links_each_paper_to_its_forum_and_pdf(tmp_path: Path) -> None:
    path = tmp_path / "iclr.csv"
    path.write_text(
        "title,abstract,authors,forum,pdf,venue,decision,keywords\n"
        "A,An abstract.,Ada Lovelace,abc123XY,/pdf/deadbeef.pdf,Submitted to ICLR 2025,rejected,"
        '"rl; bandits"\n'
        "B,Another.,Bo Chen,https://openreview.net/forum?id=zzz9,"
        "https://openreview.net/pdf?id=zzz9,ICLR 2025 Poster,accepted,\n"
        "C,A third.,Cy Dee,,,,,\n",
        encoding="utf-8",
    )
    first, second, third = load_paths([path]).papers
    assert first.openreview_forum == "abc123XY" and first.decision == "rejected"
    assert links_of(first)[:2] == [
        "https://openreview.net/forum?id=abc123XY",
        "https://openreview.net/pdf/deadbeef.pdf",
    ]
    assert first.keywords == ("rl", "bandits")
    assert second.openreview_forum == "zzz9"
    assert links_of(second)[:2] == [
        "https://openreview.net/forum?id=zzz9",
        "https://openreview.net/pdf?id=zzz9",
    ]
    assert links_of(third) == ["https://scholar.google.com/scholar?q=C"]  # nothing of its own


def test_a_spreadsheet_names_its_venue_and_its_kind_with_a_journal_or_booktitle_column(
    tmp_path: Path,
) -> None:
    path = tmp_path / "sheet.csv"
    path.write_text(
        "title,abstract,journal,booktitle,eprint\n"
        "A,One.,Nature,,\n"
        "B,Two.,,Proceedings of ICML,arXiv:2401.00001\n",
        encoding="utf-8",
    )
    journal, conference = load_paths([path]).papers
    assert (journal.venue, journal.venue_kind) == ("Nature", "journal")
    assert (conference.venue, conference.venue_kind, conference.id) == (
        "Proceedings of ICML",
        "conference",
        "2401.00001",
    )
