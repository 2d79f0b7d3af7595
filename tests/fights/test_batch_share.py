"""The engine's share of a simulated fight (issue 42): what a batch tallies once instead of part by part, and what
the table sampler groups without a rank of its rows, gives what the part-by-part and row-by-row ways give."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.core.fight.rows import column_sums
from tohit.engine.fight import tally
from tohit.engine.fight.modes.table import _Groups
from tohit.engine.fight.situation import FEW_CODES, packed
from tohit.engine.fight.tally import FightTally, Part


def _parts(seed: int, sizes: list[int], longest: int) -> list[Part]:
    rng = np.random.default_rng(seed)
    parts: list[Part] = []
    for m in sizes:
        health = rng.integers(-3, 30, size=(m, 3))
        parts.append(
            (
                rng.integers(-1, 2, size=m),
                rng.integers(1, longest, size=m),
                health,
                health > 0,
                rng.integers(0, 50, size=(m, 3)),
            )
        )
    return parts


def _same(a: FightTally, b: FightTally) -> None:
    assert a.wins.tolist() == b.wins.tolist() and a.draws == b.draws
    assert list(a.rounds.items()) == list(b.rounds.items())  # the same counts, in the same order
    for field in ("standing", "health_standing", "health", "dealt"):
        assert getattr(a, field).tolist() == getattr(b, field).tolist()


@pytest.mark.parametrize("counts", [True, False])
def test_a_batch_tallied_at_once_is_its_parts_tallied_one_by_one(monkeypatch: pytest.MonkeyPatch, counts: bool) -> None:
    """`add_parts` is `add` of each part in turn: the same totals, and each round counted in the order the parts
    first show it (a late part's short fight comes after the rounds seen before it), by counts or by sorting."""
    if not counts:
        monkeypatch.setattr(tally, "ROUND_COUNTS", 0)
    earlier = FightTally.empty(2, 3)
    earlier.add(_parts(0, [50], 9)[0])  # rounds already counted keep their place
    one_by_one, at_once = FightTally.empty(2, 3), FightTally.empty(2, 3)
    for t in (one_by_one, at_once):
        t.merge(earlier)
    winner, _, health, standing, dealt = _parts(2, [5], 2)[0]
    late = (winner, np.asarray([59, 3, 58, 1, 2]), health, standing, dealt)  # two rounds no part had before
    parts = [*_parts(1, [40, 0, 300, 7, 120], 30), late]
    for part in parts:
        one_by_one.add(part)
    at_once.add_parts(parts)
    _same(one_by_one, at_once)
    assert list(at_once.rounds)[-2:] == [58, 59]  # first shown by the last part, in increasing order there


@pytest.mark.parametrize("spans", [(1, 1), (3, 1, 5), (2, 40, 1, 7), (70_000, 90_000)])
def test_each_group_s_values_are_those_of_its_first_row(spans: tuple[int, ...]) -> None:
    """A group's columns, unpacked from its code (few codes) or read at its first row (ranked), are the columns'
    values at its first row, group by group in increasing code order."""
    rng = np.random.default_rng(len(spans))
    columns = [rng.integers(-2, span - 2, size=3_000) for span in spans]
    codes = packed(columns)
    groups = _Groups(codes.code, codes.radix)
    at_first = [[int(col[row]) for col in columns] for row in groups.first.tolist()]
    assert groups.values(codes, columns) == at_first
    assert (groups.by_code is not None) == (1 < codes.radix <= 8 * 3_000 + 4096)


@pytest.mark.parametrize("spans", [(1, 1), (3, 1, 5), (2, 40, 1, 7)])
def test_codes_unpack_to_their_rows_columns_few_or_many(spans: tuple[int, ...]) -> None:
    """`Packed.unpack`: each code's columns are those of the rows with that code, for a handful of codes (worked in
    Python's integers, up to FEW_CODES) as for more (numpy's divisions)."""
    rng = np.random.default_rng(len(spans))
    columns = [rng.integers(-2, span - 2, size=400) for span in spans]
    codes = packed(columns)
    present, row = np.unique(codes.code, return_index=True)
    for k in (1, 3, FEW_CODES, FEW_CODES + 1, present.size):
        want = [[int(col[r]) for col in columns] for r in row[:k].tolist()]
        assert codes.unpack(present[:k]) == want


@pytest.mark.parametrize("shape", [(0, 3), (255, 2), (256, 2), (1_000, 8), (70_001, 1)])
def test_column_sums_are_numpy_s_sums_down_the_columns(shape: tuple[int, int]) -> None:
    """`column_sums` of ints (negative ones too) and of bools: numpy's sum over axis 0, block of rows or not."""
    rng = np.random.default_rng(shape[0])
    values = rng.integers(-50, 50, size=shape)
    for x in (values, values > 0, np.asfortranarray(values)):
        found = column_sums(x)
        assert found.dtype == np.int64 and found.tolist() == x.sum(axis=0).tolist()
