"""Which indexed words a word of a query matches: as typed, as a beginning, and with typos.

Every word of a query matches indexed words as typed and as a prefix. Typos are forgiven (one
edit from 5 letters, two from 9, a swap of two letters one edit; also as a prefix: "difus"
finds diffusion) only where the word as typed finds nothing, or almost nothing while a word
one typo away is in many papers (a misspelling some papers hold too): a count then means the
papers holding the word typed, never its neighbours ("convex" is not "conventional"), and the
ranking says which word a typo was read as. A word with capitals matches only words written
that way (as a prefix while it is being typed); one that no paper writes so matches in any
case, and the ranking says that too ("SAM" read as sam).
"""

from bisect import bisect_left
from collections.abc import Sequence

from tui_reader.core.flat.fold import fold
from tui_reader.core.flat.vocabulary import PREFIX_WORDS_MAX, Ints, Vocabulary
from tui_reader.core.flat.words import Words
from tui_reader.core.query import Alternative

EXACT, PREFIX, TYPO, TYPO_PREFIX = 1.0, 0.75, 0.55, 0.45
SECOND_TYPO = 0.25  # a word two edits away is a much weaker match than one edit away
TYPOS_FROM = 5  # letters a word needs before a typo in it is forgiven
# A word as typed in so few papers is read as a typo too when a word a typo away is in many
# times more: "adverserial" is in a few abstracts, adversarial in 1,934.
ALMOST_NOTHING, TYPO_OUTNUMBERS = 3, 20


def _within(word: str, choices: Sequence[str], edits: int) -> list[tuple[str, int, int]]:
    """The choices at most `edits` edits from the word: (choice, edits, place)."""
    # Imported by the first search, not at every start (13 ms).
    from rapidfuzz import process
    from rapidfuzz.distance import OSA  # two letters swapped are one edit: "bayesain"

    return process.extract(word, choices, scorer=OSA.distance, score_cutoff=edits, limit=None)


def _a_letter_short(typed: str, word: str) -> bool:
    """Whether the typed word is the word (or its beginning) with one letter left out."""
    letters = iter(word[: len(typed) + 1])
    return len(word) > len(typed) and all(letter in letters for letter in typed)


def _with_capitals(alternative: Alternative) -> bool:
    """Whether an alternative is a word typed with capitals to be found as written; a venue
    and a phrase are found in any case."""
    return alternative.case_sensitive and not alternative.is_phrase and alternative.field != "venue"


def _typos_allowed(word: str) -> int:
    # A word of four letters has too many neighbours: `sati` matched 332,433 of a million
    # papers where `sat` matched 52,560, and `band` matched "and".
    return 0 if len(word) < TYPOS_FROM else 1 if len(word) < 9 else 2


