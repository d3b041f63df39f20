import csv
import io
import json
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote_plus

import bibtexparser
import pytest

from tests.cli_helpers import run
from tui_reader.cli.commands.digest import markdown_digest
from tui_reader.core import export as export_module
from tui_reader.core.citation_keys import key_base
from tui_reader.core.export import ExportError, format_of, render, write_export
from tui_reader.core.headline import headline_source
from tui_reader.core.latex_text import unicode_text
from tui_reader.core.library import Library
from tui_reader.core.paper import Paper
from tui_reader.core.query import words
from tui_reader.core.references import (
    citation,
    links_of,
    markdown_link,
    markdown_text,
    reference_title,
)
from tui_reader.core.store import PaperStore
from tui_reader.core.typeset import typeset_text

HOSTILE = (
    'We study 50% of {unbalanced braces & #hashes, "quotes", commas, a_b with $x_{1}$ and '
    "\\emph{emphasis} and [CLS] tokens."
)


def rich_paper() -> Paper:
    return Paper.from_abstract(
        "A full record with a title.",
        "NeurIPS 2023",
        Path("x.jsonl"),
        title="Attention [Is] All: You Need & More",
        authors=("Ada Lovelace", "Émile Borel"),
        url="https://openreview.net/forum?id=abc",
        venue="NeurIPS 2023",
    )


def test_seed_links_primary_first(seed_store: PaperStore) -> None:
    with_code = [p for p in seed_store if p.links]
    assert [links_of(p)[0] for p in with_code] == [
        "https://github.com/Tim-Xiong/RL4RLA",
        "https://github.com/xiongsiheng/DHSA",
        "https://github.com/511205787/WestWorld",
    ]
    assert all(
        links_of(p)[-1].startswith("https://scholar.google.com/scholar?q=") for p in seed_store
    )
    # A paper with no url is searched by its headline, which names it better than its first
    # sentence ("Large Language Models (LLMs) have emerged as powerful tools...").
    assert links_of(seed_store[0]) == [
        "https://scholar.google.com/scholar?q=LOAM%3A+LLM-based+design+of+Observation+and+"
        "Action+Models"
    ]


def test_a_cut_headline_is_searched_by_its_whole_words(seed_store: PaperStore) -> None:
    for paper in seed_store:
        query = unquote_plus(links_of(paper)[-1].split("?q=", 1)[1])
        assert query == paper.headline.removesuffix("…"), paper.headline
        # Only whole words: every one is a word of the sentence the headline comes from.
        assert set(words(query)) <= set(words(headline_source(paper.abstract))), query
    augmask = unquote_plus(links_of(seed_store[2])[-1].split("?q=", 1)[1])
    assert augmask == (
        "AugMask: a plug-and-play training framework that adapts missing-unaware backbones to "
        "incomplete"
    )


def test_a_long_title_is_searched_whole() -> None:
    title = " ".join(["Word"] * 60)  # 299 characters
    paper = Paper.from_abstract("An abstract.", "c", Path("x.jsonl"), title=title)
    assert unquote_plus(links_of(paper)[-1].split("?q=", 1)[1]) == title


def test_a_title_written_in_latex_is_searched_as_it_reads() -> None:
    title = r"Schr\"odinger bridges for {GAN}s at $O(1/T)$ with $\alpha$-steps and ``robust'' ends"
    paper = Paper.from_abstract("An abstract.", "c", Path("x.jsonl"), title=title)
    query = unquote_plus(links_of(paper)[-1].split("?q=", 1)[1])
    # As the list shows it: braces the list shows stay (a search engine passes over them).
    assert query == "Schrödinger bridges for {GAN}s at O(1/T) with α-steps and “robust” ends"


def test_an_apostrophe_and_quotes_written_with_a_backslash_are_exported_as_such() -> None:
    title = r"Alzheimer\'s disease: don\'t trust the \"deep\" model"
    abstract = r"We don\'t trust \"deep\" models of Schr\"odinger bridges."
    paper = Paper.from_abstract(abstract, "c", Path("x.jsonl"), title=title)
    query = unquote_plus(links_of(paper)[-1].split("?q=", 1)[1])
    assert query == "Alzheimer's disease: don't trust the \"deep\" model"
    record = json.loads(render("csl-json", [paper], Library(None)))[0]
    assert record["title"] == query
    assert record["abstract"] == 'We don\'t trust "deep" models of Schrödinger bridges.'
    assert unicode_text(r"the \"old $x$ model\" works") == 'the "old $x$ model" works'


def test_own_url_is_primary_and_title_is_searched() -> None:
    links = links_of(rich_paper(), "https://s.org/?q={query}")
    assert links == [
        "https://openreview.net/forum?id=abc",
        "https://s.org/?q=Attention+%5BIs%5D+All%3A+You+Need+%26+More",
    ]


