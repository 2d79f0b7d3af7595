"""The direct sampler (docs/architecture.md, "One fight driver"): a batch of fights; each resolve samples the dice
for all the fights it concerns at once and runs the system's `resolve` on them, with the stats that changed
during the fight (LP, AP, guard...) fed in as arrays, one value per fight."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tohit.core.fight.contract import ALL, Mode
from tohit.core.fight.rolls import FightRoll, Rolled
from tohit.core.fight.state import IntArray
from tohit.core.fight.words import Words
from tohit.core.outcome import Outcome
from tohit.core.roles import Role
from tohit.core.steps import Silent
from tohit.core.system import Dice
from tohit.engine.alias import MAX_TOTAL, Alias
from tohit.engine.fight import situation as situations
from tohit.engine.fight.caches import caches
from tohit.engine.fight.modes.drawn import Drawn
from tohit.engine.fight.situation import Situation

#: Depth of the role tables Monte Carlo samples from (rolls beyond it come from the role's tail).
ROLE_TABLE_DEPTH = 1
#: Depth of the joint tables the table sampler draws an attack's outcome from (`modes/table.py`). Only a game with
#: open rolls (a double 6, then one more die on each 6) has rows past it, whose tails are drawn and read from a
#: deeper table (`modes/deep.py`) at a fixed cost a resolve: at depth 2 a resolve of the bench's duel with open rolls
#: on 100,000 fights has 177 such rows where depth 1 had 936, and 39 resolves of its batch meet any where 50 did (the
#: same law, other draws for a seed: such a game's fights give other bytes from this depth on). That duel runs some
#: 9% faster, its stack holds 1.5 times the rows, and the bench's group with open rolls peaks over 10,000,000 fights
#: at some 194 MB (192 at depth 1).
TABLE_DEPTH = 2


class DirectSample(Drawn):
    """Monte Carlo, "direct": the dice sampled and `resolve` run on every batch."""

    mode: Mode = "sample"

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
        values = situations.state_values(fight.rules, situation, self.state.per, sel, plain)
        scenario, target = situations.blocks(fight, situation.c, situation.a, situation.t, values)
        roles = situations.roles(fight, situation, scenario, target)
        unused = fight.rules.unused_roles
        m = grp.size
        columns: dict[str, dict[str, IntArray]] = {}
        for name, role in roles.items():
            if name in unused:
                columns[name] = {col: np.zeros(m, dtype=np.int64) for col in role.columns}
            elif shared is not None and role.scope == "attack":
                if name not in shared:  # one roll for every target of the ability, per fight
                    shared[name] = self._sample_role(role, self.n)
                columns[name] = {col: v[sel] for col, v in shared[name].items()}
            else:
                columns[name] = self._sample_role(role, m)
        return fight.system.resolve(scenario, target, Dice(columns), Silent())

    def roll(self, rows: IntArray, roll: FightRoll, args: Mapping[str, Any]) -> Rolled:
        """Every die of the roll for all of `rows` at once (one draw of (rows, dice) faces when the dice are
        alike), then its value."""
        sides = roll.sides
        m = rows.size
        if len(set(sides)) == 1:
            drawn = self.rng.integers(1, sides[0] + 1, size=(m, len(sides)))
        else:
            drawn = np.stack([self.rng.integers(1, s + 1, size=m) for s in sides], axis=1)
        faces = roll.split(np.asarray(drawn, dtype=np.int64))
        value = np.zeros(self.n, dtype=np.int64)
        value[rows] = roll.value(args, faces)
        return Rolled(ALL, value, faces)

    def _sample_role(self, role: Role, m: int) -> dict[str, IntArray]:
        """m outcomes of a role, drawn from its exact support table (one alias draw each), the part beyond
        the table's depth drawn from the role's own tail: the same distribution as `role.sample`, cheaper."""
        held = caches(self.fight).role_tables
        found = held.get(id(role))
        if found is None:
            support = role.support(ROLE_TABLE_DEPTH)
            weights = [int(w) for w in support.weights] + ([support.remainder] if support.remainder else [])
            if support.total > MAX_TOTAL:  # pragma: no cover - no role has such a table
                return role.sample(self.rng, m)
            found = held[id(role)] = (support, Alias(weights))
        support, alias = found
        idx = alias.sample(self.rng, m)
        size = support.size
        cols = {c: v[np.minimum(idx, size - 1)] for c, v in support.columns.items()}
        beyond = np.flatnonzero(idx == size)
        if beyond.size:
            tail = role.sample_beyond(self.rng, beyond.size, ROLE_TABLE_DEPTH)
            for c in cols:
                cols[c][beyond] = tail[c]
        return cols
