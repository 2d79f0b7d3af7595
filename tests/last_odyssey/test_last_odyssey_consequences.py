"""last-odyssey consequences.apply: a resolved ability's outcome rows and the stats before it in, the itemised
changes out (Shells; docs/last-odyssey.md#silent-shell; Death and Injury; Statuses; Buffs and Debuffs).
Positions are rows of the table."""

from __future__ import annotations

import numpy as np

from tohit.core.fight.consequence import events, table
from tohit.systems.last_odyssey.consequences import (
    BIT,
    DIGIT_OF_STEP,
    PLACE,
    Before,
    Outcome,
    apply,
    downed_effects,
)
from tohit.systems.last_odyssey.tables import HIT, MISS


def _a(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def _before(n: int, **given: object) -> Before:
    zero = np.zeros(n, dtype=np.int64)
    fields: dict[str, object] = {
        "hp": zero,
        "shell": zero,
        "body_armor": zero,
        "statuses": zero,
        "status_hits": zero,
        "buffs": zero,
        "dealt": zero,
        "knock": np.zeros(n, dtype=bool),
        "physical": np.zeros(n, dtype=bool),
        "bit": zero,
        "stat": np.full(n, -1, dtype=np.int64),
        "effects": False,
    }
    fields.update(given)
    return Before(**fields)  # type: ignore[arg-type]


def test_shell_absorbs_breaks_and_overflow_downs_knock_out_incapacitates_physical_removes_body_armor() -> None:
    """Shells, docs/last-odyssey.md#silent-shell: a Shell absorbs damage up to its points; damage of at least its
    points breaks it and overflow of at least the HP downs; without a Shell HP lost is the damage up to the HP; a
    knock-out that downs incapacitates; a physical hit removes Body Armor; a miss changes nothing."""
    before = _before(
        4,
        hp=_a(10, 5, 6, 9),
        shell=_a(4, 3, 0, 0),
        body_armor=_a(0, 0, 1, 1),
        dealt=_a(0, 2, 0, 0),
        knock=np.array([False, True, False, False]),
        physical=np.array([False, False, True, True]),
    )
    outcome = Outcome(
        result=_a(HIT, HIT, HIT, MISS), damage=_a(3, 9, 2, 5), status_applied=_a(0, 0, 0, 0), tracker=_a(0, 0, 0, 0)
    )
    applied = apply(before, outcome)
    assert table(applied.items) == [
        ("damage", "defender", "shell", [0, 1], [1, 0]),
        ("damage", "defender", "hp", [1, 2], [0, 4]),
        ("damage", "attacker", "dealt", [1, 2], [7, 2]),
        ("damage", "defender", "incapacitated", [1], [1]),
        ("damage", "defender", "body_armor", [2], [0]),
    ]
    assert applied.absorbed.tolist() == [3, 3, 0] and applied.lost.tolist() == [0, 5, 2]


def test_downed_removes_every_effect_but_poisoned_frostbitten_burned_then_statuses_and_trackers() -> None:
    """Death and Injury: Downed removes every effect except Poisoned, Frostbitten and Burned, the Bonus Tracker
    too; then a status that lands is the target's if it has it not already (Statuses), a buff moves the Bonus
    Tracker to the value the ability gives (Buffs and Debuffs), reading what Downed left."""
    blinded, poisoned = BIT["blinded"], BIT["poisoned"]
    up2 = DIGIT_OF_STEP[3] * int(PLACE[0])
    before = _before(
        3,
        hp=_a(4, 9, 9),
        statuses=_a(blinded | poisoned, blinded, 0),
        buffs=_a(up2, 0, up2),
        bit=_a(blinded, blinded, 0),
        stat=_a(0, -1, 0),
        effects=True,
    )
    outcome = Outcome(result=_a(HIT, HIT, HIT), damage=_a(4, 0, 0), status_applied=_a(1, 1, 0), tracker=_a(7, 0, 3))
    items = apply(before, outcome).items
    assert table(items) == [
        ("damage", "defender", "hp", [0], [0]),
        ("damage", "attacker", "dealt", [0], [4]),
        ("effects", "defender", "statuses", [0], [poisoned]),
        ("effects", "defender", "buffs", [0], [0]),
        ("status", "defender", "status_hits", [0, 1], [1, 1]),
        ("status", "defender", "statuses", [0], [blinded | poisoned]),
        ("tracker", "defender", "buffs", [0], [DIGIT_OF_STEP[7] * int(PLACE[0])]),
    ]
    assert [kind for kind, _ in events(items)] == ["damage", "effects", "status", "tracker"]


def test_downed_with_nothing_to_remove_changes_nothing() -> None:
    """Death and Injury: a Downed target with only Poisoned, Frostbitten, Burned and no buffs keeps them."""
    assert downed_effects(_a(BIT["burned"]), _a(0)) == ()
