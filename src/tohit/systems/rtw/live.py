"""What a live encounter of Reclaim the Wild asks beyond the turns (issue 27): the range of each stat a game
master sets by hand (where a creature stands is set by a move, which the map's rules check). `RtwFight`
(fight.py) plays the turns."""

from __future__ import annotations

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.rounds import RoundRules


class RtwLive(RoundRules):
    """The stats' ranges."""

    def stat_range(self, fight: LoadedFight, stat: str) -> tuple[int, int] | None:
        """Where it stands (`x`, `y`) is set by a move (the map's rules check the square); Magic, Stamina and a
        weapon's durability from -1 (none); `distracted` a mask of its foes' numbers; the rest as
        `FightRules.stat_range`."""
        stem = stat.rstrip("0123456789") or stat
        if stat in ("x", "y"):
            return None
        if stem in ("magic", "stamina", "durability"):
            return (-1, 10**9)
        if stem == "used":
            return (0, 10**9)
        if stat == "distracted":
            return (0, 2**fight.roster.size - 1)
        return super().stat_range(fight, stat)
