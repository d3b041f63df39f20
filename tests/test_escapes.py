"""Terminal escape sequences in paper text are removed whole, in every format, before any link
is found, any text shown or exported."""

import json
from pathlib import Path

import pytest

from tui_reader.core.export import render
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.references import links_of
from tui_reader.core.text import clean, for_terminal

OSC8 = "\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\"
OSC52 = "\x1b]52;c;SGVsbG8gd29ybGQ=\x07"


@pytest.mark.parametrize(
    ("text", "left"),
    [
        (f"see {OSC8} here", "see click here"),
        (f"OSC 52 {OSC52} title", "OSC 52 title"),
        ("OSC 52 \x1b]52;c;SGVsbG8=\x1b\\ title", "OSC 52 title"),
        ("\x1b[31mred\x1b[0m and \x1b[1;38;5;196mbold\x1b[m", "red and bold"),
        (
            "8-bit \x9b2Jcleared \x9d8;;http://x.example\x9clink",
            "8-bit cleared 8;;http://x.examplelink",
        ),
        ("a \x1bPq#0;2\x1b\\ b \x1b_apc\x1b\\ c \x1b^pm\x1b\\ d \x1bXsos\x1b\\ e", "a b c d e"),
        ("\x90dcs\x9c \x98sos\x9c \x9epm\x9c \x9fapc\x9c kept", "dcs sos pm apc kept"),
        (
            "UTF-8 read as Latin-1: \xe2\x80\x9cblack box\xe2\x80\x9d kept",
            "UTF-8 read as Latin-1: \xe2black box\xe2 kept",
        ),
        ("charset \x1b(Bback \x1b7saved \x1bcreset", "charset back saved reset"),
        ("C1 \x85next \x8dline \x99done", "C1 next line done"),
        ("an OSC never ended \x1b]52;c;SGVsbG8gd29ybGQ= title", "an OSC never ended"),
        ("an escape ends a string \x1b]8;;http://x\x1b[31mred", "an escape ends a string red"),
    ],
)
def test_an_escape_sequence_is_removed_whole(text: str, left: str) -> None:
    assert clean(text) == left
    assert for_terminal(text).split() == left.split()


@pytest.mark.parametrize(
    "name",
    ["papers.jsonl", "papers.json", "papers.txt"],
)
def test_every_format_reads_text_without_an_escape_or_its_payload(
    tmp_path: Path, name: str
) -> None:
    abstract = f"Code at {OSC8} and https://example.org/code, {OSC52} \x1b[31mred\x9b0m."
    title = f"A {OSC52}title\x1b[0m"
    path = tmp_path / name
    if name.endswith(".txt"):
        path.write_text(f"{title}\n\n{abstract}\n", encoding="utf-8")
    else:
        record = {"title": title, "abstract": abstract}
        text = json.dumps(record) + "\n" if name.endswith("l") else json.dumps([record])
        path.write_text(text, encoding="utf-8")
    (paper,) = load_paths([path]).papers
    assert paper.abstract == "Code at click and https://example.org/code, red."
    assert paper.title in ("A title", "")  # seed text: a paragraph a paper
    assert links_of(paper)[0] == "https://example.org/code"
    library = Library(tmp_path / "library.json")
    exported = "".join(
        render(name, [paper], library, "https://s.example/?q={query}") for name in ("md", "bib")
    )
    for hostile in ("evil", "SGVsbG8", "52;", "[31m", "[0m", "8;;"):
        assert all(hostile not in link for link in links_of(paper))
        assert hostile not in exported + paper.headline
