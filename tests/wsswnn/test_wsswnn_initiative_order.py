"""WSSWNN initiative [maneuvers]: each fight's round order from who beat its foes' highest Awareness, as places
(`fight.places`): those who beat it act first, in file order with sides alternating, then the others in the same
order."""

from __future__ import annotations

from itertools import product

import numpy as np

from tohit.systems.wsswnn.fight import places


def test_maneuvers_those_who_beat_it_act_first_then_the_others_each_in_file_order() -> None:
    """Four combatants in file order 0, 2, 1, 3 (sides alternating): per fight, the ones who beat their foes' highest
    Awareness take the first places in that order, the others follow in it."""
    file_order = (0, 2, 1, 3)
    no, yes = False, True
    beats = np.asarray([[no, no, no, no], [yes, yes, yes, yes], [no, yes, no, yes], [no, no, yes, no]])
    assert places(beats, file_order).tolist() == [
        [0, 2, 1, 3],  # nobody beat it: the file's order
        [0, 2, 1, 3],  # all did: the file's order
        [2, 0, 3, 1],  # 1 and 3 beat it: 1 then 3, then 0 and 2
        [1, 2, 0, 3],  # 2 alone: 2, then 0, 1, 3
    ]


def test_maneuvers_every_outcome_of_three_is_a_stable_sort_of_beaters_first() -> None:
    """Every combination of beats for three combatants in file order 1, 0, 2: the places are those of a stable sort
    by (did not beat, place in the file's order)."""
    file_order = (1, 0, 2)
    file_pos = np.asarray([file_order.index(c) for c in range(3)])
    beats = np.asarray(list(product([False, True], repeat=3)))
    order = np.argsort(np.where(beats, 0, 3) + file_pos, axis=1, kind="stable")
    expected = np.argsort(order, axis=1)
    assert (places(beats, file_order) == expected).all()
