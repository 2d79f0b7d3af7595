"""Reclaim the Wild statuses as fight state: what an additional effect that lands leaves on its target, how long
it lasts, and what it does to the attacks that follow (rtw: Landing the Blow; Status Effects).

An attack's `effect` (`{name, against}`) rolls To-Hit vs Concentration or Vitality once the attack hits; a
missed attack inflicts no effect, a missed Effect still deals damage (the system's `resolve`, which reports
`effect_landed`). When it lands, the fight sets the status it names on the target (one 0/1 stat per status,
kept only for the statuses in play in the fight), as an event. The statuses a fight plays, and what they do:

- Off-Balance [Status Effects: Off-Balance]: no Evasion in place of Concentration or Vitality
  (docs/rtw.md#silent-defence-stat), no Reactions; it ends at the beginning of the creature's next turn.
- Prone [Status Effects: Prone]: no Evasion against, and never Hard to Hit with, Melee, Line and X-targets
  attacks; Hard to Hit with every other attack. A Prone creature cannot attack; it stands up (half its
  Movement) at the start of its next turn, unless it is Halted: then it cannot stand up, and its turn passes.
- Halted [Status Effects: Halted]: Evasion 0.
- Blinded [Status Effects: Blinded]: every foe is Extremely Hard to Hit for the creature's own attacks
  (a Mini-Boss or Boss, `attacker.boss`, is merely Dazzled); it ends at the end of the creature's next turn.
- Dazzled [Status Effects: Dazzled]: every foe is Hard to Hit for its attacks; ends at the end of its
  next turn.
- Distracted [Status Effects: Distracted]: every foe but the source of the Distraction is Hard to Hit for
  its attacks; Distracted by several, none of the distracting foes is; a source that would otherwise be Hard to
  Hit no longer is, Extremely Hard becomes merely Hard. The source is the attacker whose effect landed, so the
  stat is per pair: a bitmask of the combatants distracting this one (bit s: combatant s), each landing adding
  its attacker's bit. It ends at the end of the creature's next turn (a choice: the page gives no end).
- Invisible [Status Effects: Invisibility]: a foe attacking the Invisible creature is treated as Blinded
  while trying to hit it (Extremely Hard to Hit; a Mini-Boss or Boss attacker merely Dazzled: Hard). "Typically,
  Invisibility ends once you are struck or you make an attack (at the attack's end)": it ends when an attack
  hits the creature (after that attack, which faced the Invisible creature) and at the end of the creature's
  own attack (hit or miss).

The target statuses reach the system as overrides of the target block (`target.off_balance`, `target.prone`,
`target.halted`, and `target.reaction` "none" while Off-Balance); the attacker's Blinded, Dazzled or Distracted
and the target's Invisibility as the target's `hard_to_hit` (the engine has no attacker-side plain value): the
hardest of those and the level the target has anyway (its own `hard_to_hit`, or on a map the grid's cover and
Projectile level), never stacking (docs/rtw.md#silent-hard-to-hit), Extremely Hard when two or more give one and
`several_hard_to_hit_sources_are_extreme` is set, as the system's `conditions.hard_to_hit` combines them. The
source of the attacker's Distraction then drops one level, after every other source, Prone included: when a
Prone source faces an attack Prone makes it Hard to Hit with (not Melee, Line or X targets), the fight folds
Prone's Hard into the level before the drop and feeds `target.prone` false for that roll (Prone changes nothing
else against such an attack: its Evasion rule is for Melee, Line and X targets only).

Policy `best` reads the same overrides (`odds_fields`; on a map `rtw_map_turn._status_expected`, with the grid's
level as the base): an attack's expected damage is the exact mean at the target's current statuses and the
Hard-to-Hit level this attacker would face.

Choices where the rules are silent: Halted and Distracted (Status Effects gives no end) end at the end of
the creature's next turn, as Blinded and Dazzled do (a second source's Distraction joins the first and ends with
it); an Invisible creature struck by an area attack is visible to the rolls after the one that hit it; an effect
may make its target Invisible (it then hides from its attackers until struck or until it attacks); Prone ends
when the creature stands up at the start of its next turn (its half Movement to stand up is not counted: it moves
with its whole Movement); an effect that
lands on a creature it leaves at 0 Health is not kept; an effect landing on a creature that already has the
status changes nothing (it does not restart the clock; a new source of a Distraction joins the others).
Statuses given in a combatant's file are its starting state (target block `off_balance`, `prone`, `halted`,
`invisible`; attacker block `blinded`, `dazzled`; the combatant's `distracted_by`, the names of the foes
distracting it) and end as above. The scenario fields `attacker.distracted` and `target.distracting` say
nothing of who distracts whom in a fight: refused, naming `distracted_by`. An effect the fight does not play
(Frozen, Cursed...) is refused at load: one line naming the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.spec import map_raw_combatants
from tohit.core.fight.state import BoolArray, IntArray, gather
from tohit.systems.rtw.tables import HARD_TO_HIT_LEVELS, PRONE_EXPOSED_RANGES

#: The statuses a fight plays, by stat name, with the rulebook's name.
STATUSES: dict[str, str] = {
    "off_balance": "Off-Balance",
    "prone": "Prone",
    "halted": "Halted",
    "blinded": "Blinded",
    "dazzled": "Dazzled",
    "distracted": "Distracted",
    "invisible": "Invisible",
}
#: Other names of a status an effect may give (Status Effects's heading is "Invisibility").
ALIASES = {"invisibility": "invisible", "distraction": "distracted"}
#: Statuses of the target block the system reads (fed as "target.<field>" overrides).
TARGET_FLAGS = ("off_balance", "prone", "halted")
#: Statuses of the attacker's own sight, fed as the target's Hard to Hit.
SIGHT = ("blinded", "dazzled")
#: Statuses folded into the target's Hard to Hit (the attacker's sight and Distraction, the target's Invisibility).
LEVEL_STATS = ("blinded", "dazzled", "distracted", "invisible")
REACTIONS = ("none", "deflect", "parry")
HARD, EXTREME = HARD_TO_HIT_LEVELS.index("hard"), HARD_TO_HIT_LEVELS.index("extreme")
CITE = "Status Effects"
#: Where docs/rtw.md gives tohit's reading of the game's Status Effects page.
STATUS_DOCS = "docs/rtw.md#silent-status-effects"
#: When each status ends (for the narration and the docs): "start" / "end" of the creature's next turn;
#: "struck": when an attack hits it or at the end of its own attack.
ENDS = {
    "off_balance": "start",
    "prone": "start",
    "halted": "end",
    "blinded": "end",
    "dazzled": "end",
    "distracted": "end",
    "invisible": "struck",
}
#: The rulebook's heading of each status, for citations.
HEADINGS = {**STATUSES, "invisible": "Invisibility"}
#: Distracted keeps its sources as bits of an int64: at most this many combatants in a fight that plays it.
MAX_SOURCES = 62


def status_of(name: str) -> str | None:
    """The stat of an effect's name ("Off-Balance", "off balance", "OFF_BALANCE"... -> "off_balance";
    "Invisibility" -> "invisible"), or None."""
    key = re.sub(r"[\s_-]+", "", name.strip().lower())
    if key in ALIASES:
        return ALIASES[key]
    for stat in STATUSES:
        if stat.replace("_", "") == key:
            return stat
    return None


def known_names() -> str:
    names = list(STATUSES.values())
    return ", ".join(names[:-1]) + " and " + names[-1]


def move_sight_statuses(data: dict[str, Any]) -> dict[str, Any]:
    """The raw fight file with each combatant's attacker-block `blinded` / `dazzled` and target-block `invisible`
    moved to the combatant (its starting status, which the fight keeps as state); refused on one attack's attacker
    overrides. The scenario's `attacker.distracted` and `target.distracting` are refused: in a fight a Distraction
    has its sources, the combatant's `distracted_by`."""
    library = data.get("attacks")
    if isinstance(library, dict):
        for name, entry in library.items():
            _refuse_sight(entry, f"attacks.{name}")
    return map_raw_combatants(data, _move_sight)


