"""Which dice an action rolls against one target (scalars only: read from the scenario, never from dice).

- The acting die: Attack for the attack actions, Brace for a brace action.
- Advantage dice, in this order, each at most once ("never the same die twice"): Maneuver for a
  jump-attack [Jump-Attacks], the dice the attack names, then Brace against a foe the attacker grapples
  [braces: Grapple] or for a Mighty Blow [champion]. The acting die itself is never an advantage die.
- Disadvantage dice, the mirror (keep the lowest), each at most once: the dice the attack names, then Brace
  when the attacker is grappled by a foe ("the foe has brace disadvantage" [braces: Grapple]); never the
  acting die, so a brace action has no brace disadvantage. Any advantage and any disadvantage cancel: neither
  is rolled, the acting die alone decides (tohit's reading, as in most games).
- A free brace: Take Hold's Grapple or Shove [Take Hold], or a disarm / break triggered by a block
  [Breaking and Disarming Arms] (the attack's `brace`, else the weapon's `on_block`).
- The landing Maneuver roll of a jump-attack, used if it misses [Jump-Attacks].
"""

from __future__ import annotations

from dataclasses import dataclass

from tohit.core.models import Scenario
from tohit.systems.wsswnn.dice import ActionDie
from tohit.systems.wsswnn.models import Attack, Attacker, Options, Target

WsswnnScenario = Scenario[Attacker, Attack, Target, Options]
ATTACK_KINDS = ("melee", "ranged", "jump")


@dataclass(frozen=True)
class Plan:
    main: ActionDie
    advantage: tuple[ActionDie, ...]
    #: Why each advantage die is rolled ("jump-attack", "named", "grappled foe", "Mighty Blow").
    reasons: tuple[str, ...]
    free_brace: str | None
    landing: ActionDie | None
    #: The disadvantage dice (keep the lowest) and why each is rolled ("named", "grappled").
    disadvantage: tuple[ActionDie, ...] = ()
    dis_reasons: tuple[str, ...] = ()
    #: Advantage and disadvantage that cancelled: (advantage reasons, disadvantage reasons); empty if none did.
    cancelled: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def advantage_names(attack: Attack, target: Target) -> list[tuple[str, str]]:
    """(die name, reason) of each advantage die, deduplicated, the acting die left out."""
    main = "brace" if attack.kind == "brace" else "attack"
    wanted: list[tuple[str, str]] = []
    if attack.kind == "jump":
        wanted.append(("maneuver", "jump-attack"))
    wanted += [(name, "named") for name in attack.advantage_dice]
    if attack.kind != "brace" and target.grappled and not target.is_object:
        wanted.append(("brace", "grappled foe"))
    if attack.mighty_blow:
        wanted.append(("brace", "Mighty Blow"))
    out: list[tuple[str, str]] = []
    for name, reason in wanted:
        if name != main and name not in (n for n, _ in out):
            out.append((name, reason))
    return out


def disadvantage_names(attack: Attack, attacker: Attacker) -> list[tuple[str, str]]:
    """(die name, reason) of each disadvantage die, deduplicated, the acting die left out."""
    main = "brace" if attack.kind == "brace" else "attack"
    wanted = [(name, "named") for name in attack.disadvantage_dice]
    if attack.kind != "brace" and attacker.grappled:
        wanted.append(("brace", "grappled"))
    out: list[tuple[str, str]] = []
    for name, reason in wanted:
        if name != main and name not in (n for n, _ in out):
            out.append((name, reason))
    return out


def free_brace(attack: Attack, attacker: Attacker) -> str | None:
    """The brace rolled free after the attack roll, if any."""
    if attack.kind == "take_hold":
        return attack.brace or "grapple"
    if attack.kind in ATTACK_KINDS:
        return attack.brace or attacker.armament.on_block
    return None


def action_die(attacker: Attacker, name: str) -> ActionDie:
    die = attacker.die(name)
    if die is None:  # refused by checks.check before any roll
        raise ValueError(f"no {name} die")
    return ActionDie(name, die, attacker.penalty_of(name))


def plan(scenario: WsswnnScenario, target: Target) -> Plan:
    attacker, attack = scenario.attacker, scenario.attack
    main = action_die(attacker, "brace" if attack.kind == "brace" else "attack")
    pairs = advantage_names(attack, target)
    worse = disadvantage_names(attack, attacker)
    if attack.rolled is not None:  # the roll already made: no advantage or disadvantage die is rolled again
        pairs, worse = [], []
    cancelled: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    if pairs and worse:  # advantage and disadvantage cancel: the acting die alone
        cancelled = (tuple(r for _, r in pairs), tuple(r for _, r in worse))
        pairs, worse = [], []
    advantage = tuple(action_die(attacker, name) for name, _ in pairs)
    disadvantage = tuple(action_die(attacker, name) for name, _ in worse)
    landing = action_die(attacker, "maneuver") if attack.kind == "jump" else None
    # An object never blocks (it has no Guard or Agility), so no brace follows an attack on one.
    brace = None if target.is_object else free_brace(attack, attacker)
    return Plan(
        main,
        advantage,
        tuple(r for _, r in pairs),
        brace,
        landing,
        disadvantage,
        tuple(r for _, r in worse),
        cancelled,
    )
