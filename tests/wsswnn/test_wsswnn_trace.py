"""The trace a game master reads: every rule applied in a roll leaves a step citing its clause (docs/architecture.md,
"The trace")."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES
from tohit.engine.roll import roll
from tohit.engine.scenario import load

CITED = {
    "attack-7-vs-guard-4.yaml": ["Attack Actions", "Lethal Damage", "Guard Damage"],
    "staff-strength-2.yaml": ["Lethal Damage"],
    "wandu-jump-attack.yaml": ["advantage", "Jump-Attacks", "Attack Actions", "Lethal Damage"],
    "chom-jump-attack.yaml": ["advantage", "Jump-Attacks", "falling"],
    "balloon-axe.yaml": ["Attacking Objects", "damage multiplier"],
    "archer-at-four-spans.yaml": ["Ranged Attack", "Guard Damage"],
    "take-hold-grapple.yaml": ["Take Hold", "Braces"],
    "mighty-blow-club.yaml": ["Mighty Blow", "Lethal Damage", "Damage Reduction"],
    "axe-hook-at-arms.yaml": ["Targeting Arms Directly", "Breaking and Disarming Arms", "Braces"],
    "stand-fast.yaml": ["Stand Fast"],
    "grappled-brace-disadvantage.yaml": ["disadvantage", "the foe has brace disadvantage", "Attack Actions"],
}


@pytest.mark.parametrize("name", sorted(CITED))
def test_wsswnn_trace_cites_each_rule_applied(name: str) -> None:
    """Each bundled example's traced roll cites the clauses it applies, in plain numbers (no arrays)."""
    result = roll(load(EXAMPLES / "wsswnn" / name), seed=11)
    steps = [s for t in result.targets for s in t.steps]
    clauses = " | ".join(s.clause for s in steps)
    for clause in CITED[name]:
        assert clause in clauses, (clause, clauses)
    for s in steps:
        assert s.clause.startswith("wsswnn: ")
        assert "[" not in s.text and "array" not in s.text, s.text


def test_wsswnn_every_bundled_example_is_checked() -> None:
    """The list above covers every file in examples/wsswnn/."""
    assert sorted(p.name for p in (EXAMPLES / "wsswnn").glob("*.yaml")) == sorted(CITED)
