"""Triage, feeds and pipes from the reader's main screen: I, S, F and |."""

import json
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, TextArea

from tui_reader.core.config import Config
from tui_reader.core.library import Library
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.ui.app import ReaderApp
from tui_reader.ui.dialogs import PromptScreen
from tui_reader.ui.feeds_screen import FeedsScreen
from tui_reader.ui.pipe_screen import PipeOutputScreen, PipePicker
from tui_reader.ui.triage_screen import TriageScreen

from .pilot_helpers import ready, type_filter, wait_until, work_done


def reader(store: PaperStore, path: Path, **config: object) -> ReaderApp:
    library, messages = Library.open(path)
    assert messages == []
    return ReaderApp(Opening(store), library, Config(read_after=0, **config))  # type: ignore[arg-type]


async def triage_of(pilot: Pilot[None], query: str) -> TriageScreen:
    """The triage of the papers `query` shows in full, opened with I once the reader is up."""
    await ready(pilot)
    await type_filter(pilot, query)
    await pilot.press("enter", "I")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, TriageScreen), "triage")
    triage = pilot.app.screen
    assert isinstance(triage, TriageScreen)
    return triage


async def test_i_triages_the_papers_shown_and_escape_leaves_the_list_on_the_last(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await type_filter(pilot, "reinforcement")
        await pilot.press("enter")
        shown = list(app.workspace.paper_list.papers[: app.workspace.paper_list.full])
        assert len(shown) > 3
        await pilot.press("I")
        triage = app.screen
        assert isinstance(triage, TriageScreen)
        assert [paper.id for paper in triage.triage.papers] == [paper.id for paper in shown]
        await pilot.press("enter", "x")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not triage, "the triage to close")
        current = app.workspace.paper_list.current
        assert current is not None and current.id == shown[2].id
        assert app.library.is_bookmarked(shown[0].id) and app.library.is_read(shown[1].id)
        await pilot.press("u")  # in the list, after triage
        assert app.library.is_read(shown[1].id) is False
        assert app.library.is_bookmarked(shown[0].id) and app.library.is_read(shown[0].id)


async def test_quitting_in_a_triage_keeps_the_paper_it_reached_for_the_next_start(
    seed_store: PaperStore, private_library: Path
) -> None:
    """Ctrl+Q in a triage: the next start opened on the list's first paper, not the one the
    triage reached, as Escape then q gave."""
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        triage = await triage_of(pilot, "reinforcement")
        await pilot.press("x", "x")
        reached = triage.triage.current
        assert reached is not None
        await app.action_quit()
    assert app.session().paper_id == reached.id


async def test_the_paper_triage_stopped_on_is_not_read_for_being_under_the_cursor(
    seed_store: PaperStore, private_library: Path
) -> None:
    """The list's cursor is put on the paper triage stopped on; read_after later it was
    read, though the reader had not moved to it (nor decided on it: x then u)."""
    library, _ = Library.open(private_library)
    app = ReaderApp(Opening(seed_store), library, Config(read_after=0.2))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await type_filter(pilot, "is:unread")
        await pilot.press("enter", "I")
        await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen), "triage")
        await pilot.press("x", "u", "escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list again")
        current = app.workspace.paper_list.current
        assert current is not None and current.id == seed_store[0].id
        await pilot.pause(0.5)
        assert not app.library.is_read(current.id)
        await pilot.press("j", "k")  # moved to by the reader: read
        await wait_until(pilot, lambda: app.library.is_read(current.id), "the paper read")


async def test_s_saves_the_filter_and_f_lists_and_applies_it(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await pilot.press("S")
        assert app.screen is app.screen_stack[0], "no filter: nothing to save"
        await type_filter(pilot, "bandit")
        await pilot.press("enter", "S")
        assert isinstance(app.screen, PromptScreen)
        app.screen.query_one(Input).value = "bandits [/b]"
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: Library.open(private_library)[0].saved_searches() == {"bandits [/b]": "bandit"},
            "the search saved",
        )
        await pilot.press("slash", "escape", "escape", "F")  # the filter cleared, left
        feeds = app.screen
        assert isinstance(feeds, FeedsScreen)
        await wait_until(pilot, lambda: feeds.counts and feeds.counts[0].total, "the counts")
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: app.workspace.shown_query == "bandit", "the feed's papers shown"
        )
        assert app.workspace.filter_input.value == "bandit"


