"""Last Odyssey: any scenario gives a result or one clear InputError (hypothesis), never a crash.

Two generators: `valid_scenarios` respects every rule (random statistics, Shells, HP, statuses, buffs,
elements, multipliers, knock-outs, several targets), so each one must give a consistent outcome; `mangled`
takes one of them and breaks one value, so each one must give an InputError naming a field.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.last_odyssey.helpers import load
from tohit.core.errors import InputError
from tohit.engine.odds import odds
from tohit.engine.roll import roll

STAT = st.integers(-3, 14)
STEP = st.sampled_from([-7, -3, -1, 0, 1, 3, 7])
STATUSES = st.lists(st.sampled_from(["blinded", "petrified", "paralyzed", "silenced", "burned"]), max_size=2)
USER_STATS = ("physical_accuracy", "magical_accuracy", "status_accuracy", "physical_attack", "magical_attack")
TARGET_STATS = ("evasion", "resistance", "physical_defense", "magical_defense")


@st.composite
def valid_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["physical", "magical", "status", "buff", "debuff"]))
    count = draw(st.integers(1, 4))
    melee = kind in ("physical", "magical") and draw(st.booleans())
    types: list[str] = (["multi"] if count > 1 else [draw(st.sampled_from(["ranged", "special", "ally"]))]) + (
        ["melee"] if melee else []
    )
    attacker: dict[str, Any] = {key: draw(STAT) for key in USER_STATS}
    attacker.update(
        name="User",
        row="front" if melee else draw(st.sampled_from(["front", "back"])),
        statuses=draw(STATUSES),
        buffs=draw(st.dictionaries(st.sampled_from(USER_STATS), STEP, max_size=2)),
    )
    attack: dict[str, Any] = {"kind": kind, "type": types}
    if draw(st.booleans()):
        attack["element"] = draw(st.sampled_from(["fire", "water", "wood", "light", "colorless"]))
    if kind == "status":
        attack["status"] = "confused"
    if kind in ("physical", "magical"):
        attack["multipliers"] = draw(st.lists(st.sampled_from([0.5, 1.5, 2, "3/2", 1.15, 0.25, 0]), max_size=3))
        attack["knock_out"] = draw(st.booleans())
    if kind in ("buff", "debuff"):
        attack["stat"] = draw(st.sampled_from(TARGET_STATS))
        attack["levels"] = draw(st.integers(1, 6))
    targets = []
    for i in range(count):
        target: dict[str, Any] = {key: draw(STAT) for key in TARGET_STATS}
        target.update(
            name=f"T{i}",
            shell=draw(st.one_of(st.booleans(), st.integers(0, 30))),
            row="front" if melee else draw(st.sampled_from(["front", "back"])),
            side=draw(st.sampled_from(["enemy", "ally"])),
            statuses=draw(STATUSES),
            buffs=draw(st.dictionaries(st.sampled_from(TARGET_STATS), STEP, max_size=2)),
            body_armor=draw(st.booleans()),
        )
        if draw(st.booleans()):
            target["hp"] = draw(st.integers(1, 40))
        if kind not in ("buff", "debuff"):
            target["lean_in"] = draw(st.booleans())
        if "element" not in attack and draw(st.booleans()):
            target["element_multiplier"] = draw(st.sampled_from([0.25, 0.5, 1, 2, 4]))
        elif draw(st.booleans()):
            target["element"] = draw(st.sampled_from(["fire", "ice", "wind", "colorless"]))
        targets.append(target)
    data: dict[str, Any] = {"system": "last-odyssey", "attacker": attacker, "attack": attack, "targets": targets}
    if kind not in ("buff", "debuff") and draw(st.booleans()):
        data["dice"] = {"hit": [draw(st.integers(1, 10))]}
    data["options"] = {
        "rounding": draw(st.sampled_from(["nearest", "down"])),
        "blinded_halves": draw(st.sampled_from(["base", "total"])),
    }
    return data


BREAKS: list[tuple[tuple[Any, ...], Any]] = [
    (("attacker", "physical_accuracy"), "high"),
    (("attacker", "row"), "middle"),
    (("attacker", "statuses"), ["stoned"]),
    (("attacker", "buffs"), {"luck": 1}),
    (("attacker", "magical_attack"), 10_000),
    (("attack", "kind"), "healing"),
    (("attack", "type"), ["aura"]),
    (("attack", "type"), "passive"),
    (("attack", "multipliers"), ["x2"]),
    (("attack", "levels"), 0),
    (("attack", "element"), "plasma"),
    (("targets", 0, "element_multiplier"), 3),
    (("targets", 0, "shell"), -1),
    (("targets", 0, "hp"), 0),
    (("targets", 0, "buffs"), {"evasion": 2}),
    (("targets", 0, "row"), "side"),
    (("targets", 0, "unknown_key"), 1),
    (("dice",), {"hit": [11]}),
    (("options", "rounding"), "up"),
]


def _set(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_scenarios())
def test_last_odyssey_any_valid_scenario_gives_a_consistent_outcome(data: dict[str, Any]) -> None:
    """A scenario that keeps every rule is accepted; its roll and exact odds agree with each other."""
    loaded = load(data)
    result = roll(loaded, 3)
    exact = odds(loaded)
    faces = {tuple(t.faces["hit"]) for t in result.targets}
    assert len(faces) == 1  # one hit die for every target
    for target, chances in zip(result.targets, exact.targets, strict=True):
        row = target.row
        assert row["result"] in ("hit", "miss")
        assert row["damage"] >= 0 and (row["result"] == "hit" or row["damage"] == 0)
        assert sum(p for _, p in chances.distribution("result")) == 1
        assert chances.probability("result", row["result"]) > 0
        assert chances.probability("damage", row["damage"]) > 0
        if row["hp_lost"] is not None:
            hp = next(t.get("hp") for t in data["targets"] if t["name"] == target.name)
            assert 0 <= row["hp_lost"] <= (hp if hp is not None else 0)
        if row["downed"] is not None:
            assert chances.probability("downed", row["downed"]) > 0
        assert all(isinstance(p, Fraction) for _, p in chances.distribution("damage"))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_scenarios(), st.sampled_from(BREAKS))
def test_last_odyssey_a_broken_value_gives_one_clear_error(data: dict[str, Any], broken: Any) -> None:
    """One malformed value in an otherwise valid scenario: an InputError on one line naming a field."""
    path, value = broken
    data = copy.deepcopy(data)
    _set(data, path, value)
    try:
        load(data)
    except InputError as exc:
        assert exc.field, exc
        assert "\n" not in str(exc)
        return
    raise AssertionError(f"{path} = {value!r} was accepted")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_scenarios())
def test_last_odyssey_batch_traced_rolls_equal_single_rolls(data: dict[str, Any]) -> None:
    """`batch_trace`: each of `roll --times N` (one vectorised resolve) equals a single roll with the same
    hit die forced, row and trace (every branch's note passes `where=`)."""
    from tohit.engine.roll import roll_many

    free = {k: v for k, v in data.items() if k != "dice"}
    batch = roll_many(load(free), 12, seed=5)
    for result in batch:
        faces = result.targets[0].faces["hit"]
        single = roll(load({**free, "dice": {"hit": faces}}) if faces else load(free), 0)
        for mine, theirs in zip(result.targets, single.targets, strict=True):
            assert mine.row == theirs.row
            assert [(s.text, s.clause, s.value) for s in mine.steps] == [
                (s.text, s.clause, s.value) for s in theirs.steps
            ]
