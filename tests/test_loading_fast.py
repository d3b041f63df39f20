import gzip
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tui_reader.core.loading import load_paths
from tui_reader.core.store import PaperStore
from tui_reader.core.text import clean, squash_whitespace, strip_controls

_ODD = "ab \t\n\r\x0b\x1c\x1b\x85\xa0\u2028\u202e\u3000\ud800é[/"


@given(st.text(alphabet=st.sampled_from(_ODD)))
def test_clean_text_is_told_apart_without_changing_what_clean_gives(text: str) -> None:
    assert clean(text) == squash_whitespace(strip_controls(text))


@given(st.text(alphabet=st.sampled_from("a \n\t\x1cé")))
def test_text_broken_into_lines_is_cleaned_as_any_other(text: str) -> None:
    assert clean(text) == squash_whitespace(strip_controls(text))


def test_what_only_the_standard_json_reads_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    lines = [
        '{"abstract": "Not a number is read.", "score": NaN}',
        '{"abstract": "A long number is refused.", "n": ' + "9" * 5000 + "}",
        '{"abstract": "Broken"',
        '{"abstract": "Plain."}',
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    loaded = load_paths([path])
    assert [p.abstract for p in loaded.papers] == ["Not a number is read.", "Plain."]
    assert loaded.problems == [
        f"{path}:2: a number with too many digits",
        f"{path}:3: not valid JSON (Expecting ',' delimiter)",
    ]


def test_papers_load_into_a_store(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl.gz"
    lines = [
        '{"abstract": "First.", "title": "One", "venue": "A"}',
        '{"abstract": "Second.", "collection": "x"}',
        '{"abstract": "First.", "title": "One", "venue": "A"}',
        "not json",
    ]
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    other = tmp_path / "other.txt"
    other.write_text("Other\n\nFirst.\n\nThird paper.\n", encoding="utf-8")
    loaded = load_paths([path, other])
    assert isinstance(loaded.papers, PaperStore)
    assert [(p.abstract, p.title, p.collection) for p in loaded.papers] == [
        ("First.", "One", "papers"),
        ("Second.", "", "papers"),
        ("Third paper.", "", "Other"),
    ]
    assert loaded.collections == loaded.papers.collections == ["papers", "Other"]
    assert loaded.problems == [f"{path}:4: not valid JSON (Expecting value)"]
    assert loaded.duplicates == 2
