"""Toy d20 fights: rounds of one attack each (RoundRules), damage off hit points, down at 0."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from tohit_toy import narrate
from tohit_toy.consequences import hp_after
from tohit_toy.rules import CRITICAL, HIT

from tohit.core.errors import InputError
from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.rounds import RoundRules
from tohit.core.fight.state import BoolArray, IntArray, State, gather


class ToyFight(RoundRules):
    """What a Toy d20 fight tracks: hit points (and damage dealt, for reports)."""

    system_id = "toy-d20"
    health = "hp"
    health_label = "HP"
    outcome_fields = ("result", "damage")
    target_stats = ()
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
        damage = out["damage"][rows]
        before = gather(ctx.state.per["hp"], rows, t)
        after = hp_after(before, damage)
        hurt = after < before
        if not hurt.any():
            return
        r = rows[hurt]
        dealt = gather(ctx.state.per["dealt"], r, a[hurt]) + (before - after)[hurt]
        ctx.emit(
            "damage",
            [ctx.set("hp", r, after[hurt], t[hurt]), ctx.set("dealt", r, dealt, a[hurt])],
            self.text(ctx, lambda: narrate.damage(self.name(ctx, t), int(damage[0]), int(before[0]), int(after[0]))),
        )


RULES = ToyFight()
