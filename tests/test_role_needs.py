"""Each game declares when a roll reads its dice roles (`System.needs`, core/role_needs.py; issue 36, item 6): one
test per rule that makes a role conditional, read on the page's own example scenarios through the engine's reading
of a declaration (`engine.dice_needs.share`: the game's `resolve` of the faces given and of every face the roles
it waits on may still show)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tohit.engine.dice_needs import Share, share
from tohit.engine.encounter import Encounter
from tohit.engine.scenario import load
from tohit.server import read_models
from tohit.server.examples import example

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def read(
    example: str, role: str, given: dict[str, list[int]], fields: tuple[str, ...] = ("result",), target_at: int = 0
) -> Share:
    """Whether the example's roll on its target `target_at` reads `role` with the faces `given` (its own typed
    dice left out)."""
    loaded = load(EXAMPLES / example)
    target = loaded.scenario.targets[target_at]
    roles = loaded.system.roles(loaded.scenario, target)
    return share(loaded.system, loaded.scenario, target, roles, role, given, fields)


def test_fullplate_critical_hits_severity_is_rolled_only_on_a_critical_hit() -> None:
    """ "If the attack qualifies ... and would successfully hit by 5 or more, the attack is a Critical Hit and the
    character may roll for Severity": THAC0 16 against AC 2 is a Critical Hit on a natural 20 only."""
    assert read("fullplate/critical-hit.yaml", "severity", {}) == "some"
    assert read("fullplate/critical-hit.yaml", "severity", {"to_hit": [20]}) == "all"
    assert read("fullplate/critical-hit.yaml", "severity", {"to_hit": [15]}) == "none"


def test_fullplate_damage_is_rolled_for_a_hit_only() -> None:
    """A miss or a Fumble deals no damage: the damage dice wait on the To-Hit Roll."""
    assert read("fullplate/critical-hit.yaml", "damage", {"to_hit": [1]}) == "none"
    assert read("fullplate/critical-hit.yaml", "damage", {"to_hit": [14]}) == "all"


def test_fullplate_automatic_hits_a_fumble_is_rolled_again() -> None:
    """ "If an Automatic Hit would be a Fumble, make a new attack roll": the new roll only on a natural 1."""
    assert read("fullplate/magic-missile.yaml", "reroll", {}) == "some"
    assert read("fullplate/magic-missile.yaml", "reroll", {"to_hit": [1]}) == "all"
    assert read("fullplate/magic-missile.yaml", "reroll", {"to_hit": [2]}) == "none"


def test_rtw_a_missed_spell_does_not_roll_its_additional_effect() -> None:
    """ "If the Spell or Technique misses for any reason, then you do not even roll to see if any additional effects
    land": the Fireball's On Fire roll waits on the To-Hit against the Keese (Hard to Hit: it rolls); the
    Bokoblin, not Hard to Hit, is hit by the area without a roll, so its effect is always rolled."""
    assert read("rtw/fireball-area.yaml", "effect", {}, target_at=1) == "some"
    assert read("rtw/fireball-area.yaml", "effect", {"to_hit": [1, 1]}, target_at=1) == "none"
    assert read("rtw/fireball-area.yaml", "effect", {"to_hit": [6, 6]}, target_at=1) == "all"
    assert read("rtw/fireball-area.yaml", "effect", {}) == "all"
    assert read("rtw/fireball-area.yaml", "to_hit", {}) == "none"


def test_wsswnn_take_hold_rolls_its_free_brace_on_a_hit_or_a_block() -> None:
    """Take Hold's free Grapple brace is rolled when the attack hits or is blocked, not on a miss."""
    assert read("wsswnn/take-hold-grapple.yaml", "brace", {}) == "some"
    assert read("wsswnn/take-hold-grapple.yaml", "brace", {"attack": [1]}) == "none"
    assert read("wsswnn/take-hold-grapple.yaml", "brace", {"attack": [8]}) == "all"


def test_wsswnn_a_missed_jump_attack_rolls_its_landing() -> None:
    """A missed jump-attack falls, and the landing roll reduces the fall's lethal part: rolled on a miss only."""
    assert read("wsswnn/chom-jump-attack.yaml", "landing", {"attack": [1], "advantage": [1]}) == "all"
    assert read("wsswnn/chom-jump-attack.yaml", "landing", {"attack": [8], "advantage": [4]}) == "none"


def test_kaiser_a_critical_level_is_rolled_only_on_a_critical() -> None:
    """A Critical (a hit costing half the target's LP or more) rolls its level's 2d6; no other attack does."""
    assert read("kaiser/critical-half-lp.yaml", "critical", {}) == "some"


def test_a_die_whose_every_face_gives_the_same_outcome_is_not_asked() -> None:
    """Read by every roll, yet no face of it changes what the fight reads of the roll (here its result, after a
    natural 20): the server rolls it."""
    assert read("fullplate/critical-hit.yaml", "to_hit", {}) == "all"
    assert read("fullplate/critical-hit.yaml", "damage", {"to_hit": [20]}, ("result",)) == "all"
    assert read("fullplate/critical-hit.yaml", "to_hit", {}, ("halvings",)) == "none"


def kaiser_duel(penalty: bool) -> Encounter:
    name, data = example("file/kaiser-duel")
    data = {**data, "options": {**(data.get("options") or {}), "multiple_defense_penalty": penalty}}
    return Encounter.create(data, source=name, seed=3)


def test_the_kaiser_fight_rolls_a_criticals_level_after_the_defense() -> None:
    """With the Multiple Defense Penalty (the default) the level's 2d6 are rolled anew after the defense
    (docs/kaiser.md#silent-critical): the attack's own `critical` dice are never read in that fight; without it
    they are, on a Critical."""
    for penalty, when in ((True, "never"), (False, "conditional")):
        roles = read_models.dice(kaiser_duel(penalty), "Ceil", "long sword", "Bandit chief")
        assert {r["role"]: r["when"] for r in roles}["critical"] == when


def test_the_dice_route_tries_no_attack_with_probe_faces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The route reads the declarations: the attack itself is tried once (is it refused now?), never with faces
    typed to see what they change."""
    enc = kaiser_duel(False)
    tried: list[object] = []
    act = Encounter.act

    def counted(self: Encounter, given: dict[str, object]) -> list[dict[str, object]]:
        tried.append(given.get("dice"))
        return act(self, given)

    monkeypatch.setattr(Encounter, "act", counted)
    read_models.dice(enc, "Ceil", "long sword", "Bandit chief")
    assert tried == [{}]


def test_a_role_the_roll_as_the_turn_makes_it_has_not_is_never_asked() -> None:
    """The turn may hand the roll other dice than the attack's own (a grappled attacker's disadvantage die): a
    role of the attack its roll then lacks is not asked, never an error."""
    loaded = load(EXAMPLES / "fullplate/critical-hit.yaml")
    target = loaded.scenario.targets[0]
    roles = {k: r for k, r in loaded.system.roles(loaded.scenario, target).items() if k != "damage"}
    assert share(loaded.system, loaded.scenario, target, roles, "damage", {}, ("result",)) == "none"
