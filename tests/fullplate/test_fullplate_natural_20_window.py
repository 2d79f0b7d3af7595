"""FullPlate, Attacking: the natural-20 window in the trace (issue 15, item 4; docs/fullplate.md#silent-natural-20).
"If this would reduce it below half a point of damage, then no damage is dealt and the attack probably misses": when
every damage roll of a natural 20 halves below half a point, even a natural 20 cannot hit, and the trace says so with
0%. Every "needs N+" figure in a trace equals the exact odds."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fullplate.helpers import exact, load, make, p, rolled, row, trace
from tohit.core.errors import InputError

#: "Against AC 5 (knight; ...): needs 12+ on the d20 (45%)" or "Against AC -30: cannot hit (0%): ...".
NEEDS = re.compile(
    r"Against AC (?P<ac>-?\d+)(?: \((?P<who>[^;)]+)(?:;[^)]*)?\))?: "
    r"(?:needs (?P<need>\d+)\+ on the d20 \((?P<pct>[\d.]+)%(?: \(exactly (?P<num>\d+)/(?P<den>\d+)\))?\)"
    r"|(?P<cannot>cannot hit \(0%\)))"
)
SIZE_STEP = {"tiny": -2, "small": -1, "medium": 0, "large": 1, "huge": 2, "gargantuan": 3}


def figures(text: str) -> list[tuple[str | None, int | None, Fraction]]:
    """(creature named or None, natural needed or None, the chance the trace gives) of each "needs" line."""
    out = []
    for m in NEEDS.finditer(text):
        if m["cannot"]:
            out.append((m["who"], None, Fraction(0)))
        elif m["num"]:
            out.append((m["who"], int(m["need"]), Fraction(int(m["num"]), int(m["den"]))))
        else:
            out.append((m["who"], int(m["need"]), Fraction(m["pct"]) / 100))
    return out


def test_fullplate_natural_20_that_cannot_hit_says_cannot_hit_and_0_percent() -> None:
    """ "If this would reduce it below half a point of damage, then no damage is dealt": effective THAC0 20 vs
    AC -30, a natural 20 short by 30: four halvings take even 1d4's 4 to 0.25. The trace says "cannot hit" and
    0% (it said "needs 20+ (5%)" before), as the exact odds do."""
    data = make(attacker={"thac0": 20}, weapon={"damage": "1d4"}, target={"ac": -30}, dice={"to_hit": [20]})
    text = trace(data)
    assert "Against AC -30: cannot hit (0%)" in text
    assert "needs 20+" not in text
    out = row(data)
    assert (out["natural_needed"], out["natural_chance_pct"], out["result"]) == (None, 0, "miss")
    assert p(exact(data), "result", "hit") == 0


def test_fullplate_natural_20_that_hits_with_some_damage_rolls_gives_the_exact_chance() -> None:
    """Short by 22: three halvings; of 1d4 only a 4 stays at half a point (4 / 8): the natural 20 hits 1 time in
    4, so the chance is 5% x 1/4 = 1.25%, as the exact odds say."""
    data = make(attacker={"thac0": 20}, weapon={"damage": "1d4"}, target={"ac": -22}, dice={"to_hit": [20]})
    text = trace(data)
    assert "needs 20+ on the d20 (1.25%)" in text and "1/4 of them" in text
    assert p(exact(data), "result", "hit") == Fraction(1, 80)


def test_fullplate_natural_20_window_with_an_unending_decimal_gives_the_fraction() -> None:
    """1d3 halved twice: 1 / 4 < 0.5 misses, 2 and 3 stay: 2/3 of 5%: "3.33% (exactly 1/30)"."""
    data = make(attacker={"thac0": 20}, weapon={"damage": "1d3"}, target={"ac": -16}, dice={"to_hit": [20]})
    assert "needs 20+ on the d20 (3.33% (exactly 1/30))" in trace(data)
    assert p(exact(data), "result", "hit") == Fraction(1, 30)


def test_fullplate_zero_damage_is_no_miss_so_a_natural_20_still_hits() -> None:
    """A damage already 0 (a Special Defence the weapon cannot touch) is not halved into a miss: the natural 20
    beyond the window still hits, for 0: needs 20+ (5%)."""
    data = make(
        attacker={"thac0": 20},
        weapon={"damage": "1d4"},
        target={"ac": -30, "special_defence": 3},
        dice={"to_hit": [20]},
    )
    assert "needs 20+ on the d20 (5%)" in trace(data)
    assert p(exact(data), "result", "hit") == Fraction(1, 20)


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["melee", "thrown", "bow_like"]))
    sizes = ["tiny", "small", "medium", "large", "huge"]
    engaged = []
    for i in range(draw(st.integers(0, 3))):
        entry: dict[str, Any] = {"name": f"E{i}", "size": draw(st.sampled_from(sizes))}
        if draw(st.booleans()):
            entry["ac"] = draw(st.integers(-30, 12))
            entry["special_defence"] = draw(st.integers(0, 3))
            entry["resistance_pct"] = draw(st.sampled_from([0, 50, 100]))
            entry["vulnerability_pct"] = draw(st.sampled_from([0, 25]))
        engaged.append(entry)
    return {
        "system": "fullplate",
        "attacker": {
            "thac0": draw(st.integers(-5, 40)),
            "damage_bonus": draw(st.integers(-3, 3)),
            "precision": draw(st.booleans()),
            "weapon": {
                "damage": draw(st.sampled_from(["1d2", "1d3", "1d4", "2d4", "1d6+1", "1d3-1", "1d20"])),
                "enhancement": draw(st.integers(-1, 2)),
                "kind": kind,
            },
        },
        "attack": {"circumstances": draw(st.lists(st.sampled_from(["visibility_50", "attacker_above"]), max_size=2))},
        "targets": [
            {
                "name": "T",
                "ac": draw(st.integers(-30, 12)),
                "size": draw(st.sampled_from(sizes)),
                "special_defence": draw(st.integers(0, 3)),
                "resistance_pct": draw(st.sampled_from([0, 50, 100])),
                "engaged_with": engaged,
            }
        ],
        "options": {"game": draw(st.sampled_from(["heroic", "traditional"]))},
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_fullplate_every_needs_figure_in_a_trace_equals_the_exact_odds(data: dict[str, Any]) -> None:
    """Every "needs N+" figure (and every "cannot hit (0%)") in a trace is the exact chance to hit that creature:
    the whole hit chance for a sure shot; for a shot into melee, the chance to hit given that creature is picked
    (its share of the pick die; a creature without stats is judged as the intended target, so it has the
    target's figure)."""
    try:
        load(data)
    except InputError:
        return
    odds = exact(data)
    text = "\n".join(s.text for s in rolled(data, seed=2).targets[0].steps)
    found = figures(text)
    assert found, text
    target = data["targets"][0]
    engaged = target["engaged_with"]
    melee = bool(engaged) and data["attacker"]["weapon"]["kind"] != "melee" and not data["attacker"]["precision"]
    if not melee:
        assert len(found) == 1 and found[0][0] is None
        _, need, chance = found[0]
        assert chance == p(odds, "result", "hit")
        _check_need(need, chance)
        return
    weights = {e["name"]: Fraction(2) ** SIZE_STEP[e["size"]] for e in engaged}
    weights["T"] = Fraction(2) ** SIZE_STEP[target["size"]]
    total = sum(weights.values())
    by_name = {who: (need, chance) for who, need, chance in found}
    for name, weight in weights.items():
        judged_as = name if name == "T" or "ac" in next(e for e in engaged if e["name"] == name) else "T"
        need, chance = by_name[judged_as]
        assert p(odds, "creature_hit", name) == weight / total * chance, (name, text)
        _check_need(need, chance)
    assert set(by_name) == {"T"} | {e["name"] for e in engaged if "ac" in e}


def _check_need(need: int | None, chance: Fraction) -> None:
    """N is the lowest natural that hits: naturals N..20 all hit when N < 20; a 20 alone hits at most 5%."""
    if need is None:
        assert chance == 0
    elif need < 20:
        assert chance == Fraction(21 - need, 20)
    else:
        assert 0 < chance <= Fraction(1, 20)
