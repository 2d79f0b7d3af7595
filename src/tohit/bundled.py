"""Where the bundled examples are: one folder, found the same way by `tohit demo`, `tohit examples` and the
server's list of example fights.

The files live once, in the repository's `examples/` folder (where the README, the tests and the benchmarks name
them). The wheel ships them inside the package, as `tohit/examples/` (setup.py maps the folder in). So an installed
tohit reads them beside its own code, and a checkout (tohit run from `src/`, or installed in editable mode) reads
`examples/` at the repository's root.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
#: The examples an installed wheel carries.
INSTALLED = _PACKAGE / "examples"
#: The examples of a checkout: src/tohit -> the repository's root, known by its pyproject.toml.
CHECKOUT = _PACKAGE.parents[1] / "examples"


def examples_folder() -> Path | None:
    """The bundled examples' folder (scenarios by game, fights in `fights/`), or None if neither is there."""
    if INSTALLED.is_dir():
        return INSTALLED
    if CHECKOUT.is_dir() and (CHECKOUT.parent / "pyproject.toml").is_file():
        return CHECKOUT
    return None


def fights_folder() -> Path | None:
    """The bundled example fights (`fights/` of the examples), or None."""
    folder = examples_folder()
    return None if folder is None else folder / "fights"
