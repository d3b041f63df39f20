import gzip
import json
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.seed_helpers import parse_seed_text
from tui_reader.core.headline import headline_for
from tui_reader.core.text import clean, without_debris
from tui_reader.core.typeset import Span, math_spans, math_to_text, typeset, written_quotes
from tui_reader.resources import bundled

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ml-abstracts-31k.jsonl.gz"


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (r"$\mathcal{O}(1/T)$", "𝒪(1/T)"),
        (r"$\rho \sqrt{\ln T}$", "ρ √(ln T)"),
        (r"$H\sqrt{SAT}$", "H√(SAT)"),
        (r"$\sqrt[4]{T}$", "⁴√T"),
        (r"$\mathbb{R}^d$", "ℝᵈ"),
        (r"$\{0, 1/k, \dots, 1\}$", "{0, 1/k, …, 1}"),
        (r"$\alpha\beta \leq \epsilon$", "αβ ≤ ϵ"),
        (r"$10^{-3}$", "10⁻³"),
        (r"$x_{i=1}^{n-1}$", "xᵢ₌₁ⁿ⁻¹"),
        (r"$A^T$", "Aᵀ"),
        (r"$360^{\circ}$", "360°"),
        (r"$W^{k, p}(\mathbb{R}^d)$", "W^(k, p)(ℝᵈ)"),  # no superscript comma: kept readable
        (r"$x^*$", "x^*"),
        (r"$\frac{1}{2}$", "1/2"),
        (r"$\frac{a+b}{c}$", "(a+b)/c"),
        (r"$\|x\|_2$", "‖x‖₂"),
        (r"$\left( x \right)$", "( x )"),
        (r"$\operatorname{Tr}(A)$", "Tr(A)"),
        (r"$\boldsymbol{x}$", "𝐱"),
        (r"$n \to \infty$", "n → ∞"),
        (r"$32%$", "32%"),
        (r"$$\sum_i x_i$$", "∑ᵢ xᵢ"),
        (r"\(a \cdot b\)", "a · b"),
        # Not standard LaTeX (an author's own macro), or broken: shown as written.
        (r"$\eps$", r"$\eps$"),
        (r"$\frac{2\gamma{(1-\gamma)^2}\epsilon$", r"$\frac{2\gamma{(1-\gamma)^2}\epsilon$"),
    ],
)
def test_math_conversions(source: str, shown: str) -> None:
    assert math_to_text(source) == shown


def shown(text: str) -> str:
    return "".join(span.text for span in typeset(text))


@pytest.mark.parametrize(
    "text",
    [
        "It costs $5 and $10 a month.",
        "Prices: $ 5 and 10 $.",
        r"An escaped \$5 fee.",
        "A lone $ sign.",
        "x_i and snake_case_names stay, as do 2 * 3 * 4 and a_b_c.",
        "Two lines\nstay two lines.",
        "[/b] [CLS] [bold]not markup[/bold]",
    ],
)
def test_text_that_is_not_math_or_emphasis_is_unchanged(text: str) -> None:
    assert shown(text) == text.replace(r"\$", "$")


def test_math_spaced_inside_its_dollars_is_math_when_it_holds_a_command() -> None:
    text = r"regret of $ O \left(\sum_{i: \Delta_i > \Delta_*} \frac{1}{\Delta_i}\right), $ while"
    assert shown(text) == "regret of O (∑_(i: Δᵢ > Δ_*) 1/Δᵢ), while"
    assert shown("costs $ 5 and 10 $ each") == "costs $ 5 and 10 $ each"


def test_starred_subscripts_outside_math_are_not_emphasis() -> None:
    assert shown(r"the gap \Delta_* and \Delta_* here") == r"the gap \Delta_* and \Delta_* here"


def test_money_is_not_math() -> None:
    assert not any(span.math for span in typeset("It costs $5 and $10 a month."))


def test_latex_209_font_switches_style_their_group() -> None:
    """19 papers of the real corpus write them: `{\\bf Re}presentation` was shown as written."""
    spans = typeset(r"Assessing {\bf Re}presentation, {\em\bf very} {\tt code}, {\bf} {\bfx y}.")
    assert spans == (
        Span("Assessing "),
        Span("Re", bold=True),
        Span("presentation, "),
        Span("very", italic=True, bold=True),
        Span(" code, {\\bf} {\\bfx y}."),
    )


