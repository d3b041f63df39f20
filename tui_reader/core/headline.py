"""A one-line headline for an abstract, since the seeds carry no titles.

When the abstract names its contribution ("We propose AugMask, a plug-and-play training
framework...") the headline is that name with its gist ("AugMask: a plug-and-play training
framework..."); otherwise it is the first sentence, shortened to fit.
"""

import re

HEADLINE_MAX = 100

# Emphasis markup that a headline shows as plain text: **bold**, *italic*, _italic_, \emph{...}.
_LATEX_EMPHASIS = re.compile(r"\\(?:emph|textit|textbf|textsc|texttt)\{([^{}]*)\}")
_STARS = re.compile(r"\*{1,2}(?=\S)|(?<=\S)\*{1,2}")
_UNDERSCORES = re.compile(r"(?<![\w$\\])_(\w[^_$]*?\w|\w)_(?!\w)")
# Inline math with no LaTeX command in it ($77$, $_0$) reads fine as its bare content.
_SIMPLE_MATH = re.compile(r"\$(?!\s)([^$\\{}]{1,12})(?<!\s)\$(?!\d)")  # not "$5 and $10"

_ABBREVIATIONS = {"e.g", "i.e", "al", "etc", "vs", "cf", "fig", "eq", "resp", "approx", "no"}
_SENTENCE_END = re.compile(r"[.!?](?=\s+[\"'(*$\d\w])")

_VERB = (
    r"(?:propos\w*|introduc\w*|present\w*|develop\w*|formali[sz]e\w*|reveal\w*"
    r"|address\w* (?:this|the) gap with)"
)
_STUDY = r"(?:stud(?:y|ies))"
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
_DANGLING = frozenset(
    ["a", "an", "the", "of", "for", "to", "in", "on", "by", "with", "and", "or", "that", "which"]
)


def plain(text: str) -> str:
    """The text without emphasis markup (math is kept as its source)."""
    text = _LATEX_EMPHASIS.sub(r"\1", text)
    text = _STARS.sub("", text)
    return _UNDERSCORES.sub(r"\1", text)


def sentences(text: str) -> list[str]:
    """Split text into sentences, not at "e.g.", "et al." or decimal points."""
    result, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        last_word = text[start : match.start()].rsplit(" ", 1)[-1].lstrip("(").lower()
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


def _named_contribution(sentence: str) -> tuple[int, str] | None:
    """The earliest name the sentence gives its contribution, with its position."""
    found: list[tuple[int, str]] = []
    if match := _NAMED_APPOSITIVE.search(sentence):
        name, rest = match.group(1), match.group(2)
        if name[0].isupper() or _is_short_form(name):
            found.append((match.start(1), f"{name}: {_gist(rest)}"))
    if match := _APPOSITIVE_NAMED.search(sentence):
        description, name, clause = match.groups()
        found.append((match.start(1), f"{name}: {description} {_gist(clause)}"))
    if match := _NAME_WITH_LONG_FORM.search(sentence):
        name, expansion = match.groups()
        if _is_short_form(name) and expansion[0].lower() == name[0].lower() and " " in expansion:
            found.append((match.start(1), f"{name}: {expansion}"))
    if verb := re.search(rf"\b{_VERB}\b", sentence, re.I):
        for match in _SHORT_FORM.finditer(sentence, verb.end()):
            short = match.group(1) or match.group(2)
            expansion = long_form(short, sentence[verb.end() : match.start()])
            if _is_short_form(short) and expansion:
                start = sentence.rfind(expansion, 0, match.start())
                found.append((start, f"{short}: {expansion}"))
                break
    if match := _DEFINED_TERM.search(sentence):
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
    text = _SIMPLE_MATH.sub(_simple_math, plain(abstract))
    parts = sentences(text)
    for sentence in parts:
        if named := _named_contribution(sentence):
            return _capitalised(shorten(named[1], limit)), sentence
    first = parts[0] if parts else text
    if claim := _BOLD_CLAIM.search(_SIMPLE_MATH.sub(_simple_math, abstract)):
        claimed = plain(claim.group(1))
        return shorten(claimed, limit), next((s for s in parts if claimed in s), first)
    aside = _WHICH_CLAUSE.sub("", _PARENTHETICAL.sub("", first))
    clause = _gist(aside)
    return _capitalised(shorten(clause if len(clause) >= 30 else aside, limit)), first


def _capitalised(text: str) -> str:
    """Capitalise a headline that starts with a plain lower-case word ("semantic isotropy")."""
    first = text.split(" ", 1)[0]
    return text[0].upper() + text[1:] if first.isalpha() and first.islower() else text
