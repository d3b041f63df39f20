"""A one-line headline that says what a paper does, since the seeds carry no titles.

When the abstract names its contribution ("We propose AugMask, a plug-and-play training
framework...") the headline is that name with its gist ("AugMask: a plug-and-play training
framework..."). Otherwise it is the sentence that says what the authors do ("In this work,
we derive Polyak schedulers tailored to SAM-style updates, yielding...") without its lead-in,
cut at a clause ("Polyak schedulers tailored to SAM-style updates"); an abstract that never
says so gets its first sentence, shortened to fit.
"""

import re
from collections.abc import Iterator

from tui_reader.core.text import without_debris

HEADLINE_MAX = 100
Match = re.Match[str]

# Emphasis markup that a headline shows as plain text: **bold**, *italic*, _italic_, \emph{...}.
_LATEX_EMPHASIS = re.compile(r"\\(?:emph|textit|textbf|textsc|texttt)\{([^{}]*)\}")
# Each opens on its character, which the search looks for alone (a pattern opening on a
# lookbehind is tried at every character: 20-30 µs an abstract holding one): one or two stars
# before a non-space or after one; an underscore after none of `\w$\\`.
_STARS = re.compile(r"\*\*?(?=\S)|\*(?<=\S\*)\*?")
_UNDERSCORES = re.compile(r"_(?<![\w$\\]_)(\w[^_$]*?\w|\w)_(?!\w)")
# Inline math with no LaTeX command in it ($77$, $_0$) reads fine as its bare content.
_SIMPLE_MATH = re.compile(r"\$(?!\s)([^$\\{}]{1,12})(?<!\s)\$(?!\d)")  # not "$5 and $10"

_ABBREVIATIONS = {"e.g", "i.e", "al", "etc", "vs", "cf", "fig", "eq", "resp", "approx", "no"}
_SENTENCE_END = re.compile(r"[.!?](?=\s+[\"'(*$\d\w])")
_FULL_STOP = re.compile(r"\.(?=\s+[\"'(*$\d\w])")

