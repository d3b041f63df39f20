"""For you: a model of the reader's keeps and skips orders the papers not yet decided."""

import json
import pickle
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tui_reader.core import recommend
from tui_reader.core.library import Library
from tui_reader.core.paper import Paper
from tui_reader.core.paper_columns import columns_of
from tui_reader.core.recommend import ColdStart, features, model
from tui_reader.core.recommend.shown import shown
from tui_reader.core.store import PaperStore

BANDITS = "bandit regret arms exploration exploitation reward horizon optimism confidence"
ROBOTS = "robot grasping manipulation gripper locomotion sim2real controller torque legged"
FILLER = "we study a problem and give results experiments data models learning"


def _paper(number: int, topic: str, words: str) -> Paper:
    rng = np.random.default_rng(number)
    chosen = rng.choice(words.split(), 5, replace=False).tolist()
    abstract = f"{' '.join(chosen)} {FILLER} {number}x"
    title = f"{topic} {' '.join(chosen[:2])} {number}"
    return Paper(
        id=f"p{number:04d}", abstract=abstract, collection="c", source=Path("c"), headline=title,
        title=title, authors=(f"Author {topic[0]}{number % 7}",),  # of one topic
    )  # fmt: skip


def _corpus() -> PaperStore:
    return PaperStore(
        _paper(n, "bandits" if n % 2 else "robots", BANDITS if n % 2 else ROBOTS)
        for n in range(200)
    )


def _library(keep: list[int], skip: list[int], tag: str = "") -> Library:
    library, _ = Library.open(None)
    kept = [f"p{n:04d}" for n in keep]
    if tag:
        library.change(kept, "tagged", add_tags=[tag], read=True)
    else:
        library.change(kept, "kept", bookmarked=True, read=True)
    library.change([f"p{n:04d}" for n in skip], "skipped", read=True)
    return library


def test_under_three_keeps_there_is_no_model_and_the_message_says_how_many_more(
    tmp_path: Path,
) -> None:
    with pytest.raises(ColdStart) as raised:
        recommend.recommender(_corpus(), _library([1, 3], [0, 2, 4, 6]), None, tmp_path)
    assert "2 papers kept and 4 read and not kept" in str(raised.value)
    assert "1 more kept" in str(raised.value)


def test_under_three_skips_there_is_no_model_either(tmp_path: Path) -> None:
    with pytest.raises(ColdStart, match="2 more read and not kept"):
        recommend.recommender(_corpus(), _library([1, 3, 5], [0]), None, tmp_path)


def test_the_kept_topic_comes_first_and_nothing_decided_is_recommended(tmp_path: Path) -> None:
    keep, skip = [1, 3, 5, 7], [0, 2, 4, 6, 8, 10]
    found = recommend.recommender(_corpus(), _library(keep, skip), None, tmp_path)
    best = found.best(limit=40).tolist()
    assert len(best) == 40
    assert not set(best) & set(keep + skip)
    assert all(number % 2 for number in best)  # every one a bandit paper


def test_with_a_tag_its_papers_are_the_positives_and_bookmarks_are_not_recommended(
    tmp_path: Path,
) -> None:
    library = _library([0, 2, 4], [1, 3, 5], tag="robots")
    library.set_bookmarked(["p0011", "p0013", "p0015"], True)  # kept, not read, no tag
    found = recommend.recommender(_corpus(), library, "robots", tmp_path)
    best = found.best(limit=30).tolist()
    assert all(number % 2 == 0 for number in best)
    assert not {11, 13, 15} & set(found.best().tolist())


def test_a_query_limits_the_recommendations_to_its_papers(tmp_path: Path) -> None:
    found = recommend.recommender(_corpus(), _library([1, 3, 5], [0, 2, 4]), None, tmp_path)
    among = np.array([1, 6, 8, 9, 11], dtype=np.int64)  # 1 is kept: decided
    assert sorted(found.best(among).tolist()) == [6, 8, 9, 11]
    assert found.best(among, limit=1).tolist() in ([9], [11])


def test_why_names_the_kept_topics_words_the_paper_holds(tmp_path: Path) -> None:
    papers = _corpus()
    found = recommend.recommender(papers, _library([1, 3, 5, 7], [0, 2, 4, 6]), None, tmp_path)
    number = int(found.best(limit=1)[0])
    why = found.why(number)
    assert why
    held = features.names_in(papers[number].title, papers[number].abstract, papers[number].authors)
    assert all(word in held.values() for word in why)
    assert any(word in BANDITS.split() for word in " ".join(why).split())


