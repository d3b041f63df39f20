"""The footer shows the keys in reach: the paper keys once there are papers, none of the main
screen's under a dialog."""

from textual.widgets._footer import FooterKey

from tests.pilot_helpers import ready, wait_until
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp


def footer(app: ReaderApp) -> list[str]:
    return [key.description for key in app.workspace.query(FooterKey)]


async def test_the_paper_keys_come_back_when_the_list_fills_again(seed_store: PaperStore) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        await pilot.press("slash", *"xqzxqz", "enter")  # no paper: no paper keys
        await wait_until(pilot, lambda: "Bookmark" not in footer(app), "the paper keys gone")
        app.workspace.filter_input.value = ""  # as a feed chosen from F: no focus change
        await wait_until(pilot, lambda: "Bookmark" in footer(app), "the paper keys back")


async def test_under_a_dialog_the_main_screen_keys_are_not_offered(
    seed_store: PaperStore,
) -> None:
    app = ReaderApp(Opening(seed_store))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: {"Keys", "Quit", "Bookmark"} <= set(footer(app)), "keys")
        await pilot.press("T")
        hidden = {"Keys", "Quit", "Bookmark"}
        await wait_until(pilot, lambda: not hidden & set(footer(app)), "the screen's keys hidden")
        await pilot.press("q")  # not a quit here: the dialog's own key closes it
        await wait_until(pilot, lambda: app.screen is app.workspace, "the dialog closed")
        await wait_until(pilot, lambda: "Quit" in footer(app), "the keys back")
        await pilot.press("q")
    assert app.return_code == 0
