"""Triage in the core: the order, one undoable step per decision, the place kept per filter;
and the config's quick tags and commands."""

import gc
import json
import os
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from tui_reader.core.config import load_config
from tui_reader.core.library import Library
from tui_reader.core.loading import load_paths
from tui_reader.core.paper import Paper
from tui_reader.core.store import PaperStore, PaperView
from tui_reader.core.triage import (
    KEEP,
    KEPT_FILTERS,
    LATER,
    SKIP,
    Place,
    Triage,
    filter_key,
    load_places,
    place_of,
    save_place,
)


def papers(count: int) -> list[Paper]:
    return [
        Paper.from_abstract(f"Paper number {n} studies a problem.", "Test", Path("t.txt"))
        for n in range(count)
    ]


def view(papers: list[Paper]) -> PaperView:
    """The papers as a list shows them: a view of a store holding them."""
    return PaperStore(papers).view()


def test_unread_papers_come_first_in_the_order_shown() -> None:
    shown, library = papers(5), Library(None)
    library.set_read([shown[0].id, shown[2].id], True)
    triage = Triage(view(shown), library, None)
    assert [p.id for p in triage.papers] == [shown[i].id for i in (1, 3, 4, 0, 2)]
    assert triage.current == shown[1]
    assert triage.progress() == "1 of 5 · 0 kept · 0 skipped · 0 later"


def test_each_decision_changes_the_library_as_one_undoable_step() -> None:
    shown, library = papers(5), Library(None)
    triage = Triage(view(shown), library, None)
    a, b, c, d = (paper.id for paper in shown[:4])
    library.set_read([c], True)  # read before: later, it is unread again
    triage.decide(KEEP)
    triage.decide(SKIP)
    triage.decide(LATER)
    triage.decide("#to-read")
    assert library.is_bookmarked(a) and library.is_read(a)
    assert library.is_read(b) and not library.is_bookmarked(b)
    assert library.tags(c) == ["later"] and not library.is_read(c)
    assert library.tags(d) == ["to-read"] and library.is_read(d)
    assert triage.progress() == "5 of 5 · 1 kept · 1 skipped · 1 later · 1 tagged"
    assert triage.undo() == "#to-read in triage"
    assert triage.current == shown[3] and library.tags(d) == [] and not library.is_read(d)
    triage.undo()
    triage.undo()
    assert triage.undo() == "kept in triage"
    assert triage.current == shown[0]
    assert not library.is_bookmarked(a) and not library.is_read(a)
    assert not library.can_undo, "each decision was one step"
    assert triage.undo() is None
    assert triage.progress() == "1 of 5 · 0 kept · 0 skipped · 0 later"


@pytest.mark.parametrize("kind", [KEEP, SKIP, "#to-read"])
def test_a_paper_put_off_before_and_decided_now_is_no_longer_put_off(kind: str) -> None:
    """Skipped, a #later paper stayed #later: the later feed counted it still, unread or not,
    and the later papers never ran out. Undone, it is put off again."""
    shown, library = papers(2), Library(None)
    later = shown[0].id
    library.change([later], "later", read=False, add_tags=["later", "idea"])
    triage = Triage(view(shown), library, None)
    assert triage.current == shown[0]
    assert triage.decide(kind)
    assert "later" not in library.tags(later) and "idea" in library.tags(later)
    assert library.is_read(later) and library.is_bookmarked(later) == (kind == KEEP)
    triage.undo()
    assert sorted(library.tags(later)) == ["idea", "later"] and not library.is_read(later)


def test_a_bookmarked_paper_skipped_is_no_longer_kept_and_a_quick_tag_keeps_its_bookmark() -> None:
    """Skipped, a bookmarked paper stayed bookmarked: the triage counted it kept, and the model
    took it as a paper the reader wants. Undone, it is bookmarked again."""
    shown, library = papers(3), Library(None)
    first, second = shown[0].id, shown[1].id
    library.change([first, second], "kept", bookmarked=True)
    triage = Triage(view(shown), library, None)
    assert triage.decide(SKIP) and triage.decide("#idea")
    assert library.is_read(first) and not library.is_bookmarked(first)
    assert library.is_bookmarked(second) and library.tags(second) == ["idea"]
    assert triage.progress() == "3 of 3 · 0 kept · 1 skipped · 0 later · 1 tagged"
    triage.undo()
    assert triage.undo() == "skipped in triage"
    assert library.is_bookmarked(first) and not library.is_read(first)


