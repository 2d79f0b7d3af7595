"""The Python API checks its arguments (issue 20, item 5): bad values are an InputError naming the argument,
`dir(tohit)` shows the API, and fights and aim are in it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import tohit
import tohit.api
from tests.conftest import EXAMPLES

CEIL = EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
GRID = EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml"


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda a: tohit.simulate(a, -5), "n"),
        (lambda a: tohit.simulate(a, "x"), "n"),
        (lambda a: tohit.simulate(a, 10, method="bogus"), "method"),
        (lambda a: tohit.simulate(a, 10, workers=0), "workers"),
        (lambda a: tohit.roll(a, seed=-1), "seed"),
        (lambda a: tohit.roll(a, seed=1.5), "seed"),
        (lambda a: tohit.roll(a, seed=True), "seed"),
        (lambda a: tohit.roll_many(a, -1), "times"),
        (lambda a: tohit.odds(a, depth=99), "depth"),
        (lambda a: tohit.odds(a, depth=-1), "depth"),
    ],
)
def test_api_bad_arguments_are_input_errors_naming_them(call: Any, field: str) -> None:
    attack = tohit.load(CEIL)
    with pytest.raises(tohit.InputError) as err:
        call(attack)
    assert err.value.field == field


def test_api_unknown_target_names_the_known_ones() -> None:
    result = tohit.odds(tohit.load(CEIL))
    with pytest.raises(tohit.InputError, match="targets: Bandit"):
        result.target("Nobody")
    with pytest.raises(tohit.InputError, match="targets: Bandit"):
        tohit.roll(tohit.load(CEIL), seed=1).target("Nobody")


def test_api_unknown_label_or_field_raises_instead_of_returning_0() -> None:
    bandit = tohit.odds(tohit.load(CEIL)).target("Bandit")
    assert bandit.probability("result", "hit") > 0
    with pytest.raises(tohit.InputError, match="one of hit"):
        bandit.probability("result", "hti")
    with pytest.raises(tohit.InputError, match="no field"):
        bandit.probability("resutl", "hit")


def test_api_dir_shows_the_api_and_matches_tohit_api() -> None:
    assert set(tohit.__all__) - {"__version__"} == set(tohit.api.__all__)
    for name in ("roll", "odds", "simulate", "load", "load_fight", "fight", "aim"):
        assert name in dir(tohit)


def test_api_fights_narrate_simulate_and_solve() -> None:
    duel = tohit.load_fight(DUEL)
    log = tohit.fight(duel, seed=1)
    assert log.events[-1]["kind"] == "end"
    stats = tohit.fight(duel, n=200, seed=1)
    assert stats.n == 200
    exact = tohit.fight(duel, exact=True)
    assert sum(exact.wins) + exact.draw + exact.beyond == 1
    with pytest.raises(tohit.InputError):
        tohit.fight(duel, n=10, exact=True)
    with pytest.raises(tohit.InputError):
        tohit.fight("not a fight")  # type: ignore[arg-type]


def test_api_aim_ranks_placements() -> None:
    best = tohit.aim(GRID, top=3)
    assert 1 <= len(best) <= 3
    assert isinstance(Fraction(best[0]["score"]["fraction"]), Fraction)
