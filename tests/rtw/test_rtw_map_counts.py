"""Issue 42, "peak memory for 10,000,000 fights": a map's turn makes (fights, options, combatants) arrays of how many
times each option affects each creature (`FightMap.counts`), some 20 MB a batch of rtw-map.yaml as int64. The map
holds those times as int32 where they fit, and the turn's scores multiply in place: the same counts, the same
bytes (tests/fights/test_fight_example_digests.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tohit.engine.fight.load import load_fight
from tohit.systems.rtw.fight_map import WITHIN
from tohit.systems.rtw.fight_move import file_positions, grid_at

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "fights"


@pytest.mark.parametrize("name", ["rtw-map", "rtw-keese-swarm"])
def test_a_maps_counts_are_int32_and_the_times_each_option_affects_each_creature_it_catches(name: str) -> None:
    """Every actor's every option, a random half of its creatures caught: the times as int64 arithmetic gives them
    (a Swarm's picks shared out for X Targets within Y), held as int32."""
    fight = load_fight(EXAMPLES / f"{name}.yaml")
    grid = grid_at(fight, file_positions(fight))
    assert grid.times.dtype == np.int32
    times = grid.times.copy()
    rng = np.random.default_rng(7)
    who = np.repeat(np.arange(fight.roster.size), 50)
    caught = rng.random((who.size, grid.width, fight.roster.size)) < 0.5
    counts = grid.counts(who, caught)
    assert counts.dtype == (np.int64 if grid.any_within else np.int32)
    assert np.array_equal(grid.counts(who, caught), counts) and np.array_equal(grid.times, times)  # times unwritten
    grid.times = times.astype(np.int64)  # the times as int64, as the map held them before
    fixed = grid.times[who] * caught
    within = (grid.kind[who] == WITHIN)[:, :, None]
    expected = np.where(within, grid._picks(who, caught), fixed) if grid.any_within else fixed
    grid.times = times
    assert np.array_equal(counts, expected)
    assert (counts <= times[who]).all() and (counts[~caught] == 0).all() and counts.any()
