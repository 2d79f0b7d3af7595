"""What a live encounter of WSSWNN asks beyond the turns: initiative, rolled once at the start (each
combatant's Maneuver roll against its foes' highest Awareness), and the range of each stat a game master sets by
hand. `WsswnnFight` (fight.py) plays the turns."""

from __future__ import annotations

from abc import abstractmethod

import numpy as np

from tohit.core.fight.consequence import Item, of_combatant
from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.rounds import RoundRules
from tohit.core.fight.state import State
from tohit.systems.wsswnn.consequences import grapples_end


class WsswnnLive(RoundRules):
    """The opening roll and the stats' ranges, over the initiative `WsswnnFight` rolls."""

    @abstractmethod
    def _initiative(self, ctx: FightContext) -> None:
        """Each combatant's initiative roll, and the round's order from it."""

    def stat_range(self, fight: LoadedFight, stat: str) -> tuple[int, int] | None:
        """`grappling` the foe grappled (its number + 1; 0: none), `initiative` whether it beat its foes'
        Awareness (0 or 1), Guard, Awareness and Stamina from 0; their maximums and the place in the order
        (`turn`) are the rules'."""
        ranges = {
            "grappling": (0, fight.roster.size),
            "initiative": (0, 1),
            "guard": (0, 10**9),
            "awareness": (0, 10**9),
            "stamina": (0, 10**9),
        }
        return ranges.get(stat) or super().stat_range(fight, stat)

    def by_hand(self, fight: LoadedFight, state: State, combatant: int, stat: str, to: int) -> tuple[Item, ...]:
        """Life lost by hand ends the grapple its combatant holds, and at 0 life whoever holds it lets go
        (`grapples_end`) [braces]; any other stat is the change alone."""
        found = super().by_hand(fight, state, combatant, stat, to)
        per = state.per
        life = int(per["life"][0, combatant])
        if stat != "life" or to >= life or "grappling" not in per:
            return found
        grappling = per["grappling"][:1].copy()
        one = np.zeros(1, dtype=np.int64)
        hurt, down = np.asarray([True]), np.asarray([to <= 0 < life])
        return (*found, *of_combatant(grapples_end(grappling, one, one + combatant, hurt, down), combatant))

    def opening_pending(self, state: State) -> bool:
        """Initiative is still to roll (once, before the first turn)."""
        return int(state.fight["rolled"][0]) == 0

    def opening(self, ctx: FightContext) -> None:
        if self.opening_pending(ctx.state):
            self._initiative(ctx)
