"""Last Odyssey fights: Shell pools, HP, rows, Multi abilities (issue 8; Attacking and Defending,
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
- Policy `best` reads the expected damage at the current state (`odds_scalar_stats`,
  `odds_attacker_scalar_stats`): the user's statuses (Blinded, Paralyzed, Silenced) and tracker, the target's
  statuses (Petrified) and tracker, and whether its Shell is active (not Body Armor, which the fight applies).

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
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.consequence import ATTACKER, DEFENDER, Item, changes, events
from tohit.core.fight.contract import FightContext, GMChoice, LoadedFight
from tohit.core.fight.rows import any_rows, rows_of, take_rows
from tohit.core.fight.state import BoolArray, IntArray, State, gather
from tohit.core.models import Model
from tohit.systems.last_odyssey import consequences, narrate
from tohit.systems.last_odyssey.consequences import (
    BIT,
    DIGIT_OF_STEP,
    KEPT_WHEN_DOWNED,
    LABEL,
    PLACE,
    PLAYED_BITS,
    STATUSES,
    STEP_OF_DIGIT,
    TRACKED,
)
from tohit.systems.last_odyssey.effective import NAMES
from tohit.systems.last_odyssey.live import BACK, FRONT, LastOdysseyLive
from tohit.systems.last_odyssey.rules import HIT
from tohit.systems.last_odyssey.stat_readings import READINGS
from tohit.systems.last_odyssey.tables import inflicted_status

NOT_PLAYED = ("passive", "reaction")

TOP, BOTTOM = DIGIT_OF_STEP[7], DIGIT_OF_STEP[-7]


def status_names(mask: int) -> list[str]:
    """The statuses of a bitmask, in STATUSES order."""
    return [name for name in STATUSES if mask & BIT[name]]


def status_mask(names: Any) -> int:
    out = 0
    for name in names:
        out |= BIT[name]
    return out


def tracker_of(packed: int) -> dict[str, int]:
    """The Bonus Tracker values (non-zero ones) of a packed `buffs` value."""
    out = {}
    for i, stat in enumerate(TRACKED):
        step = STEP_OF_DIGIT[(packed // 7**i) % 7]
        if step:
            out[stat] = step
    return out


def packed_tracker(buffs: dict[str, int]) -> int:
    return sum(DIGIT_OF_STEP[int(step)] * 7**i for i, stat in enumerate(TRACKED) if (step := buffs.get(stat, 0)))


#: The GM's 2d4 when players call initiative [Starting Battles]: its values and their weights.
CALL_ROLL: tuple[IntArray, tuple[int, ...]] = (np.arange(2, 9, dtype=np.int64), (1, 2, 3, 4, 3, 2, 1))


@dataclass(frozen=True)
class TurnOrder:
    """Each combatant's place in the round's order [Starting Battles]: by Initiative, highest first; a call
    equal to the GM's 2d4 counts 1.5x Initiative; on a tie with an enemy (a foe of equal Initiative) a call below
    the roll goes first, one at or above it last; other ties (between player characters, between enemies, or
    with one who did not call) in the file's order, sides alternating (`turn_order: file`: the file's order)."""

    initiative: tuple[int, ...]
    call: tuple[int | None, ...]
    file_place: tuple[int, ...]
    by_file: bool
    side: tuple[int, ...]

    @staticmethod
    def of(fight: LoadedFight) -> TurnOrder:
        size = fight.roster.size
        file_place = [0] * size
        for place, c in enumerate(fight.file_order):
            file_place[c] = place
        return TurnOrder(
            initiative=tuple(int(c.initiative or 0) for c in fight.combatants),
            call=tuple(c.call for c in fight.combatants),
            file_place=tuple(file_place),
            by_file=fight.spec.options.turn_order == "file",
            side=tuple(int(s) for s in fight.roster.side_array),
        )

    @property
    def calls(self) -> bool:
        """Someone calls initiative, so the GM rolls 2d4 (never with `turn_order: file`)."""
        return not self.by_file and any(c is not None for c in self.call)

    def score(self, c: int, roll: int | None) -> Fraction:
        """Combatant c's Initiative for the battle: 1.5x when its call equals the roll."""
        base = Fraction(self.initiative[c])
        return base * Fraction(3, 2) if roll is not None and self.call[c] == roll else base

    def places(self, roll: int | None) -> IntArray:
        """Each combatant's place (0 first), given the GM's roll (None: not rolled, calls left out)."""
        size = len(self.file_place)
        if self.by_file:
            return np.asarray(self.file_place, dtype=np.int64)

        scores = [self.score(c, roll) for c in range(size)]

        def tied_with_an_enemy(c: int) -> bool:
            return any(scores[o] == scores[c] and self.side[o] != self.side[c] for o in range(size))

        def key(c: int) -> tuple[Fraction, int, int]:
            call = self.call[c]
            tie = 1 if call is None or roll is None or not tied_with_an_enemy(c) else (0 if call < roll else 2)
            return (-scores[c], tie, self.file_place[c])

        order = sorted(range(size), key=key)
        out = np.empty(size, dtype=np.int64)
        out[np.asarray(order, dtype=np.int64)] = np.arange(size, dtype=np.int64)
        return out

    @cached_property
    def by_roll(self) -> IntArray:
        """(7, combatants): the places for each value of the 2d4, 2 to 8."""
        return np.stack([self.places(r) for r in range(2, 9)])


