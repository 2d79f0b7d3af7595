"""A Last Odyssey turn (fight.py's rules): the user spends 1 AP per ability until its AP are spent or it has
none it can use; each ability is used on the targets it reaches (a Multi one on every foe, or in a live
encounter on those the game master names; one roll of the hit die for all), and what its outcome applies
(Shell, HP, Body Armor, statuses, the Bonus Tracker) is written as events; when a side's front row has nobody
standing, its back row comes forward.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tohit.core.fight.consequence import ATTACKER, DEFENDER, Item, changes, events
from tohit.core.fight.contract import FightContext
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.rows import any_rows, gather_stats
from tohit.core.fight.state import BoolArray, IntArray, every_row, gather
from tohit.systems.last_odyssey import consequences, narrate
from tohit.systems.last_odyssey.consequences import (
    KEPT_WHEN_DOWNED,
    LABEL,
    STEP_OF_DIGIT,
    TRACKED,
)
from tohit.systems.last_odyssey.fight_abilities import LastOdysseyAbilities
from tohit.systems.last_odyssey.live import BACK, FRONT, some
from tohit.systems.last_odyssey.state_codes import status_names, tracker_of


class LastOdysseyTurns(LastOdysseyAbilities):
    """A turn, played on every fight row at once."""

    def _spend(self, ctx: FightContext, acting: BoolArray, actor: IntArray, attack: IntArray) -> None:
        """An ability costs 1 AP ("Basic Attack: 1 AP"; "Most actions cost 1 AP"); a combatant with no ability it can
        use ends its turn, losing the AP left ("End Turn")."""
        rows = np.flatnonzero(acting)
        if rows.size == 0:
            return
        whole = rows.size == acting.size  # every fight's turn (the usual step): the arrays as they are
        who = actor if whole else actor.take(rows)
        ap = gather(ctx.state.per["ap"], rows, who)
        used = (attack if whole else attack.take(rows)) >= 0
        left = (ap - 1) * used
        fight = ctx.fight
        ctx.emit(
            "ap",
            [ctx.set("ap", rows, left, who)],
            combatant=lambda: fight.roster.names[int(who[0])],
            ends_turn=lambda: not bool(used[0]),
        )

    # -- a turn ----------------------------------------------------------------------------------------------
    def turn(self, ctx: FightContext, acting: BoolArray, actor: IntArray, choice: GMChoice | None = None) -> None:
        fight = ctx.fight
        options = self.options(ctx, actor)
        idx, attack, target = ctx.choose_actions(acting, actor, options, choice)
        self._spend(ctx, acting[idx], actor[idx], attack)
        actor, acting, options = actor[idx], acting[idx] & (attack >= 0), options[idx]
        if not acting.any():
            return
        n, size = ctx.n, fight.roster.size
        tables = self._tables(fight)
        if not tables["multi"].any():  # one target each: one resolve for every fight
            idx, out = ctx.resolve(
                acting,
                actor,
                attack,
                target,
                note=lambda: self._note(ctx, actor, attack),
                fields=self._read(tables),
                said_fields=self._sides(ctx, actor, target),
            )
            self._apply(ctx, acting[idx], actor[idx], attack[idx], target[idx], out)
            self._advance_at_once(ctx)
            return
        multi = acting & tables["multi"][np.maximum(actor, 0), np.maximum(attack, 0)]
        caught = np.zeros((n, size), dtype=bool)
        rows = np.flatnonzero(acting)
        caught[rows, target[rows]] = True
        if multi.any():  # a Multi ability: every foe it reaches, or the characters the game master names
            reach = options[np.arange(n), np.maximum(attack, 0)]
            if choice is not None and choice.several:  # one fight, narrated: exactly those named
                reach = np.zeros_like(reach)
                reach[:, list(choice.targets)] = True
            caught = np.where(multi[:, None], reach, caught)
        # One hit die for every target of a Multi ability: the resolves of this turn share it.
        shared: dict[str, Any] | None = {} if multi.any() else None
        for t in range(size):
            mask = caught[:, t]
            if not mask.any():
                continue
            tt = np.full(n, t, dtype=np.int64)
            sides = self._sides(ctx, actor, tt)
            idx, out = ctx.resolve(mask, actor, attack, tt, fields=self._read(tables), shared=shared, said_fields=sides)
            actor, attack, caught = actor[idx], attack[idx], caught[idx]
            n = ctx.n
            self._apply(ctx, mask[idx], actor, attack, np.full(ctx.n, t, dtype=np.int64), out)
        self._advance_at_once(ctx)

    def _read(self, tables: dict[str, Any]) -> tuple[str, ...] | None:
        """The outcome fields a turn reads: a status that lands and the Bonus Tracker only when some ability
        gives one (`effects`; None: every field)."""
        return None if tables["effects"] else ("result", "damage")

    def _sides(self, ctx: FightContext, actor: IntArray, target: IntArray) -> Callable[[], dict[str, IntArray]] | None:
        """A told fight with Ally buffs tells the system the target's side (`target.side`: an ally of the user or
        a foe), so that the trace says which side an ability was used on; the outcome does not depend on it."""
        if not self._tables(ctx.fight)["ally"].any():
            return None

        def sides() -> dict[str, IntArray]:
            side = ctx.fight.roster.side_array
            same = side[np.maximum(actor, 0)] == side[np.maximum(target, 0)]
            return {"target.side": same.astype(np.int64)}

        return sides

    def _note(self, ctx: FightContext, actor: IntArray, attack: IntArray) -> str:
        """The kind of a narrated ability that is not an attack ("Ogre attacks Ogre with Roar (a Self buff)")."""
        if not self._tables(ctx.fight)["effects"] or attack[0] < 0:
            return ""
        ability = ctx.fight.attack(int(actor[0]), int(attack[0])).attack
        return narrate.ability_kind(ability.kind, "ally" in ability.type)

    def _apply(
        self,
        ctx: FightContext,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        out: dict[str, Any],
    ) -> None:
        """Shell pool, HP, downed, Body Armor and statuses of one resolved ability on each row's target, given
        every row that used one: most abilities hit, and `apply` leaves a miss out by its mask."""
        tables = self._tables(ctx.fight)
        whole = mask.all()  # every fight used one (the usual step): the arrays as they are
        rows = every_row(mask.size) if whole else np.flatnonzero(mask)
        if rows.size == 0:
            return
        a, k, t = (actor, attack, target) if whole else (actor.take(rows), attack.take(rows), target.take(rows))
        per = ctx.state.per
        effects = bool(tables["effects"])
        carried = ("statuses", "buffs") if tables["carried"] else ()
        hits = ("status_hits",) if effects else ()
        armour = some(per["body_armor"])  # someone has Body Armor up: read with what a physical hit does to it
        stats = ("hp", "shell", *(("body_armor",) if armour else ()), *carried, *hits)
        on_t = gather_stats(per, stats, rows, t)  # the target's stats
        # Each row's ability in the fight's (combatant, ability) tables, where some table is read.
        ability = a * tables["knock"].shape[1] + k if tables["knocks"] or armour or effects else None
        before = consequences.Before(
            hp=on_t["hp"],
            shell=on_t["shell"],
            body_armor=on_t.get("body_armor"),
            dealt=gather(per["dealt"], rows, a),
            knock=tables["knock"].take(ability) if ability is not None and tables["knocks"] else None,
            physical=tables["physical"].take(ability) if ability is not None and armour else None,
            effects=effects,
        )
        outcome = consequences.Outcome(*(out[f] if whole else out[f].take(rows) for f in ("result", "damage")))
        if carried:
            before = before._replace(statuses=on_t["statuses"], buffs=on_t["buffs"])
        if effects:
            assert ability is not None
            before = before._replace(
                status_hits=on_t["status_hits"], bit=tables["bit"].take(ability), stat=tables["stat"].take(ability)
            )
            outcome = outcome._replace(
                status_applied=out["status_applied"] if whole else out["status_applied"].take(rows),
                tracker=out["tracker"] if whole else out["tracker"].take(rows),
            )
        applied = consequences.apply(before, outcome)
        who = {DEFENDER: t, ATTACKER: a}
        for kind, items in events(applied.items):
            ctx.emit(kind, changes(items, rows, who), **self._data(ctx, kind, items, before, outcome, applied, t))

    def _data(
        self,
        ctx: FightContext,
        kind: str,
        items: tuple[Item, ...],
        before: consequences.Before,
        outcome: consequences.Outcome,
        applied: consequences.Applied,
        target: IntArray,
    ) -> dict[str, Any]:
        """The details of an event of `kind` its words are written from (narrate.py), each made only when the fight
        is told (one fight: its one ability is row 0)."""
        data: dict[str, Any] = {"combatant": lambda: ctx.fight.roster.names[int(target[0])]}
        if kind == "damage":
            shown = {"damage": outcome.damage, "hp": before.hp, "shell": before.shell}
            shown |= {"absorbed": applied.absorbed_at, "lost": applied.lost_at}
            return data | {k: (lambda v=v: int(v[0])) for k, v in shown.items()}
        if kind == "effects":
            assert before.statuses is not None and before.buffs is not None  # past "damage": someone has effects
            return data | self._downed_data(ctx, before.statuses, before.buffs, target)
        bit, stat = before.bit, before.stat
        assert bit is not None and stat is not None  # a status or a tracker: the fight plays effects
        if kind == "status":
            return data | {
                "status": lambda: status_names(int(bit[0]))[0].capitalize(),
                "new": lambda: bool(items[1].rows.size),
            }
        return data | {  # "tracker"
            "statistic": lambda: LABEL[TRACKED[int(stat[0])]],
            "was": lambda: STEP_OF_DIGIT[int(applied.old_digit[0])],
            "now": lambda: STEP_OF_DIGIT[int(applied.new_digit[0])],
        }

    def _downed_data(self, ctx: FightContext, statuses: IntArray, buffs: IntArray, t: IntArray) -> dict[str, Any]:
        """Told: the effects a Downed combatant loses (statuses `removed`, the Bonus Tracker's `buffs`) and those it
        has `still`."""
        return {
            "combatant": lambda: ctx.fight.roster.names[int(t[0])],
            "removed": lambda: [x.capitalize() for x in status_names(int(statuses[0]) & ~KEPT_WHEN_DOWNED)],
            "buffs": lambda: {LABEL[s]: v for s, v in tracker_of(int(buffs[0])).items()},
            "still": lambda: [x.capitalize() for x in status_names(int(statuses[0]) & KEPT_WHEN_DOWNED)],
        }

    def _advance_at_once(self, ctx: FightContext) -> None:
        """`effect_phase: false`: the back row comes forward as soon as the front row has nobody standing."""
        if not ctx.fight.spec.options.effect_phase:
            self._rows(ctx, None)

    def _rows(self, ctx: FightContext, mask: BoolArray | None) -> None:
        """A side whose front row has nobody standing brings its back row forward (the opposing side advances:
        "all of the characters on the former side now count as being in the front row"), in the fights of `mask`
        (None: all)."""
        fight = ctx.fight
        row = ctx.state.per["row"]
        if not some(row):  # nobody in a back row (the usual fight): nothing can come forward
            return
        back = row == BACK
        standing = self.standing(fight, ctx.state)
        if mask is not None:
            standing = standing & mask[:, None]
        for s, members in enumerate(fight.roster.side_columns):
            front_up = any_rows(standing[:, members] & ~back[:, members])
            back_up = standing & back & (fight.roster.side_array == s)[None, :]
            moves = ~front_up[:, None] & back_up
            r, c = np.nonzero(moves)
            if r.size:
                ctx.emit(
                    "rows",
                    [ctx.set("row", r, FRONT, c)],
                    side=fight.roster.side_names[s],
                    effect_phase=mask is not None,
                )
