"""A traced roll as a lookup: the scenario's resolved rows, each with its trace, kept per validated scenario.

`resolve` sees only the role columns (and the dice in words), so a target's outcome and trace are a function
of the columns its dice give. The first roll that meets a combination of columns runs the game's one
`resolve` on it (n = 1) and keeps the row and its trace; later rolls of the same scenario that meet it again
copy them. From a target's second roll on, when the game traces a batch in one call (`batch_trace`) and the
cross of its roles' supports is small (at most `FILL_ROWS` rows), every combination is resolved and traced
in one pass, so random rolls then always find their row. Nothing here is a rule: each row is `resolve`'s.

The trace is recorded with a placeholder for each role's faces in words (they vary with the faces, not
with the columns: "2d6 (3, 4)" and "2d6 (5, 2)" are both a 7); a roll puts its own words in their place.
The dice are drawn exactly as `roll_many` draws them (`Role.draw` takes from the generator what
`Role.roll_many(rng, 1)` does), so a seed gives the same roll as before, with or without the cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tohit.core.roles import Role
from tohit.core.steps import Step, Trace
from tohit.core.support import Columns
from tohit.core.system import AnySystem, Dice
from tohit.engine.memo import memo
from tohit.engine.scenario import AnyScenario, Loaded

#: Most rows the one-pass fill resolves (a cross of tiny supports: a 2d6 has 11, a d10 and a d8 kept high 80).
FILL_ROWS = 2048
#: Most combinations kept per target, and faces kept per role (open rolls have no end of them): a few MB at
#: most for a target, beside a scenario that `from_dict` keeps among its last 128 documents.
MAX_KEPT = 4096


def placeholder(role: str) -> str:
    """What the trace holds for `role`'s faces in words until a roll fills them in."""
    return f"\x00{role}\x00"


@dataclass(frozen=True)
class Resolved:
    """One combination of columns: the outcome row as JSON values, its trace, and where the faces go."""

    row: dict[str, Any]
    steps: tuple[Step, ...]
    #: (step index, indices of the roles whose faces in words that step holds)
    fill: tuple[tuple[int, tuple[int, ...]], ...]


