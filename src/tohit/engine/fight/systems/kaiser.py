"""Kaiser RPG fights: AP, Counterattacks, LP (issue 8; kaiser.md, sources-and-gaps.md §Kaiser).

Rules applied between attacks (the attack itself is the system's `resolve`):
- AP [action_points.md]: every combatant has 6 AP at the start of each round; unused AP is lost at its end.
  Round 1 starts with each combatant's `target.ap` (default 6: a surprised combatant may start lower).
- An attack costs its `ap_cost` (default 3) AP; a combatant without the AP for any of its attacks passes.
- A Successful Attack costs the defender 1 AP, never below 0; a hit at 0 AP makes it Flat-Footed (no
  Active actions or Reactions) until the round ends [kaiser.md, Successful Attack; action_points.md].
- A Failed hand-to-hand or point-blank attack gives the defender a Counter bonus of floor(DoS / 2); a
  defender with 1 AP left counterattacks at once (1 AP) with its first hand-to-hand or point-blank attack,
  the bonus added to its Offensive Roll [kaiser.md, Failed Attack; counter.md]. A counterattack is not
  itself countered.
- LP lost = damage, never below 0 LP; at 0 LP a combatant is unconscious and out of the fight
  [critical.md: "LP at or below 0 means unconscious"].

Turn order: the order in the file, sides alternating (first of each side, then second of each...). A
round goes round that order again and again: on its turn each standing combatant with the AP for one of
its attacks makes one attack (chosen by its policy); the round ends when nobody has the AP for an attack.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from tohit.core.models import Model
from tohit.engine.fight.context import StepContext
from tohit.engine.fight.model import LoadedFight
from tohit.engine.fight.policy import choose_actions
from tohit.engine.fight.rows import min_rows, rows_of, select, take_rows
from tohit.engine.fight.rules import FightRules
from tohit.engine.fight.state import BoolArray, IntArray, State, gather

AP_PER_ROUND = 6
DEFAULT_AP_COST = 3
COUNTER_AP = 1
CLOSE = ("hand_to_hand", "point_blank")
HIT = 0
#: The outcome fields `_consequences` reads (a counterattack is not itself countered).
CONSEQUENCES = ("result", "damage", "ap_lost", "flat_footed")
PAGE = "kaiser: Attacking and Defending"
AP_PAGE = "kaiser: action_points.md"


class KaiserAttack(Model):
    """Kaiser fight fields of an attack."""

    ap_cost: int = Field(
        default=DEFAULT_AP_COST,
        ge=1,
        le=AP_PER_ROUND,
        description="AP this attack costs (a combatant has 6 AP a round).",
    )


class KaiserFight(FightRules):
    system_id = "kaiser"
    health = "lp"
    health_label = "LP"
    attack_extra = KaiserAttack
    outcome_fields = ("result", "damage", "ap_lost", "flat_footed", "counter_bonus", "counterattack")
    target_stats = ("lp", "ap")
    table_stats = ("ap",)
    table_clip: ClassVar[dict[str, str]] = {"damage": "lp"}
    #: Criticals are narrated but not played in fights (their effects need a Physical Resistance roll).
    unused_roles = ("critical",)
    odds_stats = ()
    standing_stats = ("lp",)
    turn_order: ClassVar[str] = (
        "File order, sides alternating; a round goes round that order until nobody has the AP for an attack"
        " (6 AP a round, an attack costs its ap_cost); a Counterattack (1 AP) follows a failed close attack at once."
    )

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        target = fight.target(combatant)
        return {"lp": int(target.lp), "ap": int(target.ap), "flat_footed": 0, "dealt": 0}

    def fight_stats(self, fight: LoadedFight) -> dict[str, int]:
        return {"cursor": 0}

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        return state.per["lp"] > 0

    # -- static tables -----------------------------------------------------------------------------------
    def _costs(self, fight: LoadedFight) -> IntArray:
        """(combatants, attacks): AP cost, a large number where there is no attack."""
        key = ("kaiser_costs",)
        found: IntArray | None = fight.cache.get(key)
        if found is None:
            found = np.full((fight.roster.size, fight.max_attacks), 10**6, dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    found[c, a] = entry.ap_cost
            fight.cache[key] = found
        return found

    def _counter_attack(self, fight: LoadedFight) -> IntArray:
        """Per combatant, the attack it counterattacks with (its first close attack), or -1."""
        key = ("kaiser_counter",)
        found: IntArray | None = fight.cache.get(key)
        if found is None:
            found = np.full(fight.roster.size, -1, dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    if entry.attack.range in CLOSE:
                        found[c] = a
                        break
            fight.cache[key] = found
        return found

    def usable(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants, attacks): standing, with the AP for that attack."""
        costs = self._costs(fight)
        ok = state.per["ap"][:, :, None] >= costs[None, :, :]
        return ok & self.standing(fight, state)[:, :, None]

    # -- one step ------------------------------------------------------------------------------------------
    def step(self, ctx: StepContext) -> None:
        fight = ctx.fight
        order = np.asarray(fight.file_order, dtype=np.int64)
        size = fight.roster.size

        slot, found = self._next(ctx, order)
        new_round = ~found
        if new_round.any():
            late = ctx.stop_at_round_limit(new_round)
            new_round &= ~late
            found &= ~late
            self._round_start(ctx, new_round)
            slot2, found2 = self._next(ctx, order)
            slot = np.where(new_round, slot2, slot)
            found = np.where(new_round, found2, found)
        acting = found
        actor = np.where(acting, order[np.maximum(slot, 0)], -1)
        if acting.any():
            ctx.emit("turn", [ctx.set("cursor", acting, (slot + 1) % size)])

        state = ctx.state
        n = ctx.n
        who = np.maximum(actor, 0)
        standing = ctx.standing()
        attacks_ok = take_rows(state.per["ap"], who)[:, None] >= rows_of(self._costs(fight), who)  # (n, A)
        foes = rows_of(fight.roster.foe_matrix, who) & standing  # (n, C)
        options = attacks_ok[:, :, None] & foes[:, None, :]
        idx, attack, target = choose_actions(ctx, acting, actor, options)
        actor, acting = actor[idx], acting[idx] & (attack >= 0)
        if not acting.any():
            return

        costs = self._costs(fight)
        rows = np.flatnonzero(acting)
        a_ap = gather(ctx.state.per["ap"], rows, actor[rows])
        spent = a_ap - costs[actor[rows], attack[rows]]
        ctx.emit(
            "ap_spent",
            [ctx.set("ap", rows, spent, actor[rows])],
            self._text(
                ctx,
                lambda: f"{self._name(ctx, actor)} spends {costs[actor[0], attack[0]]} AP ({a_ap[0]} -> {spent[0]})",
            ),
        )

        idx, out = ctx.resolve(acting, actor, attack, target)
        actor, attack, target, acting = actor[idx], attack[idx], target[idx], acting[idx]
        self._consequences(ctx, acting, actor, target, out)

        # Counterattack: the defender of a failed close attack, with 1 AP left, strikes back at once.
        n = ctx.n
        counter = acting & (out["counterattack"] == 1)
        maybe = np.flatnonzero(counter)
        if maybe.size == 0:
            return
        t, a = target[maybe], actor[maybe]
        counter_with = self._counter_attack(fight)
        lp, ap = ctx.state.per["lp"], ctx.state.per["ap"]
        ok = (counter_with[t] >= 0) & (ap[maybe, t] >= COUNTER_AP) & (lp[maybe, t] > 0) & (lp[maybe, a] > 0)
        counter = np.zeros(n, dtype=bool)
        counter[maybe[ok]] = True
        if not counter.any():
            return
        t_ap = np.zeros(n, dtype=np.int64)
        t_ap[maybe] = ap[maybe, t]
        counter_with = counter_with[np.maximum(target, 0)]
        rows = np.flatnonzero(counter)
        bonus = out["counter_bonus"]
        ctx.emit(
            "counter",
            [ctx.set("ap", rows, t_ap[rows] - COUNTER_AP, target[rows])],
            self._text(
                ctx,
                lambda: (
                    f"{self._name(ctx, target)} takes the Counterattack Reaction (1 AP, {t_ap[0]} -> "
                    f"{t_ap[0] - COUNTER_AP}) with Counter bonus +{bonus[0]}  [{PAGE}, Failed Attack; counter.md]"
                ),
            ),
        )
        c_attack = np.where(counter, counter_with, 0)
        modifiers = self._modifiers(fight)[np.maximum(target, 0), c_attack] + np.where(counter, bonus, 0)
        note = f" (Counter bonus +{int(bonus[0])})" if ctx.narrating else ""
        idx, cout = ctx.resolve(
            counter, target, c_attack, actor, {"modifiers": modifiers}, kind="counter", note=note, fields=CONSEQUENCES
        )
        actor, target, counter = actor[idx], target[idx], counter[idx]
        self._consequences(ctx, counter, target, actor, cout)

    # -- helpers ---------------------------------------------------------------------------------------------
    def _modifiers(self, fight: LoadedFight) -> IntArray:
        """(combatants, attacks): each attack's own `modifiers` (the Counter bonus adds to them)."""
        key = ("kaiser_modifiers",)
        found: IntArray | None = fight.cache.get(key)
        if found is None:
            found = np.zeros((fight.roster.size, fight.max_attacks), dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    found[c, a] = entry.attack.modifiers
            fight.cache[key] = found
        return found

    def _next(self, ctx: StepContext, order: IntArray) -> tuple[IntArray, BoolArray]:
        """The next slot of the turn order, from the cursor, whose combatant can attack; found or not."""
        fight = ctx.fight
        state = ctx.state
        size = fight.roster.size
        key = ("kaiser_order",)
        cached = fight.cache.get(key)
        if cached is None:
            min_cost = self._costs(fight).min(axis=1)
            slot_of = np.empty(size, dtype=np.int64)
            slot_of[order] = np.arange(size)
            # distance[k, c]: how many slots after cursor k combatant c's turn comes.
            distance = (slot_of[None, :] - np.arange(size)[:, None]) % size
            cached = fight.cache[key] = (min_cost, distance)
        min_cost, distance = cached
        can = (state.per["ap"] >= min_cost) & (state.per["lp"] > 0)  # (n, C)
        cursor = state.fight["cursor"]
        nearest = min_rows(np.where(can, distance[cursor], size))
        found: BoolArray = nearest < size
        slot = cursor + np.minimum(nearest, size - 1)
        slot = np.where(slot >= size, slot - size, slot)
        return slot.astype(np.int64), found

    def _round_start(self, ctx: StepContext, rows_mask: BoolArray) -> None:
        """A new round: 6 AP for everyone standing, Flat-Footed ends, the order starts again."""
        fight = ctx.fight
        rows = np.flatnonzero(rows_mask)
        if rows.size == 0:
            return
        standing = self.standing(fight, ctx.state)[rows]
        r_idx, c_idx = np.nonzero(standing)
        rr = rows[r_idx]
        new_round = ctx.state.fight["round"][rows] + 1
        flat = ctx.state.per["flat_footed"][rows]
        fr, fc = np.nonzero(flat)
        ctx.emit(
            "round",
            [
                ctx.set("round", rows, new_round),
                ctx.set("cursor", rows, 0),
                ctx.set("ap", rr, AP_PER_ROUND, c_idx),
                ctx.set("flat_footed", rows[fr], 0, fc),
            ],
            self._text(
                ctx,
                lambda: f"Round {int(new_round[0])}: every standing combatant has {AP_PER_ROUND} AP  [{AP_PAGE}]",
            ),
            round=int(new_round[0]) if ctx.narrating else None,
        )

    def _consequences(
        self, ctx: StepContext, mask: BoolArray, attacker: IntArray, defender: IntArray, out: dict[str, IntArray]
    ) -> None:
        """What a resolved attack does: LP lost (and damage dealt), AP lost, Flat-Footed (hits only)."""
        rows = np.flatnonzero(mask & (out["result"] == HIT))
        if rows.size == 0:
            return
        d, a = defender[rows], attacker[rows]
        state = ctx.state
        lp = gather(state.per["lp"], rows, d)
        damage = out["damage"][rows]
        new_lp = np.maximum(0, lp - damage)
        hurt = damage > 0
        if hurt.any():
            dealt = gather(state.per["dealt"], rows, a) + (lp - new_lp)
            hr, lp_h, d_h, dealt_h, a_h = select(hurt, rows, new_lp, d, dealt, a)
            ctx.emit(
                "damage",
                [ctx.set("lp", hr, lp_h, d_h), ctx.set("dealt", hr, dealt_h, a_h)],
                self._text(
                    ctx,
                    lambda: (
                        f"{self._name(ctx, defender)} loses {int(damage[0])} LP ({int(lp[0])} -> {int(new_lp[0])})"
                        + (": unconscious, out of the fight  [kaiser: critical.md]" if new_lp[0] <= 0 else "")
                    ),
                ),
            )
        lost = out["ap_lost"][rows] == 1
        if lost.any():
            ap = gather(state.per["ap"], rows, d)
            lr = rows[lost]
            ctx.emit(
                "ap_lost",
                [ctx.set("ap", lr, np.maximum(0, ap[lost] - 1), d[lost])],
                self._text(
                    ctx,
                    lambda: (
                        f"{self._name(ctx, defender)} loses 1 AP ({int(ap[0])} -> {max(0, int(ap[0]) - 1)})"
                        f"  [{PAGE}, Successful Attack]"
                    ),
                ),
            )
        flat = out["flat_footed"][rows] == 1
        if flat.any():
            ctx.emit(
                "flat_footed",
                [ctx.set("flat_footed", rows[flat], 1, d[flat])],
                self._text(
                    ctx,
                    lambda: (
                        f"{self._name(ctx, defender)} is hit at 0 AP: Flat-Footed until the round ends  [{AP_PAGE}]"
                    ),
                ),
            )

    @staticmethod
    def _name(ctx: StepContext, who: IntArray) -> str:
        return ctx.fight.roster.names[int(who[0])]

    @staticmethod
    def _text(ctx: StepContext, make: Any) -> str:
        return str(make()) if ctx.narrating else ""


RULES = KaiserFight()
