"""Imports point down the layers of design.md: interfaces -> engine -> systems -> core; no circles.

A system imports only `tohit.core` (and itself); core imports nothing above it; the engine never imports
an interface. Function-local imports count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "tohit"
FORBIDDEN = {
    "core": ("tohit.engine", "tohit.systems", "tohit.cli", "tohit.api"),
    "systems": ("tohit.engine", "tohit.cli", "tohit.api"),
    "engine": ("tohit.cli", "tohit.api"),
}


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


MODULES = sorted(p for p in SRC.rglob("*.py") if p.relative_to(SRC).parts[0] in FORBIDDEN)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_point_down_the_layers(path: Path) -> None:
    parts = path.relative_to(SRC).parts
    layer = parts[0]
    for name in imports(path):
        assert not name.startswith(FORBIDDEN[layer]), f"{layer} module imports {name}"
        if layer == "systems" and name.startswith("tohit.systems.") and len(parts) > 2:
            assert name.split(".")[2] == parts[1], f"system {parts[1]} imports another system: {name}"