def test_markdown_link_and_citation() -> None:
    paper = rich_paper()
    title = r"[Attention \[Is\] All: You Need & More]"
    # Balanced parentheses are kept (CommonMark allows them); others are encoded.
    assert markdown_link(paper, "https://x.org/a_(b)") == title + "(https://x.org/a_(b))"
    assert markdown_link(paper, "https://x.org/a)b(c") == title + "(https://x.org/a%29b%28c)"
    assert markdown_link(paper, "https://x.org/a b") == title + "(https://x.org/a%20b)"
    assert citation(paper, "https://u") == (
        "Ada Lovelace, Émile Borel. Attention [Is] All: You Need & More. NeurIPS 2023. https://u"
    )


def test_no_reference_is_cut(seed_store: PaperStore, tmp_path: Path) -> None:
    papers = list(seed_store)
    library = Library(None)
    # Their abstracts aside: math's \\ldots reads … in RIS and CSL-JSON.
    titled_only = [replace(paper, abstract="An abstract.") for paper in papers]
    for kind in ("bib", "json", "csv", "ris", "csl-json"):
        assert "…" not in render(kind, titled_only, library), kind
    for paper in papers:
        assert "…" not in citation(paper, "https://u")
    augmask = papers[2]
    sentence = (
        "We propose AugMask, a plug-and-play training framework that adapts missing-unaware "
        "backbones to incomplete data via stochastic regularization"
    )
    assert reference_title(augmask) == sentence
    # The seed file's first line names the collection, not a venue, and gives no year.
    assert citation(augmask, "https://u") == f"{sentence}. https://u"
    entry = bibtexparser.parse_string(render("bib", [augmask], library)).entries[0]
    assert entry.fields_dict["title"].value == sentence.replace("AugMask,", "{AugMask,}")
    # A headline that was not cut is the reference's title; a title always is.
    assert reference_title(papers[0]) == papers[0].headline
    assert reference_title(rich_paper()) == "Attention [Is] All: You Need & More"
    for title, cited in (("Ends.", "Ends."), ("Why not?", "Why not?"), ("Plain", "Plain.")):
        paper = Paper.from_abstract("Text.", "c", Path("x.jsonl"), title=title)
        assert citation(paper, "https://u") == f"{cited} https://u"


def test_a_markdown_link_names_the_paper_as_the_list_does(seed_store: PaperStore) -> None:
    """Its text is the headline read as Unicode, never the whole sentence a headline was cut
    from (the digest and the reading list showed sentences of two lines, and raw LaTeX)."""
    augmask = seed_store[2]
    assert markdown_link(augmask, "https://u") == f"[{augmask.headline}](https://u)"
    assert augmask.headline.endswith("incomplete…")
    titled = Paper.from_abstract(
        "Text.", "c", Path("x.jsonl"), title=r"$\alpha$-nets for \emph{Schr\"odinger} ``bridges''"
    )
    assert markdown_link(titled, "https://u") == "[α-nets for Schrödinger “bridges”](https://u)"
    untitled = Paper.from_abstract(
        r"Cats purr. We propose $\beta$-Nets, a network of piri(cid:173) form cells.",
        "c",
        Path("x"),
    )
    assert (
        markdown_link(untitled, "https://u") == "[β-Nets, a network of piriform cells](https://u)"
    )


def test_every_markdown_link_names_the_paper_as_the_list_does_and_stays_escaped() -> None:
    """Markdown (the reading list, the copied link, the digest) kept `--` and `---` where the
    list shows en and em dashes, and dropped a backslash the list shows; a link or HTML in a title
    still shows as text."""
    title = r"Kernels for Multi--task Learning --- ``robust'' [x](javascript:y) <img src=z> a \ b"
    paper = Paper.from_abstract("An abstract.", "c", Path("x.jsonl"), title=title)
    shown = "Kernels for Multi–task Learning — “robust” [x](javascript:y) <img src=z> a \\ b"
    assert typeset_text(title) == shown
    escaped = r"Kernels for Multi–task Learning — “robust” \[x\](javascript:y) \<img src=z\> a \\ b"
    assert markdown_link(paper, "https://u") == f"[{escaped}](https://u)"
    assert render("markdown-link", [paper], Library(None)).startswith(f"[{escaped}](")
    assert f"- [{escaped}](" in render("md", [paper], Library(None))
    digest = markdown_digest([("kernels", "kernels", [paper])], Library(None), "https://s/{q}")
    assert f"- [{escaped}](" in digest
    assert unquote_plus(links_of(paper)[-1].split("?q=", 1)[1]) == shown


def library_for(tmp_path: Path, papers: list[Paper]) -> Library:
    library, _ = Library.open(tmp_path / "lib.json")
    library.change_tags([papers[0].id], add=["to-read", "rl/theory"])
    library.set_bookmarked([papers[0].id], True)
    library.set_note(papers[0].id, 'Line one, "quoted"\nline two & 100%')
    return library


