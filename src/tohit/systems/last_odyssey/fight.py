"""Last Odyssey fights: Shell pools, HP, rows, Multi abilities (Attacking and Defending,
docs/last-odyssey.md#where-the-page-is-silent).

Rules applied between attacks (the attack itself is the system's `resolve`: hit die, damage with the Shell
and element multipliers, statuses):
- Shell pools [Shells; docs/last-odyssey.md#silent-shell]: a Shell is a pool of points (the target block's `shell`:
  false for none, or its points; `true` without points cannot be played). While it has points the Shell is active
  (magical attacks deal double, physical ones normal); a hit's damage goes to the pool; on the hit that
  breaks it, the overflow takes HP only if it is at least the remaining HP (the combatant is downed),
  else no HP is lost. Without a Shell, damage takes HP.
- HP never goes below 0; at 0 a combatant is downed, out of the fight; downed by a knock-out it is
  incapacitated instead of killed [Death and Injury; docs/last-odyssey.md#silent-knock-out].
- Body Armor (the Cop's passive): the first physical hit deals no damage; the armour is then used up.
- Rows [Starting Battles]: a Melee ability needs its user in the front row and reaches only the front
  row; other abilities reach any row. When a side's front row has nobody standing, its back row comes
  forward.
- Multi abilities: one roll of the hit die for every target (docs/last-odyssey.md#silent-one-roll); a Multi ability is
  used on every foe it can reach (a Melee one: the foes' front row).
- Statuses [Statuses]: a status-inflicting ability that lands gives its target the status, kept as state
  (`statuses`, a bitmask of the nine statuses; `status_hits` counts the landings, for reports). The system's
  `resolve` plays their effects on later abilities: Blinded halves the user's accuracies (option
  `blinded_halves`), Petrified halves the target's base Evasion, Paralyzed makes the user's physical attacks
  miss, Silenced its magical ones, Burned stops buffs; the others (Confused, Frostbitten, Fatigued, Poisoned)
  are kept and narrated only. The statuses in a combatant's file blocks (attacker and target) are its
  starting state.
- Buffs and debuffs [Buffs and Debuffs; the page's introduction]: they succeed no matter what. A debuff is
  used on foes and moves the target's Bonus Tracker for `attack.stat` by `levels` steps along -7, -3, -1, 0,
  +1, +3, +7 (stopping at the ends); a buff is a Self ability (it moves its user's) or an Ally ability [page,
  ability types: "Ally: this ability is defensive, and may target any character on the battlefield"]: it moves
  the tracker of a standing ally, the user included ("any character"); a Multi Ally buff moves every standing
  ally's. A downed ally cannot be targeted [Death and Injury: "cannot act or be targeted except by
  revives"]. The tracker (`buffs`, one base-7 digit per statistic) resets after each battle, so a fight starts
  from the file's `buffs`; it feeds both blocks of its combatant (accuracies and attacks as the user, defences
  as the target). An Ally ability that is not a buff is refused (an Ally ability is defensive).
- Downed [Death and Injury]: every effect is removed except Poisoned, Frostbitten and Burned (the Bonus
  Tracker included).
- Policy `best` reads the expected damage at the current state (the scalar stats bound with `odds`): the user's
  statuses (Blinded, Paralyzed, Silenced) and tracker, the target's statuses (Petrified) and tracker, whether
  its Shell is active and whether its Body Armor is up (a physical hit on it deals no damage: "Cop, Body
  Armor"), as the preview and `tohit odds` do.

Choices where the rules are silent (docs/fights.md):
- A status lasts for the rest of the battle (or until its bearer is downed, which keeps only Poisoned,
  Frostbitten and Burned); the pages give no duration.
- A combatant that already has a status cannot gain it again: a status is on or off (the landing is still
  counted in `status_hits`).
- Policies never choose an ability that could do nothing: a status ability on a foe that already has that
  status, a debuff on a foe whose tracker for that statistic is at -7, a Self or Ally buff on a character whose
  tracker is at +7 or who is Burned. Otherwise `first`, `weakest` and `random` take the first usable ability in
  file order (a status ability, debuff or buff listed first is used until it can do nothing more), on the
  character they pick: for an attack, status ability or debuff a foe; a Self buff its user; an Ally buff a
  standing ally it can still raise (the user included): `first` the first in file order, `weakest` the one
  with the least HP (ties: file order), `random` one drawn uniformly. A policy never uses an Ally buff on a
  foe. `best` ranks by expected damage at the current state, so it picks a status ability, debuff or buff
  (expected damage 0) only when no other ability has any; among those, file order (an Ally buff: the first
  ally in file order it can raise). A combatant with a `focus` uses only abilities on its focus while it can.
- An attack its user's status makes miss (Paralyzed: physical, Silenced: magical) is not chosen while its user
  has another ability it can use; with nothing else it is used, and misses (the system's rule).

Turn structure [The Combat Round, Starting Battles, Statuses; the game's other pages, Last Odyssey]:
- Action points: "Characters of tier 1-5 have 2 AP per turn" and a Basic Attack costs 1 AP ("Most actions cost 1
  AP unless otherwise specified"): every ability of a fight costs 1 AP, and a combatant uses abilities until its
  AP (option `action_points`, default 2; 3 for tiers 6-10) are spent, or it has none it can use ("Once you run
  out of Action Points during your turn, your turn ends"). `action_points: 1` restores one ability per turn.
- Initiative: "The order in which the characters will act every round starts with the character with the highest
  Initiative score ... in order of descending Initiative". A combatant's `initiative` is its Initiative (default
  0: the page derives it from Mind, which a fight file does not give). Calling initiative: a player character
  may `call` a number from 1 to 8; then the GM rolls 2d4 once, at the start of the fight; a call equal to the
  roll counts "an Initiative of 1.5x its base value for the rest of the battle"; on a tie with an enemy a call
  below the roll goes first, a call at or above it last. Other ties (between player characters, between
  enemies, or with one who did not call) go by the file's order, sides alternating (the page: "player fiat",
  "GM fiat"). Option `turn_order: file` restores the file's order.
- The Effect Phase, at the end of each round: "damage takes precedent, ... followed by everything else":
  first a Poisoned combatant takes 1/10 of its base maximum HP (`health`, default its starting HP), rounded
  down, at least 1 [Statuses], from its HP (a Shell does not take it; a choice); then "if there are no
  characters in the front row on one or both sides of combat, then the opposing side can choose to advance":
  it always does (a choice), and the emptied side's back row counts as the front row. Advancing happens only
  then, never mid-round. Option `effect_phase: false` restores the simpler reading: no Poisoned damage, and
  the back row comes forward as soon as the front row has nobody standing.

Where the pieces are: the fight file's fields in fight_file.py, statuses and the Bonus Tracker as state in
state_codes.py, the turn order in initiative.py, the abilities a combatant can use in fight_abilities.py, a
turn in fight_turn.py, the round and its Effect Phase in fight_round.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.bindings import StatBinding
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import BoolArray, State
from tohit.systems.last_odyssey import narrate, players
from tohit.systems.last_odyssey.consequences import (
    BIT,
    KEPT_WHEN_DOWNED,
    PLAYED_BITS,
    STATUSES,
)
from tohit.systems.last_odyssey.effective import NAMES
from tohit.systems.last_odyssey.fight_file import LastOdysseyCombatant
from tohit.systems.last_odyssey.fight_round import LastOdysseyRound
from tohit.systems.last_odyssey.live import BACK, FRONT
from tohit.systems.last_odyssey.stat_readings import READINGS
from tohit.systems.last_odyssey.state_codes import packed_tracker, status_mask, status_names, tracker_of
from tohit.systems.last_odyssey.tables import inflicted_status

NOT_PLAYED = ("passive", "reaction")


class LastOdysseyFight(LastOdysseyRound):
    system_id = "last-odyssey"
    combatant_extra = LastOdysseyCombatant
    static_order = False
    holds_turn = True
    health = "hp"
    health_label = "HP"
    readings = READINGS
    condition_stats = ("incapacitated", "statuses", "buffs")
    #: The players' health words: the page's own for HP at 0 or below ("If the enemy is downed", last-odyssey:
    #: Knocking Out; Downed: sources-and-gaps.md, Death and Injury).
    health_words = ("unhurt", "wounded", "bloodied", "downed")
    #: A status that lands ("Ogre is Paralyzed", narrate.status) and a back row coming forward (a side's name): no
    #: number in their words, told to the players as written (what the table sees); the game's other kinds, each
    #: its players' phrase (players.py).
    players_same = frozenset({"status", "rows"})
    players_phrases = players.PHRASES
    unseen_attack = players.UNSEEN_ATTACK
    gm_phrases = narrate.GM_PHRASES
    outcome_fields = ("result", "damage", "status_applied", "tracker")
    #: Policy `best` reads the expected damage at the current state (`odds`): whether the target's Shell is
    #: active, its statuses (Petrified) and tracker, its Body Armor (a physical hit on it deals no damage), the
    #: user's statuses (Blinded, Paralyzed, Silenced) and tracker: every scalar stat the resolve reads.
    bindings = (
        StatBinding("hp", outcome=False),
        StatBinding("shell", scalar=True, odds=True),
        StatBinding("body_armor", scalar=True, odds=True),
        StatBinding("statuses", scalar=True, odds=True),
        StatBinding("buffs", scalar=True, odds=True),
        StatBinding("statuses", feeds="attacker", scalar=True, odds=True),
        StatBinding("buffs", feeds="attacker", scalar=True, odds=True),
    )
    bookkeeping = ("dealt", "status_hits")
    always_usable = False
    standing_stats = ("hp",)
    #: The scalar stats a fight may leave as they start (`steady`): the table sampler then reads them once a batch.
    steady_stats = ("statuses", "buffs", "body_armor")
    turn_order: ClassVar[str] = (
        "Initiative, highest first (a tie with an enemy: the players' calls against the GM's 2d4; other ties: file"
        " order, sides alternating); each turn a combatant spends its AP (2; options action_points, turn_order),"
        " one ability each; the Effect Phase ends each round (Poisoned damage, then advancing)."
    )

    # -- scalar stats: the system reads Shell, Body Armor, statuses and the tracker as plain values -----------
    def group_value(self, stat: str, values: Any) -> Any:
        if stat == "statuses":  # only the statuses the system plays tell resolves apart
            return np.asarray(values) & PLAYED_BITS
        if stat == "buffs":
            return np.asarray(values)
        return (np.asarray(values) > 0).astype(np.int64)

    def field_value(self, stat: str, group: int) -> Any:
        if stat == "statuses":
            return status_names(int(group))
        if stat == "buffs":
            return tracker_of(int(group))
        return bool(group)

    def narrate_value(self, stat: str, value: int) -> Any:
        # A narrated fight shows the pool itself: the system's trace then walks through the absorption.
        if stat in ("statuses", "buffs"):
            return self.field_value(stat, value)
        return value if stat == "shell" and value > 0 else bool(value > 0)

    def steady(self, fight: LoadedFight, stat: str, value: int) -> bool:
        """What no step changes while every combatant holds `value`: statuses and the Bonus Tracker where no
        ability gives a status or moves the tracker, Downed keeping every status held [Death and Injury] and
        the tracker at 0; Body Armor used up (0: nothing puts it back up) or where no ability is physical (only
        a physical hit uses it up) [Body Armor]."""
        tables = self._tables(fight)
        if stat == "body_armor":
            return value == 0 or not bool(tables["physical"].any())
        if tables["effects"]:
            return False
        return value == 0 if stat == "buffs" else value & KEPT_WHEN_DOWNED == value

    def condition_bits(self, stat: str) -> dict[str, int]:
        """A game master sets and clears each of the nine statuses [Statuses] by its word (one bit of `statuses`),
        whether or not an ability of the fight inflicts it; the rules then read it as a landed one."""
        return {name.capitalize(): BIT[name] for name in STATUSES} if stat == "statuses" else {}

    def override_value(self, field: str, code: int) -> Any:
        """`target.side` (a narrated ability): 1 when the target is on the user's side (an ally), 0 a foe."""
        if field == "side":
            return "ally" if code else "enemy"
        return code

    # -- setup ------------------------------------------------------------------------------------------------
    def for_check(self, scenario: Any) -> Any:
        """Rows change during a fight: the load-time check sees both in the front row. A Self ability is used
        on its user (`check` checks it so); the check of it against each foe sees the foe as the user."""
        name = scenario.targets[0].name if "self" in scenario.attack.type else scenario.attacker.name
        attacker = scenario.attacker.model_copy(update={"row": "front", "name": name})
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
            attacker, target = comb.attacker, comb.target
            if comb.call is not None and not attacker.player_character:
                raise InputError(
                    "each player calls initiative [Starting Battles]: an enemy (player_character: false) does not call",
                    field=f"{where}.call",
                )
            for stat, step in target.buffs.items():
                if attacker.buffs.get(stat, step) != step:
                    raise InputError(
                        f"one Bonus Tracker per character: {NAMES[stat]} is {attacker.buffs[stat]:+d} in the"
                        f" attacker block and {step:+d} here",
                        field=f"{where}.target.buffs.{stat}",
                    )
            for a, entry in enumerate(comb.attacks):
                kind, types = entry.attack.kind, entry.attack.type
                at = f"{where}.attacks[{a}]"
                if any(t in NOT_PLAYED for t in types):
                    raise InputError(
                        "a fight uses abilities on foes, and Self and Ally buffs on their user's side (not"
                        " Passive or Reaction abilities)",
                        field=f"{at}.attack.type",
                    )
                own, ally = "self" in types, "ally" in types
                if own and ally:
                    raise InputError(
                        "a Self ability targets only its user, an Ally one any ally: give one of the two",
                        field=f"{at}.attack.type",
                    )
                if (own or ally) != (kind == "buff"):
                    raise InputError(
                        "a buff in a fight is a Self ability (used on its user) or an Ally ability (used on an ally"
                        ", the user included), and a Self or Ally ability a buff (debuffs and attacks are used on"
                        " foes)",
                        field=f"{at}.attack.type",
                    )
                if own and "multi" in types:
                    raise InputError("a Self ability targets only its user, never several", field=f"{at}.attack.type")
                if kind == "status":
                    try:
                        status = inflicted_status(entry.attack.status, entry.attack.element)
                    except ValueError as exc:
                        raise InputError(str(exc), field=f"{at}.attack.status") from None
                    if status not in BIT:
                        raise InputError(
                            f"a fight keeps the statuses of Statuses as state ({', '.join(STATUSES)});"
                            f" got {short_repr(status)}",
                            field=f"{at}.attack.status",
                        )
                if entry.attacker.statuses != attacker.statuses or entry.attacker.buffs != attacker.buffs:
                    raise InputError(
                        "statuses and buffs are the combatant's fight state: give them in its attacker or"
                        " target block, not per attack",
                        field=f"{at}.attacker",
                    )
                if own or ally:  # checked on its user too (an Ally buff's target may be its user)
                    try:
                        self_scenario = fight.scenario(c, a, c)
                        named = self_scenario.attacker.model_copy(update={"name": comb.name})
                        fight.system.check(self.for_check(self_scenario.model_copy(update={"attacker": named})))
                    except InputError as exc:
                        raise exc.located(field_prefix=at) from None

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        """The starting stats. `turn`, each combatant's place in the round's order [Starting Battles], is kept
        where it can differ from the file's order (sides alternating) or a live encounter may move it: where
        nobody calls initiative and the Initiatives leave the file's order as it is, a fight the engine runs
        goes in the file's order, as every fight of a game without an Initiative does (core/fight/order.py)."""
        stats = self._stats(fight, combatant)
        if not fight.live and self._file_order(fight):
            del stats["turn"]
        return stats

    def _file_order(self, fight: LoadedFight) -> bool:
        """Every fight's round goes in the file's order, sides alternating: nobody calls initiative (no 2d4 is
        rolled) and the places the Initiatives give are the file's."""
        turns = self._turns(fight)
        return not turns.calls and tuple(int(p) for p in turns.places(None)) == turns.file_place

    def _stats(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        comb = fight.combatants[combatant]
        target = comb.target
        shell = target.shell
        return {
            "hp": int(target.hp),
            "shell": 0 if shell is False else int(shell),
            "body_armor": int(target.body_armor),
            "row": FRONT if target.row == "front" else BACK,
            "incapacitated": 0,
            "statuses": status_mask([*comb.attacker.statuses, *target.statuses]),
            "buffs": packed_tracker({**comb.attacker.buffs, **target.buffs}),
            "status_hits": 0,
            "dealt": 0,
            "ap": int(fight.spec.options.action_points),
            "turn": int(self._turns(fight).places(None)[combatant]),
        }

    def fight_stats(self, fight: LoadedFight) -> dict[str, int]:
        """`rolled`: whether the GM's 2d4 for the players' calls is rolled yet (only when someone calls)."""
        extra = {"rolled": 0} if self._turns(fight).calls else {}
        return {**super().fight_stats(fight), **extra}

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        return state.per["hp"] > 0


RULES = LastOdysseyFight()