def test_emphasis_and_bold_become_styles() -> None:
    spans = typeset(r"**M**easuring *gaps* with _care_ and \emph{rigour}, \textbf{fast}.")
    assert spans == (
        Span("M", bold=True),
        Span("easuring "),
        Span("gaps", italic=True),
        Span(" with "),
        Span("care", italic=True),
        Span(" and "),
        Span("rigour", italic=True),
        Span(", "),
        Span("fast", bold=True),
        Span("."),
    )


def test_math_inside_bold_is_bold_math() -> None:
    assert typeset(r"a **bound of $\alpha$** here") == (
        Span("a "),
        Span("bound of ", bold=True),
        Span("α", bold=True, math=True),
        Span(" here"),
    )


def test_latex_escapes_in_prose() -> None:
    assert shown(r"5\% of \{a, b\} \& more") == "5% of {a, b} & more"


def test_unknown_text_commands_and_comments_stay_as_written() -> None:
    text = r"see \cite{smith} and 100% done {grouped}"
    assert shown(text) == text


def test_math_spans_follow_pandoc_dollar_rules() -> None:
    text = "$x$ costs $5 and $10, $$y$$ and $ z $"
    assert [text[start:end] for start, end in math_spans(text)] == ["$x$", "$$y$$"]


@pytest.mark.parametrize(
    ("text", "maths"),
    [
        (r"$5 and $10 a month; $\alpha$ here", [r"$\alpha$"]),  # only the next $ closes
        (r"from $5-$10 and up", []),  # a digit after both dollars: money
        (r"speeds up $\times$64 and $\sim$10 times", [r"$\times$", r"$\sim$"]),
        (r"loss $14\epsilon T $ and $X_i \sim $ Binomial", [r"$14\epsilon T $", r"$X_i \sim $"]),
        (r"$a$$b$ are two", ["$a$", "$b$"]),
        (r"\(a $ b\) and \(c\)", [r"\(c\)"]),  # math holding a $ is a typo
    ],
)
def test_which_dollars_are_math(text: str, maths: list[str]) -> None:
    assert [text[start:end] for start, end in math_spans(text)] == maths


