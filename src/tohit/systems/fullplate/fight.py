"""FullPlate fights: hit points, natural-20 halving, firing into melee, magical ammunition (Attacking).

Rules applied between attacks (the attack itself is the system's `resolve`):
- HP: a hit costs the creature it hits its damage in hit points (the target block's `hp`, required in a
  fight); at 0 HP a combatant is down, out of the fight (hit points never go below 0 here).
- Natural-20 halving: a natural 20 short of the AC by more than 10 still hits with its damage halved once
  per 5 beyond the first 10, and is a miss when that leaves less than 0.5 (docs/fullplate.md#silent-natural-20): the
  fight takes the damage `resolve` reports.
- Firing into melee: a ranged attack at a target with others within 5 feet may hit one of them
  (docs/fullplate.md#silent-firing-into-melee). When the creature hit is a combatant of this fight, it takes the
  damage; otherwise the shot is lost.
- Magical ammunition [Attacking, Enhancement]: each shot that hits is retrieved after the fight with its
  Enhancement 1 lower (or 0 for ammunition that loses all on a hit; penalties stay). The fight counts the
  hits per attack (`ammo_hits<a>`); the `recovered` event at the end of the encounter reports the arrows
  recovered and their Enhancement. Shots during the fight use fresh ammunition at full Enhancement.
- Conditions [Circumstantial Modifiers: Prone Stance, Kneeling Stance, Balance, Condition]: the table's target
  conditions (Prone, Kneeling/Sitting, Off-Balance, Invisible, Stunned, Unaware, Helpless) and Flatfooted, each on
  or off, set by the game master in a live encounter (they start as the combatant's blocks give them: the
  target's and the attacker's `conditions`, the target's `flatfooted`). The attack reads the target's as its
  block's `conditions` (each gives its row that fits the attack: docs/fullplate.md#silent-target-conditions) and
  `flatfooted`, and the attacker's own Prone, Kneeling/Sitting and Off-Balance as its block's `conditions` (its
  stance rows), in the roll, the preview and policy `best` alike. Nothing in a fight the engine runs changes
  them, so there its blocks say them and the fight keeps none (no work per attack).

Turn order: the page gives none: the order in the file, sides alternating; each round every standing
combatant makes one attack.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np

from tohit.core.errors import InputError
from tohit.core.fight.bindings import StatBinding
from tohit.core.fight.consequence import ATTACKER, DEFENDER, changes, events
from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.rounds import RoundRules
from tohit.core.fight.rows import read_flat
from tohit.core.fight.state import BoolArray, IntArray, State, gather
from tohit.systems.fullplate import consequences, narrate, players
from tohit.systems.fullplate.circumstances import ATTACKER_CONDITIONS, TARGET_CONDITIONS
from tohit.systems.fullplate.models import STAT_FIELDS
from tohit.systems.fullplate.rules import HIT
from tohit.systems.fullplate.stat_readings import READINGS

#: `resolve`'s outcome fields read where every shot strikes its target and none fires magical ammunition: a hit
#: that costs hit points is the one with damage above 0 (a miss's and a fumble's damage is 0).
DAMAGE_ONLY = ("damage",)
#: What a resolved attack hands `FullPlateFight._land`: the rows that may change, their attackers and the
#: combatants struck, the stats before, the outcome at those rows.
Landing = tuple[IntArray, IntArray, IntArray, consequences.Before, consequences.Outcome]


class FullPlateFight(RoundRules):
    system_id = "fullplate"
    health = "hp"
    health_label = "HP"
    readings = READINGS
    gm_phrases = narrate.PHRASES
    players_phrases = players.PHRASES
    players_same = players.SAME
    unseen_attack = players.UNSEEN_ATTACK
    outcome_fields = ("result", "damage", "creature_hit")
    bindings = (
        # Fed to `resolve` so that its trace (and `hp_left`) read the current HP; the outcome fields the fight
        # reads do not depend on it, so exact tables are not keyed by it.
        StatBinding("hp", outcome=False),
    )
    standing_stats = ("hp",)
    #: The page gives no initiative (docs/fullplate.md#silent-turn-order): a live encounter keeps the file's order
    #: as its own, so the GM may delay a turn (core/fight/order.py).
    keeps_order = True
    condition_stats = (*TARGET_CONDITIONS, "flatfooted")
    turn_order: ClassVar[str] = (
        "File order, sides alternating (the page gives no initiative rule; docs/fullplate.md#silent-turn-order);"
        " each round every standing combatant makes one attack."
    )

    def prepare(self, data: dict[str, Any]) -> dict[str, Any]:
        """An `engaged_with` entry naming a combatant of this fight, without stats of its own, takes that
        combatant's own (its `target` block): a stray shot into melee that strikes it is judged against its AC."""
        return fill_engaged(data)

    def check(self, fight: LoadedFight) -> None:
        for c, comb in enumerate(fight.combatants):
            if comb.target.hp is None:
                raise InputError("a combatant in a fight needs its hit points", field=f"{fight.paths[c]}.target.hp")

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        comb = fight.combatants[combatant]
        out = {"hp": int(comb.target.hp), "dealt": 0}
        for a in range(fight.max_attacks):
            out[f"ammo_hits{a}"] = 0
        if fight.live:  # the game master sets them (the module docstring); the file's blocks say where they start
            own = {*comb.target.conditions, *comb.attacker.conditions}
            out.update({stat: int(stat in own) for stat in TARGET_CONDITIONS})
            out["flatfooted"] = int(comb.target.flatfooted)
        return out

    # -- conditions: fed as overrides of the target block (only where the fight keeps them) -------------------
    def _condition_fields(self, per: Any, rows: Any, actor: IntArray, target: IntArray) -> dict[str, IntArray]:
        """The "target.conditions" (a bit per condition, in TARGET_CONDITIONS order), "target.flatfooted" and
        "attacker.conditions" (its own Prone, Kneeling/Sitting, Off-Balance: the same bits) codes of each row's
        target and attacker; none where the fight keeps no conditions."""
        if "flatfooted" not in per:
            return {}
        code = np.zeros(np.shape(target), dtype=np.int64)
        own = np.zeros(np.shape(actor), dtype=np.int64)
        for i, stat in enumerate(TARGET_CONDITIONS):
            code |= gather(per[stat], rows, target) << i
            if stat in ATTACKER_CONDITIONS:
                own |= gather(per[stat], rows, actor) << i
        return {
            "target.conditions": code,
            "target.flatfooted": gather(per["flatfooted"], rows, target),
            "attacker.conditions": own,
        }

    def unread_roles(self, fight: LoadedFight) -> tuple[str, ...]:
        """Severity (a Critical Hit's 1d4, a Called Attack's 1d3) buys Severity Effects a fight does not play
        (docs/fullplate.md#silent-severity): its dice are never read in a fight."""
        return ("severity", "called")

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        return state.per["hp"] > 0

    # -- an attack -----------------------------------------------------------------------------------------
    def attack(self, ctx: FightContext, mask: BoolArray, actor: IntArray, attack: IntArray, target: IntArray) -> None:
        """The attacks of `mask`, resolved and applied. Where no shot of the fight may strike another creature and
        none fires magical ammunition (`_sure_shots`), only each attack's damage is read: the hits that cost hit
        points are the rows of damage above 0 (`_damaged`); else the result and the creature struck too (`_hits`).
        The same changes and events either way (tests/fights/test_fullplate_fight_damage_only.py)."""
        fight = ctx.fight
        held = self._engaged_down(fight, ctx.state, target) or {}
        if "flatfooted" in ctx.state.per:  # the conditions a live encounter keeps (the module docstring)
            rows = np.arange(target.size)
            held = {**held, **self._condition_fields(ctx.state.per, rows, np.maximum(actor, 0), np.maximum(target, 0))}
        sure = self._sure_shots(fight)
        idx, out = ctx.resolve(mask, actor, attack, target, held or None, fields=DAMAGE_ONLY if sure else None)
        actor, attack, target, mask = actor[idx], attack[idx], target[idx], mask[idx]
        if sure:
            self._land(ctx, *self._damaged(ctx, out["damage"], actor, target))
        else:
            self._land(ctx, *self._hits(ctx, out, mask, actor, attack, target))

    def _damaged(self, ctx: FightContext, damage: IntArray, actor: IntArray, target: IntArray) -> Landing:
        """`_land`'s arguments where every shot strikes its target and none fires magical ammunition
        (`_sure_shots`): only the rows whose damage is above 0 change anything (a miss or a fumble deals 0, and
        so do the rows that did not attack)."""
        rows = np.flatnonzero(damage > 0)
        a, t = actor.take(rows), target.take(rows)
        per = ctx.state.per
        width = per["hp"].shape[1]
        at = rows * width
        before = consequences.Before(
            hp=read_flat(per["hp"], at + t),
            struck=None,
            dealt=read_flat(per["dealt"], np.add(at, a, out=at)),
            magic=None,
            attack=None,
        )
        return rows, a, t, before, consequences.Outcome(None, damage.take(rows))

    def _hits(
        self,
        ctx: FightContext,
        out: dict[str, IntArray],
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
    ) -> Landing:
        """`_land`'s arguments of the hits, where a shot may strike another creature [Firing Into Melee] or fire
        magical ammunition."""
        fight = ctx.fight
        rows = np.flatnonzero(mask & (out["result"] == HIT))
        a, t, k = actor.take(rows), target.take(rows), attack.take(rows)
        # Who took the hit: the intended target (its `hp_left`), or one engaged with it (firing into melee).
        struck = gather(self._struck(fight), t, np.maximum(out["creature_hit"].take(rows), 0))
        per = ctx.state.per
        magic = gather(self._magic_ammo(fight), a, k)
        ammo_hits = None
        if magic.any():
            ammo_hits = np.zeros(rows.size, dtype=np.int64)
            for kk in np.unique(k[magic]):
                sel = magic & (k == kk)
                ammo_hits[sel] = gather(per[f"ammo_hits{int(kk)}"], rows[sel], a[sel])
        before = consequences.Before(
            hp=gather(per["hp"], rows, np.maximum(struck, 0)),
            struck=struck >= 0,
            dealt=gather(per["dealt"], rows, a),
            magic=magic,
            attack=k,
            ammo_hits=ammo_hits,
        )
        return rows, a, struck, before, consequences.Outcome(out["result"].take(rows), out["damage"].take(rows))

    def _land(
        self,
        ctx: FightContext,
        rows: IntArray,
        a: IntArray,
        struck: IntArray,
        before: consequences.Before,
        outcome: consequences.Outcome,
    ) -> None:
        """What the attacks of `rows` (attackers `a`, the combatant struck `struck`, -1: a creature not in the
        fight) do, applied (`consequences.apply`) and emitted."""
        if rows.size == 0:
            return
        fight = ctx.fight
        applied = consequences.apply(before, outcome)
        who = {DEFENDER: struck, ATTACKER: a}
        groups = events(applied.items)
        for kind, items in groups:
            if kind == "damage":
                ctx.emit(
                    kind,
                    changes(items, rows, who),
                    combatant=lambda: self.name(ctx, struck),
                    damage=lambda: int(outcome.damage[0]),
                )
        if applied.stray.size:
            ctx.tell("stray", attacker=lambda: self.name(ctx, a))
        # Magical ammunition: each hit is an arrow to recover, with less Enhancement, after the fight.
        for kind, items in groups:
            if kind == "ammunition":
                ctx.emit(
                    kind,
                    changes(items, rows, who),
                    attacker=lambda: self.name(ctx, a),
                    attack=lambda part=items[0].part: fight.attack(int(a[0]), int(part)).name,
                )

    def finish(self, ctx: FightContext, rows: Any) -> None:
        """The end of the encounter: magical ammunition that hit is recovered, with its Enhancement lowered."""
        fight = ctx.fight
        magic = self._magic_ammo(fight)
        for c, a in zip(*np.nonzero(magic), strict=True):
            entry = fight.attack(int(c), int(a))
            ammo = entry.attacker.ammunition
            after = 0 if ammo.loses_all_on_hit else ammo.enhancement - 1

            def hits(c: int = int(c), a: int = int(a)) -> int:
                return int(ctx.state.per[f"ammo_hits{a}"][0, c])

            ctx.tell(
                "recovered",
                when=lambda: hits() > 0,
                combatant=fight.roster.names[c],
                who=fight.roster.names[c],
                attack=entry.name,
                hits=hits,
                enhancement=ammo.enhancement,
                enhancement_after=after,
            )

    # -- tables --------------------------------------------------------------------------------------------
    def _struck(self, fight: LoadedFight) -> IntArray:
        """(targets, creature_hit code): the combatant a hit lands on (-1: a creature not in this fight)."""

        def build() -> IntArray:
            names = fight.roster.names
            width = 1 + max(len(c.target.engaged_with) for c in fight.combatants)
            found = np.full((fight.roster.size, width), -1, dtype=np.int64)
            for t, comb in enumerate(fight.combatants):
                engaged = comb.target.engaged_with
                for i, other in enumerate(engaged):
                    found[t, i] = names.index(other.name) if other.name in names else -1
                found[t, len(engaged)] = t
                if not engaged:
                    found[t, 0] = t
            return found

        return fight.memo("fullplate_struck", build)

    def _engaged_down(
        self, fight: LoadedFight, state: State, target: IntArray, rows: IntArray | None = None
    ) -> dict[str, IntArray] | None:
        """Firing Into Melee: the target's `engaged_with` entries that are combatants of this fight at 0 HP, down
        and out of the melee, as a bitmask per entry (the "target.engaged_down" code: a stray shot never goes to
        them); None when no combatant is engaged with another of the fight. `rows`: the state's row of each
        entry (default: row i for entry i)."""
        engaged = self._engaged(fight)
        if engaged.shape[1] == 0:
            return None
        rows = np.arange(target.size) if rows is None else rows
        t = np.maximum(target, 0)
        hp = state.per["hp"]
        code = np.zeros(target.shape, dtype=np.int64)
        for i in range(engaged.shape[1]):
            who = engaged[t, i]
            down = (who >= 0) & (gather(hp, rows, np.maximum(who, 0)) == 0)
            code |= down.astype(np.int64) << i
        return {"target.engaged_down": code}

    def _engaged(self, fight: LoadedFight) -> IntArray:
        """(targets, engaged_with entries up to the last that names a combatant): the combatant each entry names
        (-1: none, or a creature not in this fight)."""

        def build() -> IntArray:
            names = fight.roster.names
            found = [
                [names.index(e.name) if e.name in names else -1 for e in comb.target.engaged_with]
                for comb in fight.combatants
            ]
            width = max((i + 1 for row in found for i, c in enumerate(row) if c >= 0), default=0)
            table = np.full((fight.roster.size, width), -1, dtype=np.int64)
            for t, row in enumerate(found):
                for i, c in enumerate(row[:width]):
                    table[t, i] = c
            return table

        return fight.memo("fullplate_engaged", build)

    def odds_fields(
        self, ctx: FightContext, rows: IntArray, actor: int, attack: int, target: int
    ) -> dict[str, IntArray]:
        """Policy `best` (and the preview) reads an attack's odds with only the standing creatures in the target's
        melee, and the target's conditions as the attack does."""
        one = np.ones(rows.size, dtype=np.int64)
        found = self._engaged_down(ctx.fight, ctx.state, one * target, rows) or {}
        return {**found, **self._condition_fields(ctx.state.per, rows, one * actor, one * target)}

    def override_value(self, field: str, code: int) -> Any:
        """`target.engaged_down`: the bitmask of down entries as their positions in `engaged_with`; the target's or
        the attacker's conditions (a bit each) and Flatfooted."""
        if field == "engaged_down":
            return [i for i in range(code.bit_length()) if code >> i & 1]
        if field == "conditions":
            return [stat for i, stat in enumerate(TARGET_CONDITIONS) if code >> i & 1]
        if field == "flatfooted":
            return bool(code)
        return code

    def _sure_shots(self, fight: LoadedFight) -> bool:
        """No shot of the fight may strike another creature than its target (no combatant has an `engaged_with`
        entry: Firing Into Melee never applies) and none fires magical ammunition: an attack only costs its target
        hit points."""
        return fight.memo(
            "fullplate_sure",
            lambda: self._struck(fight).shape[1] == 1 and not self._magic_ammo(fight).any(),
        )

    def _magic_ammo(self, fight: LoadedFight) -> BoolArray:
        """(combatants, attacks): the attack fires ammunition with an Enhancement bonus."""

        def build() -> BoolArray:
            found = np.zeros((fight.roster.size, fight.max_attacks), dtype=bool)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    ammo = entry.attacker.ammunition
                    found[c, a] = ammo is not None and ammo.enhancement > 0
            return found

        return fight.memo("fullplate_ammo", build)


