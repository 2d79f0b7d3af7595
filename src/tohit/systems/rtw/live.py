"""What a live encounter of Reclaim the Wild asks beyond the turns: the range of each stat a game
master sets by hand (where a creature stands is the map's move, not a stat set by hand), a creature's Max Health,
and what a stat set by hand does by the page's rules (`consequences.health_by_hand`). `RtwFight` (fight.py) plays
the turns."""

from __future__ import annotations

from tohit.core.fight.consequence import Item
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.rounds import RoundRules
from tohit.core.fight.state import State
from tohit.systems.rtw.consequences import health_by_hand
from tohit.systems.rtw.fight_status import ENDS, STATUSES


class RtwLive(RoundRules):
    """The stats' ranges, Max Health and the consequences of a stat set by hand."""

    def stat_range(self, fight: LoadedFight, stat: str) -> tuple[int, int] | None:
        """Magic, Stamina and a weapon's durability from 0 (a pool the file does not give is not set by hand);
        `distracted` a mask of its foes' numbers; the rest as `FightRules.stat_range` (where it stands, `x` and
        `y`, is the map's move; whether a weapon was used, the rules')."""
        stem = stat.rstrip("0123456789") or stat
        if stem in ("magic", "stamina", "durability"):
            return (0, 10**9)
        if stat == "distracted":
            return (0, 2**fight.roster.size - 1)
        return super().stat_range(fight, stat)

    def condition_ends(self, condition: str) -> str | None:
        """Off-Balance and Prone end at the start of the creature's next turn, Halted, Blinded, Dazzled and
        Distracted at its end [Status Effects] (`fight_status.ENDS`); Invisible when struck, no turn's moment."""
        stat = next((s for s, word in STATUSES.items() if word == condition), None)
        moment = {"start": "start_of_turn", "end": "end_of_turn"}
        return moment.get(ENDS.get(stat, "")) if stat is not None else None

    def health_maximum(self, fight: LoadedFight, combatant: int) -> int:
        """Max Health: given, or 4 x Hearts (docs/rtw.md#silent-peril); a creature with neither starts at its
        most."""
        top = fight.target(combatant).health_max
        return int(top) if top is not None else super().health_maximum(fight, combatant)

    def by_hand(self, fight: LoadedFight, state: State, combatant: int, stat: str, to: int) -> tuple[Item, ...]:
        """Health set by hand ends Helpless when it restores any, falls Helpless at 0 and enters or leaves Peril
        (`health_by_hand`); any other stat is the change alone."""
        if stat != "health":
            return super().by_hand(fight, state, combatant, stat, to)
        hearts = fight.target(combatant).hearts
        per = state.per
        return health_by_hand(
            combatant,
            int(per["health"][0, combatant]),
            to,
            -1 if hearts is None else int(hearts),
            int(per["helpless"][0, combatant]),
            int(per["peril"][0, combatant]),
        )
