"""Rolling at the table: resolutions with forced or seeded faces, each with its trace.

Roles with scope "attack" are drawn once per attack and shared by every target (e.g. a single hit die
for the whole attack); roles with scope "target" are drawn for each target. Forced faces come from the
scenario's `dice`, overridden role by role by a target's own `dice`. `roll_many` rolls the same attack
several times (a volley, a crowd of goblins): for systems with `batch_trace`, in one vectorised `resolve`
per target. A single roll, and `roll_many` on a tiny support, look their rows up in the scenario's kept rows
(`engine/roll_rows.py`): the same dice and the same `resolve`, run once per combination of columns instead
of once per call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import numpy as np

from tohit.core.roles import Role
from tohit.core.steps import Step, Trace
from tohit.core.support import Columns
from tohit.core.system import Dice
from tohit.engine.requests import MAX_TIMES as MAX_TIMES
from tohit.engine.roll_rows import scenario_rows
from tohit.engine.scenario import Loaded, pick_target
from tohit.engine.seeds import fresh_seed


@dataclass
class TargetRoll:
    name: str
    row: dict[str, Any]
    faces: dict[str, list[int]]
    forced: list[str]
    steps: list[Step]
    #: Extra keys from the system (System.target_json), e.g. a target's cover on a grid.
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, **self.row, **self.extra}


@dataclass
class RollResult:
    system: str
    seed: int
    targets: list[TargetRoll]
    #: Extra keys from the system (System.scenario_json), e.g. the squares of a grid attack.
    extra: dict[str, Any] = field(default_factory=dict)

    def target(self, name: str) -> TargetRoll:
        return pick_target(self.targets, name)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "seed": self.seed,
            "targets": [t.to_json() for t in self.targets],
            "dice": {t.name: t.faces for t in self.targets},
            "trace": [{"target": t.name, **s.to_json()} for t in self.targets for s in t.steps],
            **self.extra,
        }


def roll(loaded: Loaded, seed: int | None = None) -> RollResult:
    """Resolve the attack once against each target."""
    return roll_many(loaded, 1, seed)[0]


def roll_many(loaded: Loaded, times: int, seed: int | None = None) -> list[RollResult]:
    """Resolve the attack `times` times against each target, each with its own dice and trace."""
    system, scenario = loaded.system, loaded.scenario
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else fresh_seed()
    rng = np.random.default_rng(seed)
    if times > 1 and system.batch_trace:
        kept = scenario_rows(loaded)
        if all(t.complete() for t in kept.targets):  # a tiny support: every row kept, looked up roll by roll
            return _roll_kept(loaded, times, rng, seed)
        return _roll_batch(loaded, times, rng, seed)
    return [_roll_one(loaded, rng, seed) for _ in range(times)]


def _roll_one(loaded: Loaded, rng: np.random.Generator, seed: int) -> RollResult:
    """One roll: the dice drawn as `_roll_batch` draws them, each target's row and trace from the kept rows."""
    kept = scenario_rows(loaded)
    shared: dict[str, list[int]] = {}
    targets = []
    for t in kept.targets:
        t.rolls += 1
        faces: list[list[int]] = []
        for name, role, forced, once in t.dice:
            if forced is not None:
                drawn = list(forced)
            elif once and name in shared:
                drawn = shared[name]
            else:
                drawn = role.draw(rng)
            if once:
                shared.setdefault(name, drawn)
            faces.append(drawn)
        row, steps = t.traced(faces)
        named = dict(zip(t.names, faces, strict=True))
        targets.append(TargetRoll(t.name, dict(row), named, list(t.forced_names), list(steps), t.extra))
    return RollResult(loaded.system.id, seed, targets, kept.top)


def _roll_kept(loaded: Loaded, n: int, rng: np.random.Generator, seed: int) -> list[RollResult]:
    """`_roll_batch`'s rolls (the dice drawn as it draws them, role by role for all n), each target's rows and
    traces from the kept rows."""
    kept = scenario_rows(loaded)
    shared: dict[str, list[list[int]]] = {}
    per_target: list[list[TargetRoll]] = [[] for _ in range(n)]
    for t in kept.targets:
        by_role: list[list[list[int]]] = []
        for name, role, forced, once in t.dice:
            if forced is not None:
                drawn = [list(forced)] * n
            elif once and name in shared:
                drawn = shared[name]
            else:
                drawn = role.roll_many(rng, n)[0]
            if once:
                shared.setdefault(name, drawn)
            by_role.append(drawn)
        forced_names = list(t.forced_names)
        rows = zip(*by_role, strict=True) if by_role else repeat((), n)
        for row_faces, bucket in zip(rows, per_target, strict=True):
            faces = list(row_faces)
            row, steps = t.traced(faces)
            named = dict(zip(t.names, faces, strict=True))
            bucket.append(TargetRoll(t.name, dict(row), named, forced_names, list(steps), t.extra))
    return [RollResult(loaded.system.id, seed, targets, kept.top) for targets in per_target]


def _roll_batch(loaded: Loaded, n: int, rng: np.random.Generator, seed: int) -> list[RollResult]:
    system, scenario = loaded.system, loaded.scenario
    shared: dict[str, tuple[list[list[int]], Columns]] = {}
    per_target: list[list[TargetRoll]] = [[] for _ in range(n)]
    for target in scenario.targets:
        roles = system.roles(scenario, target)
        forced = scenario.forced(target)
        faces: dict[str, list[list[int]]] = {}
        columns: dict[str, Columns] = {}
        for name, role in roles.items():
            if name in forced:
                one = role.read(forced[name])
                faces[name] = [list(forced[name])] * n
                columns[name] = {c: np.repeat(v, n) for c, v in one.items()}
            elif role.scope == "attack" and name in shared:
                faces[name], columns[name] = shared[name]
            else:
                faces[name], columns[name] = role.roll_many(rng, n)
            if role.scope == "attack":
                shared.setdefault(name, (faces[name], columns[name]))
        text = {name: _texts(_described(role, faces[name])) for name, role in roles.items()}
        trace = Trace(n)
        outcome = system.resolve(scenario, target, Dice(columns, text), trace)
        rows = outcome.rows(system.fields)
        forced_names = sorted(forced)
        extra = system.target_json(scenario, target)
        names = list(roles)
        face_rows = zip(*[faces[name] for name in names], strict=True) if names else [()] * n
        for row, steps, row_faces, bucket in zip(rows, trace.rows, face_rows, per_target, strict=True):
            row_faces_named = dict(zip(names, row_faces, strict=True))
            bucket.append(TargetRoll(target.name, row, row_faces_named, forced_names, steps, extra))
    top = system.scenario_json(scenario)
    return [RollResult(system.id, seed, targets, top) for targets in per_target]


def _described(role: Role, rolls: list[list[int]]) -> list[str]:
    """`role.describe` of each roll's faces, each distinct set of faces described once (a batch of a
    thousand 2d6 rolls has at most 36)."""
    seen: dict[tuple[int, ...], str] = {}
    out = []
    for faces in rolls:
        key = tuple(faces)
        line = seen.get(key)
        if line is None:
            line = seen[key] = role.describe(faces)
        out.append(line)
    return out


def _texts(items: list[str]) -> Any:
    if len(items) == 1:
        return items[0]
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out
