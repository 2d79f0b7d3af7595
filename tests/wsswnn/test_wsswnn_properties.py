"""Property tests (docs/architecture.md, "Tests"): any WSSWNN scenario gives a result or one clear InputError, and every
outcome the exact odds can reach keeps the page's invariants (a miss inflicts nothing; a block no lethal
damage; Guard after = Guard - guard damage, never below 0; a fall only after a missed jump-attack)."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import scenario
from tohit.core.errors import InputError
from tohit.engine import joint
from tohit.engine.roll import roll

DICE = st.sampled_from(["d4", "d6", "d8", "d10", "d12"])
SMALL = st.integers(0, 6)

WEAPONS = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {},
        optional={
            "blunted": st.booleans(),
            "guard_damage": st.integers(0, 3),
            "awareness_damage": st.integers(0, 1),
            "lethal": st.booleans(),
            "throw": st.booleans(),
            "on_block": st.sampled_from(["disarm", "break"]),
        },
    ),
)
BRACES = {
    "melee": [None, "disarm", "break"],
    "ranged": [None, "disarm"],
    "jump": [None, "break"],
    "take_hold": [None, "grapple", "shove"],
    "brace": ["grapple", "shove", "stand_fast", "disarm", "break"],
}


def maybe(draw: st.DrawFn, value: Any, p_keep: float = 0.9) -> Any:
    """`value`, or (rarely) a draw that may break the scenario, so both paths are exercised."""
    return value if draw(st.floats(0, 1)) < p_keep else draw(st.sampled_from([None, 0, -1, "d20"]))


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """Mostly valid scenarios of every kind, with the odd broken field."""
    kind = draw(st.sampled_from(sorted(BRACES)))
    attacker: dict[str, Any] = {
        "attack_die": draw(DICE),
        "brace_die": draw(DICE),
        "maneuver_die": draw(DICE),
        "strength": draw(SMALL),
        "penalty": draw(
            st.one_of(st.integers(0, 3), st.fixed_dictionaries({}, optional={"attack": SMALL, "brace": SMALL}))
        ),
        "weapon": draw(WEAPONS),
        "guard": 1,
        "max_guard": 5,
    }
    if draw(st.booleans()):
        attacker["compel_die"] = draw(DICE)
    attack: dict[str, Any] = {"kind": kind}
    brace = draw(st.sampled_from(BRACES[kind]))
    if brace is not None:
        attack["brace"] = brace
    if kind == "jump":
        attack["heights"] = maybe(draw, draw(st.integers(1, 3)))
    if kind == "ranged":
        attack["spans"] = maybe(draw, draw(st.integers(0, 6)))
        attack["throw"] = draw(st.booleans())
    if kind in ("melee", "jump"):
        attack["target_arms"] = draw(st.booleans())
        attack["mighty_blow"] = draw(st.booleans())
    attack["modifier"] = draw(st.integers(-3, 3))
    if draw(st.booleans()):
        attack["advantage"] = draw(st.sampled_from(["maneuver", "compel", "brace"]))
    if draw(st.floats(0, 1)) < 0.2 and kind in ("melee", "ranged", "jump"):
        target: dict[str, Any] = {"name": "Thing", "structure": draw(st.integers(0, 30))}
        if draw(st.booleans()):
            target["toughness"] = draw(SMALL)
        else:
            target["materials"] = draw(
                st.lists(st.sampled_from(["cloth", "wicker", "wood", "bronze", "stone"]), min_size=1, max_size=3)
            )
    else:
        target = {
            "name": "Foe",
            "guard": maybe(draw, draw(SMALL)),
            "agility": draw(SMALL),
            "armor": draw(st.integers(0, 3)),
            "life": draw(st.integers(0, 20)),
            "stamina": draw(SMALL),
            "strength": draw(SMALL),
            "shield": draw(st.booleans()),
            "unflinching": draw(st.integers(0, 2)),
            "grappled": draw(st.booleans()),
            "held": maybe(draw, True),
        }
    return {"system": "wsswnn", "attacker": attacker, "attack": attack, "targets": [target]}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=scenarios())
def test_wsswnn_any_scenario_gives_a_result_or_a_clear_error(data: dict[str, Any]) -> None:
    """Loader and rules: a clear InputError, or a roll and an exact table whose every row keeps the invariants."""
    attack = data["attack"]
    try:
        loaded = scenario(data)
    except InputError as exc:
        assert str(exc).startswith("test: ")
        assert "\n" not in str(exc)
        return
    roll(loaded, seed=1)
    t = loaded.scenario.targets[0]
    table = joint.build(loaded.system, loaded.scenario, t)
    out = table.outcome
    assert int(table.weights[table.finite].sum()) == table.total
    labels = out.labels.get("result", ("hit", "block", "miss"))
    result = np.asarray([labels[c] for c in out["result"]])
    lethal, guard_damage = out["lethal"], out["guard_damage"]
    if t.is_object:
        assert (out["damage"] >= 0).all()
        assert (out["structure_after"] == np.maximum(0, (t.structure or 0) - out["damage"])).all()
        return
    assert (out["damage"] == lethal).all()
    assert (lethal >= 0).all() and (guard_damage >= 0).all()
    assert (out["guard_after"] == np.maximum(0, (t.guard or 0) - guard_damage)).all()
    if attack["kind"] != "brace":
        assert (lethal[result != "hit"] == 0).all()
        assert (guard_damage[result == "miss"] == 0).all()
        assert (out["awareness_damage"][result != "hit"] == 0).all()
        falls = out["falling_lethal"] != -(2**62)
        assert (falls == ((result == "miss") & (attack["kind"] == "jump"))).all()
