"""Reclaim the Wild statuses as fight state: what an additional effect that lands leaves on its target, how long
it lasts, and what it does to the attacks that follow (rtw: Landing the Blow; status_effects.md).

An attack's `effect` (`{name, against}`) rolls To-Hit vs Concentration or Vitality once the attack hits; a
missed attack inflicts no effect, a missed Effect still deals damage (the system's `resolve`, which reports
`effect_landed`). When it lands, the fight sets the status it names on the target (one 0/1 stat per status,
kept only for the statuses in play in the fight), as an event. The statuses a fight plays, and what they do:

- Off-Balance [status_effects.md: Off-Balance]: no Evasion in place of Concentration or Vitality (decisions 1),
  no Reactions; it ends at the beginning of the creature's next turn.
- Prone [status_effects.md: Prone]: no Evasion against, and never Hard to Hit with, Melee, Line and X-targets
  attacks; Hard to Hit with every other attack. A Prone creature cannot attack; it stands up (half its
  Movement) at the start of its next turn, unless it is Halted: then it cannot stand up, and its turn passes.
- Halted [status_effects.md: Halted]: Evasion 0.
- Blinded [status_effects.md: Blinded]: every foe is Extremely Hard to Hit for the creature's own attacks
  (a Mini-Boss or Boss, `attacker.boss`, is merely Dazzled); it ends at the end of the creature's next turn.
- Dazzled [status_effects.md: Dazzled]: every foe is Hard to Hit for its attacks; ends at the end of its
  next turn.

The target statuses reach the system as overrides of the target block (`target.off_balance`, `target.prone`,
`target.halted`, and `target.reaction` "none" while Off-Balance); the attacker's Blinded or Dazzled as the
target's `hard_to_hit` (the engine has no attacker-side plain value): the harder of that and the level the
target has anyway (its own `hard_to_hit`, or on a map the grid's cover and Projectile level), never stacking
(decisions 5), Extremely Hard when both give one and `several_hard_to_hit_sources_are_extreme` is set.

Choices where the rules are silent: Halted (status_effects.md gives no end) ends at the end of the creature's
next turn, as Blinded and Dazzled do; Prone ends when the creature stands up at the start of its next turn
(the fights have no movement to spend); an effect that lands on a creature it leaves at 0 Health is not kept;
an effect landing on a creature that already has the status changes nothing (it does not restart the clock).
Statuses given in a combatant's file are its starting state (target block `off_balance`, `prone`, `halted`;
attacker block `blinded`, `dazzled`) and end as above. An effect the fight does not play (Frozen, Cursed...)
is refused at load: one line naming the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from tohit.core.errors import InputError
from tohit.engine.fight.model import LoadedFight
from tohit.engine.fight.state import IntArray, gather
from tohit.systems.rtw.tables import HARD_TO_HIT_LEVELS

#: The statuses a fight plays, by stat name, with the rulebook's name.
STATUSES: dict[str, str] = {
    "off_balance": "Off-Balance",
    "prone": "Prone",
    "halted": "Halted",
    "blinded": "Blinded",
    "dazzled": "Dazzled",
}
#: Statuses of the target block the system reads (fed as "target.<field>" overrides).
TARGET_FLAGS = ("off_balance", "prone", "halted")
#: Statuses of the attacker's own sight, fed as the target's Hard to Hit.
SIGHT = ("blinded", "dazzled")
REACTIONS = ("none", "deflect", "parry")
HARD, EXTREME = HARD_TO_HIT_LEVELS.index("hard"), HARD_TO_HIT_LEVELS.index("extreme")
CITE = "status_effects.md"
#: When each status ends (for the narration and the docs).
ENDS = {
    "off_balance": "start",
    "prone": "start",
    "halted": "end",
    "blinded": "end",
    "dazzled": "end",
}


def status_of(name: str) -> str | None:
    """The stat of an effect's name ("Off-Balance", "off balance", "OFF_BALANCE"... -> "off_balance"), or None."""
    key = re.sub(r"[\s_-]+", "", name.strip().lower())
    for stat in STATUSES:
        if stat.replace("_", "") == key:
            return stat
    return None


