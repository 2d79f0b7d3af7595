"""When Sky and Sea Were Not Named fights: life, guard, awareness; skipping; Stand Fast; initiative (issue 8).

Rules applied between actions (an action itself is the system's `resolve`):
- Damage [Taking Actions, Damage]: lethal damage reduces life, guard damage guard (after the lethal damage),
  awareness damage awareness, each never below 0; at 0 life a combatant is out of the fight. A missed
  jump-attack's fall costs the attacker life and guard.
- Skipping an action gives +1 guard (or +1 awareness: the combatant's `skip_gains`), never above its
  maximum [tracking-your-stats]. A combatant skips when its Guard is at or below its `skip_at`, or when it has
  no attack it can make.
- Stand Fast as a choice [braces; docs/wsswnn.md#silent-braces]: a combatant with a Stand Fast brace among its
  attacks uses it on its turn when its Guard is at or below its `stand_fast_at`; it regains Guard equal to its
  Brace roll, up to maximum Guard + Strength. Its own Guard and maximum Guard are the fight's (an attacker
  block without `guard` / `max_guard` takes the target block's Guard for both).
- Initiative [maneuvers]: at the start of the fight each combatant rolls its Maneuver die (with its penalty)
  against the highest Awareness among its foes; those who beat it act first, in file order with sides
  alternating, then the others in the same order. A combatant with no Maneuver die does not beat it.
  The order then holds for the whole fight.
- Stamina [braces; tracking-your-stats]: each combatant's Stamina (`target.stamina`, 0 when not given) is
  fight state, fed to every brace against it; it refills only after an hour's rest, so never in a fight.
- A foe resisting [braces: Grapple, Shove; Breaking and Disarming Arms]: on a brace's Struggle the foe may pay
  -1 stamina to resist its effect. The choice is the combatant's `resists` (default true: it pays whenever it
  has the stamina; false: it never pays and the effect lands).
- Grapple [braces: Grapple; Take Hold]: a fight's Grapple is Take Hold's free brace. Success: -1 guard to the
  foe and the foe is grappled; Struggle: grappled unless it pays to resist. The `grappling` stat is the foe a
  combatant grapples (its index + 1; 0: none). While grappling, the grappler's attacks on that foe have brace
  advantage (the target block's `grappled`, fed per attack). A grapple ends when the grappler takes any lethal
  damage or is Shoved, and (tohit's reading) when the grappled foe is out of the fight.
- Shove [braces; docs/wsswnn.md#silent-braces]: Success: -1 guard and the foe is pushed out of the shover's
  span or hold; Struggle: the same unless it pays to resist. The fight has no movement, so "pushed out of your
  span or hold" is played as: it ends any grapple between the two, and the shoved foe's own grapple (it is
  Shoved); nobody stays out of reach (every combatant can reach every foe again on its next turn).
- Disarm [Taking Actions, Breaking and Disarming Arms; arms: the Axe's Hook]: a disarm brace (an attack's free
  brace on a block, or a brace action) that lands sets `disarmed`: the combatant can no longer use its weapon
  attacks (melee, ranged or jump-attacks with a `weapon`), only its unarmed attacks, Take Hold and braces; with
  none it skips (+1 guard). tohit's reading: the weapon is out of reach for the rest of the fight (the fight has
  no movement to fetch it).
- In a grapple (grappling or grappled) both sides are limited to close melee [braces: Grapple]: their ranged
  attacks and jump-attacks cannot be used. Take Hold needs a free hand, so a combatant already grappling
  cannot Take Hold again until its grapple ends (tohit's reading).
- Brace disadvantage [braces: Grapple, "the foe has brace disadvantage"]: a combatant grappled by a foe attacks
  with brace disadvantage (`attacker.grappled`, fed per attack: the system rolls its Brace die too and keeps the
  lower; any advantage cancels it). A combatant a foe can Grapple therefore needs a Brace die (checked at load).
  Its brace actions have none (never the acting die twice).
- Ranged attacks into the grapple [braces: Grapple]: a ranged attack on a combatant in a grapple whose kept
  Attack roll (after advantage / disadvantage and the dice's penalties, before the range penalty and modifiers)
  is odd hits the other grappler instead: it is resolved again against that one with the same roll
  (`attack.rolled`), friend or foe (damage to an ally is not "dealt"). The other grappler: the foe the target
  grapples, else the first combatant (file order) grappling it. Only a third combatant can shoot into a grapple
  (its two are limited to close melee), so a duel (`--exact`) never has it.
- Mighty Blow [champion: "costs -1 stamina"]: paid from the fight's Stamina when the blow is made, hit or miss;
  with 0 stamina it cannot be used (tohit's reading).
- Not played: a brace action Grapple outside Take Hold and breaking arms (`break`), both refused in a fight file
  (the page gives no more than "the defending armament ... breaks": not which armament defends, a weapon or a
  shield, nor what a broken one still does); the `best` policy's odds leave out the grapple's brace advantage
  and disadvantage.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field

from tohit.core.errors import InputError
from tohit.core.fight.consequence import ATTACKER, DEFENDER, OTHER, Item, changes, events
from tohit.core.fight.contract import FightContext, GMChoice, LoadedFight
from tohit.core.fight.rows import rows_of, take_rows
from tohit.core.fight.state import BoolArray, IntArray, State, gather
from tohit.core.models import Model
from tohit.core.outcome import NULL_INT
from tohit.systems.wsswnn import consequences, narrate
from tohit.systems.wsswnn.fields import EFFECT_OF, MISS  # a brace action's failure shares MISS: no damage
from tohit.systems.wsswnn.live import WsswnnLive
from tohit.systems.wsswnn.models import die_sides
from tohit.systems.wsswnn.plan import ATTACK_KINDS
from tohit.systems.wsswnn.stat_readings import READINGS

GRAPPLED, SHOVED, DISARMED = EFFECT_OF["grapple"], EFFECT_OF["shove"], EFFECT_OF["disarm"]
BRACE_NAMES = {GRAPPLED: "Grapple", SHOVED: "Shove", DISARMED: "disarm"}
GRAPPLED_FIELD = "target.grappled"
#: The attacker is grappled by a foe: brace disadvantage on its attacks [braces: Grapple].
ATTACKER_GRAPPLED_FIELD = "attacker.grappled"
STAMINA_FIELD = "target.stamina"
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
    resists: bool = Field(
        default=True,
        description="On a brace's Struggle against it, pay 1 stamina to resist the effect when it has the stamina.",
    )


def _is_stand_fast(entry: Any) -> bool:
    return bool(entry.attack.kind == "brace" and entry.attack.brace == "stand_fast")


def _free_brace(entry: Any) -> str | None:
    """The brace an attack entry may roll against its foe: its brace action, Take Hold's, or a block's."""
    attack = entry.attack
    if attack.kind == "brace":
        return None if attack.brace == "stand_fast" else str(attack.brace)
    if attack.kind == "take_hold":
        return str(attack.brace or "grapple")
    weapon = entry.attacker.weapon
    return attack.brace or (weapon.on_block if weapon is not None else None)


def _uses_weapon(entry: Any) -> bool:
    """A weapon attack: melee, ranged or a jump-attack made with a weapon (a disarmed combatant cannot)."""
    return bool(entry.attack.kind in ATTACK_KINDS and entry.attacker.weapon is not None)


class WsswnnFight(WsswnnLive):
    system_id = "wsswnn"
    health = "life"
    health_label = "life"
    readings = READINGS
    condition_stats = ("grappling", "disarmed")
    combatant_extra = WsswnnCombatant
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
    target_stats = ("guard", "life", "awareness")
    table_stats = ("guard",)
    table_clip: ClassVar[dict[str, str]] = {"damage": "life"}
    attacker_stats = ("guard",)
    #: Only Stand Fast reads the attacker's own Guard (the Guard it regains up to its maximum).
    attacker_stats_kinds = ("stand_fast",)
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
        sides = data.get("sides")
        for side in sides if isinstance(sides, list) else []:
            if not isinstance(side, dict):
                continue
            combatants = side.get("combatants")
            for comb in combatants if isinstance(combatants, list) else []:
                if not isinstance(comb, dict):
                    continue
                attacker, target = comb.get("attacker"), comb.get("target")
                if isinstance(attacker, dict) and isinstance(target, dict) and isinstance(target.get("guard"), int):
                    attacker.setdefault("guard", target["guard"])
                    attacker.setdefault("max_guard", max(target["guard"], attacker["guard"]))
        return data

    def check(self, fight: LoadedFight) -> None:
        grapplers = [
            c for c, comb in enumerate(fight.combatants) if any(_free_brace(e) == "grapple" for e in comb.attacks)
        ]
        for c, comb in enumerate(fight.combatants):
            if comb.target.is_object:
                raise InputError(
                    "a combatant is a creature (Guard, Agility, life), not an object", field=f"{fight.paths[c]}.target"
                )
            if comb.target.life is None:
                raise InputError("a combatant in a fight needs its life", field=f"{fight.paths[c]}.target.life")
            for name in ("grappled", "held"):
                if getattr(comb.target, name):
                    raise InputError(
                        f"{name} is fight state in a fight: a combatant holds and grapples a foe with Take Hold's"
                        " free Grapple (attack: {kind: take_hold}); leave it out",
                        field=f"{fight.paths[c]}.target.{name}",
                    )
            for a, entry in enumerate(comb.attacks):
                where = f"{fight.paths[c]}.attacks[{a}]"
                if entry.attack.kind == "brace" and entry.attack.brace == "grapple":
                    raise InputError(
                        "in a fight a Grapple is Take Hold's free brace (attack: {kind: take_hold}): a brace action"
                        " Grapple needs a hold the fight does not keep",
                        field=f"{where}.attack.brace",
                    )
                if _free_brace(entry) == "break":
                    field = "attack.brace" if entry.attack.brace == "break" else "attacker.weapon.on_block"
                    raise InputError(
                        "a fight does not play breaking arms (its defending armament is not fight state); use disarm",
                        field=f"{where}.{field}",
                    )
            if any(fight.roster.foe_matrix[g, c] for g in grapplers):
                for entry in comb.attacks:
                    if entry.attack.kind != "brace" and entry.attacker.brace_die is None:
                        raise InputError(
                            "a foe can Grapple it (Take Hold), and the grappled foe attacks with brace disadvantage,"
                            " which rolls the Brace die: give it",
                            field=f"{fight.paths[c]}.attacker.brace_die",
                        )
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
            "stamina": int(target.stamina or 0),
            "grappling": 0,
            "disarmed": 0,
        }

    def fight_stats(self, fight: LoadedFight) -> dict[str, int]:
        return {**super().fight_stats(fight), "rolled": 0}

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        return state.per["life"] > 0

    def override_value(self, field: str, code: int) -> Any:
        """`grappled` (a foe the attacker grapples) is a flag; `stamina` the foe's current Stamina."""
        return bool(code) if field == "grappled" else int(code)

    def _tables(self, fight: LoadedFight) -> dict[str, Any]:
        def build() -> dict[str, Any]:
            size, na = fight.roster.size, fight.max_attacks
            stand = np.full(size, -1, dtype=np.int64)
            strike = np.zeros((size, na), dtype=bool)
            sides = np.zeros(size, dtype=np.int64)
            penalty = np.zeros(size, dtype=np.int64)
            stand_at = np.full(size, NEVER, dtype=np.int64)
            skip_at = np.full(size, NEVER, dtype=np.int64)
            gains = np.zeros(size, dtype=np.int64)
            weapon = np.zeros((size, na), dtype=bool)
            hold = np.zeros((size, na), dtype=bool)
            far = np.zeros((size, na), dtype=bool)
            resists = np.zeros(size, dtype=bool)
            mighty = np.zeros((size, na), dtype=bool)
            ranged = np.zeros((size, na), dtype=bool)
            offset = np.zeros((size, na), dtype=np.int64)
            braces: set[str] = set()
            for c, comb in enumerate(fight.combatants):
                resists[c] = comb.resists
                for a, entry in enumerate(comb.attacks):
                    if _is_stand_fast(entry):
                        stand[c] = a if stand[c] < 0 else stand[c]
                    else:
                        strike[c, a] = True
                    weapon[c, a] = _uses_weapon(entry)
                    hold[c, a] = entry.attack.kind == "take_hold"
                    far[c, a] = entry.attack.kind in ("ranged", "jump")
                    mighty[c, a] = entry.attack.mighty_blow
                    ranged[c, a] = entry.attack.kind == "ranged"
                    # The kept roll of a ranged attack = its result - modifier + the range penalty.
                    offset[c, a] = max(2, entry.attack.spans) - entry.attack.modifier
                    brace = _free_brace(entry)
                    if brace is not None:
                        braces.add(brace)
                die = comb.attacker.maneuver_die
                sides[c] = 0 if die is None else die_sides(die)
                penalty[c] = comb.attacker.penalty_of("maneuver")
                stand_at[c] = NEVER if comb.stand_fast_at is None else comb.stand_fast_at
                skip_at[c] = NEVER if comb.skip_at is None else comb.skip_at
                gains[c] = int(comb.skip_gains == "awareness")
            found = {
                "stand": stand,
                "strike": strike,
                "sides": sides,
                "penalty": penalty,
                "stand_at": stand_at,
                "skip_at": skip_at,
                "gains": gains,
                "weapon": weapon,
                "hold": hold,
                "far": far,
                "resists": resists,
                "mighty": mighty,
                "ranged": ranged,
                "offset": offset,
                "usable": np.asarray(bool(braces) or bool(mighty.any())),
                # A ranged attack into a grapple needs a third combatant to shoot (the grapple's two cannot).
                "into": np.asarray("grapple" in braces and bool(ranged.any()) and size > 2),
                # Whether the fight has a brace against a foe at all, and a Grapple (else no state changes).
                "braces": np.asarray(bool(braces)),
                "grapples": np.asarray("grapple" in braces),
            }
            return found

        return fight.memo("wsswnn_tables", build)

    # -- initiative --------------------------------------------------------------------------------------------
    def step(self, ctx: FightContext, choice: GMChoice | None = None) -> None:
        if (ctx.state.fight["rolled"] == 0).any():
            self._initiative(ctx)
        super().step(ctx, choice)

    def _initiative(self, ctx: FightContext) -> None:
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
                ctx.emit(
                    "initiative_roll",
                    [],
                    narrate.initiative_roll(
                        fight.roster.names[c],
                        f"{face[0]} - {t['penalty'][c]} = {roll[0]}" if has_die else None,
                        bool(beats[0, c]),
                        int(best[0]),
                    ),
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
            self.text(ctx, lambda: narrate.initiative([names[int(c)] for c in order[0]])),
        )

    # -- a turn ----------------------------------------------------------------------------------------------------
    def turn(self, ctx: FightContext, acting: BoolArray, actor: IntArray, choice: GMChoice | None = None) -> None:
        fight = ctx.fight
        t = self._tables(fight)
        who = np.maximum(actor, 0)
        guard = take_rows(ctx.state.per["guard"], who)
        stand = acting & (t["stand"][who] >= 0) & (guard <= t["stand_at"][who])
        skip = acting & ~stand & (guard <= t["skip_at"][who])
        strike = acting & ~stand & ~skip
        foes = rows_of(fight.roster.foe_matrix, who) & ctx.standing()
        usable = self._usable(ctx, who) if t["usable"] else rows_of(t["strike"], who)
        options: BoolArray = np.asarray(usable[:, :, None] & foes[:, None, :], dtype=bool)
        idx, attack, target = ctx.choose_actions(strike, actor, options, choice)
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
                self.text(ctx, lambda: narrate.stand_fast(self.name(ctx, actor), int(before[0]), int(after[0]))),
            )
        if strike.any():
            self._pay_mighty_blow(ctx, strike, actor, attack)
            feeds = self._feeds(ctx, strike, actor, target)
            # No brace: its fields never change; no shot into a grapple: the attack roll is never read (faster
            # tables, a smaller exact chain).
            fields = BRACE_FIELDS if t["braces"] else PLAIN_FIELDS
            if t["into"]:
                fields = (*fields, "attack_roll")
            idx, out = ctx.resolve(strike, actor, attack, target, feeds or None, fields=fields)
            actor, strike, attack, target = actor[idx], strike[idx], attack[idx], target[idx]
            if t["into"]:
                actor, strike, target, out = self._into_grapple(ctx, strike, actor, attack, target, out, fields)
            self._damage(ctx, strike, actor, target, out)

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
            self.text(
                ctx,
                lambda: narrate.mighty_blow(self.name(ctx, actor[rows]), int(now[0])),
            ),
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
        first = int(np.flatnonzero(odd)[0]) if ctx.narrating else 0
        ctx.emit(
            "into_grapple",
            [],
            self.text(
                ctx,
                lambda: narrate.into_grapple(
                    names[int(actor[first])], int(kept[first]), names[int(partner[first])], names[int(target[first])]
                ),
            ),
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
                    lambda stat=stat, now=now, after=after: narrate.skip(
                        self.name(ctx, actor[rows]), stat, int(now[0]), int(after[0])
                    ),
                ),
            )

    def _damage(
        self, ctx: FightContext, mask: BoolArray, actor: IntArray, target: IntArray, out: dict[str, Any]
    ) -> None:
        """What a resolved attack does (`consequences.apply`; emitted and narrated here)."""
        falling = consequences.falls(out["falling_lethal"], out["falling_guard"])
        rows = np.flatnonzero(mask & ((out["result"] != MISS) | falling))
        if rows.size == 0:
            return
        a, d = actor[rows], target[rows]
        per = ctx.state.per
        t = self._tables(ctx.fight)
        braces = bool(t["braces"])
        falls = falling[rows].any()
        read = [k for k in consequences.Outcome._fields if (braces or k not in BRACE_OUTCOME)]
        outcome = consequences.Outcome(**{k: out[k].take(rows) for k in read if falls or k not in FALL_OUTCOME})
        aware = (outcome.awareness_damage > 0).any()
        before = consequences.Before(
            life=gather(per["life"], rows, d),
            guard=gather(per["guard"], rows, d),
            dealt=gather(per["dealt"], rows, a),
            foe=ctx.fight.roster.are_foes(a, d),
            attacker_life=gather(per["life"], rows, a) if falls else None,
            attacker_guard=gather(per["guard"], rows, a) if falls else None,
            awareness=gather(per["awareness"], rows, d) if aware else None,
            defender=d if braces else None,
            attacker=a if braces else None,
            grappling=per["grappling"][rows] if braces else None,
            stamina=gather(per["stamina"], rows, d) if braces else None,
            disarmed=gather(per["disarmed"], rows, d) if braces else None,
            resists=t["resists"][d] if braces else None,
        )
        applied = consequences.apply(before, outcome)
        who = {DEFENDER: d, ATTACKER: a}
        for kind, items in events(applied.items):
            ctx.emit(kind, changes(items, rows, who), self._said(ctx, kind, items, before, applied, out, rows, a, d))

    def _said(
        self,
        ctx: FightContext,
        kind: str,
        items: tuple[Item, ...],
        before: consequences.Before,
        applied: consequences.Applied,
        out: dict[str, Any],
        rows: IntArray,
        attacker: IntArray,
        defender: IntArray,
    ) -> str:
        """Narrated (one fight: its one attack is row 0): the sentence of an event of `kind`."""
        if not ctx.narrating:
            return ""
        names = ctx.fight.roster.names
        a, d = int(attacker[0]), int(defender[0])
        if kind == "damage":
            guard, guard_after = before.guard, applied.guard_after
            aware, aware_after = guard, guard  # no awareness damage: nothing changes
            if applied.awareness_after is not None and before.awareness is not None:
                aware, aware_after = before.awareness, applied.awareness_after
            changed = [
                (what, int(x[0]), int(y[0]))
                for what, x, y in (
                    ("life", before.life, applied.life_after),
                    ("guard", guard, guard_after),
                    ("awareness", aware, aware_after),
                )
            ]
            return narrate.damage(names[d], changed, bool(applied.life_after[0] <= 0))
        if kind == "grapple_ends":
            if items[0].whose == OTHER:
                return narrate.lets_go(names[items[0].combatant])
            assert before.grappling is not None
            return narrate.grapple_ends(names[d], names[int(before.grappling[0, d]) - 1])
        if kind == "resist":
            assert before.stamina is not None
            return narrate.resist(names[d], BRACE_NAMES[int(out["brace_effect"][rows][0])], int(before.stamina[0]))
        if kind == "grapple":
            return narrate.grapple(names[a], names[d])
        if kind == "shove":
            return narrate.shove(names[a], names[d], bool(items[0].rows.size), bool(items[1].rows.size))
        if kind == "disarm":
            return narrate.disarm(names[d])
        fall_l, fall_g = (int(out[k][rows][0]) for k in ("falling_lethal", "falling_guard"))
        return narrate.fall(names[a], 0 if fall_l == NULL_INT else fall_l, 0 if fall_g == NULL_INT else fall_g)


#: The outcome fields a fight reads (the attack roll only for a shot into a grapple); without braces against a
#: foe, not their fields either.
BRACE_FIELDS = tuple(f for f in WsswnnFight.outcome_fields if f != "attack_roll")
PLAIN_FIELDS = tuple(f for f in BRACE_FIELDS if f not in ("brace_effect", "resist_stamina"))
#: The outcome columns `consequences.apply` reads only with braces, and only when some attack falls.
BRACE_OUTCOME = ("brace_effect", "resist_stamina")
FALL_OUTCOME = ("falling_lethal", "falling_guard")
RULES = WsswnnFight()
