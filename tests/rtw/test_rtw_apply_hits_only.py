"""rtw consequences.apply given only the hits (issue 42: the fight reads no more than the rows that change):
`Outcome.result` None means every row is a hit, and `Before.fall` may be a function that is asked only for the
creatures brought to 0 Health (Falling in Battle)."""

from __future__ import annotations

import numpy as np

from tohit.core.fight.consequence import table
from tohit.systems.rtw.consequences import HELPLESS, PERISHES, Before, Outcome, apply
from tohit.systems.rtw.tables import HIT


def _a(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def _before(fall: object) -> Before:
    return Before(
        health=_a(12, 5, 3, 8, 2),
        dealt=_a(0, 4, 0, 0, 1),
        foe=None,
        hearts=_a(3, 3, 3, -1, 3),
        fall=fall,  # type: ignore[arg-type]
        attacker=_a(0, 1, 0, 1, 0),
    )


def test_every_row_a_hit_is_the_same_as_hit_on_every_row() -> None:
    """Result None (the fight gives only its hits): the items of a HIT on every row; `foe` None: every target a
    foe, its damage dealt counted."""
    codes = _a(HELPLESS, PERISHES, PERISHES, HELPLESS, HELPLESS)
    damage = _a(9, 5, 4, 7, 0)
    every = apply(_before(codes), Outcome(result=None, damage=damage))
    hits = apply(_before(codes), Outcome(result=_a(HIT, HIT, HIT, HIT, HIT), damage=damage))
    assert table(every.items) == table(hits.items)
    assert table(every.items) == [
        ("damage", "defender", "health", [0, 1, 2, 3], [3, 0, 0, 1]),
        ("damage", "attacker", "dealt", [0, 1, 2, 3], [9, 9, 3, 7]),
        ("peril", "defender", "peril", [0, 1], [1, 1]),
        ("falls", "defender", "perished", [1, 2], [1, 1]),
    ]


def test_falling_in_battle_asks_only_for_those_brought_to_0_health() -> None:
    """`fall` as a function: asked once, at the positions brought to 0 Health by some damage (a hit of no damage
    on a creature at 2 Health, a creature left above 0: not asked), and its codes say helpless or perishes."""
    asked: list[list[int]] = []

    def fall(at: np.ndarray) -> np.ndarray:
        asked.append(at.tolist())
        return np.where(at == 1, HELPLESS, PERISHES)

    applied = apply(_before(fall), Outcome(result=None, damage=_a(9, 5, 4, 7, 0)))
    assert asked == [[1, 2]]
    assert [row for row in table(applied.items) if row[0] == "falls"] == [
        ("falls", "defender", "helpless", [1], [1]),
        ("falls", "defender", "perished", [2], [1]),
    ]