_VERB = (
    r"(?:propos\w*|introduc\w*|present\w*|develop\w*|formali[sz]e\w*|reveal\w*"
    r"|address\w* (?:this|the) gap with)"
)
_STUDY = r"(?:stud(?:y|ies))"
# A sentence without one of these (in lower case) names no contribution: a cheap test before
# the patterns.
_VERB_STEMS = ("propos", "introduc", "present", "develop", "formali", "reveal", "address", "stud")
# A name is one to three words (e.g. "AugMask", "Empirical GPs", "LaST$_0$", "uncertain-UCB").
_WORD = r"[A-Za-z][\w$^{}\-]*"
_NAME = rf"{_WORD}(?: {_WORD}){{0,2}}"
_NAMED_APPOSITIVE = re.compile(
    rf"\b(?:{_VERB}|{_STUDY}) (?:the )?({_NAME}), ((?:a|an|the) .+)", re.I
)
_APPOSITIVE_NAMED = re.compile(
    rf"\b{_VERB} (?:the )?((?:a|an) (?:[\w-]+ ){{0,4}}[\w-]+), ({_NAME}), ((?:which|that) .+)", re.I
)
_SHORT_FORM = re.compile(r"\(([A-Za-z][\w-]{1,15})\)|, ([A-Z][\w-]{1,15}),")
# An abbreviation names the contribution when an active verb comes a few words before it
# ("we present a nearly constant sample-size approach, Multi-State Importance Sampling (MSIS)"),
# not "have been proposed for ... Kullback-Leibler (KL)" or "we present an algorithm for
# publishing the count of walks and Katz centrality under local differential privacy (LDP)".
_ANY_VERB = re.compile(rf"\b{_VERB}\b", re.I)
_PASSIVE = ("been ", "are ", "were ", "was ", "is ")
_NEAR = 8  # words
_NAME_WITH_LONG_FORM = re.compile(rf"\b{_VERB} (?:the )?({_WORD}) \(([^()]{{4,80}})\)", re.I)
_DEFINED_TERM = re.compile(
    rf"\b{_VERB} (?:the )?([a-z][\w-]*(?: [\w-]+){{0,3}}) ?(?:---|—) ?(.+?)(?: ?(?:---|—)|$)"
)
_BOLD_CLAIM = re.compile(r"\*\*([^*\s]+(?: [^*\s]+){3,})\*\*")
_PARENTHETICAL = re.compile(r"(?:^|\s+)\([^()]*\)")  # an aside, not "model(s)" or "a_(b)"
_WHICH_CLAUSE = re.compile(r", which [^,]*,")
_GIST_STOP = re.compile(r"(?::(?!//)|;| -{1,3} |—|, which |, where |\$[^$]*\\)")
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
# What the authors do, as it follows "we" and "this paper" ("study", "studies"): what follows
# the verb is the headline ("that" dropped; "how" and "whether" kept).
# fmt: off
_AUTHOR_VERBS = (
    "propose", "introduce", "present", "develop", "design", "derive", "formulate", "formalize",
    "formalise", "devise", "construct", "build", "create", "release", "put forward", "study",
    "investigate", "examine", "explore", "analyze", "analyse", "characterize", "characterise",
    "consider", "revisit", "address", "tackle", "show", "prove", "find", "demonstrate", "identify",
    "establish", "provide", "give", "offer", "describe", "report", "obtain", "uncover", "reveal",
    "extend", "generalize", "generalise", "discover", "observe", "resolve", "settle", "answer",
    "ask", "focus on", "deal with",
)
# fmt: on
_SEQUEL = (
    r"(?:also|further|then|next|finally|additionally|furthermore|moreover|lastly|second|third)"
)
_ADVERB = (
    rf"(?:{_SEQUEL}|first|here|now|therefore|thus|hence|instead|can|will|have|[a-z]+ly"
    r"|(?:aims?|seeks?|attempts?|set out|try|tries) to),?"
)


def _verb_forms(verbs: tuple[str, ...]) -> str:
    """The verbs as they follow "we" and "this paper" ("study", "studies")."""
    forms = []
    for verb in verbs:
        word, _, rest = verb.partition(" ")
        if word.endswith("y") and word[-2] not in "aeiou":
            third = word[:-1] + "ies"
        elif word.endswith(("s", "sh", "ch", "x", "z")):
            third = word + "es"
        else:
            third = word + "s"
        forms += [verb, " ".join([third, rest]).strip()]
    return "|".join(sorted(forms, key=len, reverse=True))


_AUTHORS_DO = re.compile(
    r"(?:\b[Ww]e|\b[Tt]his (?:paper|work|article|study|note|thesis|chapter|report|letter)"
    r"|\b[Tt]he (?:main |primary )?(?:purpose|goal|aim|objective) of (?:this|our) \w+ is to)"
    rf"(?P<sequel>(?: {_ADVERB})*) (?:{_verb_forms(_AUTHOR_VERBS)}|is (?:concerned with|about))"
    r"\b(?! on\b| upon\b)"
    r"(?: and [a-z]+\b)?(?: that\b| to\b)?"  # "we formalize and illustrate"
)
_SEQUEL_START = re.compile(rf"(?:{_SEQUEL}|in addition|besides)\b", re.I)
# A claim that leans on what came before ("this limitation", "our method"), says nothing yet
# ("the effectiveness of...") or is no claim ("[a method we propose] is called...") names no
# contribution on its own.
_LEANING = re.compile(
    r"(?:this|these|those|that|such|it|its|they|their|them|our|both|each|the following"
    r"|is|are|was|were|has|have|can|will"
    r"|the (?:proposed|resulting|above|same|former|latter|effectiveness|efficacy|superiority"
    r"|advantages?|benefits?|performance|results?|usefulness|feasibility|validity))\b",
    re.I,
)
# ", and we show", or without the comma: each way a pattern of its own that opens on a
# character, which the search looks for alone (an optional comma first had it try every one).
_AND_ALSO = rf"and (?:we )?(?:{_ADVERB} )*(?:{_verb_forms(_AUTHOR_VERBS)})\b"
_CLAIM_STOP = re.compile(
    rf", {_AND_ALSO}|, (?:thereby|thus|while|whereas|yielding|leading|resulting)\b| {_AND_ALSO}"
)
# "we propose, for the first time, ..."; "we study the problem of ..."
_FILLER = re.compile(r"^(?:, [^,]{1,40}, |the (?:problem|task|question) of )", re.I)
_DANGLING = frozenset(
    ["a", "an", "the", "of", "for", "to", "in", "on", "by", "with", "and", "or", "that", "which"]
)


