"""The play loop's own work on a batch (issue 42, third round): whether each side has anyone standing read from the
packed rows (`rows.any_groups`), the end check's winner without a per-row choice, and the same results."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.core.fight.rows import any_groups


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 8, 9])
def test_any_groups_is_any_over_each_group_of_columns(width: int) -> None:
    """Each group's answer is numpy's `any` over its columns, for packed widths (1, 2, 4, 8) and others."""
    rng = np.random.default_rng(width)
    x = rng.random((500, width)) < 0.3
    groups = [tuple(range(0, width, 2)), tuple(range(1, width, 2)), (width - 1,)]
    groups = [g for g in groups if g]
    for got, g in zip(any_groups(x, groups), groups, strict=True):
        assert got.dtype == np.bool_
        assert np.array_equal(got, x[:, list(g)].any(axis=1))


def test_any_groups_of_a_strided_array_reads_its_columns() -> None:
    """A strided array (no packed rows) is read column by column, the same answers."""
    x = np.random.default_rng(0).random((200, 8)) < 0.2
    view = x[:, ::2]
    for got, g in zip(any_groups(view, [(0, 1), (2, 3)]), [(0, 1), (2, 3)], strict=True):
        assert np.array_equal(got, view[:, list(g)].any(axis=1))
