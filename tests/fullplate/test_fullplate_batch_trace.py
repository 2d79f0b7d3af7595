"""FullPlate traces batches (`batch_trace`, issue 19): every note whose words depend on the roll passes `where=`
or takes its words per attack, so one vectorised `resolve` traces N attacks. Each row of such a batch equals a
single roll of its faces: the row, and every step's text, clause and value."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings

from tests.conftest import EXAMPLES
from tests.fullplate.test_fullplate_properties import scenarios
from tohit.core.errors import InputError
from tohit.engine.roll import _roll_batch, roll
from tohit.engine.scenario import from_dict

EXAMPLE_FILES = sorted((EXAMPLES / "fullplate").glob("*.yaml"))


def _same_as_single_rolls(data: dict[str, Any], seed: int, n: int = 120) -> None:
    loaded = from_dict(copy.deepcopy(data), source="batch")
    batch = _roll_batch(loaded, n, np.random.default_rng(seed), seed)
    for result in batch:
        forced = copy.deepcopy(data)
        forced.pop("dice", None)
        for t in forced["targets"]:
            t["dice"] = result.target(t["name"]).faces
        single = roll(from_dict(forced, source="single"), seed=seed)
        for t in result.targets:
            one = single.target(t.name)
            assert one.row == t.row
            assert [s.to_json() for s in one.steps] == [s.to_json() for s in t.steps]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_fullplate_batch_rows_equal_single_rolls_on_every_example(path: Any) -> None:
    data = yaml.safe_load(path.read_text())
    for t in data["targets"]:
        t.pop("dice", None)
    for seed in (1, 2):
        _same_as_single_rolls(data, seed)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_fullplate_batch_rows_equal_single_rolls_on_any_scenario(data: dict[str, Any]) -> None:
    try:
        from_dict(copy.deepcopy(data), source="batch")
    except InputError:
        return
    _same_as_single_rolls(data, seed=3, n=60)
