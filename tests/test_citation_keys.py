"""Citation keys are given once, kept in the library, and never move to another paper, whatever
is exported with a paper, in whatever order, from the reader, its copy picker or `export`."""

import json
import re
import stat
import threading
from pathlib import Path

import bibtexparser
import pytest
import rispy

from tests.cli_helpers import run
from tests.pilot_helpers import wait_until
from tui_reader.cli.commands import export as export_command
from tui_reader.cli.shared import open_library
from tui_reader.core import library_file
from tui_reader.core.citation_keys import give_keys, key_base
from tui_reader.core.export import copy_forms, render
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.paper import Paper
from tui_reader.core.references import links_of
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.copy_picker import CopyPicker
from tui_reader.ui.paper_list import PaperList


def lovelace(arxiv_id: str, title: str, published: str = "2025-01-03") -> Paper:
    return Paper.from_abstract(
        f"The abstract of {title}.",
        "arXiv",
        Path("arxiv.jsonl"),
        title=title,
        authors=("Ada Lovelace",),
        venue="arXiv",
        metadata={"year": 2025, "published": published, "arxiv_id": arxiv_id},
    )


EARLY = lovelace("2501.00001", "Attention for all", "2025-01-02")
LATE = lovelace("2501.00002", "Attention, revisited", "2025-06-30")


def keys(kind: str, papers: list[Paper], library: Library) -> dict[str, str]:
    """Each paper's key in the export, by paper id, as the format's own parser reads it."""
    give_keys(papers, library)
    text = render(kind, papers, library)
    if kind == "bib":
        found = [entry.key for entry in bibtexparser.parse_string(text).entries]
    elif kind == "ris":
        found = [record["id"] for record in rispy.loads(text)]
    else:
        found = [item["id"] for item in json.loads(text)]
    return dict(zip([paper.id for paper in papers], found, strict=True))


def test_a_key_never_moves_to_another_paper_whatever_is_exported_with_it(tmp_path: Path) -> None:
    library, _ = Library.open(tmp_path / "library.json")
    # The later paper is exported first, alone: it is given the key without a suffix...
    assert keys("bib", [LATE], library) == {LATE.id: "lovelace2025attention"}
    # ...and keeps it, in every format, order and selection; the other has the suffix.
    given = {LATE.id: "lovelace2025attention", EARLY.id: "lovelace2025attentiona"}
    for kind in ("bib", "ris", "csl-json"):
        assert keys(kind, [EARLY, LATE], library) == given
        assert keys(kind, [LATE, EARLY], library) == given
        assert keys(kind, [EARLY], library) == {EARLY.id: given[EARLY.id]}
    # Another program reading the library finds them.
    again, _ = Library.open(tmp_path / "library.json")
    assert again.citation_keys([EARLY.id, LATE.id]) == given


def test_of_papers_keyed_at_once_the_later_one_has_the_suffix_in_any_order(
    tmp_path: Path,
) -> None:
    for number, order in enumerate(([EARLY, LATE], [LATE, EARLY])):
        library, _ = Library.open(tmp_path / f"library{number}.json")
        assert keys("bib", order, library) == {
            EARLY.id: "lovelace2025attention",
            LATE.id: "lovelace2025attentiona",
        }


@pytest.mark.parametrize(
    ("title", "word"),
    [
        ("$\\mathcal{X}$-Armed Bandits: Optimizing Quantiles", "armed"),
        ("{VO}$Q$L: Towards Optimal Regret", "voql"),
        ("{VO}{$Q$}{L:} Towards Optimal Regret", "voql"),  # as our BibTeX writes it
        ("$\\tilde{O}(\\sqrt{T})$ Regret for Dueling Bandits", "regret"),
    ],
)
def test_a_key_reads_a_titles_math_as_its_letters(title: str, word: str) -> None:
    """It took `mathcal` of `$\\mathcal{X}$` (torossian2019mathcal), and `vo` of VOQL."""
    assert key_base(lovelace("2501.00001", title)) == f"lovelace2025{word}"


def test_a_key_skips_stop_words_even_in_a_paper_without_title_or_authors() -> None:
    paper = Paper.from_abstract("A study of the keys of papers.", "c", Path("c.txt"))
    assert key_base(paper) == f"study_{paper.id[:6]}"  # not a_...
    titled = Paper.from_abstract("X.", "c", Path("c.txt"), title="On the Keys", authors=("A B",))
    assert key_base(titled) == "bkeys"


