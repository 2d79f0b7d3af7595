"""Reclaim the Wild fights: Health, Peril, Falling in Battle, Weapon Durability, area attacks (issue 8; rtw page).

Rules applied between attacks (the attack itself is the system's `resolve`, which reports what a fight
applies: `falls`, `peril`, `durability_used`, `burning_wear`, `cost_spent`):
- Health: a hit costs its damage; Health never goes below 0. The target block's `health`, else its Max
  Health (4 x Hearts unless `max_health`), is where a combatant starts.
- Peril [rtw: Peril, decisions 8]: Health <= Hearts (shown as the `peril` stat, when Hearts are given).
- Falling in Battle: at 0 Health a creature perishes or falls Helpless, as the attack's `at_zero_health`
  says; Heroes (`hero: true`) and mindless sources always leave it Helpless. A Helpless or perished
  combatant takes no actions: a side with nobody else is beaten. Policies leave Helpless foes alone ("foes
  will then turn to fight the remaining Heroes").
- Area attacks (`attack.area`) catch the chosen foe and the next foes in file order, up to the attack's
  `area_size` (default: every foe), each with its own roll To-Hit (rtw: one roll per target); they skip
  Helpless creatures, which an area does not harm (Falling in Battle).
- Weapon Durability [rtw: Weapon Durability]: at the end of the encounter each weapon used successfully in
  it loses 1 Durability (a weapon with no `durability` given never wears). A Burning weapon also loses 1
  for each foe it hits (status_effects.md), during the fight; a weapon at 0 Durability has shattered and
  cannot be used. Attacks with the same weapon share it.
- Magic and Stamina: an attack's `cost` is spent hit or miss, from the combatant's `magic` / `stamina`
  pools when given (an attack it cannot pay for is not usable); without a pool, costs are not counted.

Turn order: the page gives none: the order in the file, sides alternating, one attack per turn.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from tohit.core.errors import InputError
from tohit.core.models import Model
from tohit.engine.fight.context import StepContext
from tohit.engine.fight.model import LoadedFight
from tohit.engine.fight.policy import choose_actions
from tohit.engine.fight.rounds import RoundRules
from tohit.engine.fight.state import BoolArray, IntArray, State, gather

PAGE = "rtw"
HIT = 0
HELPLESS, PERISHES = 0, 1
NO_POOL = -1
UNBREAKABLE = -1


class RtwCombatant(Model):
    """Reclaim the Wild fight fields of a combatant."""

    magic: int | None = Field(default=None, ge=0, le=100_000, description="Magic to spend (none: not counted).")
    stamina: int | None = Field(default=None, ge=0, le=100_000, description="Stamina to spend (none: not counted).")


class RtwAttack(Model):
    """Reclaim the Wild fight fields of an attack."""

    area_size: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="How many foes an area attack catches: the chosen one and the next (default: every foe).",
    )


class RtwFight(RoundRules):
    system_id = "rtw"
    health = "health"
    health_label = "Health"
    combatant_extra = RtwCombatant
    attack_extra = RtwAttack
    outcome_fields = ("result", "damage", "falls", "peril", "durability_used", "burning_wear")
    target_stats = ("health",)
    table_stats = ("health",)
    table_clip: ClassVar[dict[str, str]] = {}
    odds_stats = ()
    always_usable = False
    bookkeeping = ("dealt", "used")
    turn_order: ClassVar[str] = (
        "File order, sides alternating (the page gives no initiative rule); each round every combatant that is"
        " neither Helpless nor perished makes one attack."
    )

    # -- setup -------------------------------------------------------------------------------------------------
    def check(self, fight: LoadedFight) -> None:
        for c, comb in enumerate(fight.combatants):
            if comb.target.health is None and comb.target.health_max is None:
                raise InputError(
                    "a combatant in a fight needs its Health (or Hearts, for 4 x Hearts)",
                    field=f"{fight.paths[c]}.target.health",
                )

    def _weapons(self, fight: LoadedFight) -> tuple[IntArray, list[list[Any]]]:
        """(combatants, attacks) -> weapon slot of each attack (-1: unarmed); each combatant's weapons."""
        key = ("rtw_weapons",)
        found: tuple[IntArray, list[list[Any]]] | None = fight.cache.get(key)
        if found is None:
            slot = np.full((fight.roster.size, fight.max_attacks), -1, dtype=np.int64)
            weapons: list[list[Any]] = []
            for c, comb in enumerate(fight.combatants):
                mine: list[Any] = []
                seen: dict[str, int] = {}
                for a, entry in enumerate(comb.attacks):
                    weapon = entry.attacker.weapon
                    if weapon is None:
                        continue
                    k = weapon.model_dump_json()
                    if k not in seen:
                        seen[k] = len(mine)
                        mine.append(weapon)
                    slot[c, a] = seen[k]
                weapons.append(mine)
            found = fight.cache[key] = (slot, weapons)
        return found

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        comb = fight.combatants[combatant]
        target = comb.target
        health = target.health if target.health is not None else target.health_max
        out = {
            "health": int(health),
            "helpless": int(target.helpless),
            "perished": 0,
            "peril": int(target.hearts is not None and health <= target.hearts),
            "magic": NO_POOL if comb.magic is None else comb.magic,
            "stamina": NO_POOL if comb.stamina is None else comb.stamina,
            "dealt": 0,
        }
        _, weapons = self._weapons(fight)
        width = max(len(w) for w in weapons) if weapons else 0
        for w in range(width):
            mine = weapons[combatant]
            d = mine[w].durability if w < len(mine) else None
            out[f"durability{w}"] = UNBREAKABLE if d is None else int(d)
            out[f"used{w}"] = 0
        return out

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        return (state.per["health"] > 0) & (state.per["helpless"] == 0) & (state.per["perished"] == 0)

    def _flags(self, fight: LoadedFight) -> tuple[bool, bool, bool]:
        """(some weapon can shatter mid-fight (Burning, with Durability), some cost is counted, some area)."""
        key = ("rtw_flags",)
        found: tuple[bool, bool, bool] | None = fight.cache.get(key)
        if found is None:
            burning = pools = area = False
            for comb in fight.combatants:
                pools |= comb.magic is not None or comb.stamina is not None
                for entry in comb.attacks:
                    w = entry.attacker.weapon
                    burning |= w is not None and w.burning and w.durability is not None
                    area |= entry.attack.area
            found = fight.cache[key] = (burning, pools, area)
        return found

    def usable(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants, attacks): a weapon not shattered, and Magic / Stamina for the cost."""
        burning, pools, _ = self._flags(fight)
        if not burning and not pools:
            return np.broadcast_to(fight.has_attack[None], (state.n, *fight.has_attack.shape))
        slot, _ = self._weapons(fight)
        costs = self._costs(fight)
        ok = np.broadcast_to(fight.has_attack[None], (state.n, *fight.has_attack.shape)).copy()
        for w in range(slot.max(initial=-1) + 1):
            broken = state.per[f"durability{w}"] == 0  # (n, C)
            ok &= ~(broken[:, :, None] & (slot == w)[None])
        for pool, i in (("magic", 0), ("stamina", 1)):
            have = state.per[pool][:, :, None]
            ok &= (have == NO_POOL) | (have >= costs[None, :, :, i])
        return ok

    def _costs(self, fight: LoadedFight) -> IntArray:
        """(combatants, attacks, 2): Magic and Stamina each attack costs."""
        key = ("rtw_costs",)
        found: IntArray | None = fight.cache.get(key)
        if found is None:
            found = np.zeros((fight.roster.size, fight.max_attacks, 2), dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    found[c, a] = (entry.attack.cost.magic, entry.attack.cost.stamina)
            fight.cache[key] = found
        return found

    # -- a turn ----------------------------------------------------------------------------------------------
    def turn(self, ctx: StepContext, acting: BoolArray, actor: IntArray) -> None:
        options = self.options(ctx, actor)
        idx, attack, target = choose_actions(ctx, acting, actor, options)
        actor, acting = actor[idx], acting[idx] & (attack >= 0)
        if not acting.any():
            return
        fight = ctx.fight
        self._pay(ctx, acting, actor, attack)
        # The foes each attack catches: the chosen one, and for an area attack the next standing foes.
        caught = self._caught(ctx, acting, actor, attack, target)  # (n, C) in file order
        for t in range(fight.roster.size):
            mask = caught[:, t]
            if not mask.any():
                continue
            tt = np.full(ctx.n, t, dtype=np.int64)
            idx, out = ctx.resolve(mask, actor, attack, tt)
            actor, attack, acting, caught = actor[idx], attack[idx], acting[idx], caught[idx]
            self._apply(ctx, mask[idx], actor, attack, tt[idx], out)

    def _pay(self, ctx: StepContext, acting: BoolArray, actor: IntArray, attack: IntArray) -> None:
        if not self._flags(ctx.fight)[1]:
            return
        costs = self._costs(ctx.fight)
        rows = np.flatnonzero(acting)
        c, a = actor[rows], attack[rows]
        changes = []
        for pool, i in (("magic", 0), ("stamina", 1)):
            have = ctx.state.per[pool][rows, c]
            cost = costs[c, a, i]
            pays = (have != NO_POOL) & (cost > 0)
            if pays.any():
                changes.append(ctx.set(pool, rows[pays], have[pays] - cost[pays], c[pays]))
        if changes:
            ctx.emit("cost", changes, self.text(ctx, lambda: f"{self.name(ctx, c)} spends the attack's cost"))

    def _caught(
        self, ctx: StepContext, acting: BoolArray, actor: IntArray, attack: IntArray, target: IntArray
    ) -> BoolArray:
        fight = ctx.fight
        n, size = ctx.n, fight.roster.size
        caught = np.zeros((n, size), dtype=bool)
        rows = np.flatnonzero(acting)
        caught[rows, target[rows]] = True
        if not self._flags(fight)[2]:
            return caught
        area, reach = self._area(fight)
        is_area = acting & area[np.maximum(actor, 0), np.maximum(attack, 0)]
        if is_area.any():
            # Foes standing (Helpless ones are skipped), from the chosen one on in file order, then wrapping.
            who = np.maximum(actor, 0)
            foes = fight.roster.foes()[who] & self.standing(fight, ctx.state)
            ahead = (np.arange(size)[None, :] - target[:, None]) % size  # 0 for the chosen foe
            rank = np.where(foes, ahead, size + 1)
            order = np.argsort(rank, axis=1, kind="stable")
            limit = reach[who, np.maximum(attack, 0)]
            position = np.empty_like(order)
            np.put_along_axis(position, order, np.arange(size)[None, :].repeat(n, axis=0), axis=1)
            within = foes & (position < limit[:, None])
            caught = np.where(is_area[:, None], within, caught)
        return caught

    def _area(self, fight: LoadedFight) -> tuple[BoolArray, IntArray]:
        key = ("rtw_area",)
        found: tuple[BoolArray, IntArray] | None = fight.cache.get(key)
        if found is None:
            area = np.zeros((fight.roster.size, fight.max_attacks), dtype=bool)
            reach = np.ones((fight.roster.size, fight.max_attacks), dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    area[c, a] = entry.attack.area
                    reach[c, a] = fight.roster.size if entry.area_size is None else entry.area_size
            found = fight.cache[key] = (area, reach)
        return found

    def _apply(
        self,
        ctx: StepContext,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        out: dict[str, Any],
    ) -> None:
        """Health, Falling in Battle, Peril, weapon use and Burning wear of one resolved attack on `target`."""
        rows = np.flatnonzero(mask & (out["result"] == HIT))
        if rows.size == 0:
            return
        a, t, k = actor[rows], target[rows], attack[rows]
        state = ctx.state
        damage = out["damage"][rows]
        before = gather(state.per["health"], rows, t)
        after = np.maximum(0, before - damage)
        hurt = after < before
        if hurt.any():
            r = rows[hurt]
            ctx.emit(
                "damage",
                [
                    ctx.set("health", r, after[hurt], t[hurt]),
                    ctx.set("dealt", r, gather(state.per["dealt"], r, a[hurt]) + (before - after)[hurt], a[hurt]),
                ],
                self.text(
                    ctx,
                    lambda: f"{self.name(ctx, t)} loses {int(damage[0])} Health ({int(before[0])} -> {int(after[0])})",
                ),
            )
        peril = out["peril"][rows] == 1
        now = gather(state.per["peril"], rows, t)
        enters = peril & (now == 0)
        if enters.any():
            ctx.emit(
                "peril",
                [ctx.set("peril", rows[enters], 1, t[enters])],
                self.text(ctx, lambda: f"{self.name(ctx, t)} is in Peril (Health <= Hearts)  [{PAGE}: Peril]"),
            )
        falls = out["falls"][rows]
        for code, stat, words in ((HELPLESS, "helpless", "falls Helpless"), (PERISHES, "perished", "perishes")):
            sel = falls == code
            if sel.any():
                ctx.emit(
                    "falls",
                    [ctx.set(stat, rows[sel], 1, t[sel])],
                    self.text(ctx, lambda w=words: f"{self.name(ctx, t)} {w} at 0 Health  [{PAGE}: Falling in Battle]"),
                )
        slot, _ = self._weapons(ctx.fight)
        w = slot[a, k]
        used = (out["durability_used"][rows] == 1) & (w >= 0)
        for ww in np.unique(w[used]) if used.any() else ():
            sel = used & (w == ww)
            ctx.emit("weapon_used", [ctx.set(f"used{ww}", rows[sel], 1, a[sel])])
        wear = (out["burning_wear"][rows] == 1) & (w >= 0)
        for ww in np.unique(w[wear]) if wear.any() else ():
            sel = wear & (w == ww)
            dur = state.per[f"durability{ww}"][rows[sel], a[sel]]
            wears = dur > 0
            if wears.any():
                left = dur[wears] - 1
                ctx.emit(
                    "durability",
                    [ctx.set(f"durability{ww}", rows[sel][wears], left, a[sel][wears])],
                    self.text(
                        ctx,
                        lambda dur=dur: (
                            f"the Burning weapon loses 1 Durability ({int(dur[0])} -> {int(dur[0]) - 1})"
                            + (": it shatters" if dur[0] == 1 else "")
                            + "  [rtw: status_effects.md, Burning]"
                        ),
                    ),
                )

    def finish(self, ctx: StepContext, rows: Any) -> None:
        """The end of the encounter: each weapon used successfully loses 1 Durability; at 0 it shatters."""
        slot, weapons = self._weapons(ctx.fight)
        rows = np.asarray(rows, dtype=np.int64)
        for w in range(slot.max(initial=-1) + 1):
            used = ctx.state.per[f"used{w}"][rows] == 1
            dur = ctx.state.per[f"durability{w}"][rows]
            wears = used & (dur > 0)
            r, c = np.nonzero(wears)
            if r.size == 0:
                continue
            left = dur[r, c] - 1
            ctx.emit(
                "durability",
                [ctx.set(f"durability{w}", rows[r], left, c), ctx.set(f"used{w}", rows[r], 0, c)],
                self.text(
                    ctx,
                    lambda c=c, w=w, left=left: (
                        f"end of the encounter: {ctx.fight.roster.names[int(c[0])]}'s"
                        f" {weapons[int(c[0])][w].name or 'weapon'} was used successfully and loses 1 Durability"
                        f" ({int(left[0]) + 1} -> {int(left[0])})"
                        + (": it shatters" if left[0] == 0 else "")
                        + f"  [{PAGE}: Weapon Durability]"
                    ),
                ),
            )


RULES = RtwFight()
