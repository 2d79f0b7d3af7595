"""Buffs and debuffs (rules.py's clause 1) [Buffs and Debuffs]: they succeed no matter what, with no roll;
each level moves the statistic one step along the Bonus Tracker -7, -3, -1, 0, +1, +3, +7 (a Burned
target's buffs fail).
"""

from __future__ import annotations

import numpy as np

from tohit.core.outcome import NULL_CODE, NULL_INT, Outcome
from tohit.core.steps import Steps
from tohit.systems.last_odyssey.columns import constant
from tohit.systems.last_odyssey.effective import NAMES
from tohit.systems.last_odyssey.models import LastOdysseyScenario, Target
from tohit.systems.last_odyssey.shells import apply_to_hp
from tohit.systems.last_odyssey.tables import HIT as HIT
from tohit.systems.last_odyssey.tables import (
    INTRO,
    move_tracker,
)
from tohit.systems.last_odyssey.tables import MISS as MISS


def always_succeeds(scenario: LastOdysseyScenario, target: Target, out: Outcome, steps: Steps) -> None:
    attack = scenario.attack
    stat = attack.stat
    assert stat is not None
    current = target.buffs.get(stat, 0)
    levels = attack.levels if attack.kind == "buff" else -attack.levels
    burned = attack.kind == "buff" and "burned" in target.statuses
    after = current if burned else move_tracker(current, levels)
    steps.note(
        "always",
        f"a {attack.kind} succeeds no matter what: no hit die is rolled",
        clause=INTRO,
        value="hit",
    )
    if burned:
        steps.note(
            "tracker",
            f"{target.name} is Burned and cannot be buffed: {NAMES[stat]} stays at {current:+d}",
            clause="Statuses (Burned; docs/last-odyssey.md#silent-statuses)",
            value=after,
        )
    else:
        word = "buff" if levels > 0 else "debuff"
        plural = "" if abs(levels) == 1 else "s"
        steps.note(
            "tracker",
            f"{NAMES[stat]}: {current:+d} moved {abs(levels)} level{plural} of {word} along the Bonus Tracker"
            f" (-7, -3, -1, 0, +1, +3, +7) = {after:+d}",
            clause="Buffs and Debuffs (buffs and debuffs cancel step for step;"
            " docs/last-odyssey.md#silent-buffs-and-debuffs)",
            value=after,
        )
    out.set("result", constant(out.n, HIT))
    out.set("damage", constant(out.n, 0))
    for name in ("accuracy_value", "hit_value", "base_damage"):
        out.set(name, constant(out.n, NULL_INT))
    out.set("status_applied", constant(out.n, NULL_CODE))
    out.set("tracker", after)
    apply_to_hp(scenario, target, np.zeros(out.n, dtype=np.int64), out, steps)