def test_a_library_written_before_keys_reads_as_it_was_and_keeps_them_after(
    tmp_path: Path,
) -> None:
    path = tmp_path / "library.json"
    old = {
        "version": 1,
        "papers": {
            EARLY.id: {"tags": {"to-read": "2025-01-01T00:00:00.000000Z"}, "note": "mine",
                       "note_at": "2025-01-01T00:00:00.000000Z"},
        },
    }  # fmt: skip
    path.write_text(json.dumps(old, indent=1), encoding="utf-8")
    library, messages = Library.open(path)
    assert messages == [] and library.citation_keys([EARLY.id]) == {}
    assert (library.tags(EARLY.id), library.note(EARLY.id)) == (["to-read"], "mine")
    assert give_keys([EARLY], library) == (1, [])
    journal = library_file.journal_path(path).read_text().splitlines()
    assert [json.loads(line)["entry"]["citekey"] for line in journal] == ["lovelace2025attention"]
    assert json.loads(path.read_text()) == old  # the snapshot is as it was until a fold
    library.save(fold=True)
    folded = json.loads(path.read_text())
    assert folded["version"] == 1  # no new version: older readers keep the field as it is
    assert folded["papers"][EARLY.id]["citekey"] == "lovelace2025attention"
    assert folded["papers"][EARLY.id]["tags"] == old["papers"][EARLY.id]["tags"]