class WordMatcher:
    """Finds the indexed words a query's words match, in an index's vocabularies (of its
    words, and of its words as written), and the words to highlight for them."""

    def __init__(
        self, words: Vocabulary, cased: Vocabulary, compounds: list[tuple[Words, Words]]
    ) -> None:
        self._words, self._cased = words, cased
        # Each part's compounds as joined and as written ("cotraining", "co-training").
        self._compounds: list[tuple[Sequence[str], Sequence[str]]] = list(compounds)
        self._starting: list[str] | None = None  # the letters words start with
        self._beginnings: dict[tuple[int, str], tuple[list[str], list[int]]] = {}

    def warm(self) -> None:
        """Decode the compounds, find the letters words start with, import what finds typos."""
        self._compounds = [(joined[:], written[:]) for joined, written in self._compounds]
        self._first_letters()  # the beginnings typos need are made as asked: 1-4 ms each
        _within("", [], 0)

    def _first_letters(self) -> list[str]:
        """Every character an indexed word starts with."""
        if self._starting is None:
            words, letters, place = self._words.words, [], 0
            while place < len(words):
                if not words[place]:
                    place += 1
                    continue
                letters.append(words[place][0])
                place = bisect_left(words, letters[-1] + "\U0010ffff", place + 1)
            self._starting = letters
        return self._starting

    def _typo_words(self, word: str) -> list[tuple[str, int]]:
        """Indexed words within the typos allowed of the word, with their distance; of those
        starting with another letter, only the ones a single edit away (_matching keeps no
        others: "cotraining" is not two typos of "training")."""
        allowed = _typos_allowed(word)
        if not allowed:
            return []
        words = self._words.words
        # The words starting with the same letter are neighbours in the sorted vocabulary.
        start = bisect_left(words, word[0])
        end = bisect_left(words, word[0] + "\U0010ffff", start)
        found = [
            (match, int(distance))
            for match, distance, _ in _within(word, words[start:end], allowed)
        ]
        # One edit of the first letter: replaced, another put before it, or it left out.
        letters = self._first_letters()
        edited = {letter + word[1:] for letter in letters} | {letter + word for letter in letters}
        edited.add(word[1:])
        for text in edited:
            if text[:1] != word[0] and self._words.id_of(text) is not None:
                found.append((text, 1))
        return found

    def _beginnings_of(self, length: int, letter: str) -> tuple[list[str], list[int]]:
        """The distinct beginnings of `length` letters of the words starting with `letter`,
        and where their words start in the sorted vocabulary (words sharing a beginning are
        neighbours there)."""
        if (length, letter) not in self._beginnings:
            words = self._words.words
            first = bisect_left(words, letter)
            last = bisect_left(words, letter + "\U0010ffff", first)
            starts: dict[str, int] = {}
            for position, word in enumerate(words[first:last], first):
                if len(word) >= length:
                    starts.setdefault(word[:length], position)
            self._beginnings[length, letter] = (list(starts), list(starts.values()))
        return self._beginnings[length, letter]

    def _typo_prefix_words(self, stem: str) -> list[int]:
        """Ids of words whose beginning is one edit from the stem ("difus" → diffusion)."""
        if len(stem) < TYPOS_FROM:
            return []
        found: list[int] = []
        words, letters = self._words.words, self._first_letters()
        # Beginnings as long as the stem are one letter replaced, one letter longer one put in.
        for length, edited in (
            (len(stem), {letter + stem[1:] for letter in letters}),
            (len(stem) + 1, {letter + stem for letter in letters}),
        ):
            beginnings, starts = self._beginnings_of(length, stem[0])
            near = [
                (int(distance), beginnings[place], starts[place])
                for _, distance, place in _within(stem, beginnings, 1)
            ]
            for text in edited:  # one edit of the first letter: a word beginning so
                place = bisect_left(words, text)
                if text[0] != stem[0] and place < len(words) and words[place].startswith(text):
                    near.append((1, text, place))
            for _, beginning, start in sorted(near):
                end = bisect_left(words, beginning + "\U0010ffff", start)
                found += range(start, min(end, start + PREFIX_WORDS_MAX))
                if len(found) > PREFIX_WORDS_MAX * 4:
                    return found
        return found

    def matching(
        self,
        alternative: Alternative,
        word: str,
        last: bool,
        negated: bool,
        cased: bool,
        whole: bool = False,
    ) -> tuple[dict[int, float], str]:
        """Ids of the indexed words matching one word of an alternative, with the quality of
        each match, and the word a typo was read as ("" when none was); a `whole` word
        matches as typed or with typos, not as a beginning. A word typed with capitals that
        is not `cased` (no paper writes it so) is read as its folded self: that word is given
        as the word it was read as, when some paper holds it."""
        found: dict[int, float] = {}
        typing = alternative.prefix and last
        if cased:
            if typing:
                found = dict.fromkeys(self._cased.prefixed(alternative.text).tolist(), PREFIX)
            if (exact := self._cased.id_of(alternative.text)) is not None:
                found[exact] = EXACT
            return found, ""
        word = fold(word)
        beginning = not alternative.exact and not negated and not whole
        if beginning or typing:
            found = dict.fromkeys(self._words.prefixed(word).tolist(), PREFIX)
        if (exact := self._words.id_of(word)) is not None:
            found[exact] = EXACT
        # How many papers hold each word in the field searched: `venue:` finds a collection's
        # name, whose words are in no paper's text, and a typo of it is of its words.
        frequency = self._words.counts(alternative.field or "all")
        as_typed = int(frequency[list(found)].sum()) if found else 0
        # A word with capitals no paper writes so is read in any case, and said to be.
        any_case = word if as_typed and _with_capitals(alternative) else ""
        if alternative.exact or negated or as_typed >= ALMOST_NOTHING:
            return found, any_case
        typos = self._typos(word, beginning, frequency)
        most = max((int(frequency[i]) for i in typos), default=0)
        if not most or (as_typed and most < TYPO_OUTNUMBERS * as_typed):
            return found, any_case
        for typo, quality in typos.items():
            found.setdefault(typo, quality)
        shown = max(typos, key=lambda i: (typos[i], int(frequency[i])))
        return found, self._words.words[shown]

    def _typos(self, word: str, beginning: bool, frequency: Ints) -> dict[int, float]:
        """The indexed words fewest typos away from the word (or from its beginning, when it
        may be one), with the quality of each match: those two edits away only when none is
        one edit away ("satisficng" is satisficing, not satisfying). `frequency`: how many
        papers hold each word in the field searched."""
        found: dict[int, float] = {}
        if beginning:
            found = dict.fromkeys(self._typo_prefix_words(word), TYPO_PREFIX)
        for text, distance in self._typo_words(word):
            typo = self._words.id_of(text)
            # Two edits from another first letter is another word ("cotraining", "training").
            if typo is not None and (distance == 1 or text[0] == word[0]):
                quality = TYPO if distance == 1 else SECOND_TYPO
                found[typo] = max(found.get(typo, 0), quality)
        if any(quality != SECOND_TYPO for quality in found.values()):
            found = {typo: quality for typo, quality in found.items() if quality != SECOND_TYPO}
        # A word some paper holds that the typed one is short of a letter of (the commonest
        # slip: "transformr" for transformer) is meant over those another edit makes
        # (transform, transforms), of the words of the field searched.
        words = self._words.words
        short_of = {
            typo: quality
            for typo, quality in found.items()
            if frequency[typo] and _a_letter_short(word, words[typo])
        }
        return short_of or found

    def is_cased(self, alternative: Alternative) -> bool:
        """Whether the alternative matches words only as written: it has a capital and the
        case-sensitive index knows it that way (else "Schrodinger" would find nothing). A
        venue is matched in any case: `venue:ICML` finds a collection named "ICML 2026 Papers",
        whose name the case-sensitive index does not hold."""
        if not _with_capitals(alternative):
            return False
        # Written so by some paper: a word of a collection's name alone is in the vocabulary
        # of an index built whole, not in that of its parts.
        if alternative.prefix:
            return bool(self._cased.frequency[self._cased.prefixed(alternative.text)].any())
        exact = self._cased.id_of(alternative.text)
        return exact is not None and bool(self._cased.frequency[exact])

    def highlighted(self, ids: list[int]) -> set[str]:
        """The words to highlight for these ids, each as indexed and, when some paper wrote it
        as a compound ("pol-icy" for policy, "co-training"), as written there too."""
        words = {self._words.words[i] for i in ids}
        for word in list(words):
            for joined, written in self._compounds:
                place = bisect_left(joined, word)
                if place < len(joined) and joined[place] == word:
                    words.add(written[place])
                    break  # as the first part to write it wrote it
        return words