def test_a_decision_that_changes_nothing_is_still_taken_back() -> None:
    shown, library = papers(2), Library(None)
    library.set_read([shown[0].id, shown[1].id], True)
    triage = Triage(view(shown), library, None)
    assert not triage.decide(SKIP)
    assert triage.undo() == "skipped in triage"
    assert triage.current == shown[0] and library.is_read(shown[0].id)


def test_an_edit_made_in_triage_is_undone_before_the_decision() -> None:
    shown, library = papers(3), Library(None)
    triage = Triage(view(shown), library, None)
    triage.decide(SKIP)
    triage.edited(library.change_tags([shown[1].id], add=["idea"]))
    assert triage.undo() == "tags of 1 paper"
    assert triage.current == shown[1] and library.tags(shown[1].id) == []
    assert triage.undo() == "skipped in triage"
    assert triage.current == shown[0]


def test_a_new_order_sorts_only_the_papers_after_the_one_on_screen() -> None:
    shown, library = papers(6), Library(None)
    triage = Triage(view(shown), library, None)
    triage.decide(KEEP)  # on screen now: the second
    triage.reorder_ahead([3, 2, 1, 0])
    assert list(triage.papers) == [shown[i] for i in (0, 1, 5, 4, 3, 2)]
    assert triage.current == shown[1]
    triage.undo()  # back to the paper decided, where it was
    assert triage.current == shown[0]
    with pytest.raises(ValueError, match=r"^1 place for 5 papers$"):
        triage.reorder_ahead([0])


def test_the_place_is_kept_per_filter_and_goes_on_where_it_stopped(tmp_path: Path) -> None:
    where = tmp_path / "state" / "triage.json"
    shown, library = papers(6), Library(None)
    library.set_read([shown[0].id], True)
    first = Triage(view(shown[:5]), library, None)
    first.decide(KEEP)
    first.decide(LATER)
    save_place(where, filter_key("  graph   neural ", "relevance"), first.place())
    save_place(where, filter_key("other", "relevance"), Place([shown[0].id], 1))
    kept = load_places(where)[filter_key("graph neural", "relevance")]
    assert load_places(where).keys() == {"\n\ngraph neural\nrelevance", "\n\nother\nrelevance"}
    # Shown again: one paper gone, one new, and the decided papers now read.
    again = Triage(view([shown[5], *shown[2:5], shown[0]]), library, kept)
    assert [p.id for p in again.papers] == [shown[i].id for i in (2, 3, 4, 0, 5)]
    assert again.current == shown[3]
    assert again.progress() == "2 of 5 · 0 kept · 0 skipped · 1 later"  # the kept one is gone
    assert filter_key("graph neural", "headline") not in load_places(where)


def test_a_place_kept_while_other_files_were_read_is_taken_up_when_its_papers_are_read(
    tmp_path: Path,
) -> None:
    """A folder added to the config's paths made a new collection, and every triage began
    again at "1 of 841 · 0 kept": its place is taken up when every paper it decided is read
    now (the latest of them), not from a collection without them."""
    where, shown = tmp_path / "triage.json", papers(6)
    library = Library.open(tmp_path / "library.json")[0]
    key = partial(filter_key, "graph", "relevance", library.path)
    triage = Triage(view(shown[:4]), library, None)
    triage.decide(KEEP)
    triage.decide(SKIP)
    save_place(where, key("first files"), triage.place())
    library.change(["elsewhere"], "kept", bookmarked=True, read=True)  # a paper of other files
    save_place(where, key("other files"), Place(["elsewhere"], 1, {"elsewhere": KEEP}))
    places, grown = load_places(where), {p.id for p in shown}
    for known, kept_as in ((grown, "first files"), ({"elsewhere"}, "other files")):
        found = place_of(places, key("with a folder"), library, known.__contains__)
        assert found == (places[key(kept_as)], key(kept_as))
    assert place_of(places, key("with a folder"), library) == (None, key("with a folder"))
    taken_up = Triage(view(shown), library, places[key("first files")])
    assert taken_up.progress() == "3 of 6 · 1 kept · 1 skipped · 0 later"


