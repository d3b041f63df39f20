"""The layers hold: core imports only core (and no Textual), the UI imports no command, and every
module of every subpackage is checked, those imported only inside a function too."""

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
    "tui_reader.resources": ("tui_reader.core",),
    "tui_reader.startup": ("tui_reader.core",),
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
    for prefix, allowed in ALLOWED.items():
        if name == prefix or name.startswith(prefix + "."):
            return allowed
    return None  # the commands: anything


def test_every_module_imports_only_the_layers_below_it() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert any("core/sources" in str(path) for path in modules)
    wrong = []
    for path in modules:
        allowed = layer_of(module_name(path))
        if allowed is None:
            continue
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
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
