"""Kaiser's fixed cost of a step (issue 42, round 4): the fight hands `consequences.apply` the rows of hits alone
(`result` None) and the attack's rows where it knows them; the same changes as the outcome read row by row."""

from __future__ import annotations

import numpy as np

from tohit.core.fight.consequence import table
from tohit.systems.kaiser.consequences import Before, Outcome, apply
from tohit.systems.kaiser.tables import HIT


def _a(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def test_successful_attack_result_none_means_every_row_a_hit() -> None:
    """Attacking and Defending, Successful Attack: given the hits alone (`result` None), LP, dealt, AP and
    Flat-Footed change as for the same rows each read as a hit, and the Critical rows are the same [Critical]."""
    before = Before(lp=_a(30, 5, 20, 30), ap=_a(4, 2, 0, 6), dealt=_a(0, 7, 3, 0))
    columns = {"damage": _a(8, 9, 10, 0), "ap_lost": _a(1, 1, 1, 0), "flat_footed": _a(0, 0, 1, 0)}
    read = apply(before, Outcome(result=_a(HIT, HIT, HIT, HIT), **columns))
    given = apply(before, Outcome(result=None, **columns))
    assert table(given.items) == table(read.items)
    assert given.critical.tolist() == read.critical.tolist() == [2]
