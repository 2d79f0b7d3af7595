"""What a live encounter of Reclaim the Wild asks beyond the turns: the range of each stat a game
master sets by hand (where a creature stands is the map's move, not a stat set by hand). `RtwFight` (fight.py)
plays the turns."""

from __future__ import annotations

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.rounds import RoundRules


class RtwLive(RoundRules):
    """The stats' ranges."""

    def stat_range(self, fight: LoadedFight, stat: str) -> tuple[int, int] | None:
        """Magic, Stamina and a weapon's durability from -1 (none); `distracted` a mask of its foes' numbers; the
        rest as `FightRules.stat_range` (where it stands, `x` and `y`, is the map's move; whether a weapon was
        used, the rules')."""
        stem = stat.rstrip("0123456789") or stat
        if stem in ("magic", "stamina", "durability"):
            return (-1, 10**9)
        if stat == "distracted":
            return (0, 2**fight.roster.size - 1)
        return super().stat_range(fight, stat)