def known_names() -> str:
    names = list(STATUSES.values())
    return ", ".join(names[:-1]) + " and " + names[-1]


def move_sight_statuses(data: dict[str, Any]) -> dict[str, Any]:
    """The raw fight file with each combatant's attacker-block `blinded` / `dazzled` moved to the combatant (its
    starting status, which the fight keeps as state); refused on one attack's attacker overrides."""
    library = data.get("attacks")
    if isinstance(library, dict):
        for name, entry in library.items():
            _refuse_sight(entry, f"attacks.{name}")
    sides = data.get("sides")
    if not isinstance(sides, list):
        return data
    new_sides: list[Any] = []
    for i, side in enumerate(sides):
        combatants = side.get("combatants") if isinstance(side, dict) else None
        if not isinstance(combatants, list):
            new_sides.append(side)
            continue
        new_combs: list[Any] = []
        for j, comb in enumerate(combatants):
            if isinstance(comb, dict):
                for k, entry in enumerate(comb.get("attacks") or []):
                    _refuse_sight(entry, f"sides[{i}].combatants[{j}].attacks[{k}]")
                attacker = comb.get("attacker")
                if isinstance(attacker, dict) and any(f in attacker for f in SIGHT):
                    moved = {f: attacker[f] for f in SIGHT if f in attacker}
                    rest = {k: v for k, v in attacker.items() if k not in SIGHT}
                    comb = {**comb, "attacker": rest, **moved}
            new_combs.append(comb)
        new_sides.append({**side, "combatants": new_combs})
    return {**data, "sides": new_sides}


def _refuse_sight(entry: Any, where: str) -> None:
    attacker = entry.get("attacker") if isinstance(entry, dict) else None
    if isinstance(attacker, dict):
        for f in SIGHT:
            if attacker.get(f):
                raise InputError(
                    f"{STATUSES[f]} is a status of the combatant, not of one attack: give it in the combatant's"
                    " attacker block (its starting state)",
                    field=f"{where}.attacker.{f}",
                )


@dataclass
class StatusPlay:
    """The statuses in play in one fight and the tables the steps read (built once, at load)."""

    #: The status stats kept in this fight, in STATUSES order.
    stats: tuple[str, ...]
    #: (combatants, attacks): the status each attack's effect inflicts (an index into `stats`), -1: none.
    effect: IntArray
    #: (combatants, attacks): Hard-to-Hit code of a Blinded attacker (Extremely; a Boss merely Hard).
    blind_level: IntArray
    #: (combatants,): whether the combatant is a Mini-Boss or Boss (any attacker block says so).
    boss: tuple[bool, ...]
    #: (combatants,): the Hard-to-Hit code of its own target block.
    given_level: IntArray
    #: (combatants,): its Reaction, as an index into REACTIONS.
    reaction: IntArray
    several: bool

    @property
    def any_target_flag(self) -> bool:
        return any(s in self.stats for s in TARGET_FLAGS)

    @property
    def any_sight(self) -> bool:
        return any(s in self.stats for s in SIGHT)

    @property
    def has_effects(self) -> bool:
        return bool((self.effect >= 0).any())

    def initial(self, fight: LoadedFight, c: int) -> dict[str, int]:
        comb = fight.combatants[c]
        start = {
            "off_balance": comb.target.off_balance,
            "prone": comb.target.prone,
            "halted": comb.target.halted,
            "blinded": comb.blinded,
            "dazzled": comb.dazzled,
        }
        return {s: int(start[s]) for s in self.stats}

    def fields(
        self, state: Any, actor: IntArray, attack: IntArray, target: IntArray, base: IntArray | None = None
    ) -> dict[str, IntArray]:
        """The "target.<field>" overrides of each row's resolve: the target's statuses, and the attacker's sight
        folded into the target's Hard to Hit on top of `base` (the map's code; default the target's own)."""
        n = actor.size
        rows = np.arange(n)
        t = np.maximum(target, 0)
        c = np.maximum(actor, 0)
        out: dict[str, IntArray] = {}
        for s in TARGET_FLAGS:
            if s in self.stats:
                out[f"target.{s}"] = gather(state.per[s], rows, t)
        if "off_balance" in self.stats and (self.reaction > 0).any():
            out["target.reaction"] = np.where(out["target.off_balance"] == 1, 0, self.reaction[t])
        if self.any_sight:
            sight = np.zeros(n, dtype=np.int64)
            if "dazzled" in self.stats:
                sight = np.where(gather(state.per["dazzled"], rows, c) == 1, HARD, sight)
            if "blinded" in self.stats:
                blind = gather(state.per["blinded"], rows, c) == 1
                sight = np.maximum(sight, np.where(blind, self.blind_level[c, np.maximum(attack, 0)], 0))
            given = self.given_level[t] if base is None else base
            level = np.maximum(given, sight)
            if self.several:
                level = np.where((given > 0) & (sight > 0), EXTREME, level)
            out["target.hard_to_hit"] = level
        elif base is not None:
            out["target.hard_to_hit"] = base
        return out

    def why(self, state: Any, c: int, t: int) -> str:
        """Words for the narration: the statuses that change this attack ("" when none)."""
        words = []
        for s in TARGET_FLAGS:
            if s in self.stats and state.per[s][0, t]:
                words.append(f"target {STATUSES[s]}")
        if "blinded" in self.stats and state.per["blinded"][0, c]:
            boss = " (a Boss: merely Dazzled)" if self.boss[c] else ""
            level = "Hard" if self.boss[c] else "Extremely Hard"
            words.append(f"attacker Blinded{boss}: every foe {level} to Hit")
        elif "dazzled" in self.stats and state.per["dazzled"][0, c]:
            words.append("attacker Dazzled: every foe Hard to Hit")
        if not words:
            return ""
        return "; ".join(words) + f"  [{CITE}]"


