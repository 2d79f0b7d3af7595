"""When Sky and Sea Were Not Named fights: life, guard, awareness; skipping; Stand Fast; initiative.

Rules applied between actions (an action itself is the system's `resolve`):
- Damage [Taking Actions, Damage]: lethal damage reduces life, guard damage guard (after the lethal damage),
  awareness damage awareness, each never below 0; at 0 life a combatant is out of the fight. A missed
  jump-attack's fall costs the attacker life and guard.
- Skipping an action gives +1 guard (or +1 awareness: the combatant's `skip_gains`), never above its
  maximum [Tracking Your Stats]. A combatant skips when its Guard is at or below its `skip_at`, or when it has
  no attack it can make.
- Stand Fast as a choice [braces; docs/wsswnn.md#silent-braces]: a combatant with a Stand Fast brace among its
  attacks uses it on its turn when its Guard is at or below its `stand_fast_at`; it regains Guard equal to its
  Brace roll, up to maximum Guard + Strength. Its own Guard and maximum Guard are the fight's (an attacker
  block without `guard` / `max_guard` takes the target block's Guard for both).
- Initiative [maneuvers]: at the start of the fight each combatant rolls its Maneuver die (with its penalty)
  against the highest Awareness among its foes; those who beat it act first, in file order with sides
  alternating, then the others in the same order. A combatant with no Maneuver die does not beat it.
  The order then holds for the whole fight.
- Stamina [braces; Tracking Your Stats]: each combatant's Stamina (`target.stamina`, 0 when not given) is
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

Where the pieces are: the fight file's fields in fight_file.py, what a fight reads once from it in
fight_tables.py, a turn and what its outcome applies in fight_turn.py.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np

from tohit.core.errors import InputError
from tohit.core.fight.bindings import StatBinding
from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.rows import count_rows
from tohit.core.fight.state import BoolArray, IntArray, State, change
from tohit.systems.wsswnn import narrate, players
from tohit.systems.wsswnn.fight_file import WsswnnCombatant, free_brace, is_stand_fast
from tohit.systems.wsswnn.fight_turn import ATTACKER_GRAPPLED_FIELD, GRAPPLED_FIELD, WsswnnTurns
from tohit.systems.wsswnn.stat_readings import READINGS


class WsswnnFight(WsswnnTurns):
    system_id = "wsswnn"
    health = "life"
    health_label = "life"
    readings = READINGS
    condition_stats = ("grappling", "disarmed")
    gm_phrases = narrate.PHRASES
    players_phrases = players.PHRASES
    players_same = players.SAME
    unseen_attack = players.UNSEEN_ATTACK
    combatant_extra = WsswnnCombatant
    bindings = (
        StatBinding("guard", odds=True),
        # Damage beyond the life left changes nothing: the exact chain caps it there.
        StatBinding("life", outcome=False, clip="damage"),
        StatBinding("awareness", outcome=False),
        # Only Stand Fast reads the attacker's own Guard (the Guard it regains up to its maximum).
        StatBinding("guard", feeds="attacker", kinds=("stand_fast",)),
    )
    static_order = False
    standing_stats = ("life",)
    turn_order: ClassVar[str] = (
        "Initiative: each combatant's Maneuver roll against its foes' highest Awareness; those who beat it act"
        " first, then the others, each group in file order with sides alternating; one action per round each."
    )

    # -- policy `best` and the preview ---------------------------------------------------------------------------
    def odds_fields(
        self, ctx: FightContext, rows: IntArray, actor: int, attack: int, target: int
    ) -> dict[str, IntArray]:
        """The grapples as a strike is resolved with them (`_feeds`): brace advantage on the foe the actor grapples,
        brace disadvantage for an actor a foe grapples [braces: Grapple] (the foe's Stamina is read by a brace, not
        by an attack's damage)."""
        t = self._tables(ctx.fight)
        if not (t["braces"] and t["grapples"]):
            return {}
        grappling = ctx.state.per["grappling"][rows]
        return {
            GRAPPLED_FIELD: (grappling[:, actor] == target + 1).astype(np.int64),
            ATTACKER_GRAPPLED_FIELD: (grappling == actor + 1).any(axis=1).astype(np.int64),
        }

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
            c for c, comb in enumerate(fight.combatants) if any(free_brace(e) == "grapple" for e in comb.attacks)
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
                if free_brace(entry) == "break":
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
            if comb.stand_fast_at is not None and not any(is_stand_fast(e) for e in comb.attacks):
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
            best = _highest_awareness(ctx.state.per["awareness"], fight.roster.foes()[c])
            has_die = t["sides"][c] > 0
            mask = rows & has_die
            sides = np.full(ctx.n, t["sides"][c], dtype=np.int64)
            idx, face = ctx.die(mask, sides)
            rows, beats, best = rows[idx], beats[idx], best[idx]
            roll = face - t["penalty"][c]
            beats[:, c] = mask[idx] & (roll > best)

            def rolled(rows: BoolArray = rows) -> bool:
                return bool(rows[0])

            ctx.tell(
                "initiative_roll",
                when=rolled,
                combatant=fight.roster.names[c],
                roll=lambda c=c, face=face, roll=roll, has_die=has_die: (
                    f"{face[0]} - {t['penalty'][c]} = {roll[0]}" if has_die else None
                ),
                beats=lambda c=c, beats=beats: bool(beats[0, c]),
                awareness=lambda best=best: int(best[0]),
            )
        r = np.flatnonzero(rows)
        every = r.size == ctx.n
        won = beats if every else beats[r]
        place = places(won, fight.file_order)
        # One change for every combatant's place, row by row (each row's combatants in order, as one per combatant
        # would give a told fight), and one for those who beat their foes.
        combatants = np.tile(np.arange(size, dtype=np.int64), r.size)
        winners = np.flatnonzero(won.reshape(-1))  # (row, combatant) as row * size + combatant
        changes = [
            change("turn", np.repeat(r, size), place.reshape(-1), combatants),
            change("rolled", r, 1),
            change("initiative", r.take(winners // size), 1, winners % size),
        ]
        names = fight.roster.names
        ctx.emit("initiative", changes, order=lambda: [names[int(c)] for c in np.argsort(place[0], kind="stable")])


def _highest_awareness(awareness: IntArray, foes: BoolArray) -> IntArray:
    """Per fight, the highest Awareness among the foes (column by column: a reduction along a short axis is slow)."""
    columns = np.flatnonzero(foes).tolist()
    best = awareness[:, columns[0]].copy()
    for f in columns[1:]:
        np.maximum(best, awareness[:, f], out=best)
    return best


def places(beats: BoolArray, file_order: tuple[int, ...]) -> IntArray:
    """(fights, combatants): each combatant's place in its fight's round order [maneuvers]: those who beat their foes'
    Awareness first, then the others, each group in file order (`file_order`: the combatants by their place in the
    file's order, sides alternating)."""
    n, size = beats.shape
    place = np.empty((n, size), dtype=np.int64)
    ahead = count_rows(beats)  # how many beat it: the others come after them all
    seen = np.zeros(n, dtype=np.int64)  # how many of those before it in file order beat it
    for p, c in enumerate(file_order):
        beat = beats[:, c]
        place[:, c] = np.where(beat, seen, ahead + (p - seen))
        seen += beat
    return place


RULES = WsswnnFight()