class TargetRows:
    """What one target's roll needs beyond the dice, worked out once: its roles, forced faces and extra JSON,
    the columns (and words) of each set of faces met so far, and the resolved rows."""

    def __init__(self, system: AnySystem, scenario: AnyScenario, target: Any) -> None:
        self.system, self.scenario, self.target = system, scenario, target
        self.name: str = target.name
        roles = system.roles(scenario, target)
        self.roles: tuple[Role, ...] = tuple(roles.values())
        self.names: tuple[str, ...] = tuple(roles)
        self.forced: dict[str, list[int]] = scenario.forced(target)
        self.forced_names: list[str] = sorted(self.forced)
        #: Per role: its name, the role, its forced faces (None: rolled), and whether it is rolled once per attack.
        self.dice = tuple((name, role, self.forced.get(name), role.scope == "attack") for name, role in roles.items())
        self.extra: dict[str, Any] = system.target_json(scenario, target)
        self.marks = tuple(placeholder(n) for n in self.names)
        #: Per role: faces -> (its columns' values, its faces in words).
        self.faces: tuple[dict[tuple[int, ...], tuple[tuple[int, ...], str]], ...] = tuple({} for _ in self.roles)
        self.rows: dict[tuple[tuple[int, ...], ...], Resolved] = {}
        #: Per set of faces met (one tuple per role): its row and its trace, the faces in words filled in.
        self.done: dict[tuple[tuple[int, ...], ...], tuple[dict[str, Any], tuple[Step, ...]]] = {}
        self.rolls = 0
        self.filled = False
        #: Every combination of the roles' supports is kept (filled, and no role is cut at a depth).
        self.whole = False

    def traced(self, faces: list[list[int]]) -> tuple[dict[str, Any], tuple[Step, ...]]:
        """The row and trace of a roll with these faces (one list per role): kept, else put together (and kept)."""
        key = tuple(map(tuple, faces))
        found = self.done.get(key)
        if found is None:
            read = [self.read(i, f) for i, f in enumerate(faces)]
            resolved = self.resolved(tuple(columns for columns, _ in read))
            steps = self.steps(resolved, [words for _, words in read]) if resolved.fill else resolved.steps
            found = (resolved.row, tuple(steps))
            if len(self.done) < MAX_KEPT:
                self.done[key] = found
        return found

    def read(self, i: int, faces: list[int]) -> tuple[tuple[int, ...], str]:
        """Role i's columns (as a tuple, in `role.columns` order) and words for these faces."""
        seen = self.faces[i]
        key = tuple(faces)
        found = seen.get(key)
        if found is None:
            role = self.roles[i]
            columns = role.read(faces)
            found = (tuple(int(columns[c][0]) for c in role.columns), role.describe(faces))
            if len(seen) < MAX_KEPT:
                seen[key] = found
        return found

    def resolved(self, key: tuple[tuple[int, ...], ...]) -> Resolved:
        """The row for these columns: kept, else resolved now (and kept)."""
        found = self.rows.get(key)
        if found is not None:
            return found
        if not self.filled and self.rolls > 1:
            self.filled = True
            self._fill()
            found = self.rows.get(key)
            if found is not None:
                return found
        columns = {
            name: {c: np.asarray([v], dtype=np.int64) for c, v in zip(role.columns, values, strict=True)}
            for name, role, values in zip(self.names, self.roles, key, strict=True)
        }
        found = self._resolve(columns, 1)[0]
        if len(self.rows) < MAX_KEPT:
            self.rows[key] = found
        return found

    def steps(self, resolved: Resolved, said: list[str]) -> list[Step]:
        """The kept trace with this roll's faces in words (`said`, one per role) in place of the placeholders."""
        steps = list(resolved.steps)
        for i, held in resolved.fill:
            step = steps[i]
            text, value = step.text, step.value
            for r in held:
                text = text.replace(self.marks[r], said[r])
                if isinstance(value, str):
                    value = value.replace(self.marks[r], said[r])
            steps[i] = Step(step.name, text, step.clause, value)
        return steps

    def _resolve(self, columns: dict[str, Columns], n: int) -> list[Resolved]:
        trace = Trace(n)
        text = dict(zip(self.names, self.marks, strict=True))
        outcome = self.system.resolve(self.scenario, self.target, Dice(columns, text), trace)
        rows = outcome.rows(self.system.fields)
        return [self._kept(row, steps) for row, steps in zip(rows, trace.rows, strict=True)]

    def _kept(self, row: dict[str, Any], steps: list[Step]) -> Resolved:
        fill = []
        for i, step in enumerate(steps):
            value = step.value if isinstance(step.value, str) else ""
            held = tuple(r for r, mark in enumerate(self.marks) if mark in step.text or mark in value)
            if held:
                fill.append((i, held))
        return Resolved(row, tuple(steps), tuple(fill))

    def complete(self) -> bool:
        """Whether every roll finds its row kept: the one-pass fill done (now, if not yet) on a finite support."""
        if not self.filled:
            self.filled = True
            self._fill()
        return self.whole

    def _fill(self) -> None:
        """Every combination of the roles' finite supports, resolved and traced in one `resolve` call."""
        if not self.system.batch_trace:
            return
        depth = self.system.depth(self.scenario)
        supports = [role.support(depth) for role in self.roles]
        size = 1
        for s in supports:
            size *= s.size
        if not 0 < size <= FILL_ROWS:
            return
        radix = [s.size for s in supports]
        grids = np.indices(radix, dtype=np.int64).reshape(len(radix), -1) if radix else np.zeros((0, 1), np.int64)
        columns = {
            name: {c: v[grids[i]] for c, v in s.columns.items()}
            for i, (name, s) in enumerate(zip(self.names, supports, strict=True))
        }
        per_role = [
            list(zip(*(columns[name][c].tolist() for c in role.columns), strict=True))
            for name, role in zip(self.names, self.roles, strict=True)
        ]
        keys = list(zip(*per_role, strict=True)) if per_role else [()]
        for key, found in zip(keys, self._resolve(columns, size), strict=True):
            self.rows.setdefault(key, found)
        self.whole = all(s.remainder == 0 for s in supports)


class ScenarioRows:
    """Per target, its `TargetRows`; and the scenario's extra JSON."""

    def __init__(self, loaded: Loaded) -> None:
        system, scenario = loaded.system, loaded.scenario
        self.targets = [TargetRows(system, scenario, t) for t in scenario.targets]
        self.top: dict[str, Any] = system.scenario_json(scenario)


def scenario_rows(loaded: Loaded) -> ScenarioRows:
    """The scenario's kept rows (made on first use, kept as long as the validated scenario lives)."""
    kept = memo(loaded.scenario)
    found = kept.get("roll")
    if found is None or not isinstance(found, ScenarioRows):
        found = kept["roll"] = ScenarioRows(loaded)
    return found
