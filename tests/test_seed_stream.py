"""Seed text read as it goes, in pieces of whole paragraphs (formats.seed_text), reads what
the text read whole (core.seeds) does, however the pieces fall."""

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_reader.core.formats import Problem, Record, seed_text
from tui_reader.core.formats.seed_text import paragraph_chunks, read_seed_text, seed_reader
from tui_reader.core.seeds import seed_abstracts, seed_header

LINES = st.sampled_from(["\n", "\r\n", "\r"])
BLANKS = st.sampled_from(["", " ", "\t", "  \t", "\u00a0", "\f", "\x1c", "\u3000", "\x07"])
WORDS = st.text(st.sampled_from("ab é.!?∑\U0001d400\ufeff"), min_size=1, max_size=30)


@st.composite
def seed_texts(draw: st.DrawFn) -> str:
    """Seed text with a header or not, line ends of one kind (as most files have them) or
    mixed, runs of blank lines with blanks on them, wrapped paragraphs, a BOM now and then."""
    mixed = draw(st.booleans())
    kind = draw(LINES)

    def end() -> str:
        return draw(LINES) if mixed else kind

    parts = [draw(st.sampled_from(["", "\ufeff"])), draw(st.sampled_from(["", "H", "A name."]))]
    for _ in range(draw(st.integers(0, 12))):
        parts.append(draw(BLANKS) + end())
        for _ in range(draw(st.integers(0, 3))):
            parts.append(draw(BLANKS) + end())
        lines = draw(st.lists(WORDS, min_size=1, max_size=3))
        parts.append("".join(line + end() for line in lines[:-1]) + lines[-1])
        parts.append(draw(BLANKS) + end())
    return "".join(parts)


def records(text: str, size: int) -> list[Record]:
    data = text.encode("utf-8")
    read = None
    found = []
    for piece in paragraph_chunks(io.BytesIO(data), size):
        assert not isinstance(piece, Problem)
        read = read or seed_reader(data[:4096].decode("utf-8", errors="ignore"))
        found += read(*piece)
    return found


@settings(max_examples=400, deadline=None)
@given(seed_texts(), st.integers(1, 64))
def test_pieces_of_any_size_read_as_the_whole_text(text: str, size: int) -> None:
    collection = seed_header(text)
    abstracts = list(
        seed_abstracts(text.removeprefix("\ufeff"), after_header=collection is not None)
    )
    found = records(text, size)
    assert [record.abstract for record in found] == abstracts
    assert {record.collection for record in found} <= {collection or ""}


def test_each_piece_ends_at_a_paragraph_break_and_counts_its_lines() -> None:
    text = b"H\n\nOne\nwrapped.\n \nTwo.\n\n\nThree.\n"
    pieces = list(paragraph_chunks(io.BytesIO(text), 4))
    assert b"".join(piece for piece, _ in pieces) == text  # type: ignore[misc]
    assert [number for _, number in pieces] == [1, 3, 6, 8]  # type: ignore[misc]


def test_a_paragraph_that_is_not_utf8_is_told_with_its_line_and_the_rest_read() -> None:
    text = "Papers\n\nGood one.\n\nCaf\u00e9 au\nlait.\n\nAnother good one.\n".encode("utf-8")
    bad = text.replace("Caf\u00e9".encode(), "Caf\u00e9".encode("latin-1"))
    read = list(read_seed_text(io.BytesIO(bad)))
    assert read == [
        Record("Good one.", collection="Papers"),
        Problem(5, "not UTF-8 text (byte 0xe9)"),
        Record("Another good one.", collection="Papers"),
    ]


def test_a_first_paragraph_too_long_to_read_leaves_no_collection_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The name is told by the file's start, as a big file's pool reads it: a short
    paragraph after a dropped one is an abstract."""
    monkeypatch.setattr(seed_text, "MAX_PARAGRAPH_BYTES", 1_000_000)
    text = b"x" * 2_000_000 + b"\n\nShort name\n\nAn abstract.\n"
    assert list(read_seed_text(io.BytesIO(text))) == [
        Problem(1, "longer than the 1 MB a paragraph may take"),
        Record("Short name"),
        Record("An abstract."),
    ]
