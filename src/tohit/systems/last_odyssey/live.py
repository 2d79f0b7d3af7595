"""What a live encounter of Last Odyssey asks beyond the turns: the GM's 2d4 for called initiative,
rolled once at the start [Starting Battles], and the range of each stat a game master sets by hand.
`LastOdysseyFight` (fight.py) plays the turns."""

from __future__ import annotations

from abc import abstractmethod

import numpy as np

from tohit.core.fight.consequence import Item, of_combatant
from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.rounds import RoundRules
from tohit.core.fight.state import IntArray, State, held_row
from tohit.systems.last_odyssey.consequences import STATUSES, TRACKED, downed_effects

#: The rows of a side [The Combat Round]: the `row` stat.
FRONT, BACK = 0, 1


def some(stat: IntArray) -> bool:
    """Whether any entry of a stat that is never below 0 (`row`: FRONT is 0, `statuses`, `body_armor`: their ranges,
    `stat_range`) is above 0: someone is in a back row, has a status, has Body Armor up. `max` is one fast pass;
    `any` over int64 is slower; a stat a batch holds as one row is looked at in that row, `held_row`)."""
    return bool(stat.size) and int(held_row(stat).max()) > 0


class LastOdysseyLive(RoundRules):
    """The opening roll and the stats' ranges, over the initiative call `LastOdysseyFight` makes."""

    @abstractmethod
    def _call_initiative(self, ctx: FightContext) -> None:
        """The GM's 2d4 read out, each combatant's place from it."""

    def stat_range(self, fight: LoadedFight, stat: str) -> tuple[int, int] | None:
        """`statuses` a bitmask of STATUSES, `buffs` a Bonus Tracker packed one base-7 digit per TRACKED stat,
        `row` front (0) or back (1), AP from 0; the statuses inflicted and the place in the order (`turn`) are
        the rules'."""
        ranges = {
            "statuses": (0, 2 ** len(STATUSES) - 1),
            "buffs": (0, 7 ** len(TRACKED) - 1),
            "row": (FRONT, BACK),
            "ap": (0, 10**9),
        }
        return ranges.get(stat) or super().stat_range(fight, stat)

    def by_hand(self, fight: LoadedFight, state: State, combatant: int, stat: str, to: int) -> tuple[Item, ...]:
        """HP brought to 0 by hand downs the character: every effect but Poisoned, Frostbitten and Burned is
        removed, its Bonus Tracker too (`downed_effects`) [Death and Injury]; any other stat is the change alone."""
        found = super().by_hand(fight, state, combatant, stat, to)
        per = state.per
        if stat != "hp" or to > 0 or int(per["hp"][0, combatant]) <= 0 or "statuses" not in per:
            return found
        statuses = np.asarray([per["statuses"][0, combatant]], dtype=np.int64)
        buffs = np.asarray([per["buffs"][0, combatant]], dtype=np.int64)
        return (*found, *of_combatant(downed_effects(statuses, buffs), combatant))

    def max_targets(self, fight: LoadedFight, actor: int, attack: int) -> int:
        """A Multi ability "targets more than one character on the battlefield" [Key Terms: Multi]: the game
        master may name any of those it reaches (whom it reaches now is the turn's `options`); any other ability
        names one."""
        return fight.roster.size if "multi" in fight.attack(actor, attack).attack.type else 1

    def targets_rule(self, fight: LoadedFight, actor: int, attack: int) -> str:
        """The words of the refusal: only a Multi ability targets more than one character."""
        name = fight.attack(actor, attack).name
        return f"{name} is not a Multi ability: only a Multi ability targets more than one character"

    def opening_pending(self, state: State) -> bool:
        """The GM's 2d4 for called initiative is still to roll (someone calls: `TurnOrder.calls`)."""
        return "rolled" in state.fight and int(state.fight["rolled"][0]) == 0

    def opening(self, ctx: FightContext) -> None:
        if self.opening_pending(ctx.state):
            self._call_initiative(ctx)
