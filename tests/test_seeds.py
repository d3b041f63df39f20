import pytest

from tests.seed_helpers import parse_seed_text


def test_header_then_one_abstract_per_paragraph() -> None:
    collection, abstracts = parse_seed_text("ICML 2026 Papers\n\nFirst one.\n\nSecond one.\n")
    assert collection == "ICML 2026 Papers"
    assert abstracts == ["First one.", "Second one."]


def test_lines_of_a_paragraph_are_joined_with_single_spaces() -> None:
    _, abstracts = parse_seed_text("H\n\nA wrapped\nabstract   with\tgaps.\n")
    assert abstracts == ["A wrapped abstract with gaps."]


@pytest.mark.parametrize(
    "text",
    [
        "H\r\n\r\nOne.\r\n\r\nTwo.\r\n",  # CRLF
        "H\r\rOne.\r\rTwo.\r",  # old Mac line ends
        "\ufeffH\n\nOne.\n\nTwo.\n",  # UTF-8 byte order mark
        "H  \n \t \nOne.  \n\n\n\n\nTwo.\t\n\n",  # trailing spaces, blank lines with spaces, runs
        "\n\n\nH\n\nOne.\n\nTwo.",  # leading blank lines, no final newline
        "H\n\n\tOne.\n\n  Two.  ",  # indented paragraphs
    ],
)
def test_robust_to_line_ends_bom_tabs_and_blank_lines(text: str) -> None:
    assert parse_seed_text(text) == ("H", ["One.", "Two."])


def test_missing_header_keeps_every_abstract() -> None:
    text = "Deep nets generalise. We show why.\n\nA second abstract ends here."
    assert parse_seed_text(text) == (
        None,
        ["Deep nets generalise. We show why.", "A second abstract ends here."],
    )


def test_short_first_line_wrapped_into_an_abstract_is_not_a_header() -> None:
    collection, abstracts = parse_seed_text("We study bandits\nwith many arms.\n\nOther.")
    assert collection is None
    assert abstracts == ["We study bandits with many arms.", "Other."]


def test_a_long_first_paragraph_is_an_abstract_even_without_a_full_stop() -> None:
    long_line = "word " * 40
    assert parse_seed_text(long_line)[0] is None


@pytest.mark.parametrize("text", ["", "\n\n", "   \n\t\n", "\ufeff"])
def test_empty_text_has_no_abstracts(text: str) -> None:
    assert parse_seed_text(text) == (None, [])


def test_header_only() -> None:
    assert parse_seed_text("Just A Name\n") == ("Just A Name", [])


def test_control_characters_are_removed() -> None:
    _, abstracts = parse_seed_text("H\n\nBefore \x1b]52;c;aGk=\x07 after \x1b[31mred\x9b.")
    assert abstracts == ["Before after red"]  # "\x9b." a sequence begun
