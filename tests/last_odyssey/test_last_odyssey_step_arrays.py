"""last-odyssey's fight step in fewer array passes (issue 42): the fused Shell and HP arithmetic and the columns a
turn leaves unread give what the step-by-step rules give (Shells; docs/last-odyssey.md#silent-shell; Death and
Injury)."""

from __future__ import annotations

import itertools

import numpy as np

from tohit.core.fight.consequence import table
from tohit.systems.last_odyssey.consequences import Before, Outcome, apply, shell_and_hp, shell_hit
from tohit.systems.last_odyssey.live import BACK, FRONT, some
from tohit.systems.last_odyssey.tables import HIT


def _grid() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every damage 0..29 against Shell points -3..14 (0 or less: no Shell) and HP 0..19."""
    cells = np.asarray(list(itertools.product(range(30), range(-3, 15), range(20))), dtype=np.int64)
    return cells[:, 0], cells[:, 1], cells[:, 2]


def test_shell_absorbs_up_to_its_points_and_overflow_of_at_least_the_hp_downs_in_one_formula() -> None:
    """Shells, docs/last-odyssey.md#silent-shell: a Shell absorbs damage up to its points; on the hit that breaks
    it, the overflow takes HP only if it is at least the remaining HP (then all of it); without a Shell the damage
    takes HP up to the HP left. `shell_and_hp` gives, on every cell of the grid, what the rule read step by step
    gives (`shell_hit`, then the overflow against the HP)."""
    damage, points, hp = _grid()
    hit = shell_hit(damage, points)
    step_by_step = np.where(points > 0, np.where(hit.broken & (hit.overflow >= hp), hp, 0), np.minimum(damage, hp))
    absorbed, lost = shell_and_hp(damage, points, hp)
    assert absorbed.tolist() == np.asarray(hit.absorbed).tolist()
    assert lost.tolist() == step_by_step.tolist()


def test_no_knock_out_in_the_fight_and_no_body_armor_up_leave_those_columns_unread() -> None:
    """Death and Injury (a knock-out incapacitates), Cop, Body Armor (a physical hit removes it): where no ability
    of the fight knocks out (`knock` None) and no target has Body Armor up (`physical` None), the hits change
    Shell, HP and damage dealt alone, as with those columns all False."""
    n = 3
    zero = np.zeros(n, dtype=np.int64)
    given = {"hp": np.asarray([5, 9, 4]), "shell": np.asarray([0, 3, 2]), "body_armor": zero, "dealt": zero}
    outcome = Outcome(np.full(n, HIT), np.asarray([5, 4, 9]))
    unread = apply(Before(**given, knock=None, physical=None, effects=False), outcome)  # type: ignore[arg-type]
    no = np.zeros(n, dtype=bool)
    read = apply(Before(**given, knock=no, physical=no, effects=False), outcome)  # type: ignore[arg-type]
    assert (
        table(unread.items)
        == table(read.items)
        == [
            ("damage", "defender", "shell", [1, 2], [0, 0]),
            ("damage", "defender", "hp", [0, 2], [0, 0]),
            ("damage", "attacker", "dealt", [0, 2], [5, 4]),
        ]
    )


def test_some_reads_a_back_row_a_status_or_body_armor_up_anywhere_in_the_batch() -> None:
    """The Combat Round (rows), Statuses, Cop, Body Armor: `some` says whether any combatant of any fight is in a
    back row, has a status or has Body Armor up (stats never below 0), an empty batch none."""
    assert not some(np.zeros((3, 2), dtype=np.int64))
    assert some(np.asarray([[FRONT, FRONT], [FRONT, BACK]], dtype=np.int64))
    assert some(np.asarray([0, 0, 256], dtype=np.int64))
    assert not some(np.zeros((0, 2), dtype=np.int64))