def test_only_the_latest_filters_are_kept(tmp_path: Path) -> None:
    where = tmp_path / "triage.json"
    for n in range(KEPT_FILTERS + 3):
        save_place(where, filter_key(f"query {n}", "file"), Place(["a"], 0))
    kept = load_places(where)
    assert len(kept) == KEPT_FILTERS and filter_key("query 0", "file") not in kept
    assert filter_key(f"query {KEPT_FILTERS + 2}", "file") in kept


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        '{"filters": {"q\\nfile": {"order": ["a"], "position": 5}}}',
        '{"filters": {"q\\nfile": {"order": "ab", "position": 0}}}',
        '{"filters": {"q\\nfile": {"order": [], "position": 0, "what": 1}}}',
        '{"filters": [1]}',
        "[]",
    ],
)
def test_a_bad_places_file_is_ignored_and_replaced(tmp_path: Path, text: str) -> None:
    where = tmp_path / "triage.json"
    where.write_text(text, encoding="utf-8")
    assert load_places(where) == {}
    save_place(where, "q\nfile", Place(["a", "b"], 1))
    assert load_places(where)["q\nfile"].order == ["a", "b"]


def test_a_fifo_is_neither_read_nor_written(tmp_path: Path) -> None:
    where = tmp_path / "triage.json"
    os.mkfifo(where)
    assert load_places(where) == {}  # never opened: opening a FIFO would block
    with pytest.raises(OSError, match="FIFO"):
        save_place(where, "q\nfile", Place(["a"], 0))


def write_config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_quick_tags_and_commands_in_the_config(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        '[triage]\nquick_tags = ["To-Read", "method"]\n\n'
        '[commands]\ncount = "wc -l"\nsummarise = "llm -s \'summarise\'"\n',
    )
    config, problems = load_config(path)
    assert problems == []
    assert config.quick_tags == ("to-read", "method")
    assert dict(config.commands) == {"count": "wc -l", "summarise": "llm -s 'summarise'"}


def test_bad_quick_tags_and_commands_are_named_with_their_line(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        "[triage]\n"
        'quick_tags = ["fine", "not a tag"]\n'
        "speed = 3\n"
        "[commands]\n"
        'count = "wc -l"\n'
        "empty = '  '\n"
        "number = 3\n",
    )
    config, problems = load_config(path)
    assert config.quick_tags == () and dict(config.commands) == {"count": "wc -l"}
    assert problems == [
        f"{path}, line 2: triage.quick_tags must be a list of up to 9 tags, such as "
        '["to-read", "method"]; using none',
        f"{path}, line 3: unknown setting triage.speed; it is ignored",
        f'{path}, line 6: commands.empty must be a shell command as a string, such as "wc -l"; '
        "it is ignored",
        f'{path}, line 7: commands.number must be a shell command as a string, such as "wc -l"; '
        "it is ignored",
    ]
    ten = write_config(tmp_path, f"triage = {{ quick_tags = {json.dumps(list('abcdefghij'))} }}\n")
    assert "must be a list of up to 9 tags" in load_config(ten)[1][0]
    wrong = write_config(tmp_path, 'commands = "wc -l"\n')
    assert load_config(wrong)[1] == [
        f'{wrong}, line 1: commands must be a table, such as [commands] then count = "wc -l"; '
        "using the default"
    ]