def papers_with_hostile(seed_store: PaperStore) -> list[Paper]:
    hostile = Paper.from_abstract(HOSTILE, "ICML 2026 Papers", Path("evil.txt"))
    return [*seed_store, hostile, rich_paper()]


def test_bibtex_parses_back_with_unique_keys(seed_store, tmp_path: Path) -> None:
    papers = papers_with_hostile(seed_store)
    text = render("bib", papers, library_for(tmp_path, papers))
    parsed = bibtexparser.parse_string(text)
    assert parsed.failed_blocks == []
    assert len(parsed.entries) == len(papers) == 40
    keys = [entry.key for entry in parsed.entries]
    assert len(set(keys)) == 40
    assert keys[0] == key_base(papers[0]) == "loam_28f1d9"
    first = parsed.entries[0].fields_dict
    assert first["title"].value == "{LOAM:} {LLM-based} design of Observation and Action Models"
    assert "year" not in first  # a seed has none, as `year:` says
    assert "note" not in first and "annote" not in first  # the user's note is private
    hostile = parsed.entries[38].fields_dict["abstract"].value
    assert "50\\%" in hostile and "\\textbraceleft{}unbalanced" in hostile and "\\&" in hostile
    assert "$x_{1}$" in hostile and "\\emph{emphasis}" in hostile  # the other braces kept
    rich = parsed.entries[39].fields_dict
    assert rich["author"].value == "Lovelace, Ada and Borel, {\\'E}mile"
    assert rich["url"].value == "https://openreview.net/forum?id=abc"


def test_json_and_csv_parse_back(seed_store, tmp_path: Path) -> None:
    papers = papers_with_hostile(seed_store)
    library = library_for(tmp_path, papers)
    records = json.loads(render("json", papers, library))
    assert [r["id"] for r in records] == [p.id for p in papers]
    assert records[0]["tags"] == ["rl/theory", "to-read"] and records[0]["bookmarked"] is True
    assert records[38]["abstract"] == HOSTILE

    rows = list(csv.DictReader(io.StringIO(render("csv", papers, library))))
    assert len(rows) == 40
    assert rows[0]["tags"] == "rl/theory to-read"
    assert rows[0]["note"] == 'Line one, "quoted"\nline two & 100%'
    assert rows[38]["abstract"] == HOSTILE
    assert rows[39]["authors"] == "Ada Lovelace; Émile Borel"
    assert rows[17]["url"] == "https://github.com/Tim-Xiong/RL4RLA"


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_text(tmp_path: Path) -> None:
    paper = Paper.from_abstract(
        "-1 is where it starts.",
        "c",
        Path("x.jsonl"),
        title='=HYPERLINK("http://evil.example","click")',
        authors=("+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|x"),
    )
    library, _ = Library.open(tmp_path / "lib.json")
    library.set_note(paper.id, "\tindented")
    row = next(csv.DictReader(io.StringIO(render("csv", [paper], library))))
    assert row["title"] == row["headline"] == """'=HYPERLINK("http://evil.example","click")"""
    assert row["authors"] == "'+cmd|' /C calc'!A0; @SUM(1+1)*cmd|x"
    assert row["abstract"] == "'-1 is where it starts."
    assert row["note"] == "'\tindented"
    assert row["bookmarked"] == "False" and row["id"] == paper.id


def test_markdown_reading_list(seed_store, tmp_path: Path) -> None:
    papers = list(seed_store)[:2]
    text = render("md", papers, library_for(tmp_path, papers))
    assert text.splitlines() == [
        "# Reading list (2 papers)",
        "",
        "- [LOAM: LLM-based design of Observation and Action Models]("
        + links_of(papers[0])[0]
        + ") — `#rl/theory` `#to-read`",
        '  > Line one, "quoted"',
        "  > line two & 100%",
        "- [The mechanism of sim-and-real co-training through theoretical analysis and "
        f"empirical study]({links_of(papers[1])[0]})",
    ]


def test_a_reading_list_of_one_paper_says_one_paper(seed_store, tmp_path: Path) -> None:
    papers = list(seed_store)[:1]
    text = render("md", papers, library_for(tmp_path, papers))
    assert text.startswith("# Reading list (1 paper)\n")


def test_export_files_are_not_overwritten_without_force(tmp_path: Path) -> None:
    path = tmp_path / "out.md"
    write_export(path, "first\n")
    with pytest.raises(ExportError, match="already exists"):
        write_export(path, "second\n")
    assert path.read_text() == "first\n"
    write_export(path, "second\n", force=True)
    assert path.read_text() == "second\n"
    with pytest.raises(ExportError, match="does not exist"):
        write_export(tmp_path / "nope" / "x.md", "x")


