"""Reclaim the Wild conditions (the game's other pages; Status Effects; docs/rtw.md#silent-hard-to-hit)."""

from __future__ import annotations

import pytest

from tests.rtw.helpers import roll_row, roll_text, rtw
from tohit.systems.rtw.conditions import guard_stats, hard_to_hit
from tohit.systems.rtw.models import Attack, Attacker, Target


def level(attacker: dict[str, object] | None = None, attack: dict[str, object] | None = None, **target: object) -> str:
    a = Attacker.model_validate({"accuracy": 0, **(attacker or {})})
    t = Target.model_validate({"name": "T", "evasion": 10, **target})
    return hard_to_hit(a, Attack.model_validate(attack or {}), t).level


@pytest.mark.parametrize(("given", "penalty"), [("none", 0), ("hard", -2), ("extreme", -5)])
def test_rtw_hard_to_hit_minus_2_extremely_minus_5(given: str, penalty: int) -> None:
    """Status Effects Hard to Hit: -2 on Rolls To-Hit; Extremely Hard to Hit: -5 (docs/rtw.md#silent-hard-to-hit)."""
    assert roll_row(rtw(target={"hard_to_hit": given}, to_hit=[3, 4]))["to_hit"] == 12 + penalty


def test_rtw_extremely_hard_to_hit_replaces_never_stacks() -> None:
    """Hard to Hit, Extremely: "This supersedes a foe being Hard to Hit" (docs/rtw.md#silent-hard-to-hit: replaces,
    never stacks)."""
    row = roll_row(rtw(attacker={"blinded": True, "dazzled": True}, target={"hard_to_hit": "hard"}, to_hit=[3, 4]))
    assert (row["hard_to_hit"], row["to_hit"]) == ("extreme", 7)
    assert level(attacker={"dazzled": True}, hard_to_hit="hard") == "hard"


def test_rtw_option_several_hard_to_hit_sources_become_extreme() -> None:
    """Hard to Hit, Extremely: "If you are Hard to Hit for multiple reasons, you may be Extremely Hard to Hit, at GM
    discretion" (option, default off)."""
    data = rtw(attacker={"dazzled": True}, target={"hard_to_hit": "hard"}, to_hit=[3, 4])
    assert roll_row(data)["to_hit"] == 10
    opted = {**data, "options": {"several_hard_to_hit_sources_are_extreme": True}}
    assert roll_row(opted)["to_hit"] == 7


def test_rtw_distracted_attacker_finds_other_foes_hard_to_hit() -> None:
    """Status Effects Distracted: "all foes are Hard to Hit (see below), except for the source of your
    Distraction" (also when several foes distract: none of them is Hard to Hit)."""
    assert level(attacker={"distracted": True}) == "hard"
    assert level(attacker={"distracted": True}, distracting=True) == "none"


def test_rtw_distraction_source_drops_one_level() -> None:
    """Distracted: "If the source of your Distraction would otherwise be Hard to Hit, they no longer are; if they
    would be Extremely Hard to Hit, they are instead merely Hard to Hit." """
    assert level(attacker={"distracted": True}, distracting=True, hard_to_hit="hard") == "none"
    assert level(attacker={"distracted": True}, distracting=True, hard_to_hit="extreme") == "hard"
    assert level(attacker={"distracted": True, "blinded": True}, distracting=True) == "hard"


def test_rtw_blinded_attacker_finds_every_foe_extremely_hard_to_hit() -> None:
    """Status Effects Blinded: "all foes are Extremely Hard to Hit ... Mini-Bosses and Bosses are merely
    Dazzled"."""
    assert level(attacker={"blinded": True}) == "extreme"
    assert level(attacker={"blinded": True, "boss": True}) == "hard"


def test_rtw_dazzled_attacker_finds_foes_hard_to_hit() -> None:
    """Status Effects Dazzled: "all foes are Hard to Hit"."""
    assert level(attacker={"dazzled": True}) == "hard"


def test_rtw_invisible_target_treats_the_attacker_as_blinded() -> None:
    """Status Effects Invisibility: "treat them as if your foe was Blinded while trying to hit you"."""
    assert level(invisible=True) == "extreme"
    assert level(attacker={"boss": True}, invisible=True) == "hard"
    assert "target Invisible: attacker treated as Blinded" in roll_text(rtw(target={"invisible": True}))


@pytest.mark.parametrize("rng", ["melee", "line", "targets"])
def test_rtw_prone_target_has_no_evasion_and_is_never_hard_to_hit_up_close(rng: str) -> None:
    """Status Effects Prone: "You cannot use Evasion against, and cannot be Hard to Hit with, Melee, Line, and
    'X targets within Y squares' attacks." Even behind cover."""
    row = roll_row(rtw(attack={"range": rng}, target={"prone": True, "hard_to_hit": "hard"}, to_hit=[1, 1]))
    assert (row["hard_to_hit"], row["defence_stat"], row["to_hit"], row["result"]) == ("none", 0, 7, "hit")


@pytest.mark.parametrize("rng", ["projectile", "blast", "burst", "cone", "sweep"])
def test_rtw_prone_target_is_hard_to_hit_with_other_attacks(rng: str) -> None:
    """Status Effects Prone: "However, you become Hard to Hit with all other attacks." Evasion still counts."""
    row = roll_row(rtw(attack={"range": rng}, target={"prone": True}, to_hit=[3, 4]))
    assert (row["hard_to_hit"], row["defence_stat"], row["to_hit"]) == ("hard", 12, 10)


def test_rtw_halted_target_has_evasion_0() -> None:
    """Status Effects Halted: "your Evasion is set to 0"; Concentration is untouched (max of it and Evasion 0)."""
    assert roll_row(rtw(target={"halted": True}, to_hit=[1, 1]))["defence_stat"] == 0
    assert roll_row(rtw(attack={"against": "concentration"}, target={"halted": True}))["defence_stat"] == 10


def test_rtw_helpless_target_has_guard_stats_0() -> None:
    """Falling in Battle: a Helpless creature has no Guard Stats (Status Effects: "all set to 0")."""
    target = Target.model_validate({"name": "T", "evasion": 14, "concentration": 13, "vitality": 12, "helpless": True})
    guard = guard_stats(Attack(), target)
    assert (guard.evasion, guard.concentration, guard.vitality) == (0, 0, 0)
    row = roll_row(rtw(attack={"against": "vitality"}, target={"helpless": True}, to_hit=[1, 1]))
    assert (row["defence_stat"], row["result"]) == (0, "hit")


def test_rtw_helpless_target_is_prone() -> None:
    """Status Effects Helplessness: Helpless creatures "fall Prone": Hard to Hit against a Projectile."""
    assert level(attack={"range": "projectile"}, helpless=True) == "hard"
    assert level(attack={"range": "melee"}, helpless=True) == "none"


def test_rtw_hard_to_hit_applies_to_the_effect_roll_too() -> None:
    """Status Effects Hard to Hit: "-2 to all Rolls To-Hit and Accuracy checks against them": the effect too."""
    attack = {"effect": {"name": "Sick", "against": "vitality"}}
    row = roll_row(rtw(attack=attack, target={"hard_to_hit": "hard"}, to_hit=[6, 6], effect=[4, 4]))
    assert row["effect_to_hit"] == 8 + 5 - 2
