"""When Sky and Sea Were Not Named fights: life, guard, awareness; skipping; Stand Fast; initiative (issue 8).

Rules applied between actions (an action itself is the system's `resolve`):
- Damage [wsswnn.txt, Damage]: lethal damage reduces life, guard damage guard (after the lethal damage),
  awareness damage awareness, each never below 0; at 0 life a combatant is out of the fight. A missed
  jump-attack's fall costs the attacker life and guard.
- Skipping an action gives +1 guard (or +1 awareness: the combatant's `skip_gains`), never above its
  maximum [tracking-your-stats]. A combatant skips when its Guard is at or below its `skip_at`, or when it has
  no attack it can make.
- Stand Fast as a choice [braces; sources-and-gaps.md defaults]: a combatant with a Stand Fast brace among its
  attacks uses it on its turn when its Guard is at or below its `stand_fast_at`; it regains Guard equal to its
  Brace roll, up to maximum Guard + Strength. Its own Guard and maximum Guard are the fight's (an attacker
  block without `guard` / `max_guard` takes the target block's Guard for both).
- Initiative [maneuvers]: at the start of the fight each combatant rolls its Maneuver die (with its penalty)
  against the highest Awareness among its foes; those who beat it act first, in file order with sides
  alternating, then the others in the same order. A combatant with no Maneuver die does not beat it.
  The order then holds for the whole fight.
- Braces' effects on a foe (grappled, shoved, disarmed) and a foe paying Stamina to resist are reported in
  the narration but not kept in the fight's state.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field

from tohit.core.errors import InputError
from tohit.core.models import Model
from tohit.core.outcome import NULL_INT
from tohit.engine.fight.context import StepContext
from tohit.engine.fight.model import LoadedFight
from tohit.engine.fight.policy import choose_actions
from tohit.engine.fight.rounds import RoundRules
from tohit.engine.fight.rows import rows_of, select, take_rows
from tohit.engine.fight.state import BoolArray, IntArray, State, gather
from tohit.systems.wsswnn.models import die_sides

PAGE = "wsswnn"
MISS = 2  # result code of a miss (a brace action's failure shares it and deals nothing either)
NEVER = -1


class WsswnnCombatant(Model):
    """WSSWNN fight fields of a combatant: when it skips or Stands Fast instead of attacking."""

    stand_fast_at: int | None = Field(
        default=None, ge=0, le=100, description="Stand Fast (one of its attacks) when its Guard is at or below this."
    )
    skip_at: int | None = Field(
        default=None,
        ge=0,
        le=100,
        description="Skip the action (+1 guard or awareness) when Guard is at or below this.",
    )
    skip_gains: Literal["guard", "awareness"] = Field(default="guard", description="What skipping an action gives.")


def _is_stand_fast(entry: Any) -> bool:
    return bool(entry.attack.kind == "brace" and entry.attack.brace == "stand_fast")


class WsswnnFight(RoundRules):
    system_id = "wsswnn"
    health = "life"
    health_label = "life"
    combatant_extra = WsswnnCombatant
    outcome_fields = (
        "result",
        "damage",
        "guard_after",
        "awareness_damage",
        "falling_lethal",
        "falling_guard",
        "attacker_guard_after",
    )
    target_stats = ("guard", "life", "awareness")
    table_stats = ("guard",)
    table_clip: ClassVar[dict[str, str]] = {"damage": "life"}
    attacker_stats = ("guard",)
    odds_stats = ("guard",)
    static_order = False
    standing_stats = ("life",)
    turn_order: ClassVar[str] = (
        "Initiative: each combatant's Maneuver roll against its foes' highest Awareness; those who beat it act"
        " first, then the others, each group in file order with sides alternating; one action per round each."
    )

    # -- setup ---------------------------------------------------------------------------------------------------
    def prepare(self, data: dict[str, Any]) -> dict[str, Any]:
        """An attacker block without `guard` / `max_guard` takes the combatant's own Guard (target block)."""
        data = copy.deepcopy(data)
        for side in data.get("sides") or []:
            if not isinstance(side, dict):
                continue
            for comb in side.get("combatants") or []:
                if not isinstance(comb, dict):
                    continue
                attacker, target = comb.get("attacker"), comb.get("target")
                if isinstance(attacker, dict) and isinstance(target, dict) and isinstance(target.get("guard"), int):
                    attacker.setdefault("guard", target["guard"])
                    attacker.setdefault("max_guard", max(target["guard"], attacker["guard"]))
        return data

    def check(self, fight: LoadedFight) -> None:
        for c, comb in enumerate(fight.combatants):
            if comb.target.is_object:
                raise InputError(
                    "a combatant is a creature (Guard, Agility, life), not an object", field=f"{fight.paths[c]}.target"
                )
            if comb.target.life is None:
                raise InputError("a combatant in a fight needs its life", field=f"{fight.paths[c]}.target.life")
            if comb.stand_fast_at is not None and not any(_is_stand_fast(e) for e in comb.attacks):
                raise InputError(
                    "stand_fast_at needs a Stand Fast among its attacks (attack: {kind: brace, brace: stand_fast})",
                    field=f"{fight.paths[c]}.stand_fast_at",
                )

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        comb = fight.combatants[combatant]
        target, attacker = comb.target, comb.attacker
        guard = int(target.guard)
        awareness = int(target.awareness or 0)
        return {
            "life": int(target.life),
            "guard": guard,
            "max_guard": int(attacker.max_guard if attacker.max_guard is not None else guard),
            "awareness": awareness,
            "max_awareness": awareness,
            "initiative": 0,
            "turn": fight.file_order.index(combatant),
            "dealt": 0,
        }

    def fight_stats(self, fight: LoadedFight) -> dict[str, int]:
        return {**super().fight_stats(fight), "rolled": 0}

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        return state.per["life"] > 0

    def _tables(self, fight: LoadedFight) -> dict[str, IntArray]:
        key = ("wsswnn_tables",)
        found: dict[str, IntArray] | None = fight.cache.get(key)
        if found is None:
            size, na = fight.roster.size, fight.max_attacks
            stand = np.full(size, -1, dtype=np.int64)
            strike = np.zeros((size, na), dtype=bool)
            sides = np.zeros(size, dtype=np.int64)
            penalty = np.zeros(size, dtype=np.int64)
            stand_at = np.full(size, NEVER, dtype=np.int64)
            skip_at = np.full(size, NEVER, dtype=np.int64)
            gains = np.zeros(size, dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    if _is_stand_fast(entry):
                        stand[c] = a if stand[c] < 0 else stand[c]
                    else:
                        strike[c, a] = True
                die = comb.attacker.maneuver_die
                sides[c] = 0 if die is None else die_sides(die)
                penalty[c] = comb.attacker.penalty_of("maneuver")
                stand_at[c] = NEVER if comb.stand_fast_at is None else comb.stand_fast_at
                skip_at[c] = NEVER if comb.skip_at is None else comb.skip_at
                gains[c] = int(comb.skip_gains == "awareness")
            found = fight.cache[key] = {
                "stand": stand,
                "strike": strike,
                "sides": sides,
                "penalty": penalty,
                "stand_at": stand_at,
                "skip_at": skip_at,
                "gains": gains,
            }
        return found

    # -- initiative --------------------------------------------------------------------------------------------
    def step(self, ctx: StepContext) -> None:
        if (ctx.state.fight["rolled"] == 0).any():
            self._initiative(ctx)
        super().step(ctx)

    def _initiative(self, ctx: StepContext) -> None:
        fight = ctx.fight
        size = fight.roster.size
        t = self._tables(fight)
        rows = ctx.state.fight["rolled"] == 0
        beats = np.zeros((ctx.n, size), dtype=bool)
        for c in range(size):
            foes = fight.roster.foes()[c]
            best = ctx.state.per["awareness"][:, foes].max(axis=1)
            has_die = t["sides"][c] > 0
            mask = rows & has_die
            sides = np.full(ctx.n, t["sides"][c], dtype=np.int64)
            idx, face = ctx.die(mask, sides)
            rows, beats, best = rows[idx], beats[idx], best[idx]
            roll = face - t["penalty"][c]
            beats[:, c] = mask[idx] & (roll > best)
            if ctx.narrating and rows[0]:
                verdict = "beats" if beats[0, c] else "does not beat"
                ctx.emit(
                    "initiative_roll",
                    [],
                    f"Initiative: {fight.roster.names[c]} rolls Maneuver "
                    + (f"{face[0]} - {t['penalty'][c]} = {roll[0]}" if has_die else "(no Maneuver die)")
                    + f", which {verdict} the foes' highest Awareness {int(best[0])}"
                    + f"  [{PAGE}: maneuvers, initiative]",
                )
        file_pos = np.empty(size, dtype=np.int64)
        file_pos[np.asarray(fight.file_order)] = np.arange(size)
        key = np.where(beats, 0, size) + file_pos[None, :]
        order = np.argsort(key, axis=1, kind="stable")
        r = np.flatnonzero(rows)
        place = np.empty_like(order)
        np.put_along_axis(place, order, np.arange(size)[None, :].repeat(order.shape[0], axis=0), axis=1)
        changes = [ctx.set("turn", r, place[r, c], c) for c in range(size)]
        changes.append(ctx.set("rolled", r, 1))
        for c in range(size):
            won = r[beats[r, c]]
            changes.append(ctx.set("initiative", won, 1, c))
        names = fight.roster.names
        ctx.emit(
            "initiative",
            changes,
            self.text(ctx, lambda: "order: " + ", ".join(names[int(c)] for c in order[0])),
        )

    # -- a turn ----------------------------------------------------------------------------------------------------
    def turn(self, ctx: StepContext, acting: BoolArray, actor: IntArray) -> None:
        fight = ctx.fight
        t = self._tables(fight)
        who = np.maximum(actor, 0)
        guard = take_rows(ctx.state.per["guard"], who)
        stand = acting & (t["stand"][who] >= 0) & (guard <= t["stand_at"][who])
        skip = acting & ~stand & (guard <= t["skip_at"][who])
        strike = acting & ~stand & ~skip
        foes = rows_of(fight.roster.foe_matrix, who) & ctx.standing()
        options: BoolArray = np.asarray(rows_of(t["strike"], who)[:, :, None] & foes[:, None, :], dtype=bool)
        idx, attack, target = choose_actions(ctx, strike, actor, options)
        actor, stand, skip, strike = actor[idx], stand[idx], skip[idx], strike[idx]
        skip = skip | (strike & (attack < 0))  # nothing it can attack: it skips
        strike &= attack >= 0
        who = np.maximum(actor, 0)
        if skip.any():
            self._skip(ctx, skip, actor)
        if stand.any():
            sf = t["stand"][who]
            idx, out = ctx.resolve(stand, actor, np.maximum(sf, 0), actor, kind="stand_fast")
            actor, stand, strike, attack, target = actor[idx], stand[idx], strike[idx], attack[idx], target[idx]
            rows = np.flatnonzero(stand)
            after = out["attacker_guard_after"][rows]
            before = ctx.state.per["guard"][rows, actor[rows]]
            ctx.emit(
                "stand_fast",
                [ctx.set("guard", rows, after, actor[rows])],
                self.text(
                    ctx, lambda: f"{self.name(ctx, actor)} Stands Fast: Guard {int(before[0])} -> {int(after[0])}"
                ),
            )
        if strike.any():
            idx, out = ctx.resolve(strike, actor, attack, target)
            actor, strike, target = actor[idx], strike[idx], target[idx]
            self._damage(ctx, strike, actor, target, out)

    def _skip(self, ctx: StepContext, mask: BoolArray, actor: IntArray) -> None:
        t = self._tables(ctx.fight)
        rows = np.flatnonzero(mask)
        c = actor[rows]
        for gains, stat, top in ((0, "guard", "max_guard"), (1, "awareness", "max_awareness")):
            sel = t["gains"][c] == gains
            if not sel.any():
                continue
            r, cc = rows[sel], c[sel]
            now = ctx.state.per[stat][r, cc]
            after = np.maximum(now, np.minimum(now + 1, ctx.state.per[top][r, cc]))
            ctx.emit(
                "skip",
                [ctx.set(stat, r, after, cc)],
                self.text(
                    ctx,
                    lambda stat=stat, now=now, after=after: (
                        f"{self.name(ctx, actor[rows])} skips its action:"
                        f" +1 {stat}, never above its maximum ({int(now[0])} -> {int(after[0])})"
                        f"  [{PAGE}: tracking-your-stats]"
                    ),
                ),
            )

    def _damage(
        self, ctx: StepContext, mask: BoolArray, actor: IntArray, target: IntArray, out: dict[str, Any]
    ) -> None:
        fall_lethal, fall_guard = out["falling_lethal"], out["falling_guard"]
        falling = (fall_lethal > 0) | (fall_guard > 0)
        rows = np.flatnonzero(mask & ((out["result"] != MISS) | falling))
        if rows.size == 0:
            return
        a, d = actor[rows], target[rows]
        per = ctx.state.per
        lethal = out["damage"][rows]
        life = gather(per["life"], rows, d)
        life_after = np.maximum(0, life - lethal)
        guard = gather(per["guard"], rows, d)
        told = out["guard_after"][rows]
        guard_after = np.where(told == NULL_INT, guard, told)
        awareness_damage = out["awareness_damage"][rows]
        changes = []
        hurt = life_after < life
        if hurt.any():
            r, dh, ah, lost, left = select(hurt, rows, d, a, life - life_after, life_after)
            changes.append(ctx.set("life", r, left, dh))
            changes.append(ctx.set("dealt", r, gather(per["dealt"], r, ah) + lost, ah))
        g = guard_after != guard
        if g.any():
            changes.append(ctx.set("guard", *select(g, rows, guard_after, d)))
        aware = aware_after = guard  # no awareness damage anywhere: nothing changes (read by the narration only)
        if (awareness_damage > 0).any():
            aware = gather(per["awareness"], rows, d)
            aware_after = np.maximum(0, aware - np.maximum(0, awareness_damage))
            w = aware_after != aware
            if w.any():
                changes.append(ctx.set("awareness", rows[w], aware_after[w], d[w]))
        if changes:

            def words() -> str:
                parts = [
                    f"{what} {int(x[0])} -> {int(y[0])}"
                    for what, x, y in (
                        ("life", life, life_after),
                        ("guard", guard, guard_after),
                        ("awareness", aware, aware_after),
                    )
                    if x[0] != y[0]
                ]
                down = ": out of the fight" if life_after[0] <= 0 else ""
                return f"{self.name(ctx, d)}: " + ", ".join(parts) + down

            ctx.emit("damage", changes, self.text(ctx, words))
        falls = falling[rows]
        if falls.any():
            fall_l = np.where(fall_lethal[rows] == NULL_INT, 0, fall_lethal[rows])
            fall_g = np.where(fall_guard[rows] == NULL_INT, 0, fall_guard[rows])
            r, aa = rows[falls], a[falls]
            my_life = ctx.state.per["life"][r, aa]
            my_guard = ctx.state.per["guard"][r, aa]
            ctx.emit(
                "fall",
                [
                    ctx.set("life", r, np.maximum(0, my_life - fall_l[falls]), aa),
                    ctx.set("guard", r, np.maximum(0, my_guard - fall_g[falls]), aa),
                ],
                self.text(ctx, lambda: f"{self.name(ctx, a)} falls: -{int(fall_l[0])} life, -{int(fall_g[0])} guard"),
            )


RULES = WsswnnFight()
