"""Start the installed reader headless on its bundled abstracts and check what it shows."""

import asyncio

import tui_reader
from tui_reader.core.loading import load_paths
from tui_reader.core.opening import Opening
from tui_reader.core.store import PaperStore
from tui_reader.resources import bundled
from tui_reader.ui.app import ReaderApp


async def main() -> None:
    assert "site-packages" in tui_reader.__file__, tui_reader.__file__
    loaded = load_paths([bundled("seeds")])
    app = ReaderApp(Opening(PaperStore(loaded.papers, loaded.collections)))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(600):  # indexed in a thread: "38 papers · indexing…" until then
            if app.workspace.status == "ready":
                break
            await pilot.pause(0.05)
        shown = app.workspace.sub_title
        assert shown == "38 papers", shown
        assert app.stylesheet.source, "no stylesheet loaded"
        assert any(path.endswith("app.tcss") for path, _ in app.stylesheet.source), "no app.tcss"
    print(f"installed package at {tui_reader.__file__} shows 38 papers with its styles")


asyncio.run(main())
