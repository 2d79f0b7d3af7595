"""Kaiser RPG's turn order as a live encounter reads and ends it: whose turn comes, without dice,
and the game master's end of a turn, which never takes the cursor out of the order [Action Points: 6 AP a
round, the order goes round until nobody has the AP for an attack]; and the ranges of the stats a game master
sets by hand. `KaiserFight` (fight.py) plays the turns."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from tohit.core.fight.contract import FightContext, FightRules, LoadedFight
from tohit.core.fight.order import TURN, kept, order_rows
from tohit.core.fight.rows import rows_of, take_rows
from tohit.core.fight.state import BoolArray, IntArray, State

#: AP every combatant standing has at the start of a round [Action Points].
AP_PER_ROUND = 6


def spendable_ap(per: Mapping[str, IntArray]) -> IntArray:
    """The AP each combatant can act with: none while it is Flat-Footed, which allows "no Active actions or
    Reactions" [Action Points] (in play a hit at 0 AP makes it so, but a game master may set the condition on a
    combatant that still has AP)."""
    return np.where(per["flat_footed"] != 0, 0, per["ap"])


class TurnOrder(NamedTuple):
    """Per combatant the AP of its cheapest attack, and (cursor, combatant): how many places after the cursor
    its turn comes; `following`: per slot, the slot after it (the last's: the first); `cheapest`: `min_cost`, or
    the one number it holds where every combatant's cheapest attack costs the same."""

    min_cost: IntArray
    distance: IntArray
    following: IntArray
    cheapest: int | IntArray

    def can_pay(self, ap: IntArray) -> BoolArray:
        """(fights, combatants): the AP `ap` pays for each combatant's cheapest attack (against one number where
        they all cost the same: numpy compares with a short last axis many times slower)."""
        found: BoolArray = ap >= self.cheapest
        return found


#: Most combatants `KaiserTurns._next_slots` reads the turn order for through one table (the set that can attack
#: packed in one byte).
PACKED_ROSTER = 8


class NextSlots(NamedTuple):
    """`KaiserTurns._next_slots`: per (cursor, packed set of those who can attack), the next turn's slot and
    whether there is one."""

    slot: IntArray
    found: BoolArray


#: The AP cost `KaiserTurns._costs` gives an attack a combatant does not have (more than any AP).
NO_ATTACK = 10**6


class KaiserTurns(FightRules):
    """The turn order's reading and ending, over what `KaiserFight` keeps: each attack's AP cost and its step
    to the next turn (`_advance`: a new round where nobody has the AP for an attack)."""

    def _costs(self, fight: LoadedFight) -> IntArray:
        """(combatants, attacks): AP cost, a large number where there is no attack."""

        def build() -> IntArray:
            found = np.full((fight.roster.size, fight.max_attacks), NO_ATTACK, dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    found[c, a] = entry.ap_cost
            return found

        return fight.memo("kaiser_costs", build)

    def _one_cost_each(self, fight: LoadedFight) -> bool:
        """Each combatant's attacks all cost the same AP (every bundled fight's): one that can pay its cheapest
        attack can pay each."""

        def build() -> bool:
            costs = self._costs(fight)
            return all(len(set(row[row < NO_ATTACK].tolist())) <= 1 for row in costs)

        return bool(fight.memo("kaiser_one_cost_each", build))

    @abstractmethod
    def _advance(self, ctx: FightContext) -> tuple[IntArray, BoolArray]:
        """To the next turn; (slot, found) of the turn that comes."""

    def _order(self, fight: LoadedFight) -> TurnOrder:
        """Per combatant the AP of its cheapest attack, and distance[k, c]: how many slots after cursor k
        combatant c's turn comes."""
        size = fight.roster.size

        def build() -> TurnOrder:
            slot_of = np.empty(size, dtype=np.int64)
            slot_of[fight.order_array] = np.arange(size)
            distance = (slot_of[None, :] - np.arange(size)[:, None]) % size
            min_cost = self._costs(fight).min(axis=1)
            same = min_cost.size > 0 and bool((min_cost == min_cost[0]).all())
            cheapest = int(min_cost[0]) if same else min_cost
            return TurnOrder(min_cost, distance, (np.arange(size) + 1) % size, cheapest)

        return fight.memo("kaiser_order", build)

    def _next_slots(self, fight: LoadedFight) -> NextSlots | None:
        """Per cursor k and set of combatants that can attack (bit c: combatant c), the slot of the nearest turn
        from k and whether there is one (none: the slot before k, as `_next` gives it): the file's order read
        through one table. None for a roster of more than `PACKED_ROSTER` combatants."""
        size = fight.roster.size
        if size > PACKED_ROSTER:
            return None

        def build() -> NextSlots:
            distance = self._order(fight).distance
            can = ((np.arange(1 << size)[:, None] >> np.arange(size)[None, :]) & 1).astype(bool)  # (sets, c)
            nearest = np.where(can[None, :, :], distance[:, None, :], size).min(axis=2, initial=size)  # (k, sets)
            slot = (np.arange(size)[:, None] + np.minimum(nearest, size - 1)) % size
            return NextSlots(slot.reshape(-1).astype(np.int64), (nearest < size).reshape(-1))

        return fight.memo("kaiser_next_slots", build)

    def stat_range(self, fight: LoadedFight, stat: str) -> tuple[int, int] | None:
        """AP, the Multiple Defense Penalty and the All Action Penalty (and its fading) from 0; the rest as
        `FightRules.stat_range`."""
        if stat in ("ap", "mdp", "penalty", "fading"):
            return (0, 10**9)
        return super().stat_range(fight, stat)

    def next_actor(self, fight: LoadedFight, state: State) -> int | None:
        """Whose turn comes, without dice: the nearest slot from the cursor whose combatant is standing with the
        AP for an attack; where nobody has, the first such slot of the next round (everyone standing at 6 AP)."""
        min_cost = self._order(fight).min_cost
        up = self.standing(fight, state)[0]
        size = fight.roster.size
        cursor = int(state.fight["cursor"][0])
        now = up & (spendable_ap(state.per)[0] >= min_cost)
        for can, start in ((now, cursor), (up & (min_cost <= AP_PER_ROUND), 0)):
            if can.any():
                distance = self._distance(fight, state, np.asarray([start % size]))[0]
                nearest = int(np.where(can, distance, size).min())
                return int(self._at(fight, state, np.asarray([(start + nearest) % size]))[0])
        return None

    def may_act(self, fight: LoadedFight, state: State) -> BoolArray:
        """Standing with the AP for one of its attacks (none while Flat-Footed): its turn comes round again this
        round [Action Points]; where nobody has, the round is over and those the next round's 6 AP let act."""
        min_cost = self._order(fight).min_cost
        up = self.standing(fight, state)
        now = up & (spendable_ap(state.per) >= min_cost)
        out: BoolArray = np.where(now.any(axis=1, keepdims=True), now, up & (min_cost <= AP_PER_ROUND))
        return out

    def _distance(self, fight: LoadedFight, state: State, start: IntArray) -> IntArray:
        """(fights, combatants): how many places after place start[i] each combatant's turn comes in fight i, in
        the file's order or the one a live encounter keeps (core/fight/order.py)."""
        if not kept(state):
            found: IntArray = rows_of(self._order(fight).distance, start)
            return found
        kept_distance: IntArray = (state.per[TURN] - start[:, None]) % fight.roster.size
        return kept_distance

    @staticmethod
    def _at(fight: LoadedFight, state: State, slot: IntArray) -> IntArray:
        """Who acts at place slot[i] of fight i's order (the file's, or the one a live encounter keeps)."""
        if not kept(state):
            return fight.order_array[slot]
        found: IntArray = take_rows(order_rows(fight, state.per[TURN]), slot)
        return found

    def end_turn(self, ctx: FightContext) -> None:
        """The game master ends the turn that comes: where nobody has the AP for an attack, the new round starts
        first (the round limit, 6 AP); then the cursor moves to the next slot of the order, going round it as a
        round does (tohit's reading: the combatant keeps its AP for a later turn of the round)."""
        slot, found = self._advance(ctx)
        if not bool(found[0]):
            ctx.emit("end_turn", [])
            return
        size = ctx.fight.roster.size
        who = ctx.fight.roster.names[int(self._at(ctx.fight, ctx.state, slot)[0])]
        ctx.emit("end_turn", [ctx.set("cursor", found, (slot + 1) % size)], combatant=who)
