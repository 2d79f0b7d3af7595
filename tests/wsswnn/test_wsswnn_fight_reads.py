"""What a WSSWNN fight reads of a strike's outcome (issue 42: a step reads only the columns its consequences
apply): the result, lethal damage and the Guard left always; awareness damage, a fall, a brace's effect and the kept
attack roll only in a fight where some attack can make them. `consequences.apply` with those left out (None) does
what the rules say with them at nothing: every attacker a foe, no awareness damage."""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.consequence import table
from tohit.engine.fight.load import fight_from_dict
from tohit.systems.wsswnn.consequences import Before, Outcome, apply
from tohit.systems.wsswnn.fields import BLOCK, HIT, MISS
from tohit.systems.wsswnn.fight_tables import strike_fields
from tohit.systems.wsswnn.fight_turn import WsswnnTurns


def _a(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def _fighter(name: str, weapon: dict[str, Any], attack: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "attacker": {"attack_die": "d8", "maneuver_die": "d6", "brace_die": "d6", "strength": 2, "weapon": weapon},
        "target": {"guard": 4, "agility": 1, "life": 10, "awareness": 2, "stamina": 2, "strength": 1},
        "attacks": [{"name": "strike", "attack": attack}],
    }


def _fields_of(weapon: dict[str, Any], attack: dict[str, Any]) -> tuple[str, ...]:
    data = {
        "system": "wsswnn",
        "sides": [
            {"name": "A", "combatants": [_fighter("A", weapon, attack)]},
            {"name": "B", "combatants": [_fighter("B", {"name": "sword"}, {"kind": "melee"})]},
        ],
    }
    fight = fight_from_dict(data, source="reads")
    found: tuple[str, ...] = fight.rules._tables(fight)["fields"]
    return found


def test_damage_a_plain_strike_reads_its_result_lethal_damage_and_the_guard_it_leaves() -> None:
    """Damage [Taking Actions]: a melee strike with a weapon that deals no awareness damage changes life (and
    dealt) and guard only: three columns (the fights bench's duel, a dagger against a blunted club)."""
    assert _fields_of({"name": "dagger"}, {"kind": "melee"}) == ("result", "damage", "guard_after")
    assert _fields_of({"name": "club", "guard_damage": 2, "blunted": True}, {}) == ("result", "damage", "guard_after")


def test_awareness_damage_is_read_where_a_weapon_deals_it() -> None:
    """Awareness Damage: a weapon with awareness damage makes the fight read it."""
    fields = _fields_of({"name": "net", "awareness_damage": 1}, {"kind": "melee"})
    assert fields == ("result", "damage", "guard_after", "awareness_damage")


def test_jump_attack_fall_is_read_where_an_attack_jumps() -> None:
    """Jump-Attacks: a missed jump-attack falls, so a fight with one reads the fall's columns."""
    fields = _fields_of({"name": "spear"}, {"kind": "jump", "heights": 1})
    assert fields == ("result", "damage", "guard_after", "falling_lethal", "falling_guard")


def test_braces_effect_and_resisting_stamina_are_read_where_a_brace_can_land() -> None:
    """Braces: a weapon's free brace on a block (the Axe's Hook) makes the fight read the brace's effect and the
    stamina paid to resist it; with all four kinds, a strike reads every outcome field but Stand Fast's."""
    fields = _fields_of({"name": "axe", "on_block": "disarm"}, {"kind": "melee"})
    assert fields == ("result", "damage", "guard_after", "brace_effect", "resist_stamina")
    every = set(WsswnnTurns.outcome_fields) - {"attacker_guard_after"}  # Stand Fast's own, not a strike's
    assert set(strike_fields(True, True, True, True)) == every


def test_tracking_your_stats_with_every_attacker_a_foe_and_no_awareness_damage() -> None:
    """tracking-your-stats: with `foe` None every attacker is the defender's foe (its lethal damage is dealt), and
    with `awareness_damage` None awareness is left alone."""
    zero = _a(0, 0, 0)
    before = Before(life=_a(5, 3, 4), guard=_a(3, 2, 2), dealt=_a(1, 0, 2), foe=None, awareness=_a(2, 2, 2))
    outcome = Outcome(result=_a(HIT, HIT, BLOCK), damage=_a(2, 9, 0), guard_after=_a(1, 0, 1))
    applied = apply(before, outcome)
    assert table(applied.items) == [
        ("damage", "defender", "life", [0, 1], [3, 0]),
        ("damage", "attacker", "dealt", [0, 1], [3, 3]),
        ("damage", "defender", "guard", [0, 1, 2], [1, 0, 1]),
    ]
    assert applied.awareness_after is None
    missed = apply(before, outcome._replace(result=_a(MISS, MISS, MISS), damage=zero))
    assert table(missed.items) == []