def plain(text: str) -> str:
    """The text without emphasis markup (math is kept as its source), and without what PDF
    extraction broke ("modula(cid:173) tion", "ﬁnd")."""
    # Each pattern only where its character is: a million headlines at load, in seed text.
    text = without_debris(text)
    if "\\" in text:
        text = _LATEX_EMPHASIS.sub(r"\1", text)
    if "*" in text:
        text = _STARS.sub("", text)
    return _UNDERSCORES.sub(r"\1", text) if "_" in text else text


def sentences(text: str) -> list[str]:
    """Split text into sentences, not at "e.g.", "et al." or decimal points."""
    result, start = [], 0
    # A full stop alone is found by a fast search (a set of characters is tried at each one).
    ends = _SENTENCE_END if "?" in text or "!" in text else _FULL_STOP
    for match in ends.finditer(text):
        end = match.start()
        last_word = text[max(text.rfind(" ", start, end) + 1, start) : end].lstrip("(").lower()
        if last_word in _ABBREVIATIONS or (len(last_word) == 1 and last_word.isalpha()):
            continue
        result.append(text[start : match.end()].strip())
        start = match.end()
    if text[start:].strip():
        result.append(text[start:].strip())
    return result


def long_form(short: str, before: str) -> str | None:
    """The words at the end of `before` that `short` abbreviates (Schwartz and Hearst, 2003).

    Each letter of the short form is matched, right to left, in the words before it; the
    first letter must start a word.
    """
    letters = [c.lower() for c in short if c.isalnum()]
    words = before.split()[-(min(len(letters) + 5, 2 * len(letters))) :]
    candidate = " ".join(words)
    position = len(candidate) - 1
    for index in range(len(letters) - 1, -1, -1):
        letter = letters[index]
        while position >= 0:
            char = candidate[position].lower()
            at_word_start = position == 0 or not candidate[position - 1].isalnum()
            if char == letter and (index > 0 or at_word_start):
                break
            position -= 1
        if position < 0:
            return None
        position -= 1
    start = candidate.rfind(" ", 0, position + 1) + 1
    found = candidate[start:].strip()
    return found if len(found) > len(short) and (" " in found or "-" in found) else None


def _is_short_form(token: str) -> bool:
    capitals = sum(c.isupper() for c in token)
    return capitals >= 2 or (capitals == 1 and not token[0].isupper())


def _gist(text: str) -> str:
    """The description up to the end of its clause and before heavy math."""
    return " ".join(
        _without_dangling(_GIST_STOP.split(text, maxsplit=1)[0].rstrip(" ,.").split(" "))
    )


def _without_dangling(words: list[str]) -> list[str]:
    """The words without the articles and prepositions a cut left hanging at the end."""
    while len(words) > 1 and words[-1].lower().strip(",;:") in _DANGLING:
        words.pop()
    return words


def _simple_math(match: re.Match[str]) -> str:
    content = match.group(1)
    if content[0] in "_^" and content[1:].isdigit():
        return content[1:].translate(_SUBSCRIPTS if content[0] == "_" else _SUPERSCRIPTS)
    return content


