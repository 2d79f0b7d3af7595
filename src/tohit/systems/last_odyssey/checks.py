"""Cross-field checks: what the models alone cannot see.

Each problem is an InputError naming the field, so the CLI prints one line and exits with code 2.
"""

from __future__ import annotations

from tohit.core.errors import InputError, short_repr
from tohit.core.models import Scenario
from tohit.systems.last_odyssey.damage import MAX_PRODUCT_TERM, table_multiplier
from tohit.systems.last_odyssey.effective import NAMES
from tohit.systems.last_odyssey.models import Attack, Attacker, Options, Target
from tohit.systems.last_odyssey.tables import Stat, multiplier_text

LastOdysseyScenario = Scenario[Attacker, Attack, Target, Options]

#: The statistics each kind of ability needs, from the user and from each target.
NEEDS: dict[str, tuple[tuple[Stat, ...], tuple[Stat, ...]]] = {
    "physical": (("physical_accuracy", "physical_attack"), ("evasion", "physical_defense")),
    "magical": (("magical_accuracy", "magical_attack"), ("evasion", "magical_defense")),
    "status": (("status_accuracy",), ("resistance",)),
    "buff": ((), ()),
    "debuff": ((), ()),
}
KIND_NAMES = {
    "physical": "a physical attack",
    "magical": "a magical attack",
    "status": "a status-inflicting ability",
    "buff": "a buff",
    "debuff": "a debuff",
}


def check(scenario: LastOdysseyScenario) -> None:
    """Raise InputError(field=...) on the first problem found."""
    attacker, attack, targets = scenario.attacker, scenario.attack, scenario.targets
    kind = KIND_NAMES[attack.kind]
    check_ability_type(scenario)
    needs_user, needs_target = NEEDS[attack.kind]
    for stat in needs_user:
        if getattr(attacker, stat) is None:
            raise InputError(f"{kind} needs the user's {NAMES[stat]}", field=f"attacker.{stat}")
    for i, target in enumerate(targets):
        for stat in needs_target:
            if getattr(target, stat) is None:
                raise InputError(f"{kind} needs the target's {NAMES[stat]}", field=f"targets[{i}].{stat}")
        if attack.kind in ("physical", "magical") and target.shell is None:
            raise InputError(
                f"{kind} needs to know whether the target has a Shell active (it decides the double damage):"
                " give false, true, or its remaining Shell points",
                field=f"targets[{i}].shell",
            )
    if attack.kind in ("status", "buff", "debuff") and attack.multipliers:
        raise InputError(f"{kind} deals no damage, so it takes no damage multipliers", field="attack.multipliers")
    if attack.kind in ("status", "buff", "debuff") and attack.knock_out:
        raise InputError(f"{kind} deals no damage, so it cannot knock out", field="attack.knock_out")
    if attack.knock_out and not attacker.player_character:
        raise InputError("only a player character may declare a knock-out", field="attack.knock_out")
    if attack.kind == "status" and attack.status is None and attack.element in (None, "colorless"):
        raise InputError(
            "name the status a colorless status-inflicting ability inflicts (e.g. confused)", field="attack.status"
        )
    if attack.kind != "status" and attack.status is not None:
        raise InputError(f"only a status-inflicting ability inflicts a status, not {kind}", field="attack.status")
    if attack.kind in ("buff", "debuff"):
        if attack.stat is None:
            raise InputError(f"name the statistic {kind} moves on the Bonus Tracker", field="attack.stat")
        for i, target in enumerate(targets):
            if target.lean_in:
                raise InputError(
                    f"{kind} succeeds no matter what; leaning in is for physical, magical and status abilities",
                    field=f"targets[{i}].lean_in",
                )
    elif attack.stat is not None:
        raise InputError(f"only a buff or debuff moves a statistic, not {kind}", field="attack.stat")
    product = attack.multiplier_product
    if product.numerator > MAX_PRODUCT_TERM or product.denominator > MAX_PRODUCT_TERM:
        raise InputError("the product of these multipliers is too large to keep exact", field="attack.multipliers")
    shared: list[int] | None = None
    for i, target in enumerate(targets):
        check_element(attack, target, i)
        forced = scenario.forced(target).get("hit")
        if forced is None:
            continue
        if shared is None:
            shared = list(forced)
        elif list(forced) != shared:
            raise InputError(
                f"the hit die is rolled once for every target of the ability: {list(forced)} differs from"
                f" {shared} forced for another target (force it once, in the scenario's dice)",
                field=f"targets[{i}].dice.hit",
            )
    if shared is not None and any("hit" not in scenario.forced(t) for t in targets):
        i = next(i for i, t in enumerate(targets) if "hit" in t.dice)
        raise InputError(
            "the hit die is rolled once for every target of the ability: force it for every target or, better,"
            " once in the scenario's dice",
            field=f"targets[{i}].dice.hit",
        )


def check_ability_type(scenario: LastOdysseyScenario) -> None:
    """Ability types [page, table of ability types]: who may use the ability, and on whom."""
    attacker, attack, targets = scenario.attacker, scenario.attack, scenario.targets
    types = attack.type
    for t in ("passive", "reaction"):
        if t in types:
            how = "changes how the character behaves" if t == "passive" else "triggers automatically"
            raise InputError(f"a {t.capitalize()} ability cannot be used as an action (it {how})", field="attack.type")
    if "melee" in types:
        if attacker.row != "front":
            raise InputError("a Melee ability may only be used when the user is in the front row", field="attacker.row")
        for i, target in enumerate(targets):
            if target.row != "front":
                raise InputError(
                    "a Melee ability may only target characters in the front row", field=f"targets[{i}].row"
                )
    if len(targets) > 1 and "multi" not in types:
        raise InputError(
            f"{len(targets)} targets: only a Multi ability targets more than one character", field="targets"
        )
    if "self" in types:
        if attacker.name is None:
            raise InputError("a Self ability may only target the user: give the user's name", field="attacker.name")
        if targets[0].name != attacker.name:
            raise InputError(
                f"a Self ability may only target the user ({short_repr(attacker.name)})", field="targets[0].name"
            )


def check_element(attack: Attack, target: Target, i: int) -> None:
    """A given element multiplier must agree with the element table when both elements are known."""
    given = target.element_multiplier
    if given is None:
        return
    if attack.element == "colorless" and given != 1:
        raise InputError(
            f"a colorless ability has element multiplier 1, not {multiplier_text(given)}",
            field=f"targets[{i}].element_multiplier",
        )
    table = table_multiplier(attack, target)
    if table is not None and table != given:
        raise InputError(
            f"the element table gives x{multiplier_text(table)} for this attack and target, not"
            f" x{multiplier_text(given)}; give the elements or the multiplier",
            field=f"targets[{i}].element_multiplier",
        )