def _move_sight(comb: dict[str, Any], where: str) -> dict[str, Any]:
    """One combatant of `move_sight_statuses`."""
    attacks = comb.get("attacks")
    for k, entry in enumerate(attacks if isinstance(attacks, list) else []):
        _refuse_sight(entry, f"{where}.attacks[{k}]")
    attacker = comb.get("attacker")
    if isinstance(attacker, dict) and attacker.get("distracted"):
        raise InputError(
            "in a fight a Distraction has its sources: give the combatant's `distracted_by`, the names"
            " of the foes distracting it",
            field=f"{where}.attacker.distracted",
        )
    if isinstance(attacker, dict) and any(f in attacker for f in SIGHT):
        moved = {f: attacker[f] for f in SIGHT if f in attacker}
        rest = {k: v for k, v in attacker.items() if k not in SIGHT}
        comb = {**comb, "attacker": rest, **moved}
    target = comb.get("target")
    if isinstance(target, dict) and target.get("distracting"):
        raise InputError(
            "in a fight a Distraction has its sources: give the distracted combatant's `distracted_by`"
            " (the names of the foes distracting it)",
            field=f"{where}.target.distracting",
        )
    if isinstance(target, dict) and "invisible" in target:
        rest = {k: v for k, v in target.items() if k != "invisible"}
        comb = {**comb, "target": rest, "invisible": target["invisible"]}
    return comb