#: What an `engaged_with` entry takes from the combatant it names: its defences and its size, never its
#: hit points (the fight tracks those).
ENGAGED_FROM_TARGET = ("ac", "size", *(f for f in STAT_FIELDS if f != "hp"))


def fill_engaged(data: Any) -> Any:
    """The raw fight file with each `engaged_with` entry that names a combatant of this fight and gives no `ac`
    filled from that combatant's `target` block [Firing Into Melee]: a combatant of the fight has its stats,
    and those decide; only a creature not in the fight, given without stats, is judged as the intended target.
    Fields the entry gives itself are kept."""
    if not isinstance(data, dict) or not isinstance(data.get("sides"), list):
        return data
    data = copy.deepcopy(data)
    blocks: dict[str, dict[str, Any]] = {}
    combatants = [
        c
        for side in data["sides"]
        if isinstance(side, dict) and isinstance(side.get("combatants"), list)
        for c in side["combatants"]
        if isinstance(c, dict)
    ]
    for comb in combatants:
        if isinstance(comb.get("name"), str) and isinstance(comb.get("target"), dict):
            blocks.setdefault(comb["name"], comb["target"])
    for comb in combatants:
        target = comb.get("target")
        engaged = target.get("engaged_with") if isinstance(target, dict) else None
        for entry in engaged if isinstance(engaged, list) else []:
            name = entry.get("name") if isinstance(entry, dict) else None
            own = blocks.get(name) if isinstance(name, str) else None
            if own is None or own is target or "ac" in entry:
                continue
            for stat in ENGAGED_FROM_TARGET:
                if stat in own:
                    entry.setdefault(stat, copy.deepcopy(own[stat]))
    return data


RULES = FullPlateFight()