def reader_with_a_feed(store: PaperStore, path: Path) -> ReaderApp:
    """The reader of a library holding one saved search, "diffusion"."""
    library, _ = Library.open(path)
    library.save_search("diffusion", "diffusion")
    library.save()
    return reader(store, path)


async def test_the_feeds_are_shown_at_start_when_there_are_any(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader_with_a_feed(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FeedsScreen), "the feeds")
        await pilot.press("escape")
        assert app.screen is app.screen_stack[0]


async def test_the_feeds_open_on_the_search_the_list_shows(
    seed_store: PaperStore, private_library: Path
) -> None:
    """They opened on the first search each time, not on the one just read."""
    library, _ = Library.open(private_library)
    library.save_search("diffusion", "diffusion")
    library.save_search("bandits", "bandit")
    library.save()
    app = reader(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:

        async def highlighted() -> int | None:
            await wait_until(pilot, lambda: isinstance(app.screen, FeedsScreen), "the feeds")
            picker = app.screen.query_one(OptionList)
            await wait_until(pilot, lambda: picker.highlighted is not None, "the searches")
            return picker.highlighted

        assert await highlighted() == 0  # listed by name: bandits, diffusion
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: app.workspace.shown_query == "diffusion", "its papers")
        await pilot.press("F")
        assert await highlighted() == 1


async def test_a_search_typed_as_the_feeds_open_goes_to_the_filter(
    seed_store: PaperStore, private_library: Path
) -> None:
    """The panel opens by itself: "/dynamics" typed then was read as its keys, and its d
    and y deleted a saved search."""
    app = reader_with_a_feed(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FeedsScreen), "the feeds")
        for key in ("slash", *"dynamics"):
            app.post_message(events.Key(key, "/" if key == "slash" else key))
        await wait_until(pilot, lambda: app.workspace.filter_input.value == "dynamics", "typed")
        assert app.library.saved_searches() == {"diffusion": "diffusion"}


async def test_a_saved_search_deleted_comes_back_with_undo(
    seed_store: PaperStore, private_library: Path
) -> None:
    app = reader_with_a_feed(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FeedsScreen), "the feeds")
        await pilot.press("d", "enter")
        await wait_until(pilot, lambda: not app.library.saved_searches(), "deleted")
        await pilot.press("escape", "u")
        await wait_until(pilot, lambda: bool(app.library.saved_searches()), "back")
        assert app.library.saved_searches() == {"diffusion": "diffusion"}
        await work_done(app)
        assert Library.open(private_library)[0].saved_searches() == {"diffusion": "diffusion"}


async def test_u_in_the_feeds_panel_undoes_a_delete_and_lists_the_search_again(
    seed_store: PaperStore, private_library: Path
) -> None:
    """The panel says "u undoes it": u did nothing there until the panel was closed."""
    app = reader_with_a_feed(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FeedsScreen), "the feeds")
        feeds = app.screen
        assert isinstance(feeds, FeedsScreen)
        listed = feeds.query_one(OptionList)
        await pilot.press("d", "enter")
        await wait_until(pilot, lambda: app.screen is feeds and not listed.option_count, "deleted")
        assert not app.library.saved_searches()
        await pilot.press("u")
        await wait_until(pilot, lambda: listed.option_count == 1, "the search listed again")
        assert app.screen is feeds
        assert [feed.name for feed in feeds.counts] == ["diffusion"]
        assert app.library.saved_searches() == {"diffusion": "diffusion"}
        told = [notice.message for notice in app._notifications]
        assert told[-1] == "Undone: delete the saved search “diffusion”"
        await work_done(app)
        assert Library.open(private_library)[0].saved_searches() == {"diffusion": "diffusion"}
        await wait_until(pilot, lambda: feeds.counts[0].total, "counted again")
        await pilot.press("enter")  # the search restored is one to show
        await wait_until(
            pilot, lambda: app.workspace.shown_query == "diffusion", "the feed's papers shown"
        )