def _refuse_sight(entry: Any, where: str) -> None:
    attacker = entry.get("attacker") if isinstance(entry, dict) else None
    if isinstance(attacker, dict):
        for f in (*SIGHT, "distracted"):
            if attacker.get(f):
                raise InputError(
                    f"{STATUSES[f]} is a status of the combatant, not of one attack: give it in the combatant's"
                    + (
                        " `distracted_by` (its starting state)"
                        if f == "distracted"
                        else " attacker block (its starting state)"
                    ),
                    field=f"{where}.attacker.{f}",
                )


@dataclass
class StatusPlay:
    """The statuses in play in one fight and the tables the steps read (built once, at load)."""

    #: The status stats kept in this fight, in STATUSES order.
    stats: tuple[str, ...]
    #: (combatants, attacks): the status each attack's effect inflicts (an index into `stats`), -1: none.
    effect: IntArray
    #: (combatants, attacks): Hard-to-Hit code of a Blinded attacker (Extremely; a Boss merely Hard), also what an
    #: Invisible target is to it (the attacker is treated as Blinded).
    blind_level: IntArray
    #: (combatants,): whether the combatant is a Mini-Boss or Boss (any attacker block says so).
    boss: tuple[bool, ...]
    #: (combatants,): the Hard-to-Hit code of its own target block.
    given_level: IntArray
    #: (combatants,): its Reaction, as an index into REACTIONS.
    reaction: IntArray
    several: bool
    #: (combatants, attacks): the attack's range is Melee, Line or X targets (a Prone target is never Hard to Hit).
    exposed: BoolArray
    #: The combatants' names (narration) and their starting Distraction masks.
    names: tuple[str, ...]
    distracted_by: tuple[int, ...]

    @property
    def any_target_flag(self) -> bool:
        return any(s in self.stats for s in TARGET_FLAGS)

    @property
    def any_sight(self) -> bool:
        return any(s in self.stats for s in SIGHT)

    @property
    def any_level(self) -> bool:
        return any(s in self.stats for s in LEVEL_STATS)

    @property
    def has_effects(self) -> bool:
        return bool((self.effect >= 0).any())

    def initial(self, fight: LoadedFight, c: int) -> dict[str, int]:
        comb = fight.combatants[c]
        start = {
            "off_balance": int(comb.target.off_balance),
            "prone": int(comb.target.prone),
            "halted": int(comb.target.halted),
            "blinded": int(comb.blinded),
            "dazzled": int(comb.dazzled),
            "distracted": self.distracted_by[c],
            "invisible": int(comb.invisible),
        }
        return {s: start[s] for s in self.stats}

    def fields(
        self,
        state: Any,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        base: IntArray | None = None,
        rows: IntArray | None = None,
    ) -> dict[str, IntArray]:
        """The "target.<field>" overrides of each row's resolve: the target's statuses, and the attacker's sight
        and Distraction and the target's Invisibility folded into the target's Hard to Hit on top of `base` (the
        map's code; default the target's own), as the system's `conditions.hard_to_hit` combines its sources
        (docs/rtw.md#silent-hard-to-hit): the hardest, Extremely Hard from two with
        `several_hard_to_hit_sources_are_extreme`, then the source of a Distraction one level less. `rows`: the
        state's row of each entry (default: row i for entry i; policy `best` asks for a few rows at a time)."""
        n = actor.size
        rows = np.arange(n) if rows is None else rows
        t = np.maximum(target, 0)
        c = np.maximum(actor, 0)
        out: dict[str, IntArray] = {}
        for s in TARGET_FLAGS:
            if s in self.stats:
                out[f"target.{s}"] = gather(state.per[s], rows, t)
        if "off_balance" in self.stats and (self.reaction > 0).any():
            out["target.reaction"] = np.where(out["target.off_balance"] == 1, 0, self.reaction[t])
        if not self.any_level:
            if base is not None:
                out["target.hard_to_hit"] = base
            return out
        given = self.given_level[t] if base is None else base
        level = np.asarray(given, dtype=np.int64)
        count = (level > 0).astype(np.int64)
        a = np.maximum(attack, 0)

        def add(source: IntArray) -> None:
            nonlocal level, count
            level = np.maximum(level, source)
            count = count + (source > 0)

        if "dazzled" in self.stats:
            add(np.where(gather(state.per["dazzled"], rows, c) == 1, HARD, 0))
        if "blinded" in self.stats:
            add(np.where(gather(state.per["blinded"], rows, c) == 1, self.blind_level[c, a], 0))
        if "invisible" in self.stats:  # the attacker is treated as Blinded while trying to hit it
            add(np.where(gather(state.per["invisible"], rows, t) == 1, self.blind_level[c, a], 0))
        source = None
        if "distracted" in self.stats:
            mask = gather(state.per["distracted"], rows, c)
            source = ((mask >> t) & 1) == 1
            add(np.where((mask != 0) & ~source, HARD, 0))  # every foe but the sources
        if self.several:
            level = np.where((count >= 2) & (level == HARD), EXTREME, level)
        if source is not None and source.any():
            if "prone" in self.stats:
                # Prone makes the source Hard to Hit with this attack: that counts before the drop, so it is folded
                # in here, and the system is told the target is not Prone (nothing else of Prone applies to it).
                folds = source & (out["target.prone"] == 1) & ~self.exposed[c, a]
                if folds.any():
                    with_prone = np.maximum(level, HARD)
                    if self.several:
                        with_prone = np.where(level > 0, EXTREME, with_prone)
                    level = np.where(folds, with_prone, level)
                    out["target.prone"] = np.where(folds, 0, out["target.prone"])
            level = np.where(source, np.maximum(level - 1, 0), level)
        out["target.hard_to_hit"] = level
        return out

    def why(self, state: Any, c: int, t: int) -> str:
        """Words for the narration: the statuses that change this attack ("" when none)."""
        words = []
        for s in TARGET_FLAGS:
            if s in self.stats and state.per[s][0, t]:
                words.append(f"target {STATUSES[s]}")
        boss = " (a Boss: merely Dazzled)" if self.boss[c] else ""
        blind = "Hard" if self.boss[c] else "Extremely Hard"
        if "invisible" in self.stats and state.per["invisible"][0, t]:
            words.append(f"target Invisible: the attacker is treated as Blinded{boss}, {blind} to Hit")
        if "blinded" in self.stats and state.per["blinded"][0, c]:
            words.append(f"attacker Blinded{boss}: every foe {blind} to Hit")
        elif "dazzled" in self.stats and state.per["dazzled"][0, c]:
            words.append("attacker Dazzled: every foe Hard to Hit")
        mask = int(state.per["distracted"][0, c]) if "distracted" in self.stats else 0
        if mask:
            by = " and ".join(self.names[s] for s in range(len(self.names)) if mask >> s & 1)
            if mask >> t & 1:
                words.append(f"attacker Distracted by {by}: a source of the Distraction is one level less Hard to Hit")
            else:
                words.append(f"attacker Distracted by {by}: every other foe Hard to Hit")
        if not words:
            return ""
        return "; ".join(words) + f"  [{CITE}; {STATUS_DOCS}]"


