"""An outcome table laid out for the exact chain once (issue 42, item 3): its rows' fields as one block, a row of
zeros for the weight beyond the depth, made once per fields and read again by every step that expands by it."""

from __future__ import annotations

import numpy as np

from tohit.engine.fight.outcome_table import OutcomeTable


def test_a_table_is_laid_out_once_per_fields_with_its_remainder_row_last() -> None:
    columns = {"damage": np.asarray([0, 3, 5]), "hit": np.asarray([0, 1, 1])}
    table = OutcomeTable(columns, [5, 3, 1], 10, 1)
    rows, beyond, numerators = table.laid(("hit", "damage"))
    assert rows.tolist() == [[0, 0], [1, 3], [1, 5], [0, 0]]
    assert beyond.tolist() == [False, False, False, True] and numerators.tolist() == [5, 3, 1, 1]
    assert table.laid(("hit", "damage"))[0] is rows  # made once
    assert table.laid(("damage",))[0].tolist() == [[0], [3], [5], [0]]
    whole = OutcomeTable(columns, [5, 3, 2], 10, 0)
    rows, beyond, _ = whole.laid(("damage",))
    assert rows.tolist() == [[0], [3], [5]] and not beyond.any()
