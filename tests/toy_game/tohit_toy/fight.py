"""Toy d20 fights: rounds of one attack each (RoundRules), damage off hit points, down at 0."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from tohit_toy import consequences, narrate
from tohit_toy.rules import CRITICAL, HIT

from tohit.core.errors import InputError
from tohit.core.fight.bindings import StatBinding
from tohit.core.fight.consequence import ATTACKER, DEFENDER, changes
from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.readings import StatReading
from tohit.core.fight.rounds import RoundRules
from tohit.core.fight.state import BoolArray, IntArray, State, gather


class ToyFight(RoundRules):
    """What a Toy d20 fight tracks: hit points (and damage dealt, for reports)."""

    system_id = "toy-d20"
    health = "hp"
    health_label = "HP"
    readings: ClassVar[dict[str, StatReading]] = {
        "hp": StatReading("HP", "health"),
        "dealt": StatReading("Damage dealt"),
    }
    outcome_fields = ("result", "damage")
    #: Fed to `resolve` so that its trace (`hp_left`) reads the HP left; the outcome fields do not depend on it.
    bindings = (StatBinding("hp", outcome=False),)
    standing_stats = ("hp",)
    turn_order: ClassVar[str] = "File order, sides alternating; each round every standing combatant attacks once."

    def check(self, fight: LoadedFight) -> None:
        for c, comb in enumerate(fight.combatants):
            if comb.target.hp is None:
                raise InputError("a combatant in a fight needs its hit points", field=f"{fight.paths[c]}.target.hp")

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        return {"hp": int(fight.target(combatant).hp), "dealt": 0}

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        out: BoolArray = state.per["hp"] > 0
        return out

    def attack(self, ctx: FightContext, mask: BoolArray, actor: IntArray, attack: IntArray, target: IntArray) -> None:
        idx, out = ctx.resolve(mask, actor, attack, target)
        actor, target, mask = actor[idx], target[idx], mask[idx]
        landed = mask & ((out["result"] == HIT) | (out["result"] == CRITICAL))
        rows = np.flatnonzero(landed)
        if rows.size == 0:
            return
        t, a = target[rows], actor[rows]
        before = consequences.Before(gather(ctx.state.per["hp"], rows, t), gather(ctx.state.per["dealt"], rows, a))
        outcome = consequences.Outcome(out["damage"][rows])
        items = consequences.apply(before, outcome)
        if not items:
            return
        after = items[0].to
        ctx.emit(
            "damage",
            changes(items, rows, {DEFENDER: t, ATTACKER: a}),
            lambda: narrate.damage(self.name(ctx, t), int(outcome.damage[0]), int(before.hp[0]), int(after[0])),
        )


RULES = ToyFight()