def status_play(fight: LoadedFight) -> StatusPlay | None:
    """The statuses in play in `fight` (None when none: the fight keeps no status stats), refusing an effect
    the fight does not play (built once per fight)."""
    return fight.memo("rtw_status", lambda: _status_play(fight))


def _status_play(fight: LoadedFight) -> StatusPlay | None:
    size = fight.roster.size
    names = fight.roster.names
    wanted: set[str] = set()
    distracted_by: list[int] = []
    where_distracted = ""
    for c, comb in enumerate(fight.combatants):
        for a, entry in enumerate(comb.attacks):
            effect = entry.attack.effect
            if effect is None:
                continue
            stat = status_of(effect.name)
            if stat is None:
                raise InputError(
                    f"the fight cannot play the effect {short_repr(effect.name)}: it plays {known_names()}"
                    " (narrate other effects with a scenario, `tohit roll`)",
                    field=f"{fight.paths[c]}.attacks[{a}].attack.effect.name",
                )
            wanted.add(stat)
            if stat == "distracted":
                where_distracted = where_distracted or f"{fight.paths[c]}.attacks[{a}].attack.effect.name"
        target = comb.target
        for s in TARGET_FLAGS:
            if getattr(target, s):
                wanted.add(s)
        for s in (*SIGHT, "invisible"):
            if getattr(comb, s):
                wanted.add(s)
        mask = 0
        for k, name in enumerate(comb.distracted_by):
            field = f"{fight.paths[c]}.distracted_by[{k}]"
            if name not in names or not fight.roster.foe_matrix[c, names.index(name)]:
                foes = ", ".join(n for u, n in enumerate(names) if fight.roster.foe_matrix[c, u])
                raise InputError(
                    f"{short_repr(name)} is not a foe of {comb.name} in this fight; its foes: {foes}", field=field
                )
            mask |= 1 << names.index(name)
            wanted.add("distracted")
            where_distracted = where_distracted or field
        distracted_by.append(mask)
    if "distracted" in wanted and size > MAX_SOURCES:
        raise InputError(
            f"the fight keeps the sources of a Distraction for at most {MAX_SOURCES} combatants, not {size}",
            field=where_distracted,
        )
    if not wanted:
        return None
    stats = tuple(s for s in STATUSES if s in wanted)
    effect = np.full((size, fight.max_attacks), -1, dtype=np.int64)
    blind = np.zeros((size, fight.max_attacks), dtype=np.int64)
    exposed = np.zeros((size, fight.max_attacks), dtype=bool)
    boss = []
    for c, comb in enumerate(fight.combatants):
        boss.append(any(e.attacker.boss for e in comb.attacks))
        for a, entry in enumerate(comb.attacks):
            if entry.attack.effect is not None:
                effect[c, a] = stats.index(str(status_of(entry.attack.effect.name)))
            blind[c, a] = HARD if entry.attacker.boss else EXTREME
            exposed[c, a] = entry.attack.range in PRONE_EXPOSED_RANGES
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
        exposed=exposed,
        names=tuple(names),
        distracted_by=tuple(distracted_by),
    )
    return play