def test_why_names_no_latex_command_and_no_word_twice(tmp_path: Path) -> None:
    # The bandit papers say "multi armed" and write $\sqrt{T}$, which the reader sees as √T.
    papers = PaperStore(
        replace(paper, abstract=f"{paper.abstract} multi armed $O(\\sqrt{{T}})$")
        if int(paper.id[1:]) % 2 else paper
        for paper in _corpus()
    )  # fmt: skip
    found = recommend.recommender(papers, _library([1, 3, 5, 7, 9], [0, 2, 4, 6]), None, tmp_path)
    whys = [found.why(number, 8) for number in found.best(limit=20).tolist()]
    named = [name for why in whys for name in why]
    assert "multi armed" in named
    assert not {"sqrt", "armed multi"} & {word for name in named for word in (name, *name.split())}
    for why in whys:
        words = [word for name in why for word in name.split()]
        assert len(words) == len(set(words)), why
    text = r"$\sqrt{T}$ \emph{alpha} $\log T$, $\max_i \mathsf{poly}$ $\mathcal{O}(1)$ a\\regret"
    words = ["sqrt", "emph", "alpha", "log", "max", "poly", "mathcal", "mathsf", "regret"]
    assert set(shown(words, "", text)) == {"alpha", "log", "max", "poly", "regret"}


def test_a_word_written_as_an_authors_name_is_named_once(tmp_path: Path) -> None:
    papers = PaperStore(
        replace(paper, title=f"{paper.title} by OpenAI", authors=("OpenAI",))
        if n % 2 else paper
        for n, paper in enumerate(_corpus())
    )  # fmt: skip
    found = recommend.recommender(papers, _library([1, 3, 5, 7], [0, 2, 4, 6]), None, tmp_path)
    assert found.model is not None
    names = features.names_in(papers[9].title, papers[9].abstract, papers[9].authors)
    openai = [column for column, name in names.items() if name.lower() == "openai"]
    assert len(openai) == 2  # the word and the author
    weights = np.zeros_like(found.model.weights)  # only they weigh
    weights[np.isin(found.rows.vocabulary, openai)] = 1.0
    found.model = replace(found.model, weights=weights)
    assert found.why(9) == ["OpenAI"]
    assert found.why_line(9).startswith("by OpenAI; like ")


def test_why_names_a_pair_only_where_the_paper_writes_its_words_together(
    tmp_path: Path,
) -> None:
    # The rows pair "rl regret" across the title's end, "regret multi" across a sentence's.
    papers = PaperStore(
        replace(paper, title=f"Bandit RL {n}", abstract=f"Regret. Multi-armed {paper.abstract}")
        if n % 2 else paper
        for n, paper in enumerate(_corpus())
    )  # fmt: skip
    found = recommend.recommender(papers, _library([1, 3, 5, 7, 9], [0, 2, 4, 6]), None, tmp_path)
    named = {name for n in found.best(limit=20).tolist() for name in found.why(n, 10)}
    assert {"RL", "multi-armed"} <= named
    assert not {"rl", "rl regret", "regret multi", "bandit rl", "multi armed"} & named


def test_a_name_is_written_as_the_paper_writes_it() -> None:
    title = "Causal Relations in Deep Reinforcement Learning"
    abstract = (
        "Reinforcement Learning (RL) has regret. Bounds hold for the Bayesian\n"
        "view of multi-armed bandits at NeurIPS, and in deep RL; $\\sqrt{T}$ regret bounds."
    )
    names = ["learning reinforcement", "reinforcement learning", "rl", "bayesian", "deep rl"]
    names += ["multi armed", "regret bounds", "bounds bayesian", "neurips", "sqrt", "view multi"]
    names += ["bayesian view"]
    assert shown(names, title, abstract) == {
        "reinforcement learning": "reinforcement learning",
        "rl": "RL",
        "bayesian": "bayesian",  # only ever capitalised: a name or not, nothing says
        "deep rl": "deep RL",
        "multi armed": "multi-armed",
        "regret bounds": "regret bounds",
        "neurips": "NeurIPS",
        "bayesian view": "bayesian view",  # a line's end is a space
    }
    assert shown(["rl"], "DEEP RL", "none") == {"rl": "rl"}  # a title in capitals says nothing
    assert shown(["rl"], "DEEP RL IN $\\mathcal{O}(\\sqrt{T})$", "none") == {"rl": "rl"}
    abstract = "The Kullback--Leibler and Cramér–Rao bounds of input/output maps; regret - bandits."
    names = ["kullback leibler", "cramér rao", "input output", "regret bandits"]
    assert shown(names, "", abstract) == {
        "kullback leibler": "kullback\u2013leibler",  # only capitalised
        "cramér rao": "cramér\u2013rao",
        "input output": "input/output",
    }


