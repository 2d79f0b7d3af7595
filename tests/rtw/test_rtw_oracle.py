"""Exact odds cross-checked against an independent oracle: brute force over itertools.product, and icepool."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

import icepool
import pytest

from tests.conftest import scenario
from tests.rtw import oracle
from tests.rtw.helpers import SWORD
from tohit.engine import joint
from tohit.engine.odds import odds

Joint = dict[oracle.Outcome, Fraction]

BASIC_THREE: dict[str, Any] = {
    "system": "rtw",
    "attacker": {"accuracy": 2, "combat": 3, "weapon": {**SWORD, "crit_range": 1}},
    "attack": {"kind": "basic", "damage": {"trait": "combat", "multiplier": 2}},
    "targets": [
        {"name": "Bokoblin", "evasion": 12, "defense": 2},
        {"name": "Keese", "evasion": 14, "hard_to_hit": "hard", "vulnerable": ["sharp"], "resistance": {"sharp": 2}},
        {"name": "Knight", "evasion": 9, "defense": 7, "reaction": "deflect"},
    ],
}
SPELL_WITH_EFFECT: dict[str, Any] = {
    "system": "rtw",
    "attacker": {"accuracy": 3, "willpower": 4, "weapon": {**SWORD, "acc": 4}},
    "attack": {
        "kind": "spell",
        "damage": {"trait": "willpower", "multiplier": 2},
        "damage_type": ["fire", "light"],
        "effect": {"name": "On Fire", "against": "vitality"},
    },
    "targets": [
        {"name": "Moblin", "evasion": 11, "vitality": 13, "defense": 3, "resistance": {"fire": 1, "light": 2}},
        {"name": "Lizalfos", "evasion": 15, "vitality": 10, "off_balance": True, "hard_to_hit": "extreme"},
        {"name": "Chuchu", "evasion": 8, "vitality": 8, "immune": ["light"]},
    ],
}
BLINDED_OPTION: dict[str, Any] = {
    "system": "rtw",
    "attacker": {"accuracy": 1, "combat": 4, "blinded": True, "weapon": {**SWORD, "crit_range": 2}},
    "attack": {
        "kind": "basic",
        "against": "concentration",
        "effect": {"name": "Distracted", "against": "concentration"},
    },
    "options": {"natural_crit_always_hits": True},
    "targets": [
        {"name": "Wizzrobe", "evasion": 10, "concentration": 15, "vulnerable": ["sharp"], "defense": 12},
        {"name": "Octorok", "evasion": 13, "concentration": 9, "off_balance": True, "defense": 2},
        {"name": "Darknut", "evasion": 11, "concentration": 12, "reaction": "parry"},
    ],
}
TECHNIQUE_DAZZLED: dict[str, Any] = {
    "system": "rtw",
    "attacker": {"accuracy": 2, "combat": 2, "dazzled": True},
    "attack": {"kind": "technique", "damage": {"trait": "combat", "multiplier": 3}},
    "targets": [{"name": "Guardian", "evasion": 9, "defense": 1}, {"name": "Stal", "evasion": 16}],
}
SCENARIOS = {
    "basic-three-targets": BASIC_THREE,
    "spell-with-effect": SPELL_WITH_EFFECT,
    "blinded-option": BLINDED_OPTION,
    "technique-dazzled": TECHNIQUE_DAZZLED,
}


def engine_joint(data: dict[str, Any], name: str) -> Joint:
    """The joint distribution of (result, damage, critical, effect_landed) from the engine's exact table."""
    loaded = scenario(data)
    target = next(t for t in loaded.scenario.targets if t.name == name)
    table = joint.build(loaded.system, loaded.scenario, target)
    weights = table.weights[table.finite]
    out: dict[oracle.Outcome, Fraction] = defaultdict(Fraction)
    fields = [loaded.system.field(f) for f in ("result", "damage", "critical", "effect_landed")]
    for i, w in enumerate(weights):
        row = tuple(table.outcome.decode(f, int(table.outcome[f.name][i])) for f in fields)
        out[row] += Fraction(int(w), table.total)  # type: ignore[index]
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("key", list(SCENARIOS))
def test_rtw_exact_odds_match_brute_force_oracle(key: str) -> None:
    """Exact is exact: the engine's joint distribution equals an independent brute force over the dice faces."""
    data = SCENARIOS[key]
    for target in data["targets"]:
        assert engine_joint(data, target["name"]) == oracle.distribution(data, target), target["name"]


@pytest.mark.parametrize("key", list(SCENARIOS))
def test_rtw_odds_marginals_match_brute_force_oracle(key: str) -> None:
    """The `odds` report (per field) agrees with the oracle's marginals, and its mean damage too."""
    data = SCENARIOS[key]
    result = odds(scenario(data))
    for target in data["targets"]:
        expected = oracle.distribution(data, target)
        ours = result.target(target["name"])
        for index, field in enumerate(("result", "damage", "critical", "effect_landed")):
            marginal: dict[Any, Fraction] = defaultdict(Fraction)
            for outcome, p in expected.items():
                marginal[outcome[index]] += p
            got = {v: p for v, p in ours.distribution(field) if p}
            assert got == dict(marginal), (target["name"], field)
        assert ours.mean_damage == sum(p * o[1] for o, p in expected.items())


def test_rtw_exact_odds_match_icepool() -> None:
    """icepool computes the same Basic Attack against three targets: To-Hit 2d6 mapped through the rules."""
    data = BASIC_THREE
    for target in data["targets"]:
        die = (2 @ icepool.d6).map(lambda total, t=target: oracle.outcome(data, t, total, None))
        expected = {k: Fraction(die.quantity(k), die.denominator()) for k in die.outcomes()}
        assert engine_joint(data, target["name"]) == expected


def test_rtw_exact_odds_with_effect_match_icepool() -> None:
    """icepool with two independent 2d6 (To-Hit and effect) agrees on a Spell with an additional effect."""
    data = SPELL_WITH_EFFECT
    for target in data["targets"]:
        die = icepool.map(lambda a, b, t=target: oracle.outcome(data, t, a, b), 2 @ icepool.d6, 2 @ icepool.d6)
        expected = {k: Fraction(die.quantity(k), die.denominator()) for k in die.outcomes()}
        assert engine_joint(data, target["name"]) == expected
