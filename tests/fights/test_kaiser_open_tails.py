"""Issue 42, round 2: the open dice past a joint table's depth drawn at once for every roll of a resolve
(`dice.open_dice_in_turn`, through `KaiserRoll.sample_beyond_each`) are the dice `sample_beyond` draws for each roll
in turn, and leave the generator where those draws leave it: the same results for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.engine.fight.modes.table import _tails_in_turn
from tohit.systems.kaiser.dice import KaiserRoll, kaiser_roll, open_dice_in_turn


def _one_by_one(rng: np.random.Generator, counts: list[int], depth: int) -> list[list[int]]:
    roll = kaiser_roll("offense", 0, True)
    return [roll.sample_beyond(rng, n, depth)["dice"].tolist() for n in counts]


@pytest.mark.parametrize("seed", range(40))
def test_open_dice_drawn_at_once_are_those_drawn_in_turn(seed: int) -> None:
    """Each roll of each count gets the dice `sample_beyond` gives it in turn; the generator's next draws agree.
    Counts from 1 to several thousand, so that the dice drawn ahead run out and are drawn again."""
    counts = np.random.default_rng(1000 + seed).integers(1, 40 if seed % 4 else 3000, size=1 + seed % 7).tolist()
    depth = 1 + seed % 3
    ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
    drawn = KaiserRoll.sample_beyond_each(ours, counts, depth)
    assert [d["dice"].tolist() for d in drawn] == _one_by_one(theirs, counts, depth)
    for d, n in zip(drawn, counts, strict=True):
        assert d["open"].tolist() == [1] * n and d["fumble"].tolist() == [0] * n
    assert ours.integers(1, 7, size=9).tolist() == theirs.integers(1, 7, size=9).tolist()
    assert ours.random() == theirs.random()


def test_open_dice_of_another_generator_are_drawn_in_turn() -> None:
    """A generator other than PCG64 (whose spare half-word may not carry over) is drawn roll by roll, as before."""
    ours, theirs = (np.random.Generator(np.random.MT19937(5)) for _ in range(2))
    counts = [7, 300, 2]
    assert [v.tolist() for v in open_dice_in_turn(ours, counts, 18)] == _one_by_one(theirs, counts, 1)
    assert ours.random() == theirs.random()


def test_tails_of_rolls_of_several_kinds_are_drawn_in_turn() -> None:
    """`_tails_in_turn`: calls of one role class and depth go through `sample_beyond_each`; calls of mixed depths
    are drawn one by one, the same dice either way."""
    offense, defense = kaiser_roll("offense", 1, True), kaiser_roll("defense", -1, True)
    for depths in ((1, 1, 1), (1, 2, 1)):
        sizes = (("offense", offense, 5), ("defense", defense, 60), ("offense", offense, 1))
        calls = [(name, role, k, d) for (name, role, k), d in zip(sizes, depths, strict=True)]
        ours, theirs = np.random.default_rng(3), np.random.default_rng(3)
        drawn = [d["dice"].tolist() for d in _tails_in_turn(ours, calls)]
        assert drawn == [role.sample_beyond(theirs, k, d)["dice"].tolist() for _, role, k, d in calls]
        assert ours.random() == theirs.random()


@pytest.mark.parametrize("seed", range(12))
def test_open_dice_drawn_again_when_those_ahead_run_out(seed: int) -> None:
    """No spare dice drawn ahead (a single roll: one die ahead, run out at its first 6): the same dice again."""
    counts = [1, 1, 2, 1, 3]
    ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
    drawn = [v.tolist() for v in open_dice_in_turn(ours, counts, 18, spare=0)]
    assert drawn == _one_by_one(theirs, counts, 1)
    assert ours.random() == theirs.random()
