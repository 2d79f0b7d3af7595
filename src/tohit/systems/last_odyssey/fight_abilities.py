"""Which abilities a Last Odyssey combatant can use (fight.py's rules): Rows [Starting Battles] (a Melee
ability needs its user in the front row and reaches only the front row), the statuses that stop an ability
(Paralyzed, Silenced, Burned), a buff or debuff that can still move the Bonus Tracker, and the AP a turn has.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.rows import pair_rows, rows_of, take_rows
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.systems.last_odyssey.consequences import (
    BIT,
    DIGIT_OF_STEP,
    PLACE,
    TRACKED,
)
from tohit.systems.last_odyssey.live import FRONT, LastOdysseyLive, some
from tohit.systems.last_odyssey.state_codes import status_mask
from tohit.systems.last_odyssey.tables import inflicted_status

TOP, BOTTOM = DIGIT_OF_STEP[7], DIGIT_OF_STEP[-7]


class LastOdysseyAbilities(LastOdysseyLive):
    """The fight's ability tables, built once per fight (`fight.memo`), and the abilities usable now."""

    def _tables(self, fight: LoadedFight) -> dict[str, Any]:
        def build() -> dict[str, Any]:
            size, na = fight.roster.size, fight.max_attacks
            melee = np.zeros((size, na), dtype=bool)
            multi = np.zeros((size, na), dtype=bool)
            physical = np.zeros((size, na), dtype=bool)
            magical = np.zeros((size, na), dtype=bool)
            knock = np.zeros((size, na), dtype=bool)
            own = np.zeros((size, na), dtype=bool)  # a Self buff
            ally = np.zeros((size, na), dtype=bool)  # an Ally buff
            bit = np.zeros((size, na), dtype=np.int64)  # the status a status ability inflicts
            stat = np.full((size, na), -1, dtype=np.int64)  # the statistic a buff or debuff moves
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    ability = entry.attack
                    melee[c, a] = "melee" in ability.type
                    multi[c, a] = "multi" in ability.type
                    physical[c, a] = ability.kind == "physical"
                    magical[c, a] = ability.kind == "magical"
                    knock[c, a] = ability.knock_out
                    own[c, a] = "self" in ability.type
                    ally[c, a] = "ally" in ability.type
                    if ability.kind == "status":
                        bit[c, a] = BIT[inflicted_status(ability.status, ability.element)]
                    if ability.stat is not None:
                        stat[c, a] = TRACKED.index(ability.stat)
            # A status that makes attacks miss may be in play (inflicted, or in a file block).
            stoppers = BIT["paralyzed"] | BIT["silenced"]
            starting = [status_mask([*comb.attacker.statuses, *comb.target.statuses]) for comb in fight.combatants]
            effects = bool(own.any() or ally.any() or (bit > 0).any() or (stat >= 0).any())
            buffed = any(comb.attacker.buffs or comb.target.buffs for comb in fight.combatants)
            found = {
                "melee": melee,
                "magical": magical,
                "may_miss": bool(((bit & stoppers) != 0).any() or any(m & stoppers for m in starting)),
                "multi": multi,
                "physical": physical,
                "knock": knock,
                "knocks": bool(knock.any()),  # some ability knocks out
                "self": own,
                "ally": ally,
                "allies": ~fight.roster.foe_matrix,  # (C, C): on the same side (oneself included)
                "bit": bit,
                "stat": stat,
                "effects": effects,
                # Someone may have a status or a buff: one that may be given, or one a combatant starts with.
                "carried": effects or buffed or any(starting),
            }
            return found

        return fight.memo("lo_tables", build)

    def usable(self, fight: LoadedFight, state: State) -> BoolArray:
        """A Melee ability needs its user in the front row."""
        melee = self._tables(fight)["melee"]
        front = state.per["row"] == FRONT  # (n, C)
        return fight.has_attack[None] & (~melee[None] | front[:, :, None])

    def usable_of(self, fight: LoadedFight, state: State, who: IntArray) -> BoolArray:
        melee = rows_of(self._tables(fight)["melee"], who)  # (n, A)
        in_front = take_rows(state.per["row"], who) == FRONT
        out: BoolArray = rows_of(fight.has_attack, who) & (~melee | in_front[:, None])
        return out

    def options(self, ctx: FightContext, actor: IntArray) -> BoolArray:
        fight = ctx.fight
        who = np.maximum(actor, 0)
        tables = self._tables(fight)
        foes = rows_of(fight.roster.foe_matrix, who) & ctx.standing()  # (n, C)
        plain = not tables["effects"] and not tables["may_miss"]
        if plain and not some(ctx.state.per["row"]):  # everyone in the front row: rows change nothing
            return pair_rows(rows_of(fight.has_attack, who), foes)
        usable = self.usable_of(fight, ctx.state, who)  # (n, A)
        melee = rows_of(tables["melee"], who)  # (n, A)
        if plain and not melee.any():
            return pair_rows(usable, foes)
        front = ctx.state.per["row"] == FRONT
        reach = pair_rows(melee, foes & front) | pair_rows(~melee, foes)  # a melee attack: front-row foes only
        if tables["effects"]:
            own = rows_of(tables["self"], who)  # (n, A)
            if own.any():  # a Self buff: used on its user, not on a foe
                me = np.arange(fight.roster.size)[None, :] == who[:, None]  # (n, C)
                reach = np.where(own[:, :, None], me[:, None, :], reach)
            ally = rows_of(tables["ally"], who)  # (n, A)
            if ally.any():  # an Ally buff: used on a standing ally, the user included (a Melee one: the front row)
                friends = rows_of(tables["allies"], who) & ctx.standing()  # (n, C)
                near = np.where(melee[:, :, None], (friends & front)[:, None, :], friends[:, None, :])
                reach = np.where(ally[:, :, None], near, reach)
            reach = reach & self._can_do_something(ctx, who)
        out = pair_rows(usable, reach)
        if tables["may_miss"]:
            out = self._not_missing(ctx, who, out)
        return out

    def _not_missing(self, ctx: FightContext, who: IntArray, options: BoolArray) -> BoolArray:
        """A policy does not choose an attack its user's status makes miss (Paralyzed: physical, Silenced:
        magical) while it has another ability it can use; with none, it uses it (and misses) (a choice)."""
        tables = self._tables(ctx.fight)
        mine = take_rows(ctx.state.per["statuses"], who)  # (n,)
        paralyzed = (mine & BIT["paralyzed"]) != 0
        silenced = (mine & BIT["silenced"]) != 0
        blocked = (rows_of(tables["physical"], who) & paralyzed[:, None]) | (
            rows_of(tables["magical"], who) & silenced[:, None]
        )  # (n, A)
        if not blocked.any():
            return options
        other = (options & ~blocked[:, :, None]).any(axis=(1, 2))  # (n,)
        out: BoolArray = options & ~(blocked & other[:, None])[:, :, None]
        return out

    def _can_do_something(self, ctx: FightContext, who: IntArray) -> BoolArray:
        """(n, A, C): where an ability could change something. A policy never uses a status ability on a foe that
        has the status already, a debuff on a foe whose tracker is at -7 for its statistic, nor a Self or Ally
        buff on a character at +7 or Burned (a choice: docs/fights.md)."""
        tables = self._tables(ctx.fight)
        per = ctx.state.per
        bit = rows_of(tables["bit"], who)  # (n, A)
        stat = rows_of(tables["stat"], who)  # (n, A)
        own = rows_of(tables["self"], who) | rows_of(tables["ally"], who)  # (n, A): a buff (Self or Ally)
        has = (per["statuses"][:, None, :] & bit[:, :, None]) != 0  # (n, A, C)
        digit = (per["buffs"][:, None, :] // PLACE[np.maximum(stat, 0)][:, :, None]) % 7  # (n, A, C)
        moved = stat[:, :, None] >= 0
        stuck = moved & np.where(own[:, :, None], digit == TOP, digit == BOTTOM)
        burned = own[:, :, None] & ((per["statuses"] & BIT["burned"]) != 0)[:, None, :]
        allowed: BoolArray = ~has & ~stuck & ~burned
        return allowed