def test_two_programs_never_give_one_key_to_two_papers(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    first, _ = Library.open(path)
    second, _ = Library.open(path)  # opened before the first gives its key
    give_keys([LATE], first)
    give_keys([EARLY], second)  # reads what the first saved, under the lock, first
    assert second.citation_keys([EARLY.id, LATE.id]) == {
        LATE.id: "lovelace2025attention",
        EARLY.id: "lovelace2025attentiona",
    }


def test_a_key_two_merged_copies_gave_apart_stays_with_the_paper_keyed_first(
    tmp_path: Path,
) -> None:
    here, _ = Library.open(tmp_path / "here.json")
    give_keys([EARLY], here)
    there, _ = Library.open(tmp_path / "there.json")
    give_keys([LATE], there)  # the same key, later
    report = here.merge_copy(tmp_path / "there.json")
    assert "1 citation key changed" in str(report)
    assert here.citation_keys([EARLY.id, LATE.id]) == {EARLY.id: "lovelace2025attention"}
    give_keys([LATE, EARLY], here)
    assert here.citation_keys([EARLY.id, LATE.id]) == {
        EARLY.id: "lovelace2025attention",
        LATE.id: "lovelace2025attentiona",
    }


def test_a_key_written_by_hand_that_no_reader_takes_is_given_anew(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    stamp = "2025-01-01T00:00:00.000000Z"
    written = {EARLY.id: {"citekey": "bad key}", "citekey_at": stamp, "read": True}}
    path.write_text(json.dumps({"version": 1, "papers": written}), encoding="utf-8")
    library, _ = Library.open(path)
    assert library.citation_keys([EARLY.id]) == {} and library.is_read(EARLY.id)
    give_keys([EARLY], library)
    assert library.citation_keys([EARLY.id]) == {EARLY.id: "lovelace2025attention"}


def test_a_paper_moved_to_its_arxiv_id_keeps_its_key(tmp_path: Path) -> None:
    library, _ = Library.open(tmp_path / "library.json")
    seed = Paper.from_abstract("An abstract first read from a plain file.", "c", Path("c.txt"))
    give_keys([seed], library)
    key = library.citation_keys([seed.id])[seed.id]
    library.move_papers({seed.id: "2501.09999"})
    assert library.citation_keys([seed.id, "2501.09999"]) == {"2501.09999": key}


def library_files(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in path.parent.iterdir() if p.name.startswith(path.name)}


def test_export_writes_the_library_only_to_keep_keys_it_gives_and_says_so(
    capsys, tmp_path: Path
) -> None:
    path = tmp_path / "library.json"
    listed = ["--library", str(path), "--tag", "x"]
    assert run(capsys, "export", "--format", "md", "--library", str(path))[0] == 0
    assert not path.exists()  # a reading command makes no library
    status, out, err = run(capsys, "export", "--format", "bib", "--library", str(path))
    assert status == 0 and err == f"tui-reader: 38 citation keys given, kept in {path}\n"
    first = [entry.key for entry in bibtexparser.parse_string(out).entries]
    files = library_files(path)
    status, again, err = run(capsys, "export", "--format", "ris", "--library", str(path))
    assert (status, err) == (0, "")  # every key given already: no file is written
    assert library_files(path) == files
    assert [record["id"] for record in rispy.loads(again)] == first
    assert run(capsys, "export", "--format", "bib", *listed)[1] == ""  # none tagged


def test_exports_racing_on_one_library_each_count_the_keys_they_gave(
    capsys, monkeypatch, tmp_path: Path
) -> None:
    """Three exports at once on a fresh library of 2,985 papers said 2,766, 219 and 1,089 keys
    given: each counted the papers it found keyless when it opened the library, not those it
    gave once what the others had saved was read under the lock."""
    path = tmp_path / "library.json"
    papers = [
        lovelace(
            f"2501.{number:05d}", f"Attention number {number}", f"2025-01-{number % 28 + 1:02d}"
        )
        for number in range(40)
    ]
    exports = [papers[:30], papers[10:], papers[5:35]]
    all_open = threading.Barrier(len(exports))

    def opened_together(path: Path | None) -> tuple[Library, list[str]]:
        opened = open_library(path)
        all_open.wait()  # every export has read the library before any gives a key
        return opened

    monkeypatch.setattr(export_command, "open_library", opened_together)
    threads = [
        threading.Thread(target=export_command.library_with_citation_keys, args=(path, chosen))
        for chosen in exports
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    said = re.findall(r"(\d+) citation keys? given", capsys.readouterr().err)
    library, _ = Library.open(path)
    keys = library.citation_keys([paper.id for paper in papers])
    assert len(keys) == len(set(keys.values())) == 40
    assert sum(map(int, said)) == 40 and len(said) <= 3


@pytest.mark.parametrize("refused", ["newer", "read-only"])
def test_export_with_a_library_it_may_not_write_changes_nothing(
    capsys, tmp_path: Path, refused: str
) -> None:
    path = tmp_path / "library.json"
    path.write_text(json.dumps({"version": 99 if refused == "newer" else 1, "papers": {}}))
    if refused == "read-only":
        path.chmod(stat.S_IRUSR)
    files = library_files(path)
    status, out, err = run(capsys, "export", "--format", "bib", "--library", str(path))
    assert status == 0 and len(bibtexparser.parse_string(out).entries) == 38
    assert err.startswith("tui-reader: citation keys could not be kept")
    assert err.endswith("they hold for this export only\n") and err.count("\n") == 1
    assert library_files(path) == files  # nothing written, moved, locked or made


async def copied_key(pilot, number: int) -> str:
    """Copy the BibTeX entry of the paper at `number` with the copy picker; its key."""
    app = pilot.app
    copies = len(app.copy_log.copies)
    app.query_one(PaperList).choose(number)
    await pilot.press("Y")
    assert isinstance(app.screen, CopyPicker)
    links = len(links_of(app.store[number]))  # the picker lists the links, then the forms
    await pilot.press(str(links + [form.name for form in copy_forms()].index("bib") + 1))
    await wait_until(pilot, lambda: len(app.copy_log.copies) > copies, "the copy")
    return str(bibtexparser.parse_string(app.copy_log.copies[-1].text).entries[0].key)


async def test_the_copy_picker_gives_each_paper_its_own_key_for_good(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr("pyperclip.copy", lambda text: None)
    library, _ = Library.open(tmp_path / "library.json")
    app = ReaderApp(Opening(PaperStore([EARLY, LATE], ["arXiv"])), library)
    async with app.run_test(size=(100, 30)) as pilot:
        late = app.store.position_of(LATE.id)
        early = app.store.position_of(EARLY.id)
        assert await copied_key(pilot, late) == "lovelace2025attention"
        assert await copied_key(pilot, early) == "lovelace2025attentiona"  # not the same key
        assert await copied_key(pilot, late) == "lovelace2025attention"
    again, _ = Library.open(tmp_path / "library.json")
    assert again.citation_keys([EARLY.id, LATE.id]) == {
        LATE.id: "lovelace2025attention",
        EARLY.id: "lovelace2025attentiona",
    }