def status_play(fight: LoadedFight) -> StatusPlay | None:
    """The statuses in play in `fight` (None when none: the fight keeps no status stats), refusing an effect
    the fight does not play."""
    key = ("rtw_status",)
    if key in fight.cache:
        found: StatusPlay | None = fight.cache[key]
        return found
    size = fight.roster.size
    wanted: set[str] = set()
    for c, comb in enumerate(fight.combatants):
        for a, entry in enumerate(comb.attacks):
            effect = entry.attack.effect
            if effect is None:
                continue
            stat = status_of(effect.name)
            if stat is None:
                raise InputError(
                    f"the fight cannot play the effect {effect.name!r}: it plays {known_names()}"
                    " (narrate other effects with a scenario, `tohit roll`)",
                    field=f"{fight.paths[c]}.attacks[{a}].attack.effect.name",
                )
            wanted.add(stat)
        target = comb.target
        for s in TARGET_FLAGS:
            if getattr(target, s):
                wanted.add(s)
        for s in SIGHT:
            if getattr(comb, s):
                wanted.add(s)
    if not wanted:
        fight.cache[key] = None
        return None
    stats = tuple(s for s in STATUSES if s in wanted)
    effect = np.full((size, fight.max_attacks), -1, dtype=np.int64)
    blind = np.zeros((size, fight.max_attacks), dtype=np.int64)
    boss = []
    for c, comb in enumerate(fight.combatants):
        boss.append(any(e.attacker.boss for e in comb.attacks))
        for a, entry in enumerate(comb.attacks):
            if entry.attack.effect is not None:
                effect[c, a] = stats.index(str(status_of(entry.attack.effect.name)))
            blind[c, a] = HARD if entry.attacker.boss else EXTREME
    play = StatusPlay(
        stats=stats,
        effect=effect,
        blind_level=blind,
        boss=tuple(boss),
        given_level=np.asarray(
            [HARD_TO_HIT_LEVELS.index(c.target.hard_to_hit) for c in fight.combatants], dtype=np.int64
        ),
        reaction=np.asarray([REACTIONS.index(c.target.reaction) for c in fight.combatants], dtype=np.int64),
        several=bool(fight.spec.options.several_hard_to_hit_sources_are_extreme),
    )
    fight.cache[key] = play
    return play
