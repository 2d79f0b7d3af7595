"""A Reclaim the Wild turn (fight.py's rules): its start and end (the statuses that end), the attack, an
area attack's foes each with its own roll To-Hit, Magic and Stamina spent, and what each outcome applies:
Health, Peril, Falling in Battle, a Burning weapon's wear and the statuses put on the target.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.consequence import ATTACKER, DEFENDER, Item, changes, events
from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.rows import read_flat
from tohit.core.fight.state import BoolArray, IntArray, gather
from tohit.systems.rtw import consequences
from tohit.systems.rtw.fight_move import move_and_attack
from tohit.systems.rtw.fight_status import STATUSES, StatusPlay, status_play
from tohit.systems.rtw.fight_tables import NO_POOL, RtwTables
from tohit.systems.rtw.rules import HIT

#: `resolve`'s outcome fields read where a hit of no damage changes nothing (`RtwTurns._damage_only`).
DAMAGE_ONLY = ("damage",)


def _rows_since(ctx: FightContext, start: IntArray) -> IntArray:
    """For each row now, its row at the start of the turn (the turn's expansions, read from `ctx.parent`)."""
    if not np.array_equal(start, np.arange(start.size)):  # pragma: no cover - a turn starts a step's rows
        raise RuntimeError("a Reclaim the Wild turn must start on the step's own rows")
    parent: IntArray = ctx.parent
    return parent


class RtwTurns(RtwTables):
    """A turn, played on every fight row at once."""

    # -- a turn ----------------------------------------------------------------------------------------------
    def turn(self, ctx: FightContext, acting: BoolArray, actor: IntArray, choice: GMChoice | None = None) -> None:
        """A turn: its start (Off-Balance ends, a Prone creature stands up), the attack (by policy, or the game
        master's `choice`), its end (Halted, Blinded, Dazzled end); without statuses in play, the attack only."""
        play = status_play(ctx.fight)
        if play is None:
            self._attack_turn(ctx, acting, actor, None, choice)
            return
        start = ctx.parent
        can = self._turn_start(ctx, play, acting, actor)
        if can.any():
            self._attack_turn(ctx, can, actor, play, choice)
        rows = _rows_since(ctx, start)
        self._turn_end(ctx, play, acting[rows], actor[rows])

    def _turn_start(self, ctx: FightContext, play: StatusPlay, acting: BoolArray, actor: IntArray) -> BoolArray:
        """Off-Balance ends at the beginning of the creature's next turn; a Prone creature stands up (half its
        Movement), unless Halted: then it cannot, and cannot attack while Prone (Status Effects). Returns who
        attacks this turn."""
        rows = np.flatnonzero(acting)
        c = actor[rows]
        if "off_balance" in play.stats:
            on = gather(ctx.state.per["off_balance"], rows, c) == 1
            if on.any():
                ctx.emit(
                    "status_ends", [ctx.set("off_balance", rows[on], 0, c[on])], combatant=lambda: self.name(ctx, c)
                )
        can = acting
        if "prone" in play.stats:
            prone = gather(ctx.state.per["prone"], rows, c) == 1
            halted = np.zeros_like(prone)
            if "halted" in play.stats:
                halted = gather(ctx.state.per["halted"], rows, c) == 1
            up = prone & ~halted
            if up.any():
                ctx.emit("stands_up", [ctx.set("prone", rows[up], 0, c[up])], combatant=lambda: self.name(ctx, c))
            stuck = prone & halted
            if stuck.any():
                can = acting.copy()
                can[rows[stuck]] = False
                ctx.emit("prone", (), combatant=lambda: self.name(ctx, c))
        return can

    def _turn_end(self, ctx: FightContext, play: StatusPlay, acting: BoolArray, actor: IntArray) -> None:
        """Blinded and Dazzled end at the end of the creature's next turn (Status Effects); Halted and Distracted
        too (the page gives no end: the fight's choice; every source of a Distraction at once)."""
        rows = np.flatnonzero(acting)
        c = actor[rows]
        for stat in ("halted", "blinded", "dazzled", "distracted"):
            if stat not in play.stats:
                continue
            on = gather(ctx.state.per[stat], rows, c) != 0
            if on.any():
                ctx.emit("status_ends", [ctx.set(stat, rows[on], 0, c[on])], combatant=lambda: self.name(ctx, c))

    def _read(self, fight: LoadedFight, play: StatusPlay | None) -> tuple[str, ...] | None:
        """The outcome fields a resolve reads: `effect_landed` only when some attack has an effect; only the
        damage where a hit of no damage changes nothing (`_damage_only`)."""
        if self._damage_only(fight, play):
            return DAMAGE_ONLY
        if play is not None and play.has_effects:
            return None
        return tuple(f for f in self.outcome_fields if f != "effect_landed")

    def _damage_only(self, fight: LoadedFight, play: StatusPlay | None) -> bool:
        """No status is in play (no effect to land, no Invisibility a hit ends) and no weapon has a Durability to
        lose (none is marked used): a hit changes only Health, dealt, Peril and Falling in Battle, all from the
        damage it deals, so a hit of no damage changes nothing, and a miss deals none (nor does a row that did
        not attack). The hits that change anything are then the rows of damage above 0."""
        return play is None and not self._flags(fight).wears

    @staticmethod
    def _status_note(ctx: FightContext, play: StatusPlay | None, actor: IntArray, target: IntArray) -> str:
        if play is None:
            return ""
        why = play.why(ctx.state, int(actor[0]), int(target[0]))
        return f" ({why})" if why else ""

    def _attack_turn(
        self,
        ctx: FightContext,
        acting: BoolArray,
        actor: IntArray,
        play: StatusPlay | None,
        choice: GMChoice | None = None,
    ) -> None:
        grid = self.grid(ctx.fight)
        if grid is not None:
            move_and_attack(self, ctx, acting, actor, play, choice)
            return
        options = self.options(ctx, actor)
        idx, attack, target = ctx.choose_actions(acting, actor, options, choice)
        actor, acting = actor[idx], acting[idx] & (attack >= 0)
        if not acting.any():
            return
        fight = ctx.fight
        read = self._read(fight, play)
        self._pay(ctx, acting, actor, attack)
        if not self._flags(fight)[2]:  # no area attack: one roll on the chosen foe, every fight at once
            extra = None if play is None else play.fields(ctx.state, actor, attack, target)
            idx, out = ctx.resolve(
                acting,
                actor,
                attack,
                target,
                extra,
                note=lambda: self._status_note(ctx, play, actor, target),
                fields=read,
            )
            self._apply(ctx, acting[idx], actor[idx], attack[idx], target[idx], out, play)
            self._attacked(ctx, play, acting[idx], actor[idx])
            return
        # The foes each attack catches: the chosen one, and for an area attack the next standing foes.
        caught = self._caught(ctx, acting, actor, attack, target, choice)  # (n, C) in file order
        for t in range(fight.roster.size):
            mask = caught[:, t]
            if not mask.any():
                continue
            tt = np.full(ctx.n, t, dtype=np.int64)
            extra = None if play is None else play.fields(ctx.state, actor, attack, tt)
            idx, out = ctx.resolve(
                mask,
                actor,
                attack,
                tt,
                extra,
                note=lambda actor=actor, tt=tt: self._status_note(ctx, play, actor, tt),
                fields=read,
            )
            actor, attack, acting, caught = actor[idx], attack[idx], acting[idx], caught[idx]
            self._apply(ctx, mask[idx], actor, attack, tt[idx], out, play)
        self._attacked(ctx, play, acting, actor)

    def _attacked(self, ctx: FightContext, play: StatusPlay | None, acting: BoolArray, actor: IntArray) -> None:
        """Invisibility ends at the end of the creature's own attack (Status Effects: Invisibility: "once you
        ... make an attack (at the attack's end)"), hit or miss."""
        if play is None or "invisible" not in play.stats:
            return
        rows = np.flatnonzero(acting)
        c = actor[rows]
        on = gather(ctx.state.per["invisible"], rows, c) == 1
        if on.any():
            ctx.emit(
                "status_ends",
                [ctx.set("invisible", rows[on], 0, c[on])],
                combatant=lambda: self.name(ctx, c),
                struck=False,
            )

    def _pay(self, ctx: FightContext, acting: BoolArray, actor: IntArray, attack: IntArray) -> None:
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
            ctx.emit("cost", changes, combatant=lambda: self.name(ctx, c))

    def _caught(
        self,
        ctx: FightContext,
        acting: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        choice: GMChoice | None = None,
    ) -> BoolArray:
        """(n, C): the foes each attack catches: the chosen one and, for an area attack, the next standing foes up
        to its count; the foes a game master names (several, within `max_targets`), exactly those."""
        fight = ctx.fight
        n, size = ctx.n, fight.roster.size
        caught = np.zeros((n, size), dtype=bool)
        rows = np.flatnonzero(acting)
        caught[rows, target[rows]] = True
        if choice is not None and choice.several:  # one fight, narrated: the foes named, each its own roll
            caught[rows[:, None], np.asarray(choice.targets)[None, :]] = True
            return caught
        if not self._flags(fight)[2]:
            return caught
        area, reach = self._area(fight)
        # An isolated foe "cannot be included in an attack with other foes" [Abstract Combat Ranges]: chosen, it is
        # the one caught; else the area passes it by.
        lonely = self.isolated(fight)
        is_area = acting & area[np.maximum(actor, 0), np.maximum(attack, 0)] & ~lonely[np.maximum(target, 0)]
        if is_area.any():
            # Foes standing (Helpless ones are skipped), from the chosen one on in file order, then wrapping.
            who = np.maximum(actor, 0)
            foes = fight.roster.foes()[who] & ctx.standing() & ~lonely[None, :]
            ahead = (np.arange(size)[None, :] - target[:, None]) % size  # 0 for the chosen foe
            rank = np.where(foes, ahead, size + 1)
            order = np.argsort(rank, axis=1, kind="stable")
            limit = reach[who, np.maximum(attack, 0)]
            position = np.empty_like(order)
            np.put_along_axis(position, order, np.arange(size)[None, :].repeat(n, axis=0), axis=1)
            within = foes & (position < limit[:, None])
            caught = np.where(is_area[:, None], within, caught)
        return caught

    def _apply(
        self,
        ctx: FightContext,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        out: dict[str, Any],
        play: StatusPlay | None = None,
    ) -> None:
        """Health, Falling in Battle, Peril, the effect's status, weapon use and Burning wear of one resolved
        attack on `target` (`consequences.apply`; emitted and narrated here)."""
        fight = ctx.fight
        if self._damage_only(fight, play):  # `_read`: the damage alone, 0 on a miss and on a row that did not attack
            rows = np.flatnonzero(out["damage"] > 0)
        else:
            rows = np.flatnonzero(mask & (out["result"] == HIT))
        if rows.size == 0:
            return
        up = ctx.standing()  # who stands before the attack (the step's options read it already)
        a, t = actor.take(rows), target.take(rows)
        per = ctx.state.per
        hearts, fall_code, only = self._fall_tables(fight)
        grid = self.grid(fight) is not None  # damage dealt counts foes only (an area on a map may catch allies)
        invisible = play is not None and "invisible" in play.stats
        effects = play is not None and play.has_effects
        wear = bool(self._flags(fight)[3])
        effect = status_now = None
        k = attack.take(rows) if effects or wear else rows[:0]  # the attacks, read only by effects and wear
        if effects:
            assert play is not None
            effect = play.effect[a, k]
            status_now = np.zeros(rows.size, dtype=np.int64)
            for i, stat in enumerate(play.stats):
                sel = effect == i
                if sel.any():
                    status_now[sel] = gather(per[stat], rows[sel], t[sel])
        slot = durability = None
        slots = 0
        if wear:
            slot_of, weapons = self._weapons(fight)
            slot = np.where(self._wearable(fight)[a, k], slot_of[a, k], -1)
            durability = np.zeros(rows.size, dtype=np.int64)
            for ww in np.unique(slot[slot >= 0]).tolist():
                sel = slot == ww
                durability[sel] = gather(per[f"durability{ww}"], rows[sel], a[sel])
            slots = max(len(mine) for mine in weapons)

        def fall(at: IntArray) -> IntArray:
            """What the creatures at positions `at` (the few brought to 0 Health) become: `_fall_tables`."""
            if only >= 0:
                return np.full(at.size, only, dtype=np.int64)
            c, ta = a.take(at), t.take(at)
            return gather(fall_code.reshape(-1, fall_code.shape[2]), c * fall_code.shape[1] + attack[rows[at]], ta)

        at = rows * per["health"].shape[1]  # the rows' first cells in the flat (fights, combatants) stats
        health = read_flat(per["health"], at + t)
        before = consequences.Before(
            health=health,
            dealt=read_flat(per["dealt"], np.add(at, a, out=at)),
            foe=fight.roster.are_foes(a, t) if grid else None,
            hearts=hearts.take(t),
            fall=fall,
            attacker=a,
            invisible=gather(per["invisible"], rows, t) if invisible else None,
            statuses=play.stats if play is not None else (),
            effect=effect,
            status_now=status_now,
            slot=slot,
            durability=durability,
            slots=slots,
        )
        outcome = consequences.Outcome(
            None,  # the rows are the hits
            out["damage"].take(rows),
            out["effect_landed"].take(rows) if effects else None,
            out["durability_used"].take(rows) if wear else None,
            out["burning_wear"].take(rows) if wear else None,
        )
        applied = consequences.apply(before, outcome)
        who = {DEFENDER: t, ATTACKER: a}
        for kind, items in events(applied.items):
            ctx.emit(kind, changes(items, rows, who), **self._details(ctx, kind, items, before, outcome, t, play))
        self._keep_standing(ctx, up, applied.items, rows, t)

    def _keep_standing(
        self, ctx: FightContext, up: BoolArray, items: tuple[Item, ...], rows: IntArray, target: IntArray
    ) -> None:
        """Who stands after the attack: as before it, less the creatures brought to 0 Health, the only ones whose
        Health, Helpless or perished it changes so (Falling in Battle); kept for the state it left
        (`FightContext.keep_standing`: the play loop's end check reads it)."""
        now = up.copy()
        for it in items:
            if it.kind == "falls":
                now[rows.take(it.rows), target.take(it.rows)] = False
        ctx.keep_standing(now)

    def _details(
        self,
        ctx: FightContext,
        kind: str,
        items: tuple[Item, ...],
        before: consequences.Before,
        outcome: consequences.Outcome,
        target: IntArray,
        play: StatusPlay | None,
    ) -> dict[str, Any]:
        """The details of an event of `kind` its words are written from (narrate.py), each a function made only
        when the fight is told (one fight: its one attack is row 0)."""
        names = ctx.fight.roster.names

        def name() -> str:
            return self.name(ctx, target)

        def by() -> str:
            return names[int(before.attacker[0])]

        def weapon() -> str:
            return self._weapons(ctx.fight)[1][int(before.attacker[0])][int(items[0].part)].name or "weapon"

        if kind == "damage":
            return {"combatant": name, "damage": lambda: int(outcome.damage[0])}
        if kind == "status_ends":
            return {"combatant": name, "struck": True}
        if kind == "status":
            assert play is not None
            stat, boss = items[0].stat, play.boss
            return {
                "combatant": name,
                "status": STATUSES[stat],
                "distracted_by": by if stat == "distracted" else None,
                "already": lambda: not items[0].rows.size,
                "boss": lambda: bool(boss[int(target[0])]),
            }
        if kind == "weapon_used":
            return {"combatant": by, "weapon": weapon}
        if kind == "durability":
            assert before.durability is not None
            left = before.durability
            return {"combatant": by, "weapon": weapon, "durability": lambda: int(left[0]) - 1, "burning": True}
        return {"combatant": name}  # peril, falls
