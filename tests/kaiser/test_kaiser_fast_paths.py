"""Kaiser's step reads a batch through a few fast forms of numpy operations (issue 42): each gives what the plain
numpy operation gives, on every shape the fights make (widths that are and are not powers of two, rows all set or
none, a cost shared by every combatant or not)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from tohit.systems.kaiser import cells
from tohit.systems.kaiser.fight import _cells, _maybe_set, _split, _total
from tohit.systems.kaiser.turns import TurnOrder


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 7, 8, 9])
def test_flat_positions_split_as_divmod_does(width: int) -> None:
    """`_split` (a shift and a mask for a power of two) and `_cells` give divmod's rows and columns, np.nonzero's."""
    rng = np.random.default_rng(width)
    cells = rng.random((50, width)) < 0.4
    at = np.flatnonzero(cells)
    rows, columns = _split(at, width)
    assert rows.tolist() == (at // width).tolist()
    assert columns.tolist() == (at % width).tolist()
    assert [a.tolist() for a in _cells(cells)] == [a.tolist() for a in np.nonzero(cells)]


@pytest.mark.parametrize("where", [[], [(0, 0)], [(9, 3)], [(4, 1), (7, 2)]])
def test_a_stat_is_set_somewhere_as_any_says(where: list[tuple[int, int]]) -> None:
    """`_maybe_set` of a fresh array is `any` of it: negative values count, an empty batch has none."""
    stat = np.zeros((10, 4), dtype=np.int64)
    for value, (row, column) in zip((1, -3), where, strict=False):
        stat[row, column] = value
    assert _maybe_set(stat) is bool(stat.any())
    assert _maybe_set(np.zeros((0, 4), dtype=np.int64)) is False


def test_an_array_found_set_may_be_set_until_it_goes() -> None:
    """An array found set stays "may be set" without a look, even once written back to 0 in place (a batch's events
    write its arrays so); its entry goes with it; an array found unset is looked at again."""
    stat = np.zeros((10, 4), dtype=np.int64)
    assert _maybe_set(stat) is False
    stat[3, 1] = 2
    assert _maybe_set(stat) is True
    stat[3, 1] = 0
    assert _maybe_set(stat) is True  # found set before: may be set
    assert _maybe_set(stat.copy()) is False  # another array: looked at
    key = id(stat)
    assert key in cells._FOUND_SET
    del stat
    gc.collect()
    assert key not in cells._FOUND_SET


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_a_rolls_dice_add_up_as_sum_does(dice: int) -> None:
    """`_total`: each row's dice added die by die, as `sum(axis=1)` adds them; the faces are left as they were."""
    faces = np.random.default_rng(dice).integers(1, 7, size=(20, dice))
    before = faces.copy()
    assert _total(faces).tolist() == faces.sum(axis=1).tolist()
    assert faces.tolist() == before.tolist()


@pytest.mark.parametrize("costs", [[3, 3, 3], [2, 3, 6], [4]])
def test_the_ap_pays_for_the_cheapest_attack_as_compared_per_combatant(costs: list[int]) -> None:
    """`TurnOrder.can_pay` (against one number where every cheapest attack costs the same) is `ap >= min_cost`."""
    min_cost = np.asarray(costs, dtype=np.int64)
    same = bool((min_cost == min_cost[0]).all())
    size = min_cost.size
    following = (np.arange(size) + 1) % size
    order = TurnOrder(min_cost, np.zeros((size, size), np.int64), following, int(costs[0]) if same else min_cost)
    ap = np.random.default_rng(size).integers(0, 7, size=(30, size))
    assert order.can_pay(ap).tolist() == (ap >= min_cost).tolist()