async def test_a_word_typed_as_the_feeds_open_deletes_no_search(
    seed_store: PaperStore, private_library: Path
) -> None:
    """The panel opens by itself at start: "dynamic" typed then asked to delete the search
    with its d, and said yes with its y."""
    app = reader_with_a_feed(seed_store, private_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FeedsScreen), "the feeds")
        await pilot.press(*"dynamic")
        await pilot.pause(0.3)
        assert app.library.saved_searches() == {"diffusion": "diffusion"}


async def test_bar_pipes_the_current_paper_to_a_command(
    seed_store: PaperStore, private_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = reader(seed_store, private_library, commands={"count": "wc -l"})
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await pilot.press("vertical_line")
        assert isinstance(app.screen, PipePicker)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PipeOutputScreen), "the output")
        output = app.screen
        assert isinstance(output, PipeOutputScreen)
        await wait_until(pilot, lambda: not output.running, "wc to end")
        assert output.query_one(TextArea).text.strip() == "1"


async def _triage_two(app: ReaderApp) -> list[str]:
    """Triage the papers matching "reinforcement": keep one, skip one, leave; their ids."""
    async with app.run_test(size=(100, 30)) as pilot:
        triage = await triage_of(pilot, "reinforcement")
        decided = [paper.id for paper in triage.triage.papers][:2]
        await pilot.press("enter", "x", "escape")
        await wait_until(pilot, lambda: app.screen is app.workspace, "the list again")
        await work_done(app)
    return decided


async def _progress_of_a_triage(app: ReaderApp) -> tuple[str, str]:
    """The progress a triage of "reinforcement" opens on, and what u then says."""
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await type_filter(pilot, "reinforcement")
        await pilot.press("enter", "I")
        await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen), "triage")
        triage = app.screen
        assert isinstance(triage, TriageScreen)
        progress = triage.triage.progress()
        await pilot.press("u")
        said = [n.message for n in app._notifications][-1]
        await pilot.press("escape")
    return progress, said


async def test_a_triage_goes_on_in_its_own_library_and_collection_only(
    seed_store: PaperStore, private_library: Path, tmp_path: Path
) -> None:
    decided = await _triage_two(reader(seed_store, private_library))
    fresh = reader(seed_store, tmp_path / "fresh.json")
    progress, said = await _progress_of_a_triage(fresh)
    assert progress.startswith("1 of ") and "0 kept · 0 skipped" in progress
    assert said == "Nothing to undo in this triage"
    without = PaperStore([paper for paper in seed_store if paper.id not in decided])
    library, _ = Library.open(private_library)
    other = ReaderApp(Opening(without, collection="other"), library, Config(read_after=0))
    progress, _ = await _progress_of_a_triage(other)
    assert progress.startswith("1 of "), "another collection, without its papers: its own"
    library, _ = Library.open(private_library)
    grown = ReaderApp(Opening(seed_store, collection="grown"), library, Config(read_after=0))
    progress, _ = await _progress_of_a_triage(grown)
    assert progress.startswith("3 of ") and "1 kept · 1 skipped" in progress, "files added"
    progress, _ = await _progress_of_a_triage(reader(seed_store, private_library))
    assert progress.startswith("3 of ") and "1 kept · 1 skipped" in progress


async def test_a_place_kept_with_no_library_goes_to_the_library_holding_its_decisions(
    seed_store: PaperStore, private_library: Path, tmp_path: Path
) -> None:
    decided = await _triage_two(reader(seed_store, private_library))
    places = tmp_path / "triage.json"  # as a version naming no library kept it
    kept = json.loads(places.read_text())["filters"]
    (place,) = kept.values()
    places.write_text(json.dumps({"version": 1, "filters": {"reinforcement\nrelevance": place}}))
    assert place["decisions"] == {decided[0]: "kept", decided[1]: "skipped"}
    progress, _ = await _progress_of_a_triage(reader(seed_store, tmp_path / "fresh.json"))
    assert progress.startswith("1 of "), "not the fresh library's: ignored"
    progress, _ = await _progress_of_a_triage(reader(seed_store, private_library))
    assert progress.startswith("3 of ") and "1 kept · 1 skipped" in progress
    keys = json.loads(places.read_text())["filters"]
    assert f"{private_library.resolve()}\n\nreinforcement\nrelevance" in keys
    assert "reinforcement\nrelevance" not in keys, "taken up: no other library takes it up"
