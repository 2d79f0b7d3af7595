"""What a live encounter of Reclaim the Wild asks beyond the turns: the range of each stat a game
master sets by hand (where a creature stands: a square of the map). `RtwFight` (fight.py) plays the turns."""

from __future__ import annotations

from typing import Any

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.rounds import RoundRules


class RtwLive(RoundRules):
    """The stats' ranges."""

    def stat_range(self, fight: LoadedFight, stat: str) -> tuple[int, int] | None:
        """Where it stands (`x`, `y`): a square of the map (the GM's free move; the map's rules refuse a solid or
        taken one at the next turn); Magic, Stamina and a weapon's durability from -1 (none); `distracted` a
        mask of its foes' numbers; the rest as `FightRules.stat_range`."""
        stem = stat.rstrip("0123456789") or stat
        if stat in ("x", "y"):
            return (0, _map_size(fight.spec.map)[stat == "y"] - 1)
        if stem in ("magic", "stamina", "durability"):
            return (-1, 10**9)
        if stem == "used":
            return (0, 10**9)
        if stat == "distracted":
            return (0, 2**fight.roster.size - 1)
        return super().stat_range(fight, stat)


def _map_size(spec: Any) -> tuple[int, int]:
    """(width, height) of a fight's map (its `rows`, or its `width` and `height`)."""
    if spec.rows is not None:
        return max(len(r) for r in spec.rows), len(spec.rows)
    return int(spec.width), int(spec.height)
