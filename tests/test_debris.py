"""What PDF extraction broke in old papers' text, mended for reading and search (core.text)."""

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tui_reader.core.paper import Paper, paper_id
from tui_reader.core.text import clean, without_debris, without_debris_utf8

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"


@pytest.mark.parametrize(
    ("text", "mended"),
    [
        # A soft hyphen where a line broke, with the space that stood for the break or without.
        ("the simulation of piri(cid:173) form cortex", "the simulation of piriform cortex"),
        ("a lin(cid:173)ear map", "a linear map"),
        # Ligatures as their glyph's number beside a lower-case letter, in TeX's fonts or 8r.
        ("classi(cid:12)cation, (cid:12)xed", "classification, fixed"),
        (
            "e(cid:11)ects, trade-o(cid:11)s, traded o(cid:11) for",
            "effects, trade-offs, traded off for",
        ),
        ("(cid:13)exibility, di(cid:14)cult", "flexibility, difficult"),
        ("insuf(cid:2)cient, (cid:2)rst, in(cid:3)uenced", "insufficient, first, influenced"),
        # Ligature characters.
        ("eﬃcient ﬁlters ﬂow oﬀ baﬄing", "efficient filters flow off baffling"),
        # A number that is a symbol in another font, or beside no lower-case letter, stays.
        ("an N(cid:2)N grid", "an N(cid:2)N grid"),
        ("a parameter (cid:11) which", "a parameter (cid:11) which"),
        (
            "(cid:15)-tubes, (cid:96)1 norms, (cid:147)picky(cid:148)",
            "(cid:15)-tubes, (cid:96)1 norms, (cid:147)picky(cid:148)",
        ),
        ("plain text", "plain text"),
    ],
)
def test_what_pdf_extraction_broke_is_mended(text: str, mended: str) -> None:
    assert without_debris(text) == mended
    assert without_debris_utf8(text.encode()) == mended.encode()


def test_a_paper_keeps_its_text_as_written_and_the_id_of_that() -> None:
    """Users tagged these papers by the id of the text as written: mending it for reading
    and search changes no id."""
    text = "The simulation of piri(cid:173) form cortex is e(cid:14)cient."
    paper = Paper.from_abstract(text, "c", Path("x.txt"))
    assert (paper.abstract, paper.id) == (text, paper_id(text))
    assert paper.headline == "The simulation of piriform cortex is efficient"


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus is not beside the project")
def test_the_corpus_keeps_no_soft_hyphen_or_ligature_and_no_glyph_number_is_guessed() -> None:
    """ml-abstracts-31k: 4,512 soft hyphens in 1,530 abstracts (1,588 hold some glyph
    number), 625 abstracts with ligature characters, 149 ligatures as glyph numbers; 40 other
    glyph numbers (symbols: ell, epsilon, times, curly quotes) stay as written."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        abstracts = [clean(json.loads(line)["abstract"]) for line in lines]
    mended = [without_debris(abstract) for abstract in abstracts]
    assert sum("(cid:173)" in abstract for abstract in abstracts) == 1530
    assert sum("(cid:" in abstract for abstract in abstracts) == 1588
    assert sum(not a.isascii() and bool(re.search("[\ufb00-\ufb06]", a)) for a in abstracts) == 625
    assert not any("(cid:173)" in text or re.search("[\ufb00-\ufb06]", text) for text in mended)
    before = Counter(m for a in abstracts for m in re.findall(r"\(cid:\d+\)", a))
    after = Counter(m for text in mended for m in re.findall(r"\(cid:\d+\)", text))
    assert before["(cid:173)"] == 4512
    assert sum((before - after).values()) == 4512 + 149
    assert sum(after.values()) == 40
