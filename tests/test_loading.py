import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tui_reader.core.loading import LoadError, check_paths, load_paths
from tui_reader.core.paper import paper_id
from tui_reader.core.store import PaperStore

from .conftest import SEEDS


def test_bundled_seeds_hold_38_papers_of_one_collection(seed_store: PaperStore) -> None:
    assert len(seed_store) == 38
    assert seed_store.collections == ["ICML 2026 Papers"]
    assert seed_store.title == "ICML 2026 Papers"
    assert {paper.source.name for paper in seed_store} == {
        "000_5072d7e6c177d376.txt",
        "002_e04503cfde172eae.txt",
    }


def test_seed_ids_are_stable(seed_store: PaperStore) -> None:
    # Tags are keyed by these ids: changing how they are computed orphans every user's tags.
    first, last = seed_store[0], seed_store[-1]
    assert first.headline.startswith("LOAM")
    assert first.id == "28f1d9d7a354"
    assert last.headline.startswith("LaST")
    assert last.id == paper_id(last.abstract)
    assert len({paper.id for paper in seed_store}) == 38
    again = load_paths([SEEDS])
    assert [p.id for p in again.papers] == [p.id for p in seed_store]


def test_seed_links_lose_trailing_punctuation(seed_store: PaperStore) -> None:
    links = [link for paper in seed_store for link in paper.links]
    assert links == [
        "https://github.com/Tim-Xiong/RL4RLA",
        "https://github.com/xiongsiheng/DHSA",
        "https://github.com/511205787/WestWorld",
    ]


def test_ids_survive_renaming_reordering_and_whitespace(tmp_path: Path) -> None:
    original = load_paths([SEEDS / "000_5072d7e6c177d376.txt"]).papers
    text = (SEEDS / "000_5072d7e6c177d376.txt").read_text(encoding="utf-8")
    header, *paragraphs = text.split("\n\n")
    rewrapped = [p.replace(" ", "\n", 3).replace(". ", ".  ") for p in reversed(paragraphs)]
    moved = tmp_path / "renamed.txt"
    moved.write_text("\r\n\r\n".join([header, *rewrapped]), encoding="utf-8")
    reloaded = load_paths([moved]).papers
    assert sorted(p.id for p in reloaded) == sorted(p.id for p in original)


def test_same_abstract_in_two_files_is_one_paper(tmp_path: Path) -> None:
    shutil.copy(SEEDS / "000_5072d7e6c177d376.txt", tmp_path / "a.txt")
    shutil.copy(SEEDS / "000_5072d7e6c177d376.txt", tmp_path / "b.txt")
    loaded = load_paths([tmp_path])
    assert len(loaded.papers) == 19
    assert {p.source.name for p in loaded.papers} == {"a.txt"}


def test_several_paths_and_collections(write_seed: Callable[..., Path]) -> None:
    first = write_seed("One.", header="Alpha", name="a.txt")
    second = write_seed("Two.", header="Beta", name="b.txt")
    loaded = load_paths([first, second])
    assert [p.collection for p in loaded.papers] == ["Alpha", "Beta"]
    assert PaperStore(loaded.papers, loaded.collections).title == "2 collections"


def test_file_without_header_is_named_after_the_file(write_seed: Callable[..., Path]) -> None:
    path = write_seed("Only an abstract here.", header=None, name="neurips.txt")
    assert load_paths([path]).papers[0].collection == "neurips"


def test_directory_reads_seed_files_in_order(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("B\n\nSecond.", encoding="utf-8")
    (tmp_path / "a.txt").write_text("A\n\nFirst.", encoding="utf-8")
    (tmp_path / "notes.md").write_text("Not a seed.", encoding="utf-8")
    assert [p.abstract for p in load_paths([tmp_path]).papers] == ["First.", "Second."]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is a binary file, not UTF-8 text"),
        (
            "H\n\nCaf\u00e9 au lait.".encode("latin-1"),
            "holds no abstracts that can be read ({path}:3: not UTF-8 text (byte 0xe9))",
        ),
        (b"", "holds no abstracts"),
        (b"Only A Header\n", "holds no abstracts"),
    ],
)
def test_unreadable_files_name_the_file_and_the_problem(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(LoadError) as raised:
        load_paths([path])
    assert str(raised.value) == f"{path}: {problem.format(path=path)}"


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="no such file or directory"):
        load_paths([tmp_path / "missing.txt"])


def test_directory_without_papers(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    with pytest.raises(LoadError, match="holds no papers"):
        load_paths([tmp_path])


def test_store_finds_papers_by_id(seed_store: PaperStore) -> None:
    paper = seed_store[5]
    assert seed_store.get(paper.id) is paper
    assert seed_store.position_of(paper.id) == 5
    assert paper.id in seed_store
    assert seed_store.get("000000000000") is None


def test_a_folders_file_that_is_not_text_is_passed_over_and_told(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.txt").write_text("A\n\nFirst.", encoding="utf-8")
    (folder / "b.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    passed_over: list[str] = []
    assert check_paths([folder], passed_over=passed_over) == [folder / "a.txt"]
    assert passed_over == [f"{folder / 'b.txt'}: is a binary file, not UTF-8 text"]
    with pytest.raises(LoadError, match="binary"):  # unless asked, it stops the reading
        check_paths([folder])
    with pytest.raises(LoadError, match="binary"):  # a file named is read or refused
        check_paths([folder / "b.txt"], passed_over=[])
    (folder / "a.txt").write_bytes(b"\x00")
    with pytest.raises(LoadError, match="binary"):  # a folder of none that can be read
        check_paths([folder], passed_over=[])
