"""The Shell and HP a hit takes, written once (consequences.py), as a table [Shells.md; decisions 5]."""

from __future__ import annotations

import pytest

from tohit.systems.last_odyssey.consequences import hp_lost, shell_hit


@pytest.mark.parametrize(
    ("damage", "points", "hp", "absorbed", "broken", "overflow", "lost"),
    [
        (3, 5, 10, 3, False, 0, 0),  # the Shell absorbs damage up to its points
        (5, 5, 10, 5, True, 0, 0),  # damage of exactly its points breaks it, nothing overflows
        (12, 5, 10, 5, True, 7, 0),  # an overflow below the HP is lost
        (15, 5, 10, 5, True, 10, 10),  # an overflow of at least the HP downs the character
        (7, 0, 10, 0, False, 0, 7),  # no Shell: the damage, up to the HP left
        (17, 0, 10, 0, False, 0, 10),
        (0, 5, 10, 0, False, 0, 0),  # no damage breaks nothing
    ],
)
def test_last_odyssey_shell_absorbs_breaks_and_overflows(
    damage: int, points: int, hp: int, absorbed: int, broken: bool, overflow: int, lost: int
) -> None:
    """Shells.md: "a Shell absorbs damage ... when it breaks, the overflow" downs the character only when it is
    at least the HP left (decisions 5)."""
    hit = shell_hit(damage, points)
    assert (int(hit.absorbed), bool(hit.broken), int(hit.overflow)) == (absorbed, broken, overflow)
    assert int(hp_lost(damage, points, hp)) == lost
