"""Cross-field input checks: each problem is one InputError naming the field."""

from __future__ import annotations

from tohit.core.errors import InputError
from tohit.systems.wsswnn.models import Target
from tohit.systems.wsswnn.plan import (
    ATTACK_KINDS,
    WsswnnScenario,
    advantage_names,
    disadvantage_names,
    free_brace,
)

TAKE_HOLD_BRACES = ("grapple", "shove")
ARMS_BRACES = ("disarm", "break")


def check(scenario: WsswnnScenario) -> None:
    attacker, attack = scenario.attacker, scenario.attack
    kind = attack.kind

    if kind == "jump" and attack.heights < 1:
        raise InputError("a jump-attack leaps from at least 1 height; give attack.heights", field="attack.heights")
    if kind != "jump" and attack.heights:
        raise InputError("only a jump-attack leaps from heights (attack.kind: jump)", field="attack.heights")
    if kind in ("melee", "jump", "take_hold") and attack.spans:
        raise InputError(
            f"a {kind.replace('_', ' ')} reaches only a foe in your span (spans 0); use a ranged attack",
            field="attack.spans",
        )
    if kind == "brace" and attack.spans:
        raise InputError("a brace acts on a foe in your span (spans 0)", field="attack.spans")
    if attack.throw and kind != "ranged":
        raise InputError("throwing is a ranged attack (attack.kind: ranged)", field="attack.throw")
    if attack.target_arms and kind not in ("melee", "jump"):
        raise InputError("only a melee attack can be aimed at the foe's arms", field="attack.target_arms")
    if attack.rolled is not None and kind == "brace":
        raise InputError(
            "a roll already made is an attack's (a brace action rolls its Brace die)", field="attack.rolled"
        )
    if attack.mighty_blow and kind not in ("melee", "jump"):
        raise InputError("Mighty Blow is a melee attack", field="attack.mighty_blow")

    # The brace each action names.
    if kind == "brace" and attack.brace is None:
        raise InputError(
            "a brace action names its brace: grapple, shove, stand_fast, disarm or break", field="attack.brace"
        )
    if kind == "take_hold":
        if attack.brace is not None and attack.brace not in TAKE_HOLD_BRACES:
            raise InputError("Take Hold makes a free Grapple or Shove brace", field="attack.brace")
        if not attacker.free_hand:
            raise InputError("Take Hold requires one free hand", field="attacker.free_hand")
    if kind in ATTACK_KINDS and attack.brace is not None and attack.brace not in ARMS_BRACES:
        raise InputError(
            "an attack can trigger only a disarm or break brace on a block (use kind take_hold or brace)",
            field="attack.brace",
        )
    if attack.brace == "stand_fast":
        if attacker.guard is None:
            raise InputError("Stand Fast regains the attacker's own Guard: give it", field="attacker.guard")
        if attacker.max_guard is None:
            raise InputError("Stand Fast is capped at maximum Guard + Strength: give it", field="attacker.max_guard")
        if attacker.guard > attacker.max_guard + attacker.strength:
            raise InputError("Guard cannot exceed max_guard + Strength", field="attacker.guard")

    # The dice the action rolls must be given.
    if kind == "brace" and attacker.brace_die is None:
        raise InputError("a brace action rolls the Brace die: give it", field="attacker.brace_die")
    if kind == "jump" and attacker.maneuver_die is None:
        raise InputError(
            "a jump-attack rolls the Maneuver die (maneuver advantage, landing): give it",
            field="attacker.maneuver_die",
        )
    main = "brace" if kind == "brace" else "attack"
    names = attack.advantage_dice
    if len(set(names)) != len(names):
        raise InputError("advantage never rolls the same die twice", field="attack.advantage")
    if main in names:
        raise InputError(
            f"advantage rolls a second die, never the acting {main.capitalize()} die itself", field="attack.advantage"
        )
    for name in names:
        if attacker.die(name) is None:
            raise InputError(
                f"{name} advantage rolls the {name.capitalize()} die: give it", field=f"attacker.{name}_die"
            )
    worse = attack.disadvantage_dice
    if len(set(worse)) != len(worse):
        raise InputError("disadvantage never rolls the same die twice", field="attack.disadvantage")
    if main in worse:
        raise InputError(
            f"disadvantage rolls a second die, never the acting {main.capitalize()} die itself",
            field="attack.disadvantage",
        )
    for name, reason in disadvantage_names(attack, attacker):
        if attacker.die(name) is None:
            raise InputError(
                "grappled by a foe: brace disadvantage rolls the Brace die: give it"
                if reason == "grappled"
                else f"{name} disadvantage rolls the {name.capitalize()} die: give it",
                field=f"attacker.{name}_die",
            )

    brace = free_brace(attack, attacker)
    for i, target in enumerate(scenario.targets):
        _check_target(scenario, target, i, brace)


def _check_target(scenario: WsswnnScenario, target: Target, i: int, brace: str | None) -> None:
    attacker, attack = scenario.attacker, scenario.attack
    kind = attack.kind
    where = f"targets[{i}]"
    if target.is_object:
        if kind == "take_hold" or (kind == "brace" and attack.brace != "stand_fast"):
            raise InputError(
                "an object has no Stamina or Strength to brace against; attack it instead",
                field=f"{where}.structure",
            )
        if attack.target_arms:
            raise InputError("an object has no defending arms to aim at", field="attack.target_arms")
    # The advantage dice are rolled against an object too (a Mighty Blow's brace advantage).
    for name, reason in advantage_names(attack, target):
        if attacker.die(name) is None:
            raise InputError(
                f"{reason}: brace advantage rolls the Brace die: give it"
                if name == "brace"
                else f"{name} advantage rolls the {name.capitalize()} die: give it",
                field=f"attacker.{name}_die",
            )
    if target.is_object:
        return
    opposed = (kind == "brace" and attack.brace != "stand_fast") or brace is not None
    if opposed:
        which = attack.brace if kind == "brace" else brace
        if attacker.brace_die is None:
            raise InputError(f"the {which} brace rolls the Brace die: give it", field="attacker.brace_die")
        for stat in ("stamina", "strength"):
            if getattr(target, stat) is None:
                raise InputError(
                    f"required for the {which} brace (Brace beats Stamina: success; Strength: struggle)",
                    field=f"{where}.{stat}",
                )
    if kind == "brace" and attack.brace == "grapple" and not target.held:
        raise InputError("a Grapple needs a hold on the foe: Take Hold first, or set held: true", field=f"{where}.held")
