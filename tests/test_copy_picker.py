"""The copy picker names each link by its kind (Paper.kind_links)."""

from textual.app import App, ComposeResult
from textual.widgets import OptionList, Static

from tui_reader.ui.copy_picker import CopyPicker, Pick

ABSTRACT = "https://arxiv.org/abs/2501.01234"
PDF = "https://arxiv.org/pdf/2501.01234"
DOI = "https://doi.org/10.1234/x"
CODE = "https://github.com/example/sparse"
SEARCH = "https://scholar.google.com/scholar?q=Sparse"
KINDS = (("abstract", ABSTRACT), ("pdf", PDF), ("doi", DOI), ("code", CODE))


class Host(App[None]):
    def __init__(self, picker: CopyPicker) -> None:
        super().__init__()
        self.picker = picker
        self.picked: list[Pick | None] = []

    def compose(self) -> ComposeResult:
        yield Static("host")

    def on_mount(self) -> None:
        self.push_screen(self.picker, self.picked.append)


def prompts(app: Host) -> list[str]:
    options = app.screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_each_link_is_named_by_its_kind_and_copies_as_before() -> None:
    links = [ABSTRACT, PDF, DOI, CODE, "https://example.org/in-the-text", SEARCH]
    app = Host(CopyPicker("Copy from [/b] Sparse", links, KINDS))
    async with app.run_test(size=(120, 30)) as pilot:
        shown = prompts(app)
        assert shown[:6] == [
            f" 1  abstract page  {ABSTRACT}",
            f" 2  PDF            {PDF}",
            f" 3  DOI            {DOI}",
            f" 4  code           {CODE}",
            " 5                 https://example.org/in-the-text",
            f" 6                 {SEARCH}",
        ]
        await pilot.press("2")
    assert app.picked == [Pick("link", 2)]


async def test_without_kinds_the_links_are_listed_as_they_were() -> None:
    app = Host(CopyPicker("Copy", [SEARCH]))
    async with app.run_test(size=(120, 30)):
        assert prompts(app)[0] == f" 1  {SEARCH}"


async def test_j_and_k_move_in_the_picker_as_in_the_list() -> None:
    links = [ABSTRACT, PDF, DOI, CODE]
    app = Host(CopyPicker("Copy", links, KINDS))
    async with app.run_test(size=(120, 30)) as pilot:
        options = app.screen.query_one(OptionList)
        start = options.highlighted
        await pilot.press("j", "j")
        assert options.highlighted == (start or 0) + 2
        await pilot.press("k")
        assert options.highlighted == (start or 0) + 1
        await pilot.press("G")
        assert options.highlighted == options.option_count - 1
        await pilot.press("g", "enter")
    assert app.picked and app.picked[0] is not None


async def test_a_long_link_takes_one_line_and_is_copied_whole() -> None:
    long = SEARCH + "%20many%20more%20words" * 8
    app = Host(CopyPicker("Copy", [long, PDF]))
    async with app.run_test(size=(100, 30)) as pilot:
        lines = [strip.text for strip in app.screen._compositor.render_strips()]
        first = next(line for line in lines if " 1  https://scholar" in line)
        assert "…" in first
        assert any(" 2  " + PDF in line for line in lines)
        await pilot.press("1")
    assert app.picked == [Pick("link", 1)]  # the link itself, whole, is what is copied