def test_a_pair_named_takes_the_place_of_its_words_named_before_it() -> None:
    names = ["granger", "causality", "granger causality", "test", "causality test", "sqrt"]
    names += ["Ann Lee", "test statistics", "data"]
    said = {name: set(name.split()) for name in names} | {"Ann Lee": set()}  # an author
    named = ["granger causality", "test", "Ann Lee"]
    assert recommend._distinct(names, said, frozenset({"sqrt"}), 3) == named
    assert recommend._distinct(names, said, frozenset(), 2) == ["granger causality", "test"]
    assert recommend._distinct(names[:2], said, frozenset(), 1) == ["granger"]
    # A pair of a word named and another not is passed over: "test", not "test statistics".
    assert recommend._distinct(names, said, frozenset({"sqrt"}), 4) == [*named, "data"]


def test_a_word_pdf_extraction_broke_at_a_line_end_is_no_word_of_why(tmp_path: Path) -> None:
    # Half the bandit papers write "exploration" broken, as a PDF's line ended: "explo- ration".
    papers = PaperStore(
        replace(paper, abstract=paper.abstract.replace("exploration", "explo- ration"))
        if paper.id[-1] in "159" else paper
        for paper in _corpus()
    )  # fmt: skip
    broken = [n for n in range(len(papers)) if "explo- ration" in papers[n].abstract]
    found = recommend.recommender(papers, _library(broken[:8], [0, 2, 4, 6]), None, tmp_path)
    assert features.broken_halves(papers[broken[0]].abstract, found.rows.vocabulary) == {
        "explo",
        "ration",
    }
    assert (
        features.broken_halves("pre- and post-training, high- dimensional", np.array([])) == set()
    )
    undecided = broken[8:]
    why = [word for number in undecided for word in found.why(number)]
    assert why and not {"explo", "ration"} & set(" ".join(why).split())
    assert all(found.why(number) for number in undecided)


