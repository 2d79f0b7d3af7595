"""Nothing outside `systems/` names a game (issue 14, item 4): `engine`, `core`, `cli` and `api` work from
the registry only, so a game is added or removed without touching them. Game ids, package names, titles
and rulebook pages come from the registry; comments and docstrings count too."""

from __future__ import annotations

import re
from pathlib import Path

from tohit.engine import registry

SRC = Path(__file__).resolve().parents[1] / "src" / "tohit"
#: Nothing is exempt: every game's code is in its package under `systems/`.
MOVING: tuple[str, ...] = ()


def game_names() -> set[str]:
    names: set[str] = set()
    for system in registry.systems().values():
        package = type(system).__module__.split(".")[2]
        names |= {system.id, system.id.replace("-", "_"), system.id.replace("-", " "), package, system.title}
        names.add(Path(system.page).stem)
    return names


def outside_systems() -> list[Path]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if not rel.startswith("systems/") and not rel.startswith(MOVING):
            found.append(path)
    return found


def test_no_game_is_named_outside_systems() -> None:
    pattern = re.compile(
        "|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in sorted(game_names(), key=len, reverse=True)),
        re.IGNORECASE,
    )
    hits = [
        f"{path.relative_to(SRC)}:{i}: {line.strip()}"
        for path in outside_systems()
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not hits, "a game named outside systems/:\n" + "\n".join(hits)
