"""The layers hold, `cli | ui | core`: core imports only core (and no Textual), the UI imports no
command, and every module of every subpackage is checked, those imported only inside a function
too; no modules import one another in a circle, and none is over 600 lines nor any class
over 450."""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tui_reader"
VERSION = "tui_reader.__version__"  # the package's own: any module may name it
# What each layer may import of the package, by the module names' beginnings.
SHARED = ("tui_reader.resources", "tui_reader.startup", "tui_reader.core")
ALLOWED = {
    "tui_reader.core": ("tui_reader.core",),
    "tui_reader.ui": (*SHARED, "tui_reader.ui"),
    "tui_reader.cli": (*SHARED, "tui_reader.terminal_output", "tui_reader.ui", "tui_reader.cli"),
    "tui_reader.resources": ("tui_reader.core",),
    "tui_reader.startup": ("tui_reader.core",),
    "tui_reader.terminal_output": ("tui_reader.core",),
    "tui_reader.__main__": ("tui_reader.startup", "tui_reader.cli"),
    "tui_reader": (),  # the package itself: its version alone
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """The modules a file imports, wherever in it (relative imports made absolute)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rsplit(".", 1)[0]
    )
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    [*package.split(".")[: len(package.split(".")) - node.level + 1], base]
                ).strip(".")
            names |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return names


def layer_of(name: str) -> tuple[str, ...] | None:
    """What the module may import of the package; None for a module in no layer."""
    for prefix, allowed in sorted(ALLOWED.items(), key=lambda item: -len(item[0])):
        if name == prefix or (name.startswith(prefix + ".") and prefix != "tui_reader"):
            return allowed
    return None


def test_every_module_imports_only_the_layers_below_it() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    names = {module_name(path) for path in modules}
    assert {"tui_reader.core.sources.arxiv", "tui_reader.cli.commands.fetch"} <= names
    assert [name for name in names if layer_of(name) is None] == []
    wrong = []
    for path in modules:
        allowed = layer_of(module_name(path))
        assert allowed is not None
        for name in imported(path):
            ours = name.split(".")[0] == "tui_reader" and name not in ("tui_reader", VERSION)
            if ours and not name.startswith(allowed) and not name.startswith(module_name(path)):
                wrong.append(f"{module_name(path)} imports {name}")
            if module_name(path).startswith("tui_reader.core") and name.split(".")[0] in (
                "textual",
                "rich",
            ):
                wrong.append(f"{module_name(path)} imports {name}")
    assert wrong == []


def test_core_and_all_its_subpackages_import_no_textual() -> None:
    code = (
        "import sys, pkgutil, importlib, tui_reader.core as core\n"
        "for module in pkgutil.walk_packages(core.__path__, 'tui_reader.core.'):\n"
        "    importlib.import_module(module.name)\n"
        "print('tui_reader.core.sources.arxiv' in sys.modules)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    # Not rich: httpx imports it for its own command line wherever click is installed.
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "[]"]


def import_graph(package: str) -> dict[str, set[str]]:
    """Each module of the package (its subpackages' too), with the modules of it it imports."""
    paths = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    inside = {name for name in paths if name == package or name.startswith(package + ".")}
    # A package importing its own modules (`from . import x`) names itself: no circle.
    return {
        name: {other for other in imported(paths[name]) if other in inside and other != name}
        for name in inside
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of imports: each set of modules that import one another, directly or
    through others of them."""
    reaching = {name: _reached(graph, name) for name in graph}
    found = {
        tuple(sorted(other for other in reaching[name] if name in reaching[other]))
        for name in graph
        if name in reaching[name]
    }
    return sorted(list(circle) for circle in found)


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules `start` imports, directly or through others."""
    seen: set[str] = set()
    waiting = list(graph[start])
    while waiting:
        name = waiting.pop()
        if name not in seen:
            seen.add(name)
            waiting += graph[name]
    return seen


def test_no_modules_import_one_another_in_a_circle() -> None:
    """Imports made only for type checking count too: a circle there is one to a reader."""
    graph = import_graph("tui_reader")
    assert {"tui_reader.cli.shared"} <= graph["tui_reader.cli.commands.search"]
    assert circles(graph) == []


MODULE_LINES, CLASS_LINES = 600, 450


def test_no_module_and_no_class_is_too_long_to_read() -> None:
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if (lines := len(text.splitlines())) > MODULE_LINES:
            too_long.append(f"{module_name(path)}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.ClassDef) or node.end_lineno is None:
                continue
            if (lines := node.end_lineno - node.lineno + 1) > CLASS_LINES:
                too_long.append(f"{module_name(path)}.{node.name}: {lines} lines")
    assert too_long == []


def test_a_circle_of_imports_is_found_through_other_modules() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": set()}
    assert circles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert circles({"a": {"b"}, "b": set()}) == []
