"""Where the bundled seeds and styles are: in the installed package, or beside it in a checkout."""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def bundled(name: str) -> Path:
    """The bundled folder `name` ("seeds" or "styles").

    A wheel carries it inside the package; a source checkout has it at the top level.
    """
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _PACKAGE.parent / name
