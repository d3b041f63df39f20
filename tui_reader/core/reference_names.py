"""Authors' names as references write them: split into family name, given names and suffix
where the parts can be told, else kept whole, as written.

A name is kept whole (BibTeX `{...}`, CSL-JSON `literal`, one RIS `AU` with no comma) when:
- it names an organisation: one of its words is a word organisations are named with
  (Collaboration, Consortium, Team, Group, Institute, Inc., Lab, University, Foundation...)
  or the name of a company that signs papers (DeepMind, Google, OpenAI, Microsoft, Meta...);
- it is written in Chinese, Japanese or Korean script (`李 小龙`: which part is the family
  name cannot be told from the order);
- it is one word (`Plato`), is written whole in braces (`{Barack Obama}`, BibTeX's way of
  saying so), or has more than four words and no comma (how it splits is a guess).

An author `et al.` (BibTeX's `and others`) stands for the authors not named: BibTeX's
`others`, last; RIS and CSL-JSON, which have no way to say so, leave it out.

Any other name is split by BibTeX's rules (bibtexparser): "Family, Given", "Family, Suffix,
Given", or "Given Family", where a particle in lower case begins the family name ("Vincent van
Gogh": van Gogh, as written) and a particle written with a capital in the middle of a name
("Vincent Van Gogh") begins it too, where BibTeX would make it a given name.
"""

import functools
import re
import unicodedata
from dataclasses import dataclass

from tui_reader.core.bibtex_text import bibtex_text
from tui_reader.core.latex_text import unicode_text
from tui_reader.core.paper import ET_AL, braced_whole

_SUFFIX = re.compile(r"(?:,\s*|\s+)(Jr\.?|Sr\.?|II|III|IV)\s*$")
_ORGANISATION_WORDS = frozenset(
    ("collaboration", "collaborations", "consortium", "team", "group", "institute", "institut",
     "institution", "inc", "inc.", "ltd", "ltd.", "llc", "corp", "corp.", "corporation",
     "company", "lab", "labs", "laboratory", "laboratories", "university", "universität",
     "université", "universidad", "college", "school", "centre", "center", "foundation",
     "association", "society", "committee", "council", "organisation", "organization",
     "project", "initiative", "network", "alliance", "agency", "department", "ministry",
     "office", "programme", "program", "community", "contributors", "developers", "authors",
     "academy", "research", "gmbh", "survey", "observatory", "collective", "workshop")
)  # fmt: skip
_COMPANIES = frozenset(
    ("deepmind", "google", "openai", "microsoft", "meta", "anthropic", "nvidia", "ibm",
     "amazon", "apple", "baidu", "alibaba", "tencent", "huawei", "deepseek", "mistral",
     "cohere", "salesforce", "intel", "samsung", "facebook", "bytedance", "xai", "qwen")
)  # fmt: skip
# Particles that, capitalised in the middle of a name, begin its family name.
_PARTICLES = frozenset(
    ("van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "dos",
     "das", "ten", "ter", "al", "el", "bin", "ibn", "zu", "af", "av")
)  # fmt: skip
# Hangul, CJK and Kana, and CJK's compatibility and supplementary ideographs (a regular
# expression of them takes 2.5 ms to compile, at every start).
_CJK = ((0x1100, 0x11FF), (0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0x20000, 0x3134F))
_LONGEST_SPLIT = 4  # words of a name without a comma that is still split


@dataclass(frozen=True)
class Name:
    """An author's name as Unicode: its parts, or `whole` (kept as written, in `family`)."""

    family: str
    given: str = ""
    suffix: str = ""
    whole: bool = False
    organisation: bool = False


@functools.lru_cache(maxsize=4096)  # an author's name is read for its key and each format
def parse_name(author: str) -> Name:
    """An author's name (as written, LaTeX read) in its parts (see the module)."""
    # bibtexparser is imported when a reference is made, not by every command (0.02 s).
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    written = author.strip()
    name = unicodedata.normalize("NFC", unicode_text(written).strip())
    words = name.replace(",", " ").split()
    if is_organisation(name):
        return Name(name, whole=True, organisation=True)
    too_long = len(words) > _LONGEST_SPLIT and "," not in name
    if braced_whole(written) or too_long or len(words) < 2 or _in_cjk(name):
        return Name(name, whole=True)
    # "Martin Luther King, Jr." would read to BibTeX as given name "Jr." of a family "Martin
    # Luther King": the suffix is taken off first.
    suffix = ""
    if match := _SUFFIX.search(name):
        name, suffix = name[: match.start()], match.group(1)
    if "," not in name and (start := _capital_particle(words := name.split())) is not None:
        return Name(" ".join(words[start:]), " ".join(words[:start]), suffix)
    try:
        parts = parse_single_name_into_parts(name, strict=False)
    except Exception:  # the parser raises plain exceptions on names like "a,b,c,d"
        return Name(name, whole=True)
    family = " ".join([*parts.von, *parts.last])
    if not family:
        return Name(name, whole=True)
    return Name(family, " ".join(parts.first), suffix or " ".join(parts.jr))


def _in_cjk(name: str) -> bool:
    return any(
        low <= ord(char) <= high for char in name if ord(char) > 0x10FF for low, high in _CJK
    )


def _capital_particle(words: list[str]) -> int | None:
    """Where a capitalised particle begins the family name (`Vincent Van Gogh`: 1), if one
    stands between the first and the last word."""
    for at, word in enumerate(words[1:-1], 1):
        if word[:1].isupper() and word.lower() in _PARTICLES:
            return at
    return None


def is_organisation(name: str) -> bool:
    """Whether a name (Unicode) names an organisation (see the module)."""
    words = {word.strip("().,;").lower() for word in name.split()}
    return bool(words & _ORGANISATION_WORDS or words & _COMPANIES)


def bibtex_authors(authors: tuple[str, ...]) -> str:
    """BibTeX's `author` field: the authors named (`bibtex_name`), then `others` for an
    `et al.` among them."""
    names = [bibtex_name(author) for author in named(authors)]
    if ET_AL in authors:
        names.append("others")
    return " and ".join(names)


def bibtex_name(author: str) -> str:
    """An author for BibTeX's `author` field: `{...}` when kept whole, else "Family, Given"
    ("Family, Suffix, Given" with a suffix), which no reader splits otherwise."""
    name = parse_name(author)
    if name.whole:
        return "{" + bibtex_text(name.family) + "}"
    if name.suffix and name.given:
        return bibtex_text(f"{name.family}, {name.suffix}, {name.given}")
    if name.given:
        return bibtex_text(f"{name.family}, {name.given}")
    return bibtex_text(unicode_text(author.strip()))


def named(authors: tuple[str, ...]) -> tuple[str, ...]:
    """The authors named, which a format with no way to say `et al.` lists (RIS, CSL-JSON):
    those but `et al.`, wherever a record put it."""
    return tuple(author for author in authors if author != ET_AL)


def csl_name(author: str) -> dict[str, str]:
    """An author for CSL-JSON: `literal` when kept whole, else family, given and suffix."""
    name = parse_name(author)
    if name.whole:
        return {"literal": name.family}
    parts = {"family": name.family, "given": name.given, "suffix": name.suffix}
    return {part: text for part, text in parts.items() if text}


def ris_name(author: str) -> str:
    """An author for RIS's `AU`: "Family, Given, Suffix", or the whole name, with no comma."""
    name = parse_name(author)
    if name.whole:
        return name.family.replace(",", "")
    return ", ".join(part for part in (name.family, name.given, name.suffix) if part)
