"""Narration (docs/architecture.md, "One fight driver"): one fight, dice drawn face by face as at the table (or
forced by a script), each resolve traced and every event logged with the values it changed (from -> to)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tohit.core.fight.contract import ALL, LoadedFight, Mode
from tohit.core.fight.rolls import FightRoll, Rolled
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.core.fight.words import Words, said
from tohit.core.outcome import Outcome
from tohit.core.steps import Trace
from tohit.core.system import Dice
from tohit.engine.fight import situation as situations
from tohit.engine.fight.modes.drawn import Drawn
from tohit.engine.fight.situation import Situation


class Narration(Drawn):
    """One narrated fight: stats fed as plain values, as in a scenario file."""

    mode: Mode = "narrate"

    def __init__(
        self,
        fight: LoadedFight,
        state: State,
        rng: np.random.Generator | None = None,
        *,
        max_rounds: int | None = None,
        script: list[dict[str, list[int]]] | None = None,
        standing: BoolArray | None = None,
        by_target: dict[str, dict[str, list[int]]] | None = None,
    ) -> None:
        super().__init__(fight, state, rng, max_rounds=max_rounds, standing=standing)
        #: Forced faces for the next resolves, in order (role -> faces; roles left out are drawn). The list is
        #: consumed, so one script serves a whole fight.
        self.script = script if script is not None else []
        #: Or forced faces by target: each target's set read by the first attack on it (a counterattack draws),
        #: consumed as it is read, so what is left names a target no attack reached.
        self.by_target = by_target
        #: The faces the last attack resolved showed, by role (a declared roll may read some: `FightRoll`).
        self.shown: dict[str, list[int]] = {}

    def roll(self, rows: IntArray, roll: FightRoll, args: Mapping[str, Any]) -> Rolled:
        """The roll face by face, die role by die role in order: a role the attack just resolved showed is read from
        it, a role the script's next set types is taken from it (and the set used up), any other is rolled."""
        per_row = []
        for _ in rows.tolist():
            faces: list[int] = []
            for role, sides in roll.dice:
                faces += self._faces(role, sides, role in roll.from_attack)
            per_row.append(faces)
        split = roll.split(np.asarray(per_row, dtype=np.int64).reshape(rows.size, len(roll.sides)))
        value = np.zeros(self.n, dtype=np.int64)
        value[rows] = roll.value(args, split)
        return Rolled(ALL, value, split)

    def _faces(self, role: str, sides: tuple[int, ...], from_attack: bool) -> list[int]:
        """One role's faces for a declared roll (see `roll`)."""
        if from_attack and role in self.shown:
            return list(self.shown[role])
        if not from_attack and self.script and role in self.script[0]:
            return [int(f) for f in self.script.pop(0)[role]]
        if len(set(sides)) == 1:
            return [int(f) for f in self.rng.integers(1, sides[0] + 1, size=len(sides))]
        return [int(self.rng.integers(1, s + 1)) for s in sides]

    def _typed(self, target: str, kind: str, roles: dict[str, Any], fresh: list[str]) -> dict[str, list[int]]:
        """The faces typed for this resolve: the script's next set, or the target's own set (a role rolled once
        for the whole attack, typed once in any target's set, is taken from there at the attack's first roll)."""
        if self.by_target is None:
            return self.script.pop(0) if self.script and fresh else {}
        if kind == "counter":
            return {}
        forced = dict(self.by_target.pop(target, {}))
        for name in fresh:
            if roles[name].scope == "attack" and name not in forced:
                found = [s.pop(name) for s in self.by_target.values() if name in s]
                if found:
                    forced[name] = found[0]
        return forced

    def _resolve_group(
        self,
        situation: Situation,
        grp: IntArray,
        sel: Any,
        plain: dict[str, IntArray],
        kind: str,
        note: Words,
        shared: dict[str, Any] | None,
    ) -> Outcome:
        fight = self.fight
        values = situations.narrated_values(fight.rules, situation, self.state.per, int(grp[0]), plain)
        c, a, t = situation.c, situation.a, situation.t
        scenario, target = situations.blocks(fight, c, a, t, values)
        roles = situations.roles(fight, situation, scenario, target)
        fresh = [n for n, r in roles.items() if not (shared is not None and r.scope == "attack" and n in shared)]
        forced = self._typed(fight.roster.names[t], kind, roles, fresh)
        faces: dict[str, list[int]] = {}
        for name, role in roles.items():
            if shared is not None and role.scope == "attack" and name in shared:
                faces[name] = shared[name]
            else:
                faces[name] = list(forced[name]) if name in forced else role.draw(self.rng)
                if shared is not None and role.scope == "attack":
                    shared[name] = faces[name]
        self.shown = faces
        dice = Dice(
            {name: role.read(faces[name]) for name, role in roles.items()},
            {name: role.describe(faces[name]) for name, role in roles.items()},
        )
        trace = Trace()
        outcome = fight.system.resolve(scenario, target, dice, trace)
        row = outcome.row(fight.system.fields)
        names, words = fight.roster.names, said(note)
        extra: dict[str, Any] = {"note": words} if words else {}
        if fight.rules.hit_says_no_damage and row.get("result") == "hit" and row.get("damage") == 0:
            extra["zero_damage_told"] = True  # where the game says so, a hit of 0 too
        self.emit(
            kind,
            (),
            attacker=names[c],
            target=names[t],
            attack=fight.attack(c, a).name,
            dice=faces,
            outcome=row,
            trace=[{"text": s.text, "clause": s.clause} for s in trace.steps],
            **extra,
        )
        return outcome
