"""Rolling at the table: one resolution per target with forced or seeded faces, and its trace.

Roles with scope "attack" are drawn once and shared by every target (Last Odyssey's single hit die);
roles with scope "target" are drawn for each target. Forced faces come from the scenario's `dice`,
overridden role by role by a target's own `dice`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tohit.core.steps import Step, Trace
from tohit.core.system import Dice
from tohit.engine.scenario import Loaded
from tohit.engine.simulate import fresh_seed


@dataclass
class TargetRoll:
    name: str
    row: dict[str, Any]
    faces: dict[str, list[int]]
    forced: list[str]
    steps: list[Step]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, **self.row}


@dataclass
class RollResult:
    system: str
    seed: int
    targets: list[TargetRoll]

    def target(self, name: str) -> TargetRoll:
        return next(t for t in self.targets if t.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "seed": self.seed,
            "targets": [t.to_json() for t in self.targets],
            "dice": {t.name: t.faces for t in self.targets},
            "trace": [{"target": t.name, **s.to_json()} for t in self.targets for s in t.steps],
        }


def roll(loaded: Loaded, seed: int | None = None) -> RollResult:
    """Resolve the attack once against each target."""
    system, scenario = loaded.system, loaded.scenario
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else fresh_seed()
    rng = np.random.default_rng(seed)
    shared: dict[str, list[int]] = {}
    results = []
    for target in scenario.targets:
        roles = system.roles(scenario, target)
        forced = scenario.forced(target)
        faces: dict[str, list[int]] = {}
        for name, role in roles.items():
            if name in forced:
                faces[name] = list(forced[name])
            elif role.scope == "attack" and name in shared:
                faces[name] = shared[name]
            else:
                faces[name] = role.draw(rng)
            if role.scope == "attack":
                shared.setdefault(name, faces[name])
        dice = Dice(
            {name: role.read(faces[name]) for name, role in roles.items()},
            {name: role.describe(faces[name]) for name, role in roles.items()},
        )
        trace = Trace()
        outcome = system.resolve(scenario, target, dice, trace)
        row = outcome.row(system.fields)
        results.append(TargetRoll(target.name, row, faces, sorted(forced), trace.steps))
    return RollResult(system.id, seed, results)