def test_an_export_never_replaces_the_library_its_files_or_the_papers_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    papers = tmp_path / "papers.txt"
    papers.write_text("A collection\n\nBandits with regret.\n\nRobots that grasp.\n")
    library = tmp_path / "library.json"
    given = ["--papers", str(papers), "--library", str(library)]
    paper_id = json.loads(run(capsys, "list", *given, "--format", "jsonl")[1].splitlines()[0])["id"]
    assert run(capsys, "tag", *given, paper_id, "kept")[0] == 0
    assert run(capsys, "tag", *given, paper_id, "journaled")[0] == 0
    (tmp_path / "link.txt").symlink_to(papers)
    files = sorted(tmp_path.iterdir())
    before = {file: file.read_bytes() for file in files if not file.is_symlink()}
    library_files = [library, tmp_path / "library.json.journal", tmp_path / "library.json.bak"]
    for target in [*library_files, papers, tmp_path / "link.txt"]:
        kind = format_of(target) or "bib"  # a reference export would give keys first
        status, _, err = run(
            capsys, "export", *given, "--format", kind, "-o", str(target), "--force"
        )
        what = "holds papers read" if target.suffix == ".txt" else "is the library in use"
        assert status == 2 and err.startswith(f"tui-reader: {target} {what}"), (target, err)
        assert err.count("\n") == 1
    assert sorted(tmp_path.iterdir()) == files
    assert {file: file.read_bytes() for file in before} == before
    assert "citekey" not in library.read_text()  # no key given before the refusal


def test_an_export_never_replaces_papers_read_from_an_entry_named_from_another_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache's entry names its files as they were named when it was made (`../refs.bib`
    from a folder below): from the folder above, `export -o refs.bib --force` took them for
    other files and replaced the papers' file, its entries without an abstract lost."""
    refs = tmp_path / "refs.bib"
    refs.write_text(
        "@article{a1, title = {Transduction}, abstract = {Transduction with kernels.}}\n"
        "@book{b1, title = {A book of no abstract}}\n"
    )
    before = refs.read_bytes()
    (tmp_path / "below").mkdir()
    monkeypatch.chdir(tmp_path / "below")
    assert run(capsys, "search", "transduction", "--papers", "../refs.bib")[0] == 0
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "export", "-o", "refs.bib", "--force", "--papers", "refs.bib")
    assert status == 2 and err.endswith(
        "tui-reader: refs.bib holds papers read: export to another file\n"
    )
    assert refs.read_bytes() == before


def test_an_export_that_cannot_be_written_is_a_failure_not_a_mistake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk gave exit status 2, which README gives to a mistake in the command."""

    def disk_full(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export_module, "write_atomically", disk_full)
    out = tmp_path / "out.md"
    assert run(capsys, "export", "-o", str(out)) == (
        1,
        "",
        f"tui-reader: {out}: No space left on device\n",
    )


def test_the_format_of_a_file_is_its_suffix() -> None:
    assert [format_of(Path(name)) for name in ("a.md", "b.BIB", "c.json", "d.csv")] == [
        "md",
        "bib",
        "json",
        "csv",
    ]
    assert format_of(Path("list.txt")) is None and format_of(Path("bib")) is None


def test_paper_text_in_markdown_is_never_a_link_an_image_or_html_and_its_math_stays_tex() -> None:
    from markdown_it import MarkdownIt

    hostile = (
        "See [x](javascript:alert(1)), ![p](http://t/p.png), <img src=x onerror=1>, "
        "<http://a.b>, \\[y\\](javascript:z), $[u](javascript:v)$ and $<script>$; "
        "$a<b$, $[0,1]$ and *emphasis*."
    )
    shown = MarkdownIt("commonmark").render(markdown_text(hostile))
    assert "<a " not in shown and "<img" not in shown and "<script" not in shown
    assert "<em>emphasis</em>" in shown  # Markdown of the abstract's own stays
    assert "$[0,1]$" in shown and "$a&lt; b$" in shown  # TeX reads `a< b` as `a<b`
    plain = "Bounds in $O(\\sqrt{T})$ and $[0, 1]$, without brackets."
    assert markdown_text(plain) == plain


def test_a_digest_mails_a_server_s_abstract_as_text() -> None:
    from tui_reader.cli.commands.digest import markdown_digest
    from tui_reader.core.library import Library
    from tui_reader.core.links import DEFAULT_SEARCH_URL

    paper = Paper.from_abstract(
        "Read [this](javascript:alert(1)) <img src=x>.", "C", Path("x"), title="<b>T</b>"
    )
    digest = markdown_digest([("today", "is:new", [paper])], Library(None), DEFAULT_SEARCH_URL)
    assert "\\[this\\](javascript" in digest and "\\<img src=x\\>" in digest
    assert "[\\<b\\>T\\</b\\>](" in digest