def letters(text: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFKD", text) if char.isalnum())


def kept_characters(source: str) -> str:
    """Letters and digits of LaTeX source as they read: less command names and colours, and
    with what PDF extraction broke mended."""
    source = re.sub(r"\\(text)?color\{\w*\}", " ", without_debris(source))
    return letters(re.sub(r"\\[A-Za-z]+", " ", source))


def is_subsequence(needle: str, haystack: str) -> bool:
    rest = iter(haystack)
    return all(char in rest for char in needle)


def assert_nothing_dropped(source: str) -> None:
    rendered = letters(shown(source))
    assert is_subsequence(kept_characters(source), rendered), source


def seed_abstracts() -> list[str]:
    abstracts = []
    for path in sorted(bundled("seeds").glob("*.txt")):
        abstracts += parse_seed_text(path.read_text(encoding="utf-8"))[1]
    return abstracts


def test_every_seed_abstract_keeps_every_word_and_shows_its_math_converted() -> None:
    abstracts = seed_abstracts()
    assert len(abstracts) == 38
    for abstract in abstracts:
        assert_nothing_dropped(abstract)
        maths = [span.text for span in typeset(abstract) if span.math]
        assert len(maths) == len(math_spans(abstract))
        assert not [text for text in maths if "$" in text or "\\" in text]
    assert sum(len(math_spans(abstract)) for abstract in abstracts) == 52


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus is not beside the project")
def test_every_corpus_abstract_reads_as_its_source() -> None:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        for line in lines:
            abstract = clean(json.loads(line)["abstract"])
            if any(mark in abstract for mark in ("$", "\\", "*", "_", "--", "``", "''", "(cid:")):
                assert_nothing_dropped(abstract)
                assert_reads_as_source(abstract)


@given(st.text(alphabet="ab1 $\\*_{}%^&~()[]ρ", max_size=40))
def test_any_text_renders_without_losing_characters(text: str) -> None:
    assert_nothing_dropped(text)


# What typesetting may take away from the source, and nothing else: math that was converted
# (one math span each), the names and braces of the text commands that styled their text
# (\emph{...}, {\bf ...}), the backslash of an escaped \% \& \_ \# \{ \} \$ and of a \' or \"
# that is no accent, an accent's source for its letter, dashes written -- and ---
# (shown as en and em dashes, except in links, options like --flag and arrows like -->), TeX's
# quotes `` and '' (shown as curly quotes, except in links), and the * and _ markers that
# markdown-it consumed as emphasis (so text beside them is styled). PDF-extraction debris is
# mended before (core.text.without_debris, tested on its own).
SHOWN_MATH = "\U000f0000"  # a private-use character no test text holds
STYLING_COMMAND = re.compile(
    r"\\(?:emph|textit|textsl|mathit|textbf|mathbf|text|textrm|textsf|texttt|textsc|textup"
    r"|textnormal|url|mbox)\s*\{|\{(?:\\(?:it|em|sl|bf|rm|sf|tt|sc)(?![A-Za-z])\s*)+"
)
LINK = re.compile(r"(?:https?|ftp)://\S+|www\.\S+")
# An accent and its letter (outside math and links), shown as the accented letter.
ACCENT = re.compile(
    r"\\(?P<mark>[\"'`^~=.]|[uvHckrdb](?=\{))(?P<brace>\{)?(?P<letter>[A-Za-z])(?(brace)\})"
)
BRACED_ACCENT = re.compile(r"\{" + ACCENT.pattern + r"\}")  # {\"o}, the braces gone too
COMMAND_BEFORE = re.compile(r"\\[A-Za-z]+\s*\Z")
COMBINING = dict(
    zip(
        "\"'`^~=.uvHckrdb",
        "\u0308\u0301\u0300\u0302\u0303\u0304\u0307\u0306\u030c\u030b\u0327\u0328\u030a\u0323\u0331",
        strict=True,
    )
)
ESCAPED = "%&_#{}$'\""
CONTRACTIONS = {"s", "t", "d", "m", "re", "ll", "ve"}
PLAIN = re.compile(r"[^-\\$*_{}^\ufffc`']+")  # characters that are never syntax


def dash(source: str, at: int, links: list[tuple[int, int]]) -> tuple[int, str]:
    """How many hyphens start at `at`, and how they read."""
    run = len(source[at:]) - len(source[at:].lstrip("-"))
    before = source[at - 1] if at else " "
    after = source[at + run] if at + run < len(source) else " "
    option = run == 2 and (before.isspace() or before in "([{\"'`") and after.isalpha()
    in_link = any(start <= at < end for start, end in links)
    if run in (2, 3) and before not in "-<!" and after != ">" and not option and not in_link:
        return run, "–" if run == 2 else "—"
    return run, "-" * run


def accent_shown(source: str, at: int, accent: re.Match[str], braced: bool) -> str:
    """The accented letter an accent at `at` shows, or "" when it is no accent (its mark
    read as an escape): a mark its letter has no character for, an apostrophe (word\\'s,
    don\\'t, O\\'Neil) or an opening quote (a \\" that a closing one follows)."""
    shown = unicodedata.normalize("NFC", accent["letter"] + COMBINING[accent["mark"]])
    if len(shown) > 1:
        return ""
    if braced or accent["brace"]:
        return shown
    in_word = at > 0 and source[at - 1].isalpha()
    word = re.match(r"[A-Za-z]*", source[at + 2 :])
    assert word is not None
    if (
        accent["mark"] == "'"
        and in_word
        and (word.group() in CONTRACTIONS or word.group()[:1].isupper())
    ):
        return ""
    closing = [m for m in re.finditer(r'\\"', source) if m.start() >= accent.end()]
    if (
        accent["mark"] == '"'
        and not in_word
        and any(not re.match(r"[A-Za-z{]", source[m.end() : m.end() + 1]) for m in closing)
    ):
        return ""
    return shown


def quote_shown(source: str, at: int) -> str:
    """How TeX's quote at `at` reads: `` opens; '' opens a word after a space or an opening
    bracket (''word''), else closes."""
    if source.startswith("``", at):
        return "\u201c"
    before = source[at - 1] if at else " "
    after = source[at + 2 : at + 3]
    opening = (before.isspace() or before in "([{`") and after != "" and not after.isspace()
    return "\u201c" if opening else "\u201d"


def source_units(source: str) -> list[tuple[str, str]]:
    """The source as ("text", shown), ("optional", syntax) and ("marker", * or _) units."""
    maths = {start: end for start, end in math_spans(source)}
    links = [match.span() for match in LINK.finditer(source)]
    units: list[tuple[str, str]] = []
    braces: list[bool] = []  # for each open brace: does it belong to a styling command?
    at = 0
    while at < len(source):
        char, command = source[at], STYLING_COMMAND.match(source, at)
        pair = source[at : at + 2]
        accent = ACCENT.match(source, at)
        braced = BRACED_ACCENT.match(source, at)
        if braced and COMMAND_BEFORE.search(source, max(at - 40, 0), at):
            braced = None  # \cite{\"o}: the brace is the command's
        accent = braced or accent
        shown_accent = accent and accent_shown(source, at, accent, braced is not None)
        if at in maths and char != "\ufffc":
            units.append(("text", SHOWN_MATH))
            at = maths[at]
        elif accent and any(start <= at < end for start, end in links):
            units.append(("text", accent.group()))  # a link is kept as written
            at = accent.end()
        elif accent and shown_accent:
            units.append(("text", shown_accent))
            at = accent.end()
        elif char == "\\" and len(pair) == 2 and not (pair[1].isascii() and pair[1].isalpha()):
            units.append(("text", pair[1] if pair[1] in ESCAPED else pair))
            at += 2
        elif command:
            units.append(("optional", command.group()))
            braces.append(True)
            at = command.end()
        elif char == "}" and braces and braces.pop():
            units.append(("optional", "}"))
            at += 1
        elif char == "-":
            run, shown = dash(source, at, links)
            units.append(("text", shown))
            at += run
        elif pair in ("_*", "^*"):
            units.append(("text", pair))
            at += 2
        elif pair in ("``", "''"):
            in_link = any(start <= at < end for start, end in links)
            units.append(("text", pair if in_link else quote_shown(source, at)))
            at += 2
        elif char in "*_":
            units.append(("marker", char))
            at += 1
        else:
            braces += [False] if char == "{" else []
            plain = PLAIN.match(source, at + 1)
            end = plain.end() if plain else at + 1
            units.append(("text", source[at:end]))
            at = end
    merged: list[tuple[str, str]] = []
    for kind, text in units:
        if kind == "text" and merged and merged[-1][0] == "text":
            merged[-1] = ("text", merged[-1][1] + text)
        else:
            merged.append((kind, text))
    return merged


def reads_as_source(source: str, spans: tuple[Span, ...]) -> bool:
    """Whether `spans` show every character of `source`, in order, but the syntax above."""
    source = without_debris(source)
    assert SHOWN_MATH not in source
    for start, end in math_spans(source):  # math holds no unescaped $ of its own
        if "$" in re.sub(r"\\.", "", source[start:end]).strip("$"):
            return False
    shown = "".join(SHOWN_MATH if span.math else span.text for span in spans)
    styled = [
        span.italic or span.bold for span in spans for _ in (SHOWN_MATH if span.math else span.text)
    ]
    units = source_units(source)
    todo, seen = [(0, 0)], set()
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        unit, at = state
        if unit == len(units):
            if at == len(shown):
                return True
            continue
        kind, text = units[unit]
        if shown.startswith(text, at):
            todo.append((unit + 1, at + len(text)))
        beside_style = (at > 0 and styled[at - 1]) or (at < len(shown) and styled[at])
        if kind == "optional" or (kind == "marker" and beside_style):
            todo.append((unit + 1, at))
    return False


def assert_reads_as_source(source: str) -> None:
    assert reads_as_source(source, typeset(source)), (source, typeset(source))


MONEY = r"Money $5 and $10 is not math; $\mathcal{O}(n \log n)$ is; unclosed $ dollar."
BACKSLASHES = "Backslashes \\ end with a backslash \\"


def test_the_check_fails_on_text_typesetting_has_changed() -> None:
    old_money = (
        Span("Money "),
        Span("5 and10 is not math; 𝒪(n log n)", math=True),
        Span(" is; unclosed $ dollar."),
    )
    assert not reads_as_source(MONEY, old_money)
    assert not reads_as_source(BACKSLASHES, (Span("Backslashes  end with a backslash"),))
    assert not reads_as_source("a --- b", (Span("a --- b"),))
    assert not reads_as_source("2 * 3 * 4", (Span("2  3  4"),))
    assert not reads_as_source("``a'' b", (Span("``a'' b"),))
    assert not reads_as_source("piri(cid:173) form", (Span("piri(cid:173) form"),))
    assert reads_as_source("a *b* c", (Span("a "), Span("b", italic=True), Span(" c")))


def test_money_beside_math_keeps_its_dollars_and_spaces() -> None:
    assert shown(MONEY) == "Money $5 and $10 is not math; 𝒪(n log n) is; unclosed $ dollar."
    assert_reads_as_source(MONEY)


def test_backslashes_that_escape_nothing_are_shown() -> None:
    assert shown(BACKSLASHES) == BACKSLASHES
    assert shown(r"a \\ b \, c \ d C:\new\ \emph{x} \`") == r"a \\ b \, c \ d C:\new\ x \`"


@pytest.mark.parametrize(
    ("source", "reads"),
    [
        ("centre---surround and HMM --- a key", "centre—surround and HMM — a key"),
        (
            "pages 10--20, tasks -- some -- and method--called",
            "pages 10–20, tasks – some – and method–called",
        ),
        ("*bold*---and $x$--$y$ too", "bold—and x–y too"),
        # Not dashes: options, arrows, comments, rules, links.
        ("run it with --verbose or (--fast)", "run it with --verbose or (--fast)"),
        ("--verbose at the start", "--verbose at the start"),
        ("a --> b <-- c <!-- d", "a --> b <-- c <!-- d"),
        ("---- and -----", "---- and -----"),
        (
            "see https://example.org/a--b---c and www.x.org/--y",
            "see https://example.org/a--b---c and www.x.org/--y",
        ),
    ],
)
def test_dashes_read_as_latex_writes_them(source: str, reads: str) -> None:
    assert shown(source) == reads
    assert_reads_as_source(source)


def test_nested_emphasis_keeps_the_outer_style() -> None:
    assert typeset("_a *b* c_ d") == (Span("a b c", italic=True), Span(" d"))


def test_escaped_underscores_are_never_emphasis() -> None:
    assert (
        shown(r"snake\_case\_names and \*not\* emphasis")
        == r"snake_case_names and \*not\* emphasis"
    )


def test_styling_commands_around_math_and_escapes() -> None:
    assert typeset(r"\emph{the $\alpha$ bound of 5\%} here") == (
        Span("the ", italic=True),
        Span("α", italic=True, math=True),
        Span(" bound of 5%", italic=True),
        Span(" here"),
    )


HOSTILE = [
    "Masked tokens [CLS] and [MASK] with closing [/b] tags must show as typed.",
    "A theme variable [$accent] and [bold red]markup[/] stay literal text.",
    "An escape \x1b]52;c;aGk=\x07 tries to set the clipboard, \x1b[2J clears the screen.",
    MONEY,
    BACKSLASHES,
    "$",
    "$$",
    "$$$",
    "\\",
    "\\\\",
    "\\(",
    "\\)",
    "{",
    "}",
    "}{",
    "*",
    "**",
    "_",
    "__",
    "\ufffc",
    r"\(a $ b\) and \(c\)",
    r"$a$$b$",
    r"$$a$b$$",
    "$x$\ufffc$y$",
    r"\$x$ and $y\$",
    r"\emph{",
    r"\emph{}",
    r"\emph{a {b} c}",
    r"\textbf{\emph{x}}",
    r"*\emph{a}*b*",
    r"\emph{a *b* c}",
    r"\emph {spaced}",
    r"*\emph{}*",
    r"\textbf{}",
    r"\cite{a--b} \url{https://x.org/a--b}",
    "100% of 5\\% and 7 \\%",
    "C:\\path\\to\\file",
    "https://example.org/a_(b)_c--d",
    "snake_case and _x_ and __y__",
    "ρ ∑ 👩‍🔬 עברית \u202e",
    "Two lines\nstay two lines.",
    "a\n--\nb",
    "-- leading and trailing --",
    "*a*\r\nb and a \x00 byte",  # markdown-it would rewrite these
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_reads_as_its_source(text: str) -> None:
    assert_reads_as_source(text)
    assert_nothing_dropped(text)


def test_every_seed_abstract_reads_as_its_source() -> None:
    for abstract in seed_abstracts():
        assert_reads_as_source(abstract)


@given(st.text(alphabet="$\\*_{}%^ -abxyz", max_size=40))
def test_any_text_reads_as_its_source(text: str) -> None:
    assert_reads_as_source(text)


@given(st.text(max_size=60).filter(lambda text: SHOWN_MATH not in text))
def test_any_unicode_text_reads_as_its_source(text: str) -> None:
    assert_reads_as_source(text)


PIECES = [
    "$",
    "$$",
    "\\",
    "\\(",
    "\\)",
    "*",
    "**",
    "_",
    "{",
    "}",
    "%",
    "^",
    "-",
    "--",
    "---",
    " ",
    "\n",
    "a",
    "x1",
    r"\emph{",
    r"\textbf{",
    r"\cite{",
    r"\alpha",
    '\\"',
    "\\'",
    '{\\"d}',
    '{\\"o}',
    "d",
    "o",
    "s",
    r"\%",
    "https://a.org/",
    "<",
    ">",
]


@given(st.lists(st.sampled_from(PIECES), max_size=24).map("".join))
def test_any_mix_of_markup_reads_as_its_source(text: str) -> None:
    assert_reads_as_source(text)


def test_a_headline_keeps_the_dollars_of_money() -> None:
    # The list shows a headline made from the abstract; it reads bare math ($77$) without
    # its dollars, but money is no math there either.
    assert headline_for(MONEY).startswith("Money $5 and $10 is not math")
    assert (
        headline_for("Costs fell from $5-$10 to $3 a run.") == "Costs fell from $5-$10 to $3 a run"
    )
    assert headline_for("We train LaST$_0$ on $77$ tasks.") == "We train LaST₀ on 77 tasks"


@pytest.mark.parametrize(
    ("source", "read"),
    [
        ('Schr\\"odinger and G\\"{o}del', "Schrödinger and Gödel"),
        (
            "Fran\\c{c}ois \\v{S}ediv\\'y, \\H{o} \\k{a} \\u{g} \\r{a} \\=a \\.z \\`e \\^o \\~n",
            "François Šedivý, ő ą ğ å ā ż è ô ñ",
        ),
        ('\\cite{a} \\v s \\c c \\"{o', '\\cite{a} \\v s \\c c "{o'),  # none is an accent
        ('Nystr{\\"o}m, {{\\"o}}, \\cite{\\"o}', "Nyström, {ö}, \\cite{ö}"),
        ("see http://x.org/\\~user", "see http://x.org/\\~user"),  # a link is kept as written
        # An apostrophe and quotes written with a backslash read as what they stand for, and
        # a mark on a letter that has no character for it is no accent.
        ("Alzheimer\\'s, don\\'t, Ces\\'aro", "Alzheimer's, don't, Cesáro"),
        ("O\\'Neil, D\\'Angelo, Erd\\H{o}s", "O'Neil, D'Angelo, Erdős"),
        ('the \\"attention\\" model', 'the "attention" model'),
        ('\\"Uber alles, \\"{d}', 'Über alles, "{d}'),
        (
            '\\emph{x {\\"d} y} z, \\emph{\\"q}, \\cite{\\"d}',
            'x {"d} y z, "q, \\cite{"d}',
        ),
    ],
)
def test_an_accent_written_in_latex_is_shown_on_its_letter(source: str, read: str) -> None:
    """Real arXiv titles write Schr\\"odinger: the list showed the backslash and quote."""
    assert shown(source) == read
    assert_reads_as_source(source)


@pytest.mark.parametrize(
    ("source", "reads"),
    [
        ("the modelling of piri(cid:173) form cortex", "the modelling of piriform cortex"),
        ("a lin(cid:173)ear map", "a linear map"),
        ("classi(cid:12)cation made e(cid:14)cient", "classification made efficient"),
        ("eﬃcient ﬁlters ﬂow", "efficient filters flow"),
        (r"\emph{speci(cid:12)c} piri(cid:173) form $x$", "specific piriform x"),
        ("an N(cid:2)N grid", "an N(cid:2)N grid"),
    ],
)
def test_what_pdf_extraction_broke_is_shown_mended(source: str, reads: str) -> None:
    assert shown(source) == reads
    assert_reads_as_source(source)


@pytest.mark.parametrize(
    ("source", "reads"),
    [
        ("Using ``epitomes'' to model", "Using “epitomes” to model"),
        (
            "so-called ''fiat'' minima (''time reversal'')",
            "so-called “fiat” minima (“time reversal”)",
        ),
        ("a property called ``sparsistence.'' In", "a property called “sparsistence.” In"),
        ("meanings of \"Air Canada''. Then", 'meanings of "Air Canada”. Then'),
        ("the hypothesis ``$P = Q$'' holds", "the hypothesis “P = Q” holds"),
        ("*``bold''* and \\emph{``it''}", "“bold” and “it”"),
        ("see https://x.org/a``b''c", "see https://x.org/a``b''c"),  # a link is kept as written
    ],
)
def test_tex_quotes_are_shown_curled(source: str, reads: str) -> None:
    """As 516 abstracts of ml-abstracts-31k write them, and 102 more with '' for both."""
    assert shown(source) == reads
    assert_reads_as_source(source)


def test_written_quotes_reads_tex_quotes_for_the_exports() -> None:
    text = r"``deep'' and ''wide'' nets, Alzheimer\'s, $f''(x)$"
    assert written_quotes(text) == "“deep” and “wide” nets, Alzheimer's, $f''(x)$"
