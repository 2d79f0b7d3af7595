"""Registering a game by entry point from a test, with no install: the `register_game` fixture (conftest).

`GamePackages(root)` writes `<dist>-<version>.dist-info/METADATA` and `entry_points.txt` under `root`,
a folder the fixture puts first on sys.path, so `importlib.metadata.entry_points(group="tohit.systems")`
finds them as it finds an installed package's; the registry's cache is cleared after each registration
and when the test ends. A distribution named `tohit` shadows the installed tohit's own metadata (the
first on sys.path wins), which lets a test choose which built-in games tohit itself registers, if any.

Games registered here (the values point at these objects):
- `RTW_COPY`: Reclaim the Wild under another id, `rtw-copy` (a game with map rules that is not `rtw`);
- `NOT_A_GAME`: something that is not a `System`.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from tohit.engine import registry
from tohit.systems.rtw.tactical import TacticalReclaimTheWild


class RtwCopy(TacticalReclaimTheWild):
    id = "rtw-copy"
    title = "Reclaim the Wild, registered again by a test"


RTW_COPY = RtwCopy()
NOT_A_GAME = {"id": "not-a-game"}


class GamePackages:
    """Fake installed distributions under `root`, each with its `tohit.systems` entry points."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.points: dict[str, dict[str, str]] = {}

    def register(self, name: str, value: str, dist: str = "tohit-test-games") -> None:
        """Register entry point `name = value` in group `tohit.systems` of distribution `dist`."""
        self.points.setdefault(dist, {})[name] = value
        self._write(dist)

    def distribution(self, dist: str) -> None:
        """Distribution `dist` with no entry points in the group (`tohit`: as installed before tohit
        registered its games, whatever the installed metadata says)."""
        self.points.setdefault(dist, {})
        self._write(dist)

    def _write(self, dist: str) -> None:
        info = self.root / f"{dist.replace('-', '_')}-0.1.dist-info"
        info.mkdir(exist_ok=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
        lines = [f"{n} = {v}" for n, v in self.points[dist].items()]
        (info / "entry_points.txt").write_text("\n".join([f"[{registry.GROUP}]", *lines]) + "\n")
        importlib.invalidate_caches()
        registry.systems.cache_clear()