def _verb_starts(sentence: str, lower: str, stems: list[str]) -> list[int] | None:
    """Where in the sentence the patterns that open on a verb of `stems` (or "study") can
    match: where a stem stands, in order; None when the sentence is not ASCII (a pattern that
    ignores case reads letters there that lower case does not: a long s as `s`). Those patterns
    are tried there alone, not at every character of the sentence (an eighth of the time)."""
    if not sentence.isascii():
        return None
    starts = []
    for stem in stems:
        at = lower.find(stem)
        while at >= 0:
            starts.append(at)
            at = lower.find(stem, at + 1)
    return sorted(starts)


def _search(pattern: re.Pattern[str], sentence: str, starts: list[int] | None) -> Match | None:
    """`pattern.search(sentence)`, tried at `starts` alone when given."""
    if starts is None:
        return pattern.search(sentence)
    return next(filter(None, (pattern.match(sentence, start) for start in starts)), None)


def _verbs(sentence: str, starts: list[int] | None) -> Iterator[Match]:
    """`_ANY_VERB.finditer(sentence)`, tried at `starts` alone when given."""
    if starts is None:
        yield from _ANY_VERB.finditer(sentence)
        return
    end = 0
    for start in starts:
        if start >= end and (verb := _ANY_VERB.match(sentence, start)):
            end = verb.end()
            yield verb


def _named_contribution(sentence: str, lower: str, stems: list[str]) -> tuple[int, str] | None:
    """The earliest name the sentence (`lower`: in lower case) gives its contribution, with
    its position; `stems`: the verb stems it may hold."""
    found: list[tuple[int, str]] = []
    starts = _verb_starts(sentence, lower, stems)
    # Each pattern only where its punctuation is (each search costs a scan of the sentence).
    appositive = ", " in sentence
    if any(a in lower for a in (", a ", ", an ", ", the ")) and (
        match := _search(_NAMED_APPOSITIVE, sentence, starts)
    ):
        name, rest = match.group(1), match.group(2)
        if name[0].isupper() or _is_short_form(name):
            found.append((match.start(1), f"{name}: {_gist(rest)}"))
    if (", which " in lower or ", that " in lower) and (
        match := _search(_APPOSITIVE_NAMED, sentence, starts)
    ):
        description, name, clause = match.groups()
        found.append((match.start(1), f"{name}: {description} {_gist(clause)}"))
    if "(" in sentence and (match := _search(_NAME_WITH_LONG_FORM, sentence, starts)):
        name, expansion = match.groups()
        if _is_short_form(name) and expansion[0].lower() == name[0].lower() and " " in expansion:
            found.append((match.start(1), f"{name}: {expansion}"))
    active = (v for v in _verbs(sentence, starts) if not lower.endswith(_PASSIVE, 0, v.start()))
    if (appositive or "(" in sentence) and (verb := next(active, None)):
        for match in _SHORT_FORM.finditer(sentence, verb.end()):
            short = match.group(1) or match.group(2)
            expansion = long_form(short, sentence[verb.end() : match.start()])
            if _is_short_form(short) and expansion:
                start = sentence.rfind(expansion, 0, match.start())
                if len(sentence[verb.end() : start].split()) <= _NEAR:
                    found.append((start, f"{short}: {expansion}"))
                break
    if ("---" in sentence or "—" in sentence) and (
        match := _search(_DEFINED_TERM, sentence, starts)
    ):
        found.append((match.start(1), f"{match.group(1)}: {_gist(match.group(2))}"))
    return min(found) if found else None


def shorten(text: str, limit: int = HEADLINE_MAX) -> str:
    """Cut text at a word boundary to at most `limit` characters, marking the cut with "…"."""
    text = text.strip().rstrip(".")
    if len(text) <= limit:
        return text
    words = _without_dangling(text[: limit - 1].split(" ")[:-1] or [text[: limit - 1]])
    return " ".join(words).rstrip(",;:") + "…"


