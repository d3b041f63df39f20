"""Going back and forward: a jump (to a related paper, to a tag's papers) is remembered with
the filter and the paper it left, so [ returns there and ] goes forward again."""

from tests.pilot_helpers import related_shown, type_filter, wait_until
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp


def place(app: ReaderApp) -> tuple[str, str | None]:
    current = app.workspace.paper_list.current
    return app.workspace.filter_input.value, current.id if current is not None else None


async def test_back_after_a_related_jump_restores_the_filter_and_the_paper(
    seed_store: PaperStore,
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 40)) as pilot:
        await type_filter(pilot, "vericoding")
        await pilot.press("enter")
        before = place(app)
        await related_shown(pilot, app.workspace.paper_list.current.id)
        target = app.workspace.detail_pane.related[1][0]
        await pilot.press("1")  # not among the papers shown: the filter clears
        await wait_until(pilot, lambda: place(app) == ("", target.id), "the related paper")
        await pilot.press("left_square_bracket")
        await wait_until(pilot, lambda: place(app) == before, "back where the jump started")
        assert app.workspace.shown_query == "vericoding"
        await pilot.press("right_square_bracket")
        await wait_until(pilot, lambda: place(app) == ("", target.id), "forward again")
        await pilot.press("right_square_bracket")
        assert [n.message for n in app._notifications][-1] == "Nothing to go forward to"


async def test_back_after_choosing_a_tag_in_the_tags_view(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        app.library.change_tags([seed_store[3].id], ["later"])
        await pilot.press("j", "j")
        before = place(app)
        await pilot.press("T", "enter")  # the only tag: its papers
        await wait_until(pilot, lambda: place(app) == ("#later", seed_store[3].id), "#later")
        await pilot.press("left_square_bracket")
        await wait_until(pilot, lambda: place(app) == before, "back to every paper")


async def test_back_with_nowhere_to_go_says_so(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("left_square_bracket")
        assert [n.message for n in app._notifications] == ["Nothing to go back to"]


async def test_brackets_are_typed_in_the_filter(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("slash", "left_square_bracket", *"x", "right_square_bracket")
        assert app.workspace.filter_input.value == "[x]"


async def test_back_within_the_same_list(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 40)) as pilot:
        await related_shown(pilot, seed_store[0].id)
        target = app.workspace.detail_pane.related[1][0]
        await pilot.press("1")
        await wait_until(pilot, lambda: place(app) == ("", target.id), "the related paper")
        await pilot.press("left_square_bracket")
        await wait_until(pilot, lambda: place(app) == ("", seed_store[0].id), "the first again")


async def test_a_place_is_remembered_once_however_often_a_jump_leaves_it(
    seed_store: PaperStore,
) -> None:
    """Jumping from the same paper twice took two [ to get past it: the second went nowhere."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 40)) as pilot:
        first = seed_store[0].id
        await related_shown(pilot, first)
        target = app.workspace.detail_pane.related[1][0]
        for _ in range(2):
            await related_shown(pilot, first)
            await pilot.press("1")
            await wait_until(pilot, lambda: place(app) == ("", target.id), "the related paper")
            await pilot.press("g")  # back to the first paper by hand
            await wait_until(pilot, lambda: place(app) == ("", first), "the first paper")
        await related_shown(pilot, first)
        await pilot.press("1")
        await wait_until(pilot, lambda: place(app) == ("", target.id), "the related paper")
        await pilot.press("left_square_bracket")
        await wait_until(pilot, lambda: place(app) == ("", first), "back to the first")
        await pilot.press("left_square_bracket")
        assert [n.message for n in app._notifications][-1] == "Nothing to go back to"


async def test_going_back_passes_over_a_jump_that_went_nowhere(seed_store: PaperStore) -> None:
    """Choosing the tag whose papers are shown already left a place where the reader was."""
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(100, 30)) as pilot:
        app.library.change_tags([seed_store[3].id], ["later"])
        before = place(app)
        await pilot.press("T", "enter")
        await wait_until(pilot, lambda: place(app) == ("#later", seed_store[3].id), "#later")
        await pilot.press("T", "enter")  # the same papers again
        await wait_until(pilot, lambda: app.screen is app.workspace, "the tags closed")
        await pilot.press("left_square_bracket")
        await wait_until(pilot, lambda: place(app) == before, "back to every paper")
        await pilot.press("right_square_bracket")
        await wait_until(pilot, lambda: place(app) == ("#later", seed_store[3].id), "forward")
        await pilot.press("right_square_bracket")
        assert [n.message for n in app._notifications][-1] == "Nothing to go forward to"
