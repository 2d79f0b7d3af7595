"""Last Odyssey fights: Shell pools, HP, rows, Multi abilities (issue 8; last-odyssey.md, decisions.md).

Rules applied between attacks (the attack itself is the system's `resolve`: hit die, damage with the Shell
and element multipliers, statuses):
- Shell pools [Shells.md; decisions 5]: a Shell is a pool of points (the target block's `shell`: false for
  none, or its points; `true` without points cannot be played). While it has points the Shell is active
  (magical attacks deal double, physical ones normal); a hit's damage goes to the pool; on the hit that
  breaks it, the overflow takes HP only if it is at least the remaining HP (the combatant is downed),
  else no HP is lost. Without a Shell, damage takes HP.
- HP never goes below 0; at 0 a combatant is downed, out of the fight; downed by a knock-out it is
  incapacitated instead of killed [Death-and-Injury.md; decisions 6].
- Body Armor (the Cop's passive): the first physical hit deals no damage; the armour is then used up.
- Rows [Starting-Battles.md]: a Melee ability needs its user in the front row and reaches only the front
  row; other abilities reach any row. When a side's front row has nobody standing, its back row comes
  forward.
- Multi abilities: one roll of the hit die for every target (decisions 4); a Multi ability is used on every
  foe it can reach (a Melee one: the foes' front row).
- Statuses landed are counted (`status_hits`) and narrated; their effects are not played in a fight.
  Buff, debuff, Self and Ally abilities are not played either (a fight uses abilities on foes).

Turn order: the order in the file, sides alternating (the page gives none); one ability per turn.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from tohit.core.errors import InputError
from tohit.engine.fight.context import StepContext
from tohit.engine.fight.model import LoadedFight
from tohit.engine.fight.policy import choose_actions
from tohit.engine.fight.rounds import RoundRules
from tohit.engine.fight.rows import any_rows, rows_of, select, take_rows
from tohit.engine.fight.state import BoolArray, IntArray, State, gather

HIT = 0
FRONT, BACK = 0, 1
PAGE = "last-odyssey"
NOT_PLAYED = ("self", "ally", "passive", "reaction")


class LastOdysseyFight(RoundRules):
    system_id = "last-odyssey"
    health = "hp"
    health_label = "HP"
    outcome_fields = ("result", "damage", "status_applied")
    target_stats = ("hp",)
    table_stats = ()
    scalar_stats = ("shell", "body_armor")
    odds_stats = ()
    always_usable = False
    table_clip: ClassVar[dict[str, str]] = {}
    standing_stats = ("hp",)
    turn_order: ClassVar[str] = (
        "File order, sides alternating (the page gives none); each round every standing combatant uses one"
        " ability; a Melee one needs the front row."
    )

    # -- scalar stats: the system reads Shell and Body Armor in plain `if`s ------------------------------------
    def group_value(self, stat: str, values: Any) -> Any:
        return (np.asarray(values) > 0).astype(np.int64)

    def field_value(self, stat: str, group: int) -> Any:
        return bool(group)

    def narrate_value(self, stat: str, value: int) -> Any:
        # A narrated fight shows the pool itself: the system's trace then walks through the absorption.
        return value if stat == "shell" and value > 0 else bool(value > 0)

    # -- setup ------------------------------------------------------------------------------------------------
    def for_check(self, scenario: Any) -> Any:
        """Rows change during a fight: the load-time check sees both in the front row."""
        attacker = scenario.attacker.model_copy(update={"row": "front"})
        targets = [t.model_copy(update={"row": "front"}) for t in scenario.targets]
        return scenario.model_copy(update={"attacker": attacker, "targets": targets})

    def check(self, fight: LoadedFight) -> None:
        for c, comb in enumerate(fight.combatants):
            where = fight.paths[c]
            if comb.target.hp is None:
                raise InputError("a combatant in a fight needs its HP", field=f"{where}.target.hp")
            if comb.target.shell is None or comb.target.shell is True:
                raise InputError(
                    "a Shell in a fight is a pool of points: give false (no Shell) or its points",
                    field=f"{where}.target.shell",
                )
            for a, entry in enumerate(comb.attacks):
                kind, types = entry.attack.kind, entry.attack.type
                if kind in ("buff", "debuff") or any(t in NOT_PLAYED for t in types):
                    raise InputError(
                        "a fight uses abilities on foes (physical, magical or status; not Self, Ally, Passive,"
                        " Reaction, buff or debuff)",
                        field=f"{where}.attacks[{a}].attack",
                    )

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        target = fight.combatants[combatant].target
        shell = target.shell
        return {
            "hp": int(target.hp),
            "shell": 0 if shell is False else int(shell),
            "body_armor": int(target.body_armor),
            "row": FRONT if target.row == "front" else BACK,
            "incapacitated": 0,
            "status_hits": 0,
            "dealt": 0,
        }

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        return state.per["hp"] > 0

    def _tables(self, fight: LoadedFight) -> dict[str, Any]:
        key = ("lo_tables",)
        found: dict[str, Any] | None = fight.cache.get(key)
        if found is None:
            size, na = fight.roster.size, fight.max_attacks
            melee = np.zeros((size, na), dtype=bool)
            multi = np.zeros((size, na), dtype=bool)
            physical = np.zeros((size, na), dtype=bool)
            knock = np.zeros((size, na), dtype=bool)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    melee[c, a] = "melee" in entry.attack.type
                    multi[c, a] = "multi" in entry.attack.type
                    physical[c, a] = entry.attack.kind == "physical"
                    knock[c, a] = entry.attack.knock_out
            found = fight.cache[key] = {"melee": melee, "multi": multi, "physical": physical, "knock": knock}
        return found

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

    def options(self, ctx: StepContext, actor: IntArray) -> BoolArray:
        fight = ctx.fight
        who = np.maximum(actor, 0)
        usable = self.usable_of(fight, ctx.state, who)  # (n, A)
        foes = rows_of(fight.roster.foe_matrix, who) & ctx.standing()  # (n, C)
        melee = rows_of(self._tables(fight)["melee"], who)  # (n, A)
        if not melee.any():
            out: BoolArray = usable[:, :, None] & foes[:, None, :]
            return out
        front = ctx.state.per["row"] == FRONT
        reach = np.where(melee[:, :, None], (foes & front)[:, None, :], foes[:, None, :])
        out = usable[:, :, None] & reach
        return out

    # -- a turn ----------------------------------------------------------------------------------------------
    def turn(self, ctx: StepContext, acting: BoolArray, actor: IntArray) -> None:
        fight = ctx.fight
        options = self.options(ctx, actor)
        idx, attack, target = choose_actions(ctx, acting, actor, options)
        actor, acting, options = actor[idx], acting[idx] & (attack >= 0), options[idx]
        if not acting.any():
            return
        n, size = ctx.n, fight.roster.size
        tables = self._tables(fight)
        if not tables["multi"].any():  # one target each: one resolve for every fight
            idx, out = ctx.resolve(acting, actor, attack, target)
            self._apply(ctx, acting[idx], actor[idx], attack[idx], target[idx], out)
            self._rows(ctx)
            return
        multi = acting & tables["multi"][np.maximum(actor, 0), np.maximum(attack, 0)]
        caught = np.zeros((n, size), dtype=bool)
        rows = np.flatnonzero(acting)
        caught[rows, target[rows]] = True
        if multi.any():  # a Multi ability: every foe it reaches
            reach = options[np.arange(n), np.maximum(attack, 0)]
            caught = np.where(multi[:, None], reach, caught)
        # One hit die for every target of a Multi ability: the resolves of this turn share it.
        shared: dict[str, Any] | None = {} if multi.any() else None
        for t in range(size):
            mask = caught[:, t]
            if not mask.any():
                continue
            tt = np.full(n, t, dtype=np.int64)
            idx, out = ctx.resolve(mask, actor, attack, tt, shared=shared)
            actor, attack, caught = actor[idx], attack[idx], caught[idx]
            n = ctx.n
            self._apply(ctx, mask[idx], actor, attack, np.full(ctx.n, t, dtype=np.int64), out)
        self._rows(ctx)

    def _apply(
        self,
        ctx: StepContext,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        out: dict[str, Any],
    ) -> None:
        """Shell pool, HP, downed, Body Armor and statuses of one resolved ability on each row's target."""
        rows = np.flatnonzero(mask & (out["result"] == HIT))
        if rows.size == 0:
            return
        tables = self._tables(ctx.fight)
        a, k, t = actor[rows], attack[rows], target[rows]
        per = ctx.state.per
        damage = out["damage"][rows]
        hp, points = gather(per["hp"], rows, t), gather(per["shell"], rows, t)
        shelled = points > 0
        absorbed = np.where(shelled, np.minimum(damage, points), 0)
        breaks = shelled & (damage >= points) & (damage > 0)
        overflow = np.where(breaks, damage - points, 0)
        lost = np.where(shelled, np.where(breaks & (overflow >= hp), hp, 0), np.minimum(damage, hp))
        changes = []
        took = absorbed > 0
        if took.any():
            changes.append(ctx.set("shell", rows[took], (points - absorbed)[took], t[took]))
        hurt = lost > 0
        if hurt.any():
            r, ah, th, left, lost_h = select(hurt, rows, a, t, hp - lost, lost)
            changes.append(ctx.set("hp", r, left, th))
            changes.append(ctx.set("dealt", r, gather(per["dealt"], r, ah) + lost_h, ah))
        knocked = hurt & (lost == hp) & tables["knock"][a, k]
        if knocked.any():
            changes.append(ctx.set("incapacitated", rows[knocked], 1, t[knocked]))
        armour = (gather(per["body_armor"], rows, t) > 0) & tables["physical"][a, k]
        if armour.any():
            changes.append(ctx.set("body_armor", rows[armour], 0, t[armour]))
        status = out["status_applied"][rows] == 1
        if status.any():
            rs, ts = rows[status], t[status]
            changes.append(ctx.set("status_hits", rs, gather(per["status_hits"], rs, ts) + 1, ts))
        if changes:
            ctx.emit(
                "damage",
                changes,
                self.text(ctx, lambda: self._words(ctx, int(t[0]), damage, hp, points, absorbed, lost)),
            )

    def _words(
        self,
        ctx: StepContext,
        t: int,
        damage: IntArray,
        hp: IntArray,
        points: IntArray,
        absorbed: IntArray,
        lost: IntArray,
    ) -> str:
        name = ctx.fight.roster.names[t]
        d, h, p, ab, lo = (int(x[0]) for x in (damage, hp, points, absorbed, lost))
        parts = []
        if d == 0:
            parts.append("the hit deals no damage")
        elif p > 0:
            parts.append(f"its Shell takes {ab} ({p} -> {p - ab})")
            if d >= p and d > 0:
                over = d - p
                rule = "at least" if over >= h else "less than"
                parts.append(f"the Shell breaks; the overflow {over} is {rule} its HP {h}  [Shells.md; decisions 5]")
        if lo:
            parts.append(f"HP {h} -> {h - lo}" + (": downed" if lo == h else ""))
        return f"{name}: " + "; ".join(parts) if parts else f"{name}: no effect"

    def _rows(self, ctx: StepContext) -> None:
        """A side whose front row has nobody standing brings its back row forward."""
        fight = ctx.fight
        row = ctx.state.per["row"]
        back = row == BACK
        if not back.any():  # nobody in a back row (the usual fight): nothing can come forward
            return
        standing = self.standing(fight, ctx.state)
        for s, members in enumerate(fight.roster.side_columns):
            front_up = any_rows(standing[:, members] & ~back[:, members])
            back_up = standing & back & (fight.roster.side_array == s)[None, :]
            moves = ~front_up[:, None] & back_up
            r, c = np.nonzero(moves)
            if r.size:
                ctx.emit(
                    "rows",
                    [ctx.set("row", r, FRONT, c)],
                    self.text(
                        ctx,
                        lambda s=s: (
                            f"{fight.roster.side_names[s]}'s front row has nobody standing: the back row comes"
                            "  forward  [Starting-Battles.md]"
                        ),
                    ),
                )


RULES = LastOdysseyFight()
