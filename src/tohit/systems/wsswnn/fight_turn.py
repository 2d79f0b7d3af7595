"""A When Sky and Sea Were Not Named turn (fight.py's rules): the action (an attack, a brace, Stand Fast) or
skipping it for +1 guard or awareness; a Mighty Blow's cost; a brace's Struggle and the stamina paid to
resist it; a shot into a grapple; and what the outcome applies to life, guard and awareness.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.consequence import ATTACKER, DEFENDER, OTHER, Item, changes, events
from tohit.core.fight.contract import ALL, FightContext
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.rows import pair_rows, read_cells, rows_of, select, stat_cells, take_at, take_rows
from tohit.core.fight.state import BoolArray, IntArray, every_row, gather
from tohit.core.outcome import NULL_INT
from tohit.systems.wsswnn import consequences
from tohit.systems.wsswnn.fields import EFFECT_OF
from tohit.systems.wsswnn.fight_tables import WsswnnTables

GRAPPLED, SHOVED, DISARMED = EFFECT_OF["grapple"], EFFECT_OF["shove"], EFFECT_OF["disarm"]
BRACE_NAMES = {GRAPPLED: "Grapple", SHOVED: "Shove", DISARMED: "disarm"}
GRAPPLED_FIELD = "target.grappled"
#: The attacker is grappled by a foe: brace disadvantage on its attacks [braces: Grapple].
ATTACKER_GRAPPLED_FIELD = "attacker.grappled"
STAMINA_FIELD = "target.stamina"


class WsswnnTurns(WsswnnTables):
    """A turn, played on every fight row at once."""

    outcome_fields = (
        "result",
        "damage",
        "guard_after",
        "awareness_damage",
        "falling_lethal",
        "falling_guard",
        "attacker_guard_after",
        "brace_effect",
        "resist_stamina",
        "attack_roll",
    )

    # -- a turn ----------------------------------------------------------------------------------------------------
    def turn(self, ctx: FightContext, acting: BoolArray, actor: IntArray, choice: GMChoice | None = None) -> None:
        fight = ctx.fight
        t = self._tables(fight)
        who = np.maximum(actor, 0)
        stand, skip, strike = self._holding_back(ctx, acting, who)
        foes = rows_of(fight.roster.foe_matrix, who) & ctx.standing()
        if t["always"]:  # every attack of everyone, always: each on every foe standing
            options = np.broadcast_to(foes[:, None, :], (foes.shape[0], fight.max_attacks, foes.shape[1]))
        else:
            usable = self._usable(ctx, who) if t["usable"] else rows_of(t["strike"], who)
            options = pair_rows(np.asarray(usable, dtype=bool), foes)
        idx, attack, target = ctx.choose_actions(strike, actor, options, choice)
        actor, stand, skip, strike = actor[idx], stand[idx], skip[idx], strike[idx]
        lacking = strike & (attack < 0)
        if lacking.any():  # nothing it can attack: it skips
            skip, strike = skip | lacking, strike & ~lacking
        if skip.any():
            self._skip(ctx, skip, actor)
        if stand.any():
            sf = t["stand"][np.maximum(actor, 0)]
            idx, out = ctx.resolve(
                stand, actor, np.maximum(sf, 0), actor, kind="stand_fast", fields=("attacker_guard_after",)
            )
            actor, stand, strike, attack, target = actor[idx], stand[idx], strike[idx], attack[idx], target[idx]
            rows = np.flatnonzero(stand)
            after = out["attacker_guard_after"][rows]
            ctx.emit(
                "stand_fast", [ctx.set("guard", rows, after, actor[rows])], combatant=lambda: self.name(ctx, actor)
            )
        if strike.any():
            self._strike(ctx, strike, actor, attack, target)

    def _strike(
        self, ctx: FightContext, strike: BoolArray, actor: IntArray, attack: IntArray, target: IntArray
    ) -> None:
        """The attacks of the rows of `strike`: a Mighty Blow's cost, the attack resolved (only the fields the
        consequences read, `strike_fields`: faster tables, a smaller exact chain), a shot into a grapple
        redirected, and what each does (`_damage`). Where no shot can go into a grapple, on the striking rows
        alone (`resolve_at`: the same draws, no array of the batch's size made for the rows that do not strike)."""
        t = self._tables(ctx.fight)
        self._pay_mighty_blow(ctx, strike, actor, attack)
        feeds = self._feeds(ctx, strike, actor, target)
        fields = t["fields"]
        if t["into"]:  # the redirection reads and writes the batch's rows
            idx, out = ctx.resolve(strike, actor, attack, target, feeds or None, fields=fields)
            actor, strike, attack, target = actor[idx], strike[idx], attack[idx], target[idx]
            actor, strike, target, out = self._into_grapple(ctx, strike, actor, attack, target, out, fields)
            rows = np.flatnonzero(strike)
            self._damage(ctx, rows, actor.take(rows), target.take(rows), {k: v.take(rows) for k, v in out.items()})
            return
        n = ctx.n
        rows = every_row(n) if strike.all() else np.flatnonzero(strike)

        def at_rows(values: IntArray) -> IntArray:
            return values if rows.size == n else values.take(rows)

        fed = {f: at_rows(v) for f, v in feeds.items()}
        idx, at, out = ctx.resolve_at(
            rows, at_rows(actor), at_rows(attack), at_rows(target), fed or None, fields=fields
        )
        if idx is not ALL:  # the exact chain expanded the rows: the attackers and targets follow them
            actor, target = actor[idx], target[idx]
        whole = at.size == actor.size
        self._damage(ctx, at, actor if whole else actor.take(at), target if whole else target.take(at), out)

    def _holding_back(self, ctx: FightContext, acting: BoolArray, who: IntArray) -> tuple[BoolArray, ...]:
        """(stand, skip, strike): who Stands Fast (its Guard at or below its `stand_fast_at`), who skips (at or
        below its `skip_at`), and who strikes (the other actors) [fight.py: Stand Fast as a choice; Skipping]. In a
        fight where nobody holds back, every actor strikes."""
        t = self._tables(ctx.fight)
        if not t["holds_back"]:
            nobody = np.zeros(acting.shape, dtype=bool)
            return nobody, nobody, acting
        guard = take_rows(ctx.state.per["guard"], who)
        stand = acting & (t["stand"][who] >= 0) & (guard <= t["stand_at"][who])
        skip = acting & ~stand & (guard <= t["skip_at"][who])
        return stand, skip, acting & ~stand & ~skip

    def _pay_mighty_blow(self, ctx: FightContext, strike: BoolArray, actor: IntArray, attack: IntArray) -> None:
        """Mighty Blow "costs -1 stamina" [champion]: paid when the attack is made, hit or miss (`_usable` leaves
        it out at 0 stamina: tohit's reading, a cost that cannot be paid is not paid with nothing)."""
        t = self._tables(ctx.fight)
        if not t["mighty"].any():
            return
        pays = strike & t["mighty"][np.maximum(actor, 0), np.maximum(attack, 0)]
        if not pays.any():
            return
        rows = np.flatnonzero(pays)
        c = actor[rows]
        now = ctx.state.per["stamina"][rows, c]
        ctx.emit(
            "mighty_blow",
            [ctx.set("stamina", rows, np.maximum(0, now - 1), c)],
            combatant=lambda: self.name(ctx, actor[rows]),
        )

    def _into_grapple(
        self,
        ctx: FightContext,
        strike: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        out: dict[str, Any],
        fields: tuple[str, ...],
    ) -> tuple[IntArray, BoolArray, IntArray, dict[str, Any]]:
        """ "Ranged attacks into the grapple that roll an odd number hit the other grappler" [braces: Grapple]. The
        roll is the kept attack die (after advantage and the dice's penalties, before the range penalty and
        modifiers); odd, the attack is resolved against the other grappler with that same roll (its own Guard,
        Agility, Armor and Stamina decide hit, block or miss), whichever side it is on. The target's "other
        grappler": the foe it grapples, else the first combatant (file order) grappling it."""
        t = self._tables(ctx.fight)
        per = ctx.state.per
        who, k, foe = np.maximum(actor, 0), np.maximum(attack, 0), np.maximum(target, 0)
        shot = strike & t["ranged"][who, k]
        if not shot.any():
            return actor, strike, target, out
        rows = np.arange(ctx.n)
        holds = gather(per["grappling"], rows, foe)
        held_by = per["grappling"] == (foe + 1)[:, None]
        partner = np.where(holds > 0, holds - 1, np.where(held_by.any(axis=1), held_by.argmax(axis=1), -1))
        kept = out["attack_roll"] + t["offset"][who, k]
        odd = shot & (partner >= 0) & (kept % 2 == 1)
        if not odd.any():
            return actor, strike, target, out
        names = ctx.fight.roster.names

        def first() -> int:
            return int(np.flatnonzero(odd)[0])

        ctx.tell(
            "into_grapple",
            attacker=lambda: names[int(actor[first()])],
            target=lambda: names[int(target[first()])],
            struck=lambda: names[int(partner[first()])],
            roll=lambda: int(kept[first()]),
        )
        other = np.maximum(partner, 0)
        feeds = {"rolled": np.where(odd, kept, 0)}
        if t["braces"]:
            feeds[STAMINA_FIELD] = np.where(odd, gather(per["stamina"], rows, other), 0)
        idx, diverted = ctx.resolve(odd, actor, attack, other, feeds, fields=fields, note=" (into the grapple)")
        actor, strike, target, odd, other = actor[idx], strike[idx], target[idx], odd[idx], other[idx]
        merged = {f: np.where(odd, diverted[f], v[idx]) for f, v in out.items()}
        return actor, strike, np.where(odd, other, target), merged

    def _usable(self, ctx: FightContext, who: IntArray) -> BoolArray:
        """(fights, attacks): the attacks each actor can make now. A disarmed combatant has no weapon attacks
        [Breaking and Disarming Arms]; one grappling has no free hand for Take Hold; in a grapple (either side)
        only close melee: no ranged attacks or jump-attacks [braces: Grapple]."""
        t = self._tables(ctx.fight)
        per = ctx.state.per
        usable = rows_of(t["strike"], who)
        disarmed = take_rows(per["disarmed"], who) > 0
        spent = take_rows(per["stamina"], who) < 1
        usable = usable & ~(spent[:, None] & rows_of(t["mighty"], who))
        grappling = take_rows(per["grappling"], who) > 0
        grappled = (per["grappling"] == (who + 1)[:, None]).any(axis=1)
        usable = usable & ~(disarmed[:, None] & rows_of(t["weapon"], who))
        usable = usable & ~(grappling[:, None] & rows_of(t["hold"], who))
        out: BoolArray = usable & ~((grappling | grappled)[:, None] & rows_of(t["far"], who))
        return out

    def _feeds(self, ctx: FightContext, mask: BoolArray, actor: IntArray, target: IntArray) -> dict[str, IntArray]:
        """Target fields fed per attack: `grappled` (the actor grapples this foe: brace advantage [braces:
        Grapple]) and the foe's current `stamina` (what a brace must beat)."""
        t = self._tables(ctx.fight)
        feeds: dict[str, IntArray] = {}
        if not t["braces"]:
            return feeds
        rows = np.arange(ctx.n)
        foe = np.maximum(target, 0)
        if t["grapples"]:
            grappling = ctx.state.per["grappling"]
            grapples = gather(grappling, rows, np.maximum(actor, 0)) == foe + 1
            feeds[GRAPPLED_FIELD] = (mask & grapples).astype(np.int64)
            grappled = (grappling == (np.maximum(actor, 0) + 1)[:, None]).any(axis=1)
            feeds[ATTACKER_GRAPPLED_FIELD] = (mask & grappled).astype(np.int64)
        feeds[STAMINA_FIELD] = np.where(mask, gather(ctx.state.per["stamina"], rows, foe), 0)
        return feeds

    def _skip(self, ctx: FightContext, mask: BoolArray, actor: IntArray) -> None:
        """Skipping the action [Tracking Your Stats]: +1 guard (or awareness, by the combatant's `gains`), never above
        its maximum, for the actors of `mask`. Each stat read and written at the same cells (`stat_cells`)."""
        t = self._tables(ctx.fight)
        per = ctx.state.per
        rows = np.flatnonzero(mask)
        c = take_at(actor, rows)
        gains = take_at(t["gains"], c)
        for gain, stat, top in ((0, "guard", "max_guard"), (1, "awareness", "max_awareness")):
            sel = gains == gain
            if not sel.any():
                continue
            r, cc = select(sel, rows, c)
            at = stat_cells(per, r, cc)
            now, most = read_cells(per, (stat, top), at).values()
            after = np.maximum(now, np.minimum(now + 1, most))
            ctx.emit("skip", [ctx.set(stat, r, after, cc, cells=at)], combatant=lambda: self.name(ctx, actor[rows]))

    def _damage(self, ctx: FightContext, rows: IntArray, a: IntArray, d: IntArray, out: dict[str, Any]) -> None:
        """What the resolved attacks of the fights `rows` do (`consequences.apply`; emitted and narrated here): `a`,
        `d` (attacker, defender) and `out`'s fields one entry per row of them. Most attacks land (a hit or a block)
        or fall, and `apply` leaves the others out by their mask."""
        if rows.size == 0:
            return
        t = self._tables(ctx.fight)
        per = ctx.state.per
        braces = bool(t["braces"])
        falls = bool(t["jumps"]) and consequences.falls(out["falling_lethal"], out["falling_guard"]).any()
        outcome = consequences.Outcome(
            **{k: out[k] for k in t["fields"] if k in OUTCOME and (falls or k not in FALL_OUTCOME)}
        )
        aware = outcome.awareness_damage is not None and (outcome.awareness_damage > 0).any()
        braced = ("stamina", "disarmed") if braces else ()
        base = rows * per["life"].shape[1]  # each row's first cell: its defender's and attacker's cells from it
        at_d, at_a = base + d, base + a  # read here, written through by the changes (`Change.cells`)
        on_d = read_cells(per, ("life", "guard", *(("awareness",) if aware else ()), *braced), at_d)
        on_a = read_cells(per, ("dealt", *(("life", "guard") if falls else ())), at_a)
        before = consequences.Before(
            life=on_d["life"],
            guard=on_d["guard"],
            dealt=on_a["dealt"],
            foe=ctx.fight.roster.are_foes(a, d) if t["into"] else None,
            attacker_life=on_a.get("life"),
            attacker_guard=on_a.get("guard"),
            awareness=on_d.get("awareness"),
            defender=d if braces else None,
            attacker=a if braces else None,
            grappling=per["grappling"][rows] if braces else None,
            stamina=on_d.get("stamina"),
            disarmed=on_d.get("disarmed"),
            resists=t["resists"][d] if braces else None,
        )
        applied = consequences.apply(before, outcome)
        who = {DEFENDER: d, ATTACKER: a}
        cells = {DEFENDER: at_d, ATTACKER: at_a}
        for kind, items in events(applied.items):
            ctx.emit(kind, changes(items, rows, who, cells), **self._details(ctx, kind, items, before, out, a, d))

    def _details(
        self,
        ctx: FightContext,
        kind: str,
        items: tuple[Item, ...],
        before: consequences.Before,
        out: dict[str, Any],
        attacker: IntArray,
        defender: IntArray,
    ) -> dict[str, Any]:
        """The details of an event of `kind` its words are written from (narrate.py), each a function made only
        when the fight is told (one fight: its one attack is row 0; `out`'s fields one entry per attack)."""
        names = ctx.fight.roster.names

        def a() -> str:
            return names[int(attacker[0])]

        def d() -> str:
            return names[int(defender[0])]

        if kind in ("damage", "disarm"):
            return {"combatant": d}
        if kind == "grapple_ends" and items[0].whose == OTHER:
            return {"combatant": names[items[0].combatant], "foe": d, "lets_go": True}
        if kind == "grapple_ends":
            assert before.grappling is not None
            grappling = before.grappling
            return {"combatant": d, "foe": lambda: names[int(grappling[0, int(defender[0])]) - 1]}
        if kind == "resist":
            assert before.stamina is not None
            stamina = before.stamina
            effect = out["brace_effect"]
            return {
                "combatant": d,
                "brace": lambda: BRACE_NAMES[int(effect[0])],
                "stamina": lambda: int(stamina[0]),
            }
        if kind in ("grapple", "shove"):
            ends = {"grapple_ends": lambda: bool(items[0].rows.size), "hold_broken": lambda: bool(items[1].rows.size)}
            return {"combatant": a, "foe": d, **(ends if kind == "shove" else {})}
        lethal, guard = out["falling_lethal"], out["falling_guard"]
        return {
            "combatant": a,
            "lethal_damage": lambda: _fell(lethal[0]),
            "guard_damage": lambda: _fell(guard[0]),
        }


def _fell(value: Any) -> int:
    """A fall's damage as its outcome column holds it (none: 0)."""
    return 0 if int(value) == NULL_INT else int(value)


#: The outcome columns `consequences.apply` reads only when some attack falls.
#: The outcome columns `consequences.apply` reads at all.
OUTCOME = frozenset(consequences.Outcome._fields)
FALL_OUTCOME = ("falling_lethal", "falling_guard")
