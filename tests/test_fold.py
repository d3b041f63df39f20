"""The index unwraps LaTeX in a chunk's UTF-8 bytes; search unwraps a query's text. Both
must read the same words, or a word indexed one way would be typed another."""

from hypothesis import example, given
from hypothesis import strategies as st

from tui_reader.core.flat.fold import unwrap_latex, unwrap_latex_utf8

# What LaTeX is made of, and letters of one to four bytes in UTF-8 before a command.
PIECES = st.sampled_from(
    [
        "\\",
        "{",
        "}",
        "$",
        " ",
        "a",
        "Z",
        "é",
        "ω",
        "≤",
        "\U0001d49c",
        "\x00",
        "\x01",
        "\xa0",
        "\u2009",
        "\x1f",
        "\t",
        '"',
        "'",
        "mathcal",
        "textbf",
        "emph",
        "cite",
        "alpha",
        "v",
        "c",
        "s",
        "re",
        "href",
        "(cid:173) ",
        "(cid:12)",
        "(cid:2)",
        "\ufb01",
        "\ufb03",
    ]
)


@given(st.lists(PIECES, max_size=40).map("".join))
@example("\\mathcal\xa0{O}")  # a space past ASCII: `\\s` took it in text, not in bytes
@example("\\^r\u2009")
@example("piri(cid:173) form e(cid:14)cient \ufb01nd N(cid:2)N")
def test_bytes_unwrap_as_text_does(text: str) -> None:
    assert unwrap_latex_utf8(text.encode()) == unwrap_latex(text).encode()


def test_a_command_after_a_letter_of_several_bytes_is_set_apart() -> None:
    for letter in ("é", "ω", "\U0001d49c"):
        assert unwrap_latex_utf8(f"{letter}\\cite{{x}}".encode()) == f"{letter} cite {{x}}".encode()
    assert unwrap_latex_utf8("≤\\alpha".encode()) == "≤alpha".encode()
