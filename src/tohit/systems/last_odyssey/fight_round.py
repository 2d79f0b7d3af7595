"""The Last Odyssey combat round [The Combat Round, Starting Battles] (fight.py's rules): initiative called
once at the start of the fight, the turns in Initiative order, and the Effect Phase at the end of each
round (Poisoned damage first, then advancing).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.consequence import DEFENDER, changes
from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.state import BoolArray, IntArray, State, gather
from tohit.systems.last_odyssey import consequences
from tohit.systems.last_odyssey.consequences import (
    BIT,
)
from tohit.systems.last_odyssey.fight_turn import LastOdysseyTurns
from tohit.systems.last_odyssey.initiative import CALL_ROLL, TurnOrder
from tohit.systems.last_odyssey.live import some


class LastOdysseyRound(LastOdysseyTurns):
    """The round: its start, its turns, its Effect Phase."""

    def _turns(self, fight: LoadedFight) -> TurnOrder:
        return fight.memo("lo_turns", lambda: TurnOrder.of(fight))

    # -- the turn structure [The Combat Round, Starting Battles] -------------------------------------------
    def step(self, ctx: FightContext, choice: GMChoice | None = None) -> None:
        if "rolled" in ctx.state.fight and (ctx.state.fight["rolled"] == 0).any():
            self._call_initiative(ctx)
        # `effect_phase: false`: "as soon as the front row has nobody standing", which may be true from the start
        # (a side placed all in the back row), before anyone acts.
        self._advance_at_once(ctx)
        super().step(ctx, choice)

    def _call_initiative(self, ctx: FightContext) -> None:
        """Calling initiative [Starting Battles]: "the GM rolls 2d4 and reads out the result"; each combatant's
        place follows from it (`TurnOrder`)."""
        fight = ctx.fight
        turns = self._turns(fight)
        mask = ctx.state.fight["rolled"] == 0
        idx, roll = ctx.draw(mask, np.zeros(ctx.n, dtype=np.int64), [CALL_ROLL])
        mask = mask[idx]
        r = np.flatnonzero(mask)
        places = turns.by_roll[np.clip(roll[r] - 2, 0, 6)]  # (rows, C)
        changes = [ctx.set("turn", r, places[:, c], c) for c in range(fight.roster.size)]
        changes.append(ctx.set("rolled", r, 1))

        names = fight.roster.names

        def calls() -> list[dict[str, Any]]:
            return [
                {"combatant": names[c], "call": call, "initiative": turns.initiative[c]}
                for c, call in enumerate(turns.call)
                if call is not None
            ]

        def order() -> list[str]:
            return [names[int(c)] for c in np.argsort(turns.by_roll[int(roll[r[0]]) - 2])]

        ctx.emit("initiative", changes, roll=lambda: int(roll[r[0]]), calls=calls, order=order)

    def able(self, fight: LoadedFight, state: State) -> BoolArray:
        """Who can take a turn now: standing, with AP left this round ("Once you run out of Action Points during
        your turn, your turn ends")."""
        out: BoolArray = self.standing(fight, state) & (state.per["ap"] > 0)
        return out

    def round_start(self, ctx: FightContext, rows: IntArray) -> None:
        """Each turn starts with the AP of the character's tier (option `action_points`)."""
        ap = ctx.state.per["ap"]
        full = int(ctx.fight.spec.options.action_points)
        spent = ap.take(rows, axis=0) != full
        r, c = np.nonzero(spent)
        if r.size:
            names = ctx.fight.roster.names

            def refilled() -> list[str]:  # told: one fight's
                return [names[int(i)] for i in c[r == r[0]]]

            ctx.emit("ap", [ctx.set("ap", rows[r], full, c)], combatants=refilled, ap=full)

    def round_end(self, ctx: FightContext, rows: IntArray) -> None:
        """The Effect Phase [The Combat Round]: "damage takes precedent ... followed by everything else":
        Poisoned damage, then a side advances on a front row left empty (option `effect_phase`)."""
        per = ctx.state.per
        if not ctx.fight.spec.options.effect_phase or not (some(per["statuses"]) or some(per["row"])):
            return  # nobody has a status (none is Poisoned), nobody is in a back row (none comes forward)
        mask = np.zeros(ctx.n, dtype=bool)
        mask[rows] = True
        self._poison(ctx, mask)
        self._rows(ctx, mask)

    def _poison(self, ctx: FightContext, mask: BoolArray) -> None:
        """Poisoned [Statuses; the game's other pages]: "a Poisoned character takes 1/10 of its base maximum HP,
        rounded down, at least 1", at the Effect Phase; HP never below 0, downed at 0."""
        per = ctx.state.per
        if not some(per["statuses"]):  # nobody has a status (the usual fight): nobody is Poisoned
            return
        poisoned = mask[:, None] & ((per["statuses"] & BIT["poisoned"]) != 0) & self.standing(ctx.fight, ctx.state)
        if not poisoned.any():
            return
        health = self._health(ctx.fight)
        for c in range(ctx.fight.roster.size):
            r = np.flatnonzero(poisoned[:, c])
            if r.size == 0:
                continue
            hp = per["hp"][r, c]
            hurt = int(max(1, int(health[c]) // 10))
            left = np.maximum(0, hp - hurt)
            name = ctx.fight.roster.names[c]
            ctx.emit("poison", [ctx.set("hp", r, left, c)], combatant=name, health=int(health[c]), damage=hurt)
            down = r[left == 0]
            if down.size:
                self._downed(ctx, down, np.full(down.size, c, dtype=np.int64))

    def _downed(self, ctx: FightContext, rows: IntArray, t: IntArray) -> None:
        """Downed by poison (`consequences.downed_effects`; emitted and narrated here)."""
        per = ctx.state.per
        statuses, buffs = gather(per["statuses"], rows, t), gather(per["buffs"], rows, t)
        items = consequences.downed_effects(statuses, buffs)
        if items:
            ctx.emit("effects", changes(items, rows, {DEFENDER: t}), **self._downed_data(ctx, statuses, buffs, t))

    def _health(self, fight: LoadedFight) -> IntArray:
        """Each combatant's Health, its base maximum HP: `health`, else its starting HP."""
        return fight.memo(
            "lo_health",
            lambda: np.asarray(
                [int(c.health if c.health is not None else c.target.hp) for c in fight.combatants], dtype=np.int64
            ),
        )