def test_the_rows_and_the_model_are_kept_and_read_back_without_building(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers, library = _corpus(), _library([1, 3, 5], [0, 2, 4])
    first = recommend.recommender(papers, library, None, tmp_path).best().tolist()

    def refused(*_: object) -> None:
        raise AssertionError("built again")

    monkeypatch.setattr(features, "build", refused)
    monkeypatch.setattr(model, "train", refused)
    assert recommend.recommender(papers, library, None, tmp_path).best().tolist() == first


def test_a_new_decision_trains_the_model_again(tmp_path: Path) -> None:
    papers, library = _corpus(), _library([1, 3, 5], [0, 2, 4])
    before = recommend.recommender(papers, library, None, tmp_path).model
    library.change(["p0007"], "kept", bookmarked=True, read=True)
    after = recommend.recommender(papers, library, None, tmp_path).model
    assert before is not None and after is not None
    assert after.trained_on != before.trained_on
    assert not np.array_equal(after.weights, before.weights)


def test_a_skip_weighs_as_much_beside_a_kept_paper_in_a_small_collection_as_in_a_big_one() -> None:
    """Only the papers decided say what a skip weighs, not the number of papers sampled as weak
    negatives (all 200 of the small one, 5,000 of the big one); the weak ones weigh as much
    together in both."""
    weighed = []
    for count in (200, 8_000):
        papers = PaperStore(
            _paper(n, "bandits" if n % 2 else "robots", BANDITS if n % 2 else ROBOTS)
            for n in range(count)
        )
        rows = features.build(papers)
        training = model.Training(rows, model.weak_sample(count, "0" * 64))
        training.learn(np.array([1, 3, 5]), np.array([0, 2, 4, 6, 8, 10]))
        kept, skip, weak = training.costs[0], training.costs[3], training.costs[9:]
        weighed.append((round(float(skip / kept), 6), round(float(weak.sum()), 4)))
    assert weighed[0] == weighed[1]


class _Planted:
    """Unpickled, it would leave a file: a kept model must never be unpickled."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.mark), "w"))


def _model_files(root: Path) -> tuple[Path, Path]:
    (manifest,) = root.glob("recommend-v*/model-*.json")
    return manifest, manifest.with_suffix(".npy")


@pytest.mark.parametrize(
    "damage", ["pickle", "dtype", "manifest", "foreign", "nan", "scores", "empty", "link"]
)
def test_a_damaged_or_foreign_model_is_rejected_and_trained_again_never_run(
    tmp_path: Path, damage: str
) -> None:
    papers, library = _corpus(), _library([1, 3, 5], [0, 2, 4])
    made = recommend.recommender(papers, library, None, tmp_path)
    assert made.model is not None
    first, trained_on = made.best().tolist(), made.model.trained_on
    width = len(made.rows.vocabulary)
    manifest, weights = _model_files(tmp_path)
    mark = tmp_path / "unpickled"
    if damage == "pickle":
        planted = np.empty(1, dtype=object)
        planted[0] = _Planted(mark)
        with weights.open("wb") as file:
            np.save(file, planted, allow_pickle=True)
        weights.write_bytes(weights.read_bytes() + pickle.dumps(_Planted(mark)))
    elif damage == "dtype":
        np.save(weights, np.zeros(width, dtype=np.float64))
    elif damage == "manifest":
        manifest.write_text("{not json")
    elif damage == "scores":  # sound, but not this model's
        np.save(manifest.with_suffix(".scores.npy"), np.zeros(len(papers), dtype=np.float32))
    elif damage == "foreign":
        manifest.write_text(manifest.read_text().replace(model.FORMAT, "something else"))
    elif damage == "empty":  # numpy reads no header: EOFError, not OSError
        weights.write_bytes(b"")
    elif damage == "link":  # to a sound copy elsewhere: the cache follows no link
        weights.rename(tmp_path.parent / f"{tmp_path.name}-weights.npy")
        weights.symlink_to(tmp_path.parent / f"{tmp_path.name}-weights.npy")
    else:
        np.save(weights, np.full(width, np.nan, dtype=np.float32))
    with pytest.raises(features.Rejected):
        model.load(manifest.parent, manifest.stem, trained_on, width, len(papers))
    again = recommend.recommender(papers, library, None, tmp_path)
    assert again.best().tolist() == first
    assert not mark.exists()
    model.load(manifest.parent, manifest.stem, trained_on, width, len(papers))  # kept sound again


@pytest.mark.parametrize(
    "damage", ["shape", "empty", "in range", "flipped", "link", "manifest", "authors"]
)
def test_damaged_rows_are_rejected_and_built_again(tmp_path: Path, damage: str) -> None:
    papers, library = _corpus(), _library([1, 3, 5], [0, 2, 4])
    first = recommend.recommender(papers, library, None, tmp_path / "cache")
    first_why = [first.why(n) for n in first.best().tolist()]
    (folder,) = (tmp_path / "cache").glob("recommend-v*")
    elsewhere = tmp_path / "elsewhere.npy"
    if damage == "shape":
        np.save(folder / "starts.npy", np.zeros(3, dtype=np.int64))
    elif damage == "empty":
        (folder / "values.npy").write_bytes(b"")
    elif damage == "in range":  # a sound array of the right shape, of other columns
        columns = np.load(folder / "columns.npy")
        np.save(folder / "columns.npy", np.zeros_like(columns))
    elif damage == "flipped":  # a disk's error: a byte of one value
        values = bytearray((folder / "values.npy").read_bytes())
        values[-3] ^= 0x40
        (folder / "values.npy").write_bytes(bytes(values))
    elif damage == "link":  # to a sound copy elsewhere: the cache follows no link
        (folder / "values.npy").rename(elsewhere)
        (folder / "values.npy").symlink_to(elsewhere)
    elif damage == "authors":  # more authors than the vocabulary has places
        manifest = json.loads((folder / "manifest.json").read_text())
        manifest["authors"] = len(np.load(folder / "vocabulary.npy")) + 1
        (folder / "manifest.json").write_text(json.dumps(manifest))
    else:
        (folder / "manifest.json").rename(elsewhere)
        (folder / "manifest.json").symlink_to(elsewhere)
    kept = elsewhere.read_bytes() if elsewhere.exists() else b""
    with pytest.raises(features.Rejected):
        features.open_kept(folder, features.papers_digest(papers), len(papers))
    again = recommend.recommender(papers, library, None, tmp_path / "cache")
    assert again.best().tolist() == first.best().tolist()
    assert [again.why(n) for n in again.best().tolist()] == first_why
    features.open_kept(folder, features.papers_digest(papers), len(papers))
    assert (elsewhere.read_bytes() if elsewhere.exists() else b"") == kept  # not written


def test_each_decision_is_followed_at_once_from_the_last_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers, library = _corpus(), _library([1, 3, 5, 7, 9], [0, 2, 4, 6, 8])
    found = recommend.open_recommender(papers, library, None, tmp_path)
    assert all(number % 2 for number in found.best(limit=20).tolist())  # bandits
    starts: list[model.Model | None] = []
    train = model.train

    def recorded(*arguments: object, **keywords: object) -> model.Model:
        starts.append(arguments[3] if len(arguments) > 3 else None)  # type: ignore[arg-type]
        return train(*arguments, **keywords)  # type: ignore[arg-type]

    monkeypatch.setattr(model, "train", recorded)
    # The reader turns to robots: keeps those skipped, unkeeps the bandits, then triages on.
    robots, bandits = [0, 2, 4, 6, 8, 10, 12], [1, 3, 5, 7, 9, 11, 13]
    for robot, bandit in zip(robots, bandits, strict=True):
        previous = found.model
        library.change([f"p{robot:04d}"], "kept", bookmarked=True, read=True)
        found.decide([robot], library)
        assert starts[-1] is previous
        library.change([f"p{bandit:04d}"], "skipped", bookmarked=False, read=True)
        found.decide([bandit], library)
    assert sorted(found.decided.kept) == robots
    assert sorted(found.decided.skipped) == bandits
    best = found.best(limit=20).tolist()
    assert all(number % 2 == 0 for number in best)  # robots now
    assert not set(best) & set(robots + bandits)


def test_a_decision_undone_puts_the_paper_back_among_the_recommendations(
    tmp_path: Path,
) -> None:
    papers, library = _corpus(), _library([1, 3, 5, 7], [0, 2, 4])
    found = recommend.open_recommender(papers, library, None, tmp_path)
    assert 7 not in found.best().tolist()
    library.set_bookmarked(["p0007"], False)
    library.set_read(["p0007"], False)
    found.decide([7], library)
    assert 7 in found.best().tolist()
    assert len(found.decided.kept) == 3


def test_a_decision_undone_gives_back_the_model_and_the_order_before_it(tmp_path: Path) -> None:
    papers, library = _corpus(), _library([1, 3, 5, 7], [0, 2, 4])
    found = recommend.open_recommender(papers, library, None, tmp_path)
    before, scores = found.model, found.scores.copy()
    for undone in range(9, 31, 2):  # more skips undone, one after another, than models kept
        library.change([f"p{undone:04d}"], "skipped", read=True)
        found.decide([undone], library)
        assert found.scores[undone] != scores[undone]
        library.set_read([f"p{undone:04d}"], False)
        found.decide([undone], library)
        assert found.model is before
        assert found.scores.tolist() == scores.tolist()


def test_a_step_of_many_papers_undone_gives_back_the_model_before_it(tmp_path: Path) -> None:
    papers, library = _corpus(), _library([1, 3, 5, 7], [0, 2, 4])
    found = recommend.open_recommender(papers, library, None, tmp_path)
    before, scores = found.model, found.scores.copy()
    marked = list(range(9, 41, 2))  # more papers, read in one step, than models kept
    ids = [f"p{number:04d}" for number in marked]
    library.set_read(ids, True)
    found.decide(marked, library)
    assert found.model is not before and len(found.decided.skipped) == 3 + len(marked)
    library.set_read(ids, False)
    found.decide(marked, library)
    assert found.model is before
    assert found.scores.tolist() == scores.tolist()


def test_under_three_of_either_the_recommender_says_how_many_more_and_keeps_the_order(
    tmp_path: Path,
) -> None:
    papers, library = _corpus(), _library([1, 3], [0, 2])
    found = recommend.open_recommender(papers, library, None, tmp_path)
    assert found.cold_start is not None
    assert "1 more kept and 1 more read and not kept" in found.cold_start
    assert found.order(np.array([9, 4, 7], dtype=np.int64)).tolist() == [0, 1, 2]
    assert found.why_line(9) == found.cold_start
    with pytest.raises(ColdStart):
        found.best()
    library.change(["p0005"], "kept", bookmarked=True, read=True)
    found.decide([5], library)
    assert found.cold_start is not None and "1 more read and not kept" in found.cold_start
    library.change(["p0004"], "skipped", read=True)
    found.decide([4], library)
    assert found.cold_start is None
    assert all(number % 2 for number in found.best(limit=20).tolist())


def test_the_why_line_names_the_words_that_weigh_and_the_kept_paper_most_like_it(
    tmp_path: Path,
) -> None:
    # The kept paper is named as the list shows it, not its LaTeX.
    papers = PaperStore(
        replace(paper, headline=f"A ${n}$-step \\emph{{bandit}}") if n == 3 else paper
        for n, paper in enumerate(_corpus())
    )  # fmt: skip
    twin = papers[3]  # kept: the paper below has its words
    like_it = Paper(
        id="p0200", abstract=twin.abstract, collection="c", source=Path("c"), headline="twin",
        title=twin.title,
    )  # fmt: skip
    papers.extend(columns_of([like_it]))
    found = recommend.recommender(papers, _library([1, 3, 5, 7], [0, 2, 4, 6]), None, tmp_path)
    assert found.like(200) == 3
    line = found.why_line(200)
    assert "\n" not in line
    assert line.endswith("like A 3-step bandit")
    assert any(word in line.split("; ")[0] for word in BANDITS.split())
    assert found.like(3) != 3  # a kept paper is not like itself
    by_kept_author = next(n for n in found.best().tolist() if "Author b" in found.why_line(n))
    author = papers[by_kept_author].authors[0]
    assert f"; by {author}; like " in found.why_line(by_kept_author)
    assert author not in found.why_line(by_kept_author).split("; ")[0]  # not a word


def test_the_why_line_cuts_a_long_headline_of_the_kept_paper(tmp_path: Path) -> None:
    papers = list(_corpus())
    long = " ".join(["bandits"] * 40)
    kept = papers[3]
    papers[3] = Paper(id=kept.id, abstract=kept.abstract, collection="c", source=Path("c"),
                      headline=long, title=long)  # fmt: skip
    papers.append(Paper(id="p0200", abstract=kept.abstract, collection="c", source=Path("c"),
                        headline="twin", title="twin"))  # fmt: skip
    library = _library([1, 3, 5, 7], [0, 2, 4, 6])
    found = recommend.recommender(PaperStore(papers), library, None, tmp_path)
    like = found.why_line(200).split("; like ")[1]
    assert len(like) == recommend.HEADLINE
    assert like == long[: recommend.HEADLINE - 1] + "…"


def test_common_english_words_are_no_columns(tmp_path: Path) -> None:
    papers = [
        Paper(id=f"q{n}", abstract=f"zebra whereas amongst {FILLER} {n}x", collection="c",
              source=Path("c"), headline=f"t{n}", title=f"t{n}")
        for n in range(3)
    ]  # fmt: skip
    rows = features.build(PaperStore(papers))
    names = features.names_in(papers[0].title, papers[0].abstract, papers[0].authors)
    columns, _ = rows.row(0)
    held = {names[int(rows.vocabulary[column])] for column in columns.tolist()}
    assert "zebra" in held
    assert not held & {"whereas", "amongst", "zebra whereas", "whereas amongst"}


def test_a_rows_authors_weigh_half_its_words_however_long_its_abstract() -> None:
    long = [replace(p, abstract=f"{p.abstract} {FILLER * 30}") if n == 3 else p
            for n, p in enumerate(_corpus())]  # fmt: skip
    anonymous = replace(long[5], id="p9999", authors=())
    papers = PaperStore([*long, anonymous])
    rows = features.build(papers)
    assert rows.authors == 14  # each topic's 7, the vocabulary's last places
    # An author's column is no word's: "Regret" the author is not "regret" the word.
    assert all(column >= features.FEATURES for column in rows.vocabulary[-14:].tolist())
    assert all(column < features.FEATURES for column in rows.vocabulary[:-14].tolist())
    names = features.names_in("regret", "regret bounds", ["Regret"])
    assert sorted(names.values()).count("regret") == 1 and "Regret" in names.values()
    authors_from = len(rows.vocabulary) - rows.authors
    lengths = []
    for number in (1, 3, 200):
        columns, values = rows.row(number)
        by_author = columns >= authors_from
        lengths.append(
            [float(np.linalg.norm(values[~by_author])), float(np.linalg.norm(values[by_author]))]
        )
    whole = np.hypot(1.0, features.AUTHOR_WEIGHT)
    assert np.allclose(lengths[0], [1 / whole, features.AUTHOR_WEIGHT / whole])
    assert np.allclose(lengths[1], lengths[0])  # the long abstract's authors weigh as much
    assert np.allclose(lengths[2], [1 / whole, 0.0])  # no authors: words as long as with them
    made = features.extended(PaperStore([*papers, replace(long[3], id="p9998")]), rows)
    assert made is not None and made.authors == rows.authors
    _same_rows(made, rows, [(201, 3)])


def _same_rows(
    one: features.Features, other: features.Features, pairs: list[tuple[int, int]]
) -> None:
    for mine, theirs in pairs:
        columns, values = one.row(mine)
        expected_columns, expected_values = other.row(theirs)
        assert columns.tolist() == expected_columns.tolist()
        assert np.allclose(values, expected_values)


def test_the_rows_of_papers_added_are_made_alone_the_kept_rows_taken_as_they_are() -> None:
    kept = _corpus()
    rows = features.build(kept)
    day = [*(_paper(n, "bandits", BANDITS) for n in range(200, 212)), kept[3]]  # one met again
    both = PaperStore([*day, *kept])  # the day's file first: every paper numbered anew
    made = features.extended(both, rows)
    assert made is not None and made.added == 12 and len(made) == 212
    pairs = [(both.position_of(kept.id_of(n)), n) for n in range(200)]
    _same_rows(made, rows, pairs)  # the kept papers' rows as kept, where they are now
    assert made.vocabulary is rows.vocabulary
    for number in range(12):
        columns, values = made.row(number)
        assert len(columns) and np.isclose(float(np.sum(values.astype(np.float64) ** 2)), 1.0)
    twin = Paper(
        id="2401.00001",
        abstract=kept[5].abstract,
        collection="c",
        source=Path("c"),
        headline=kept[5].headline,
        title=kept[5].title,
        authors=kept[5].authors,
    )
    again = features.extended(PaperStore([*kept, twin]), rows)
    assert again is not None
    _same_rows(again, rows, [(200, 5)])  # the rows of the same text, kept or made
    many = PaperStore([*kept, *(_paper(n, "robots", ROBOTS) for n in range(200, 224))])
    assert features.extended(many, rows) is None  # over a tenth of the papers: built whole


def test_a_days_papers_make_rows_for_themselves_and_the_model_follows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = _library([1, 3, 5, 7, 9], [0, 2, 4, 6, 8])
    first = recommend.recommender(_corpus(), library, None, tmp_path)
    monkeypatch.setattr(features, "build", lambda _: pytest.fail("built whole"))
    bigger = PaperStore([*_corpus(), *(_paper(n, "bandits", BANDITS) for n in range(200, 210))])
    found = recommend.recommender(bigger, library, None, tmp_path)
    assert found.rows.added == 10 and len(tmp_path.glob("recommend-v*").__next__().name) > 0
    assert found.rows.authors == first.rows.authors == 14  # as kept: the day's rows weighed alike
    best = found.best(limit=20).tolist()
    assert all(number % 2 or number >= 200 for number in best)  # bandits, the day's too
    assert set(range(200, 210)) & set(best)
    again = recommend.recommender(bigger, library, None, tmp_path)  # kept: read back
    assert np.array_equal(again.scores, found.scores)
    assert first.rows.added == 0


def test_one_papers_words_are_found_as_the_rows_find_them() -> None:
    """`names_in` reads one paper's words without Arrow (a millisecond a call), as the rows'
    build reads many papers' with it."""
    texts = [paper.abstract for paper in _corpus()][:20]
    texts += ["Straße café naïve x² a_b 3d d3 ½x 𝔸𝔹 日本語 ＡＢＣ ﬁne O(\\sqrt{T}) pre- training"]
    texts += ["Granger-causality, the multi-armed bandit's regret: $\\mathcal{O}(1)$; \x1b[2J."]
    for text in texts:
        distinct, places, _ = features._tokens([text])
        assert features._words(text) == [distinct[place] for place in places.tolist()], text
