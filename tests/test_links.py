import gzip
import json
import re
from pathlib import Path

import pytest

from tui_reader.core.links import (
    check_search_template,
    extract_links,
    is_web_url,
    paper_links,
    search_link,
)
from tui_reader.core.loading import load_paths
from tui_reader.core.references import links_of

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"


@pytest.mark.parametrize(
    ("text", "links"),
    [
        ("Code: https://github.com/Tim-Xiong/RL4RLA.", ["https://github.com/Tim-Xiong/RL4RLA"]),
        (
            "See https://a.org/x, and https://b.org/y; also https://c.org/z!",
            ["https://a.org/x", "https://b.org/y", "https://c.org/z"],
        ),
        ("(see https://example.com/page)", ["https://example.com/page"]),
        ("at (https://github.com/o/r/).", ["https://github.com/o/r/"]),
        ("code is at https://g.io/x). We", ["https://g.io/x"]),
        ("https://en.wikipedia.org/wiki/Foo_(bar).", ["https://en.wikipedia.org/wiki/Foo_(bar)"]),
        ("<https://example.com/a>", ["https://example.com/a"]),
        ("[code](https://example.com/code).", ["https://example.com/code"]),
        ("[https://x.io/a](https://x.io/a)", ["https://x.io/a"]),
        ("[this https URL](https://x.io/b)", ["https://x.io/b"]),
        (r"\url{https://x.io/c}.", ["https://x.io/c"]),
        ("visit www.example.org/demo.", ["https://www.example.org/demo"]),
        ("page (www.site.com/~me/x), and", ["https://www.site.com/~me/x"]),
        ("\"https://q.io/a\" and 'https://q.io/b'", ["https://q.io/a", "https://q.io/b"]),
        ("HTTP://UPPER.ORG/X", ["HTTP://UPPER.ORG/X"]),
        ("twice https://x.org and https://x.org", ["https://x.org"]),
        ("no links here, just https:// alone, or www. or http://nodot", []),
        ("https://example.org/a_(b)", ["https://example.org/a_(b)"]),
        ("see (https://example.org/a_(b)).", ["https://example.org/a_(b)"]),
        # An OSC 8 hyperlink once its control characters are cleaned: `]8;;URL\\text]8;;\\`.
        ("]8;;https://evil.example\\click]8;;\\ here", ["https://evil.example"]),
        (
            "https://a.org/x\x1b]52;c;aGk=\x07 https://b.org/\x9bq",
            ["https://a.org/x", "https://b.org/"],
        ),
        ("https://a.org/x\u202egpj.exe", ["https://a.org/x"]),
    ],
)
def test_extract_links(text: str, links: list[str]) -> None:
    assert extract_links(text) == links


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus is not beside the project")
def test_links_of_the_real_corpus_are_clean() -> None:
    found = 0
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        for line in lines:
            for link in extract_links(json.loads(line)["abstract"]):
                found += 1
                assert is_web_url(link), link
                assert not re.search(r"[.,;:!?'\"*_\]]$", link), link
                assert link.count("(") >= link.count(")"), link
                assert "](" not in link, link
    assert found > 1500


def test_search_link_fills_the_template() -> None:
    assert search_link("Deep  nets & more") == (
        "https://scholar.google.com/scholar?q=Deep+nets+%26+more"
    )
    assert search_link("x", "https://s.org/?q={query}&lang=en") == "https://s.org/?q=x&lang=en"


def test_search_template_must_have_a_slot_and_be_web() -> None:
    assert check_search_template("https://s.org/{query}") == "https://s.org/{query}"
    with pytest.raises(ValueError, match=r"no \{query\} slot"):
        check_search_template("https://s.org/")
    with pytest.raises(ValueError, match="not an http or https"):
        check_search_template("file:///etc/{query}")


def test_a_hyperlink_escape_in_a_file_leaves_its_text_and_no_link(write_seed) -> None:
    path = write_seed(
        "Code at \x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ and https://example.org/a_(b)."
    )
    paper = load_paths([path]).papers[0]
    assert "Code at click and https://example.org/a_(b)." in paper.abstract
    assert links_of(paper)[0] == "https://example.org/a_(b)"
    assert not any("evil" in link for link in links_of(paper))


def test_an_own_url_keeps_no_escape_remnant() -> None:
    assert paper_links("https://evil.example\\click\x1b]8;;", [], "https://s") == [
        "https://evil.example",
        "https://s",
    ]
    assert paper_links("\x1b]8;;\\", [], "https://s") == ["https://s"]


def test_paper_links_put_the_own_url_first_and_always_have_one() -> None:
    assert paper_links("https://own", ["https://t1", "https://own"], "https://s") == [
        "https://own",
        "https://t1",
        "https://s",
    ]
    assert paper_links("", [], "https://s") == ["https://s"]


@pytest.mark.parametrize(
    ("url", "web"),
    [
        ("https://a.org", True),
        ("HTTP://a.org", True),
        ("javascript:alert(1)", False),
        ("file:///etc/passwd", False),
        ("https://", False),
    ],
)
def test_only_http_and_https_are_web_links(url: str, web: bool) -> None:
    assert is_web_url(url) is web
