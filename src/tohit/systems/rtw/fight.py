"""Reclaim the Wild fights: Health, Peril, Falling in Battle, Weapon Durability, area attacks (rtw page).

Rules applied between attacks (the attack itself is the system's `resolve`, which reports what a fight
applies: `falls`, `peril`, `durability_used`, `burning_wear`, `cost_spent`):
- Health: a hit costs its damage; Health never goes below 0. The target block's `health`, else its Max
  Health (4 x Hearts unless `max_health`), is where a combatant starts.
- Peril [rtw: Peril, docs/rtw.md#silent-peril]: Health <= Hearts (shown as the `peril` stat, when Hearts are given).
- Falling in Battle: at 0 Health a creature perishes or falls Helpless, as the attack's `at_zero_health`
  says; Heroes (`hero: true`) and mindless sources always leave it Helpless. A Helpless or perished
  combatant takes no actions: a side with nobody else is beaten. Policies leave Helpless foes alone ("foes
  will then turn to fight the remaining Heroes").
- Area attacks (`attack.area`) catch the chosen foe and the next foes in file order, up to the attack's
  `area_size` (default: its range's count in Abstract Combat when the range is given with its size, else every
  foe), each with its own roll To-Hit (rtw: one roll per target); they skip Helpless creatures, which an area
  does not harm (Falling in Battle). In a live encounter the game master may name up to that many foes.
- Weapon Durability [rtw: Weapon Durability]: at the end of the encounter each weapon used successfully in
  it loses 1 Durability (a weapon with no `durability` given never wears). A Burning weapon also loses 1
  for each foe it hits (Status Effects), during the fight; a weapon at 0 Durability has shattered and
  cannot be used. Attacks with the same weapon share it.
- Magic and Stamina: an attack's `cost` is spent hit or miss, from the combatant's `magic` / `stamina`
  pools when given (an attack it cannot pay for is not usable); without a pool, costs are not counted.
- Statuses [rtw: Landing the Blow; Status Effects]: an attack's additional `effect` that lands (the
  system's `effect_landed`: rolled only when the attack hits; a missed Effect still deals damage) puts its
  status on the target, as an event: Off-Balance, Prone, Halted, Blinded, Dazzled or Invisible, each kept as a
  0/1 stat, or Distracted, kept as the bitmask of its sources (the attackers whose effect landed), and played on
  the attacks that follow until it ends (Off-Balance at the start of the creature's next turn; Prone when it
  stands up at the start of its next turn, unless Halted; Halted, Blinded, Dazzled and Distracted at the end of
  its next turn; Invisible when an attack hits it or at the end of its own attack). Statuses given in a
  combatant's file are its starting state; another effect name is refused at load. Policy `best` reads them
  (`odds_fields`). See `rtw_status`, which also lists the choices made where the rules are silent.

On a map (`map`, and each combatant's `position` and `size`; attacks give `attack.range` as a mapping, as in
a scenario file) each attack reaches what the grid says from where its user stands: see `rtw_map` (the
options) and `rtw_map_turn` (the attack). A combatant with no foe in reach first moves toward the foe its policy
picks, with its `movement` (default 6; Movement, in the game's other pages): see `rtw_fight_move`. One that
still has no foe in reach holds its ground and skips its attack.

Turn order: the page gives none: the order in the file, sides alternating, one attack per turn.

Where the pieces are: the fight file's fields in fight_file.py, what a fight reads once from it (weapons,
pools, Falling in Battle, areas) in fight_tables.py, a turn and what its outcomes apply in fight_turn.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.bindings import StatBinding
from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.spec import map_raw_combatants
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.core.grid.models import AbstractSpec, MapSpec
from tohit.systems.rtw import narrate, players
from tohit.systems.rtw.consequences import (
    durability_after_encounter,
)
from tohit.systems.rtw.fight_file import RtwAttack, RtwCombatant, grid_entry
from tohit.systems.rtw.fight_move import file_positions, grid_at
from tohit.systems.rtw.fight_status import (
    REACTIONS,
    TARGET_FLAGS,
    move_sight_statuses,
    status_play,
)
from tohit.systems.rtw.fight_tables import NO_POOL, UNBREAKABLE
from tohit.systems.rtw.fight_turn import RtwTurns
from tohit.systems.rtw.stat_readings import READINGS
from tohit.systems.rtw.tables import HARD_TO_HIT_LEVELS
from tohit.systems.rtw.tactical import grid_ranges_in_schema


class RtwFight(RtwTurns):
    system_id = "rtw"
    gm_phrases = narrate.PHRASES
    players_phrases = players.PHRASES
    players_same = players.SAME
    unseen_attack = players.UNSEEN_ATTACK
    health = "health"
    health_label = "Health"
    readings = READINGS
    item_word = "weapon"  # Weapon Durability: `durability0` is a combatant's first weapon's
    condition_stats = ("helpless", "perished")
    combatant_extra = RtwCombatant
    attack_extra = RtwAttack
    #: Peril and Falling in Battle follow from the Health the fight applies (the system's `in_peril` and
    #: `fall_outcome`), so an attack's table does not depend on the target's Health.
    outcome_fields = ("result", "damage", "durability_used", "burning_wear", "effect_landed")
    bindings = (StatBinding("health", outcome=False),)
    always_usable = False
    bookkeeping = ("dealt", "used")
    standing_stats = ("health", "helpless", "perished")
    #: The page gives no initiative (docs/rtw.md#silent-turn-order): a live encounter keeps the file's order as its
    #: own, so the GM may delay a turn (core/fight/order.py).
    keeps_order = True
    turn_order: ClassVar[str] = (
        "File order, sides alternating (the page gives no initiative rule; docs/rtw.md#silent-turn-order); each"
        " round every combatant that is neither Helpless nor perished makes one attack."
    )

    # -- setup -------------------------------------------------------------------------------------------------
    def fight_fields(self) -> dict[str, Any]:
        return {
            "map": (
                MapSpec | None,
                Field(default=None, description="The battlefield: rows of '.' and '#', or width, height and solid."),
            ),
            "abstract": (
                AbstractSpec | None,
                Field(
                    default=None,
                    description="Abstract Combat (no map): {close_together: all the foes stand within arm's reach"
                    " of one another (an area attack may hit 1 additional foe), isolated: foes (names) that cannot be"
                    " included in an attack with other foes}.",
                ),
            ),
        }

    def input_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """`attack.range` may be a grid range mapping, as in a scenario file (`prepare`)."""
        return grid_ranges_in_schema(schema)

    def prepare(self, data: dict[str, Any]) -> dict[str, Any]:
        """Attacks whose `attack.range` is a mapping (a grid range, as in a scenario file): the mapping goes to
        the entry's `grid_range`, the rules get its range name; on a map a plain `melee` (the default) is
        `{type: melee}` and any other plain range needs its mapping."""
        if not isinstance(data, dict):
            return data
        data = move_sight_statuses(data)
        on_map = data.get("map") is not None
        if on_map and data.get("abstract") not in (None, False):  # [Abstract Combat Ranges]: no map
            raise InputError("Abstract Combat has no map: give a map or abstract, not both", field="abstract")
        out = dict(data)
        library = data.get("attacks")
        if isinstance(library, dict):
            out["attacks"] = {k: grid_entry(v, f"attacks.{k}", on_map) for k, v in library.items()}

        def grid_entries(comb: dict[str, Any], where: str) -> dict[str, Any]:
            attacks = comb.get("attacks")
            if not isinstance(attacks, list):
                return comb
            return {**comb, "attacks": [grid_entry(e, f"{where}.attacks[{k}]", on_map) for k, e in enumerate(attacks)]}

        out = map_raw_combatants(out, grid_entries)
        return out

    def check(self, fight: LoadedFight) -> None:
        for c, comb in enumerate(fight.combatants):
            if comb.target.health is None and comb.target.health_max is None:
                raise InputError(
                    "a combatant in a fight needs its Health (or Hearts, for 4 x Hearts)",
                    field=f"{fight.paths[c]}.target.health",
                )
            if fight.spec.map is None and comb.position is not None:
                raise InputError(
                    "a position is a square of the map: give the fight's map as well",
                    field=f"{fight.paths[c]}.position",
                )
            if fight.spec.map is None and comb.swarm:
                raise InputError(
                    "a Swarm is affected once per square it fills on the map: give the fight's map as well",
                    field=f"{fight.paths[c]}.swarm",
                )
        self._check_abstract(fight)
        if fight.spec.map is not None:
            fight.memo("rtw_map", lambda: grid_at(fight, file_positions(fight)))
        status_play(fight)  # refuses an effect the fight does not play

    def _check_abstract(self, fight: LoadedFight) -> None:
        """Each foe Abstract Combat names isolated is a combatant of the fight [Abstract Combat Ranges]."""
        spec: AbstractSpec | None = fight.spec.abstract
        if spec is None:
            return
        for i, name in enumerate(spec.isolated):
            if name not in fight.roster.names:
                raise InputError(
                    f"{short_repr(name)} is not a combatant; combatants: {', '.join(fight.roster.names)}",
                    field=f"abstract.isolated[{i}]",
                )

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        comb = fight.combatants[combatant]
        target = comb.target
        health = target.health if target.health is not None else target.health_max
        out = {
            "health": int(health),
            "helpless": int(target.helpless),
            "perished": 0,
            "peril": int(target.hearts is not None and health <= target.hearts),
            "magic": NO_POOL if comb.magic is None else comb.magic,
            "stamina": NO_POOL if comb.stamina is None else comb.stamina,
            "dealt": 0,
        }
        _, weapons = self._weapons(fight)
        width = max(len(w) for w in weapons) if weapons else 0
        for w in range(width):
            mine = weapons[combatant]
            d = mine[w].durability if w < len(mine) else None
            out[f"durability{w}"] = UNBREAKABLE if d is None else int(d)
            out[f"used{w}"] = 0
        play = status_play(fight)
        if play is not None:
            out.update(play.initial(fight, combatant))
        if fight.spec.map is not None:  # where it stands: moves change it (rtw_fight_move)
            out["x"], out["y"] = file_positions(fight)[combatant]
        return out

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        """Above 0 Health, neither Helpless nor perished (Falling in Battle)."""
        return (state.per["health"] > 0) & (state.per["helpless"] == 0) & (state.per["perished"] == 0)

    def override_value(self, field: str, code: int) -> Any:
        """Target-block overrides: the Hard-to-Hit level (map, Blinded, Dazzled), the Reaction ("none" while
        Off-Balance), the status flags."""
        if field == "hard_to_hit":
            return HARD_TO_HIT_LEVELS[code]
        if field == "reaction":
            return REACTIONS[code]
        if field in TARGET_FLAGS:
            return bool(code)
        return code

    def odds_fields(
        self, ctx: FightContext, rows: IntArray, actor: int, attack: int, target: int
    ) -> dict[str, IntArray]:
        """Policy `best` reads the statuses as a resolve does: the target's Off-Balance, Prone and Halted, and the
        Hard to Hit the attacker's Blinded, Dazzled or Distracted and the target's Invisibility make (without a map;
        on a map `_best_scores` reads them)."""
        play = status_play(ctx.fight)
        if play is None:
            return {}
        n = rows.size
        full = np.full
        return play.fields(
            ctx.state, full(n, actor, np.int64), full(n, attack, np.int64), full(n, target, np.int64), rows=rows
        )

    def finish(self, ctx: FightContext, rows: Any) -> None:
        """The end of the encounter: each weapon used successfully loses 1 Durability; at 0 it shatters."""
        if not self._flags(ctx.fight).wears:  # no weapon has a Durability to lose (none is ever marked used)
            return
        slot, weapons = self._weapons(ctx.fight)
        rows = np.asarray(rows, dtype=np.int64)
        for w in range(slot.max(initial=-1) + 1):
            used = ctx.state.per[f"used{w}"][rows] == 1
            dur = ctx.state.per[f"durability{w}"][rows]
            held = np.asarray([w < len(mine) for mine in weapons], dtype=bool)  # a slot past its weapons: none
            wears = used & (dur > 0) & held[None, :]
            r, c = np.nonzero(wears)
            if r.size == 0:
                continue
            left, _ = durability_after_encounter(dur[r, c], True)
            ctx.emit(
                "durability",
                [ctx.set(f"durability{w}", rows[r], left, c), ctx.set(f"used{w}", rows[r], 0, c)],
                combatant=lambda c=c: ctx.fight.roster.names[int(c[0])],
                weapon=lambda c=c, w=w: weapons[int(c[0])][w].name or "weapon",
                durability=lambda left=left: int(left[0]),
            )


RULES = RtwFight()
