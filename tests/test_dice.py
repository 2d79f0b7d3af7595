"""Dice notation (issue #2 §2): NdX, +/- constants and terms, khN / klN; exact distributions checked by
icepool; limits refused before any work; any string parses or is refused cleanly."""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tohit.core.dice import MAX_DICE, MAX_FACES, parse
from tohit.core.errors import DiceError, FacesError
from tohit.core.roles import DiceRole, FacesRole, PickRole, sum_faces

ORACLE = {
    "2d6+3": icepool.d6.pool(2).sum() + 3,
    "1d8 + 1d6 - 1": icepool.d8 + icepool.d6 - 1,
    "4d6kh3": icepool.d6.pool(4).highest(3).sum(),
    "3d6kl2": icepool.d6.pool(3).lowest(2).sum(),
    "d20 - 1d4": icepool.d20 - icepool.d4,
    "10d10kh4 + 2": icepool.d10.pool(10).highest(4).sum() + 2,
    "5": icepool.Die([5]),
}


def as_fractions(low: int, weights: list[int]) -> dict[int, Fraction]:
    total = sum(weights)
    return {low + i: Fraction(w, total) for i, w in enumerate(weights) if w}


@pytest.mark.parametrize("text", list(ORACLE))
def test_dice_notation_distribution_matches_icepool(text: str) -> None:
    die = ORACLE[text]
    want = {int(v): Fraction(c, die.denominator()) for v, c in die.items() if c}
    assert as_fractions(*parse(text).distribution()) == want


def test_dice_notation_min_max_and_dice_count() -> None:
    expr = parse("4d6kh3 - 1d4 + 2")
    assert (expr.minimum, expr.maximum, expr.dice_count) == (3 - 4 + 2, 18 - 1 + 2, 5)


def test_dice_notation_keep_reads_forced_faces() -> None:
    assert parse("4d6kh3").read([1, 6, 2, 5]) == 13
    assert parse("3d6kl2+1").read([6, 2, 5]) == 8
    with pytest.raises(FacesError):
        parse("2d6").read([7, 1])
    with pytest.raises(FacesError):
        parse("2d6").read([1])


def test_dice_notation_sample_stays_in_range_and_is_seeded() -> None:
    expr = parse("3d8kh2+1")
    a = expr.sample(np.random.default_rng(3), 10_000)
    assert a.min() >= expr.minimum and a.max() <= expr.maximum
    assert (a == expr.sample(np.random.default_rng(3), 10_000)).all()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (f"{MAX_DICE + 1}d6", "more than 1000 dice"),
        ("600d6 + 600d6", "more than 1000 dice"),
        (f"1d{MAX_FACES + 1}", "more than 1000 faces"),
        ("1000000000d6", "over the limits"),
        ("2d6kh3", "keep 1 to 2"),
        ("0d6", "at least one die"),
        ("d0", "at least one face"),
        ("2d6+", "ends with an operator"),
        ("2x6", "cannot read"),
        ("", "non-empty"),
    ],
)
def test_dice_notation_limits_and_errors_are_refused_before_any_work(text: str, words: str) -> None:
    with pytest.raises(DiceError, match=words):
        parse(text)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789dkhl+- ", max_size=16))
def test_any_dice_string_parses_or_is_refused_cleanly(text: str) -> None:
    try:
        expr = parse(text)
    except DiceError:
        return
    assert expr.dice_count <= MAX_DICE
    if expr.dice_count <= 6:
        low, weights = expr.distribution()
        assert low == expr.minimum and low + len(weights) - 1 == expr.maximum


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 12), st.data())
def test_keep_highest_distribution_matches_icepool(count: int, sides: int, data: st.DataObject) -> None:
    keep = data.draw(st.integers(1, count))
    die = icepool.Die(range(1, sides + 1)).pool(count).highest(keep).sum()
    want = {int(v): Fraction(c, die.denominator()) for v, c in die.items() if c}
    assert as_fractions(*parse(f"{count}d{sides}kh{keep}").distribution()) == want


# -- Roles: the three-way contract ------------------------------------------------------------------------------
def test_dice_role_support_sample_and_faces_agree() -> None:
    role = DiceRole("damage", "2d8+3")
    sup = role.support(0)
    assert sup.total == 64 and int(sup.columns["total"].min()) == 5 and int(sup.columns["total"].max()) == 19
    assert int(role.read([8, 8])["total"][0]) == 19
    with pytest.raises(FacesError, match=r"^damage: face 9 is not on a d8"):
        role.read([9, 1])


def test_faces_role_enumerates_its_support() -> None:
    role = FacesRole("to_hit", (6, 6), sum_faces, notation="2d6", columns=("total",))
    sup = role.support(0)
    assert dict(zip(sup.columns["total"].tolist(), [int(w) for w in sup.weights], strict=True))[7] == 6
    assert sup.total == 36
    with pytest.raises(FacesError, match="needs 2 faces"):
        role.read([3])


def test_pick_role_reads_a_die_over_the_total_weight() -> None:
    """FullPlate's ogres: weights 4, 4, 2 are a d10: 1-4, 5-8, 9-10."""
    role = PickRole("pick", [4, 4, 2])
    assert role.notation == "d10"
    assert [int(role.read([f])["index"][0]) for f in (1, 4, 5, 8, 9, 10)] == [0, 0, 1, 1, 2, 2]
