"""Property tests (hypothesis): any FullPlate scenario gives a result or one clear InputError, and the exact odds
keep the page's invariants (a natural 1 is 1 in 20; the hit chance is the natural needed's chance)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fullplate.helpers import exact, load, row
from tohit.core.errors import InputError
from tohit.systems.fullplate.circumstances import BY_ID

KINDS = ["melee", "thrown", "bow_like", "gun_like"]
SIZES = ["tiny", "small", "medium", "large", "huge", "gargantuan"]


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(KINDS))
    weapon: dict[str, Any] = {
        "damage": draw(st.sampled_from(["1d4", "1d6+1", "2d4", "1d8", "1d3-1"])),
        "enhancement": draw(st.integers(-2, 4)),
        "critical_range": draw(st.integers(15, 20)),
        "kind": kind,
    }
    if kind != "melee" and draw(st.booleans()):
        weapon["ranges"] = {"short": 30, "medium": 60, "long": 90}
    attacker: dict[str, Any] = {
        "thac0": draw(st.integers(-5, 30)),
        "to_hit_bonus": draw(st.integers(-6, 6)),
        "damage_bonus": draw(st.integers(-4, 4)),
        "ambidextrous": draw(st.booleans()),
        "precision": draw(st.booleans()),
        "hands": draw(st.integers(0, 4)),
        "weapon": weapon,
    }
    if kind in ("bow_like", "gun_like") and draw(st.booleans()):
        attacker["ammunition"] = {"enhancement": draw(st.integers(-1, 3)), "loses_all_on_hit": draw(st.booleans())}
    attack: dict[str, Any] = {
        "circumstances": draw(st.lists(st.sampled_from(sorted(BY_ID)), max_size=3)),
        "off_hand": draw(st.booleans()),
        "automatic_hit": draw(st.booleans()),
        "called": draw(st.booleans()),
        "backstab": draw(st.integers(0, 3)),
    }
    if draw(st.booleans()):
        attack["distance"] = draw(st.integers(0, 200))
    target: dict[str, Any] = {
        "name": "T",
        "ac": draw(st.integers(-15, 12)),
        "special_defence": draw(st.integers(0, 3)),
        "armour": draw(st.sampled_from(["none", "natural", "worn"])),
        "size": draw(st.sampled_from(SIZES)),
        "flatfooted": draw(st.booleans()),
        "dodge": draw(st.integers(0, 2)),
        "deflection": draw(st.integers(0, 2)),
        "engaged_with": [
            {"name": f"E{i}", "size": s} for i, s in enumerate(draw(st.lists(st.sampled_from(SIZES), max_size=2)))
        ],
        "enemies_engaged": draw(st.integers(0, 3)),
        "resistance_pct": draw(st.sampled_from([0, 25, 50])),
        "vulnerability_pct": draw(st.sampled_from([0, 25])),
        "hp": 20,
    }
    options = {
        "game": draw(st.sampled_from(["traditional", "heroic", "epic"])),
        "crit_damage": draw(st.sampled_from(["severity", "double_dice", "max_damage"])),
        "modifier_stacking": draw(st.sampled_from(["page", "all"])),
    }
    return {"system": "fullplate", "attacker": attacker, "attack": attack, "targets": [target], "options": options}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_fullplate_any_scenario_gives_a_result_or_a_clear_error(data: dict[str, Any]) -> None:
    """Any scenario is either refused with one InputError naming a field, or rolls and has exact odds that keep
    the page's invariants."""
    try:
        load(data)
    except InputError as exc:
        assert exc.field and exc.message and "\n" not in str(exc)
        return
    out = row(data, seed=3)
    assert out["result"] in ("hit", "miss", "fumble")
    assert out["damage"] >= 0 and (out["damage"] == 0 or out["result"] == "hit")
    odds = exact(data)
    assert sum(p for _, p in odds.distribution("result")) == 1
    if data["attack"]["automatic_hit"]:
        assert odds.probability("result", "miss") == 0
        assert odds.probability("result", "fumble") <= Fraction(1, 20)
        return
    # A natural 1 always fumbles: 1 in 20, whatever the numbers.
    assert odds.probability("result", "fumble") == Fraction(1, 20)
    hit = odds.probability("result", "hit")
    chance = Fraction(out["natural_chance_pct"], 100)
    if out["effective_thac0"] - out["target_ac"] <= 30:
        assert hit == chance
    else:  # beyond the window a natural 20 halves, and may round to a miss
        assert hit <= Fraction(1, 20)
    assert odds.probability("critical", True) <= hit
