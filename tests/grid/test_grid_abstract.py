"""Abstract Combat Ranges: target counts with no map."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter

from tohit.core.grid.abstract import abstract_problem, abstract_targets
from tohit.core.grid.models import Range

RANGE: TypeAdapter[Any] = TypeAdapter(Range)


@pytest.mark.parametrize(
    ("spec", "plain", "close"),
    [
        ({"type": "burst", "size": 1}, 2, 3),
        ({"type": "burst", "size": 2}, 4, 5),
        ({"type": "cone", "size": 2}, 1, 2),
        ({"type": "cone", "size": 3}, 2, 3),
        ({"type": "line", "size": 5}, 3, 4),
        ({"type": "blast", "size": 1}, 1, 2),
        ({"type": "sweep", "size": 2}, 1, 2),
        ({"type": "melee"}, 1, 1),
        ({"type": "projectile", "size": 8}, 1, 1),
        ({"type": "targets_within", "count": 3, "within": 8}, 3, 3),
    ],
)
def test_grid_abstract_target_counts(spec: dict[str, Any], plain: int, close: int) -> None:
    """Burst X hits 2X; Blast, Cone, Line, Sweep X hit 1 + 1 per 2 beyond the first; +1 when close
    together; Melee and Projectile 1; X Targets within Y: X (rtw: Abstract Combat Ranges)."""
    rng = RANGE.validate_python(spec)
    assert abstract_targets(rng) == plain
    assert abstract_targets(rng, close_together=True) == close


def test_grid_abstract_isolated_foe_cannot_share_an_attack() -> None:
    rng = RANGE.validate_python({"type": "burst", "size": 2})
    assert abstract_problem(rng, ["a", "b"], False, ["b"]) == (
        "b is isolated: it cannot be included in an attack with other foes"
    )
    assert abstract_problem(rng, ["b"], False, ["b"]) is None
    assert "at most 2 targets" in (
        abstract_problem(RANGE.validate_python({"type": "cone", "size": 3}), ["a", "b", "c"], False, []) or ""
    )
