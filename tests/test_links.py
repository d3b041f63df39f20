import pytest

from tui_reader.core.links import extract_links


@pytest.mark.parametrize(
    ("text", "links"),
    [
        (
            "Code is available at https://github.com/Tim-Xiong/RL4RLA.",
            ["https://github.com/Tim-Xiong/RL4RLA"],
        ),
        (
            "See https://a.org/x, and https://b.org/y; also https://c.org/z!",
            ["https://a.org/x", "https://b.org/y", "https://c.org/z"],
        ),
        ("(see https://example.com/page)", ["https://example.com/page"]),
        ("https://en.wikipedia.org/wiki/Foo_(bar).", ["https://en.wikipedia.org/wiki/Foo_(bar)"]),
        ("<https://example.com/a>", ["https://example.com/a"]),
        ("[code](https://example.com/code)", ["https://example.com/code"]),
        ("visit www.example.org/demo.", ["https://www.example.org/demo"]),
        ("twice https://x.org and https://x.org", ["https://x.org"]),
        ("no links here, just https:// alone", []),
    ],
)
def test_extract_links(text: str, links: list[str]) -> None:
    assert extract_links(text) == links