def headline_for(abstract: str, limit: int = HEADLINE_MAX) -> str:
    """The headline the list shows for an abstract."""
    return _headline_and_source(abstract, limit)[0]


def headline_source(abstract: str) -> str:
    """The whole sentence the headline comes from, emphasis markup removed: for where a
    headline cut to fit will not do."""
    return _headline_and_source(abstract, HEADLINE_MAX)[1]


def _headline_and_source(abstract: str, limit: int) -> tuple[str, str]:
    text = _without_simple_math(plain(abstract))
    parts = sentences(text)
    lowered = [sentence.lower() for sentence in parts]
    # Only a sentence with a verb stem names a contribution: the stems looked for in each
    # sentence are those of the whole text (none, most often, but one or two).
    joined = "\n".join(lowered)
    if stems := [stem for stem in _VERB_STEMS if stem in joined]:
        for sentence, lower in zip(parts, lowered, strict=True):
            if any(stem in lower for stem in stems) and (
                named := _named_contribution(sentence, lower, stems)
            ):
                return _capitalised(shorten(named[1], limit)), sentence
    first = parts[0] if parts else text
    if "*" in abstract and (claim := _BOLD_CLAIM.search(_without_simple_math(abstract))):
        claimed = plain(claim.group(1))
        return shorten(claimed, limit), next((s for s in parts if claimed in s), first)
    if done := _what_authors_do(parts, lowered):
        return _capitalised(shorten(done[0], limit)), done[1]
    return compress(first, limit), first


def _without_simple_math(text: str) -> str:
    return _SIMPLE_MATH.sub(_simple_math, text) if "$" in text else text


def _what_authors_do(parts: list[str], lowered: list[str]) -> tuple[str, str] | None:
    """What the authors first say they do, without the lead-in ("we show that") and cut at
    a clause, with the sentence it comes from (`lowered`: the sentences in lower case). A
    follow-on ("we further derive") counts only when nothing else does."""
    best: tuple[tuple[bool, int], str, str] | None = None
    for index, (sentence, lower) in enumerate(zip(parts, lowered, strict=True)):
        if best is not None and best[0][0]:
            break  # a main claim: none after it ranks higher
        if not any(lead in lower for lead in ("we ", "this ", " our ")):
            continue  # none of _AUTHORS_DO's leads: not searched (a million at load)
        match = _AUTHORS_DO.search(sentence)
        if match is None:
            continue
        claim = _FILLER.sub("", sentence[match.end() :].lstrip(" :"))
        if not claim or _LEANING.match(claim):
            continue
        headline = _clause(claim)
        if len(headline.split()) < 3:
            continue
        main = not (match["sequel"] and _SEQUEL_START.search(match["sequel"]))
        main = main and not _SEQUEL_START.match(sentence)
        rank = (main, -index)
        if best is None or rank > best[0]:
            best = (rank, headline, sentence)
    return (best[1], best[2]) if best else None


def _clause(text: str) -> str:
    """The text without asides, cut at the end of its main clause when that leaves enough."""
    aside = _PARENTHETICAL.sub("", text) if "(" in text else text
    if ", which " in aside:
        aside = _WHICH_CLAUSE.sub("", aside)
    clause = _gist(_CLAIM_STOP.split(aside, maxsplit=1)[0])
    return clause if len(clause) >= 30 else aside


def compress(sentence: str, limit: int = HEADLINE_MAX) -> str:
    """A sentence as a headline: without asides, cut at its main clause, shortened to fit."""
    return _capitalised(shorten(_clause(sentence), limit))


def _capitalised(text: str) -> str:
    """Capitalise a headline that starts with a plain lower-case word ("semantic isotropy",
    "post-training")."""
    first = text.split(" ", 1)[0]
    plain_word = first.replace("-", "").isalpha() and first.islower()
    return text[0].upper() + text[1:] if plain_word else text