def test_a_triage_of_many_papers_builds_only_the_ones_shown(tmp_path: Path) -> None:
    path = tmp_path / "papers.txt"
    texts = [f"Paper {n} proposes a method for problem {n}." for n in range(3000)]
    path.write_text("Test\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    store = load_paths([path]).papers
    library = Library(None)
    library.set_read([store.id_of(2999), store.id_of(1500)], True)
    shown = store.view(np.arange(2999, -1, -1, dtype=np.int64))  # newest first, say

    def built() -> int:
        gc.collect()
        return sum(isinstance(item, Paper) for item in gc.get_objects())

    before = built()
    triage = Triage(shown, library, None)
    assert built() - before <= 2, "no Paper held for each paper to come"
    order = triage.numbers.tolist()
    assert order[:3] == [2998, 2997, 2996] and order[-2:] == [2999, 1500]  # unread first
    assert triage.current == store[2998] and triage.ahead() == store[2997]
    triage.decide(KEEP)
    triage.reorder_ahead(np.arange(len(order) - 3, -1, -1))  # those after 2997 backwards
    assert triage.current == store[2997] and triage.ahead() == store[1500]
    assert library.is_bookmarked(store.id_of(2998))
    assert triage.place().order[:4] == [store.id_of(n) for n in (2998, 2997, 1500, 2999)]
    assert built() - before <= 4


def test_decisions_saved_after_the_place_are_passed_over_as_the_library_shows(
    tmp_path: Path,
) -> None:
    where = tmp_path / "triage.json"
    shown, library = papers(8), Library(None)
    library.set_read([shown[7].id], True)  # read before: last in the order, and offered
    first = Triage(view(shown), library, None)
    first.decide(SKIP)
    save_place(where, filter_key("graph", "relevance"), first.place())
    for kind in (SKIP, KEEP, LATER, "#to-read"):  # saved by the library, not the place: killed
        first.decide(kind)
    kept = load_places(where)[filter_key("graph", "relevance")]
    again = Triage(view(shown), library, kept)
    assert again.current == shown[5]
    assert again.progress() == "6 of 8 · 1 kept · 3 skipped · 1 later"  # a quick tag: a skip
    assert [p.id for p in again.papers] == [p.id for p in shown]
    for _ in range(2):
        again.decide(SKIP)
    assert again.current == shown[7]


def test_a_triage_taken_up_counts_the_papers_it_decided_that_left_the_list() -> None:
    """Under `is:unread`, the papers skipped are read and no longer shown: taken up, the
    triage said "1 of 4 · 0 kept · 0 skipped", its counts lost."""
    shown, library = papers(6), Library(None)
    first = Triage(view(shown), library, None)
    first.decide(SKIP)
    first.decide(KEEP)
    unread = PaperStore(shown).view(np.arange(2, 6, dtype=np.int64))  # is:unread
    again = Triage(unread, library, first.place())
    assert again.current == shown[2]
    assert again.progress() == "3 of 6 · 1 kept · 1 skipped · 0 later"
    assert [p.id for p in again.papers] == [p.id for p in shown]


def test_a_triage_taken_up_counts_the_papers_decided_outside_it_that_left_the_list(
    tmp_path: Path,
) -> None:
    """`r` in the list after leaving a triage of `is:unread`: taken up, the triage said
    "3 of 5 · 2 skipped", the paper read in the list neither shown nor counted."""
    where = tmp_path / "triage.json"
    shown, library = papers(6), Library(None)
    first = Triage(view(shown), library, None)
    first.decide(SKIP)
    first.decide(SKIP)
    save_place(where, "q\nrelevance", first.place())
    library.set_read([shown[2].id], True, undoable=True)  # r, once the place was kept
    unread = PaperStore(shown).view(np.arange(3, 6, dtype=np.int64))
    again = Triage(unread, library, load_places(where)["q\nrelevance"])
    assert again.current == shown[3]
    assert again.progress() == "4 of 6 · 0 kept · 3 skipped · 0 later"


def test_a_decision_undone_in_the_list_after_the_triage_is_made_again_when_taken_up() -> None:
    """A skip undone with u in the list was still counted when the triage was taken up, and
    the paper, unread again, was never offered. A decision changed since counts as it is."""
    shown, library = papers(6), Library(None)
    first = Triage(view(shown), library, None)
    for kind in (SKIP, KEEP, SKIP, KEEP):
        first.decide(kind)
    library.undo()  # in the list, after leaving the triage: the last decision, a keep
    library.undo()  # and the skip before it
    library.change([shown[0].id], "bookmarked", bookmarked=True)  # skipped, now kept
    again = Triage(view(shown), library, first.place())
    assert again.progress() == "3 of 6 · 2 kept · 0 skipped · 0 later"
    assert [again.current, again.ahead()] == [shown[2], shown[3]]
    again.decide(KEEP)
    assert again.progress() == "4 of 6 · 3 kept · 0 skipped · 0 later"


@pytest.mark.parametrize("kind", [KEEP, LATER, "#kernels"])
@pytest.mark.parametrize("before", ["read", "bookmarked"])
def test_a_decision_on_a_paper_read_or_kept_before_is_made_again_once_undone(
    kind: str, before: str
) -> None:
    """Undone, a keep or a later on a paper read before it leaves it read: taken up, the
    triage counted it as skipped; a keep on a paper bookmarked (and not read) counted as kept."""
    shown, library = papers(3), Library(None)
    if before == "read":
        library.set_read([shown[0].id], True)
    else:
        library.set_bookmarked([shown[0].id], True)
    first = Triage(view(shown), library, None)
    while first.current != shown[0]:  # unread first: one read comes last
        first.decide(SKIP)
    skipped = len(first.decisions)
    first.decide(kind)
    library.undo()  # in the list
    again = Triage(view(shown), library, first.place())
    assert again.current == shown[0]
    assert again.progress() == f"{skipped + 1} of 3 · 0 kept · {skipped} skipped · 0 later"