class LastOdysseyCombatant(Model):
    """Last Odyssey fight fields of a combatant (the turn structure: The Combat Round, Starting Battles)."""

    initiative: int | None = Field(
        default=None,
        ge=0,
        le=999,
        description="Initiative: the higher, the sooner it acts each round (base: Mind x 2 + class bonus); none: 0.",
    )
    call: int | None = Field(
        default=None,
        ge=1,
        le=8,
        description="A player character's call when calling initiative (1-8): equal to the GM's 2d4, Initiative"
        " x 1.5; below it, first on a tie with an enemy; at or above it, last.",
    )
    health: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="Health, the base maximum HP (Poisoned takes 1/10 of it each Effect Phase); none: its starting HP.",
    )


class LastOdysseyFight(LastOdysseyLive):
    system_id = "last-odyssey"
    combatant_extra = LastOdysseyCombatant
    static_order = False
    holds_turn = True
    health = "hp"
    health_label = "HP"
    readings = READINGS
    condition_stats = ("incapacitated", "statuses", "buffs")
    outcome_fields = ("result", "damage", "status_applied", "tracker")
    target_stats = ("hp",)
    table_stats = ()
    scalar_stats = ("shell", "body_armor", "statuses", "buffs")
    attacker_scalar_stats = ("statuses", "buffs")
    bookkeeping = ("dealt", "status_hits")
    odds_stats = ()
    #: Policy `best` reads the expected damage at the current state: whether the target's Shell is active, its
    #: statuses (Petrified) and tracker, the user's statuses (Blinded, Paralyzed, Silenced) and tracker.
    odds_scalar_stats = ("shell", "statuses", "buffs")
    odds_attacker_scalar_stats = ("statuses", "buffs")
    always_usable = False
    table_clip: ClassVar[dict[str, str]] = {}
    standing_stats = ("hp",)
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

    def _turns(self, fight: LoadedFight) -> TurnOrder:
        return fight.memo("lo_turns", lambda: TurnOrder.of(fight))

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        return state.per["hp"] > 0

    def _tables(self, fight: LoadedFight) -> dict[str, Any]:
        def build() -> dict[str, Any]:
            size, na = fight.roster.size, fight.max_attacks
            melee = np.zeros((size, na), dtype=bool)
            multi = np.zeros((size, na), dtype=bool)
            physical = np.zeros((size, na), dtype=bool)
            magical = np.zeros((size, na), dtype=bool)
            knock = np.zeros((size, na), dtype=bool)
            own = np.zeros((size, na), dtype=bool)  # a Self buff
            ally = np.zeros((size, na), dtype=bool)  # an Ally buff
            bit = np.zeros((size, na), dtype=np.int64)  # the status a status ability inflicts
            stat = np.full((size, na), -1, dtype=np.int64)  # the statistic a buff or debuff moves
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    ability = entry.attack
                    melee[c, a] = "melee" in ability.type
                    multi[c, a] = "multi" in ability.type
                    physical[c, a] = ability.kind == "physical"
                    magical[c, a] = ability.kind == "magical"
                    knock[c, a] = ability.knock_out
                    own[c, a] = "self" in ability.type
                    ally[c, a] = "ally" in ability.type
                    if ability.kind == "status":
                        bit[c, a] = BIT[inflicted_status(ability.status, ability.element)]
                    if ability.stat is not None:
                        stat[c, a] = TRACKED.index(ability.stat)
            # A status that makes attacks miss may be in play (inflicted, or in a file block).
            stoppers = BIT["paralyzed"] | BIT["silenced"]
            starting = [status_mask([*comb.attacker.statuses, *comb.target.statuses]) for comb in fight.combatants]
            effects = bool(own.any() or ally.any() or (bit > 0).any() or (stat >= 0).any())
            buffed = any(comb.attacker.buffs or comb.target.buffs for comb in fight.combatants)
            found = {
                "melee": melee,
                "magical": magical,
                "may_miss": bool(((bit & stoppers) != 0).any() or any(m & stoppers for m in starting)),
                "multi": multi,
                "physical": physical,
                "knock": knock,
                "self": own,
                "ally": ally,
                "allies": ~fight.roster.foe_matrix,  # (C, C): on the same side (oneself included)
                "bit": bit,
                "stat": stat,
                "effects": effects,
                # Someone may have a status or a buff: one that may be given, or one a combatant starts with.
                "carried": effects or buffed or any(starting),
            }
            return found

        return fight.memo("lo_tables", build)

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

    def options(self, ctx: FightContext, actor: IntArray) -> BoolArray:
        fight = ctx.fight
        who = np.maximum(actor, 0)
        usable = self.usable_of(fight, ctx.state, who)  # (n, A)
        foes = rows_of(fight.roster.foe_matrix, who) & ctx.standing()  # (n, C)
        tables = self._tables(fight)
        melee = rows_of(tables["melee"], who)  # (n, A)
        if not melee.any() and not tables["effects"] and not tables["may_miss"]:
            out: BoolArray = usable[:, :, None] & foes[:, None, :]
            return out
        front = ctx.state.per["row"] == FRONT
        reach = np.where(melee[:, :, None], (foes & front)[:, None, :], foes[:, None, :])
        if tables["effects"]:
            own = rows_of(tables["self"], who)  # (n, A)
            if own.any():  # a Self buff: used on its user, not on a foe
                me = np.arange(fight.roster.size)[None, :] == who[:, None]  # (n, C)
                reach = np.where(own[:, :, None], me[:, None, :], reach)
            ally = rows_of(tables["ally"], who)  # (n, A)
            if ally.any():  # an Ally buff: used on a standing ally, the user included (a Melee one: the front row)
                friends = rows_of(tables["allies"], who) & ctx.standing()  # (n, C)
                near = np.where(melee[:, :, None], (friends & front)[:, None, :], friends[:, None, :])
                reach = np.where(ally[:, :, None], near, reach)
            reach = reach & self._can_do_something(ctx, who)
        out = usable[:, :, None] & reach
        if tables["may_miss"]:
            out = self._not_missing(ctx, who, out)
        return out

    def _not_missing(self, ctx: FightContext, who: IntArray, options: BoolArray) -> BoolArray:
        """A policy does not choose an attack its user's status makes miss (Paralyzed: physical, Silenced:
        magical) while it has another ability it can use; with none, it uses it (and misses) (a choice)."""
        tables = self._tables(ctx.fight)
        mine = take_rows(ctx.state.per["statuses"], who)  # (n,)
        paralyzed = (mine & BIT["paralyzed"]) != 0
        silenced = (mine & BIT["silenced"]) != 0
        blocked = (rows_of(tables["physical"], who) & paralyzed[:, None]) | (
            rows_of(tables["magical"], who) & silenced[:, None]
        )  # (n, A)
        if not blocked.any():
            return options
        other = (options & ~blocked[:, :, None]).any(axis=(1, 2))  # (n,)
        out: BoolArray = options & ~(blocked & other[:, None])[:, :, None]
        return out

    def _can_do_something(self, ctx: FightContext, who: IntArray) -> BoolArray:
        """(n, A, C): where an ability could change something. A policy never uses a status ability on a foe that
        has the status already, a debuff on a foe whose tracker is at -7 for its statistic, nor a Self or Ally
        buff on a character at +7 or Burned (a choice: docs/fights.md)."""
        tables = self._tables(ctx.fight)
        per = ctx.state.per
        bit = rows_of(tables["bit"], who)  # (n, A)
        stat = rows_of(tables["stat"], who)  # (n, A)
        own = rows_of(tables["self"], who) | rows_of(tables["ally"], who)  # (n, A): a buff (Self or Ally)
        has = (per["statuses"][:, None, :] & bit[:, :, None]) != 0  # (n, A, C)
        digit = (per["buffs"][:, None, :] // PLACE[np.maximum(stat, 0)][:, :, None]) % 7  # (n, A, C)
        moved = stat[:, :, None] >= 0
        stuck = moved & np.where(own[:, :, None], digit == TOP, digit == BOTTOM)
        burned = own[:, :, None] & ((per["statuses"] & BIT["burned"]) != 0)[:, None, :]
        allowed: BoolArray = ~has & ~stuck & ~burned
        return allowed

    # -- the turn structure [The Combat Round, Starting Battles] -------------------------------------------
    def step(self, ctx: FightContext, choice: GMChoice | None = None) -> None:
        if "rolled" in ctx.state.fight and (ctx.state.fight["rolled"] == 0).any():
            self._call_initiative(ctx)
        # `effect_phase: false`: "as soon as the front row has nobody standing", which may be true from the start
        # (a side placed all in the back row), before anyone acts.
        self._advance_at_once(ctx)
        super().step(ctx, choice)

    def _call_initiative(self, ctx: FightContext) -> None:
        """Calling initiative [Starting Battles]: "the GM rolls 2d4 and reads out the result"; each combatant's
        place follows from it (`TurnOrder`)."""
        fight = ctx.fight
        turns = self._turns(fight)
        mask = ctx.state.fight["rolled"] == 0
        idx, roll = ctx.draw(mask, np.zeros(ctx.n, dtype=np.int64), [CALL_ROLL])
        mask = mask[idx]
        r = np.flatnonzero(mask)
        places = turns.by_roll[np.clip(roll[r] - 2, 0, 6)]  # (rows, C)
        changes = [ctx.set("turn", r, places[:, c], c) for c in range(fight.roster.size)]
        changes.append(ctx.set("rolled", r, 1))

        def words() -> str:
            got = int(roll[r[0]])
            names = fight.roster.names
            calls = [(names[c], call, turns.score(c, got)) for c, call in enumerate(turns.call) if call is not None]
            order = np.argsort(turns.by_roll[got - 2])
            return narrate.initiative_call(got, calls, [names[int(c)] for c in order])

        ctx.emit("initiative", changes, self.text(ctx, words), roll=int(roll[r[0]]) if ctx.narrating else None)

    def able(self, fight: LoadedFight, state: State) -> BoolArray:
        """Who can take a turn now: standing, with AP left this round ("Once you run out of Action Points during
        your turn, your turn ends")."""
        out: BoolArray = self.standing(fight, state) & (state.per["ap"] > 0)
        return out

    def round_start(self, ctx: FightContext, rows: IntArray) -> None:
        """Each turn starts with the AP of the character's tier (option `action_points`)."""
        ap = ctx.state.per["ap"]
        full = int(ctx.fight.spec.options.action_points)
        spent = ap[rows] != full
        r, c = np.nonzero(spent)
        if r.size:
            ctx.emit("ap", [ctx.set("ap", rows[r], full, c)])

    def round_end(self, ctx: FightContext, rows: IntArray) -> None:
        """The Effect Phase [The Combat Round]: "damage takes precedent ... followed by everything else":
        Poisoned damage, then a side advances on a front row left empty (option `effect_phase`)."""
        if not ctx.fight.spec.options.effect_phase:
            return
        mask = np.zeros(ctx.n, dtype=bool)
        mask[rows] = True
        self._poison(ctx, mask)
        self._rows(ctx, mask)

    def _poison(self, ctx: FightContext, mask: BoolArray) -> None:
        """Poisoned [Statuses; the game's other pages]: "a Poisoned character takes 1/10 of its base maximum HP,
        rounded down, at least 1", at the Effect Phase; HP never below 0, downed at 0."""
        per = ctx.state.per
        poisoned = mask[:, None] & ((per["statuses"] & BIT["poisoned"]) != 0) & self.standing(ctx.fight, ctx.state)
        if not poisoned.any():
            return
        health = self._health(ctx.fight)
        for c in range(ctx.fight.roster.size):
            r = np.flatnonzero(poisoned[:, c])
            if r.size == 0:
                continue
            hp = per["hp"][r, c]
            hurt = int(max(1, int(health[c]) // 10))
            left = np.maximum(0, hp - hurt)
            text = ""
            if ctx.narrating:
                text = narrate.poisoned(ctx.fight.roster.names[c], int(health[c]), hurt, int(hp[0]), int(left[0]))
            ctx.emit("poison", [ctx.set("hp", r, left, c)], text)
            down = r[left == 0]
            if down.size:
                self._downed(ctx, down, np.full(down.size, c, dtype=np.int64))

    def _downed(self, ctx: FightContext, rows: IntArray, t: IntArray) -> None:
        """Downed by poison (`consequences.downed_effects`; emitted and narrated here)."""
        per = ctx.state.per
        statuses, buffs = gather(per["statuses"], rows, t), gather(per["buffs"], rows, t)
        items = consequences.downed_effects(statuses, buffs)
        if items:
            ctx.emit("effects", changes(items, rows, {DEFENDER: t}), self._downed_words(ctx, statuses, buffs, t))

    def _downed_words(self, ctx: FightContext, statuses: IntArray, buffs: IntArray, t: IntArray) -> str:
        """Narrated: the effects a Downed combatant loses and keeps."""
        if not ctx.narrating:
            return ""
        gone = [x.capitalize() for x in status_names(int(statuses[0]) & ~KEPT_WHEN_DOWNED)]
        gone += [f"{LABEL[s]} {v:+d}" for s, v in tracker_of(int(buffs[0])).items()]
        kept_names = [x.capitalize() for x in status_names(int(statuses[0]) & KEPT_WHEN_DOWNED)]
        return narrate.downed(ctx.fight.roster.names[int(t[0])], gone, kept_names)

    def _health(self, fight: LoadedFight) -> IntArray:
        """Each combatant's Health, its base maximum HP: `health`, else its starting HP."""
        return fight.memo(
            "lo_health",
            lambda: np.asarray(
                [int(c.health if c.health is not None else c.target.hp) for c in fight.combatants], dtype=np.int64
            ),
        )

    def _spend(self, ctx: FightContext, acting: BoolArray, actor: IntArray, attack: IntArray) -> None:
        """An ability costs 1 AP ("Basic Attack: 1 AP"; "Most actions cost 1 AP"); a combatant with no ability it can
        use ends its turn, losing the AP left ("End Turn")."""
        rows = np.flatnonzero(acting)
        if rows.size == 0:
            return
        who = actor[rows]
        ap = gather(ctx.state.per["ap"], rows, who)
        used = attack[rows] >= 0
        left = np.where(used, ap - 1, 0)
        fight = ctx.fight
        ctx.emit(
            "ap",
            [ctx.set("ap", rows, left, who)],
            self.text(
                ctx,
                lambda: narrate.action_points(fight.roster.names[int(who[0])], int(ap[0]), int(left[0]), bool(used[0])),
            ),
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
            sides = self._sides(ctx, actor, target)
            idx, out = ctx.resolve(acting, actor, attack, target, sides, note=self._note(ctx, actor, attack))
            self._apply(ctx, acting[idx], actor[idx], attack[idx], target[idx], out)
            self._advance_at_once(ctx)
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
            idx, out = ctx.resolve(mask, actor, attack, tt, self._sides(ctx, actor, tt), shared=shared)
            actor, attack, caught = actor[idx], attack[idx], caught[idx]
            n = ctx.n
            self._apply(ctx, mask[idx], actor, attack, np.full(ctx.n, t, dtype=np.int64), out)
        self._advance_at_once(ctx)

    def _sides(self, ctx: FightContext, actor: IntArray, target: IntArray) -> dict[str, IntArray] | None:
        """A narrated fight with Ally buffs tells the system the target's side (`target.side`: an ally of the user or
        a foe), so that the trace says which side an ability was used on; the outcome does not depend on it."""
        if not ctx.narrating or not self._tables(ctx.fight)["ally"].any():
            return None
        side = ctx.fight.roster.side_array
        same = side[np.maximum(actor, 0)] == side[np.maximum(target, 0)]
        return {"target.side": same.astype(np.int64)}

    def _note(self, ctx: FightContext, actor: IntArray, attack: IntArray) -> str:
        """The kind of a narrated ability that is not an attack ("Ogre attacks Ogre with Roar (a Self buff)")."""
        if not ctx.narrating or not self._tables(ctx.fight)["effects"] or attack[0] < 0:
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
        """Shell pool, HP, downed, Body Armor and statuses of one resolved ability on each row's target."""
        rows = np.flatnonzero(mask & (out["result"] == HIT))
        if rows.size == 0:
            return
        tables = self._tables(ctx.fight)
        a, k, t = actor[rows], attack[rows], target[rows]
        per = ctx.state.per
        effects = bool(tables["effects"])
        before = consequences.Before(
            hp=gather(per["hp"], rows, t),
            shell=gather(per["shell"], rows, t),
            body_armor=gather(per["body_armor"], rows, t),
            dealt=gather(per["dealt"], rows, a),
            knock=gather(tables["knock"], a, k),
            physical=gather(tables["physical"], a, k),
            effects=effects,
        )
        outcome = consequences.Outcome(out["result"].take(rows), out["damage"].take(rows))
        if tables["carried"]:
            before = before._replace(statuses=gather(per["statuses"], rows, t), buffs=gather(per["buffs"], rows, t))
        if effects:
            before = before._replace(
                status_hits=gather(per["status_hits"], rows, t),
                bit=gather(tables["bit"], a, k),
                stat=gather(tables["stat"], a, k),
            )
            outcome = outcome._replace(
                status_applied=out["status_applied"].take(rows), tracker=out["tracker"].take(rows)
            )
        applied = consequences.apply(before, outcome)
        who = {DEFENDER: t, ATTACKER: a}
        for kind, items in events(applied.items):
            ctx.emit(kind, changes(items, rows, who), self._said(ctx, kind, items, before, outcome, applied, t))

    def _said(
        self,
        ctx: FightContext,
        kind: str,
        items: tuple[Item, ...],
        before: consequences.Before,
        outcome: consequences.Outcome,
        applied: consequences.Applied,
        target: IntArray,
    ) -> str:
        """Narrated (one fight: its one ability is row 0): the sentence of an event of `kind`."""
        if not ctx.narrating:
            return ""
        name = ctx.fight.roster.names[int(target[0])]
        if kind == "damage":
            shown = (outcome.damage, before.hp, before.shell, applied.absorbed, applied.lost)
            return narrate.damage(name, *(int(x[0]) for x in shown))
        assert (
            before.statuses is not None and before.buffs is not None
        )  # an event past "damage": someone carries effects
        if kind == "effects":
            return self._downed_words(ctx, before.statuses, before.buffs, target)
        assert before.bit is not None and before.stat is not None
        if kind == "status":
            status = status_names(int(before.bit[0]))[0].capitalize()
            return narrate.status(name, status, bool(items[1].rows.size))
        what = LABEL[TRACKED[int(before.stat[0])]]
        was, now = STEP_OF_DIGIT[int(applied.old_digit[0])], STEP_OF_DIGIT[int(applied.new_digit[0])]
        return narrate.tracker(name, what, was, now)

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
        back = row == BACK
        if not back.any():  # nobody in a back row (the usual fight): nothing can come forward
            return
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
                    self.text(ctx, lambda s=s: narrate.rows(fight.roster.side_names[s], mask is not None)),
                )


RULES = LastOdysseyFight()
