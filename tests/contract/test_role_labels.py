"""Every dice role of every bundled game is named in its rulebook's words ("Speak the game's words": what a
person reads, the dice form's fields and an error about a role's faces, uses the rulebook's terms, never a key).

A bundled game declares its roles' labels once (`System.role_labels`); every role its rules build, over every
bundled scenario (and each with one switch of its attack or options turned: a yes/no field or a field of named
choices, so the roles an option or a called attack adds are built too) and every combatant's attack on every
creature of every bundled fight, carries its declared label, and no label is its key (nor the key in words,
the fallback a third party's role gets).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from tests.contract.conftest import fight_examples, scenario_examples
from tohit.core.errors import FacesError, InputError
from tohit.core.roles import DiceRole, Role, key_words, listed
from tohit.core.system import AnySystem
from tohit.engine import registry
from tohit.engine.fight.load import load_fight
from tohit.engine.scenario import Loaded, from_dict

BUNDLED = sorted(registry.systems())


def _is_key(label: str, key: str) -> bool:
    """Whether a label only repeats its key: the key itself, or in words, in any case."""
    said = label.strip().lower()
    return said in {key.lower(), key_words(key).lower()}


def _switches(model: type[Any]) -> Iterator[tuple[str, Any]]:
    """Each (field, value) of a model's yes/no fields and fields of named choices."""
    for name, spec in model.model_json_schema().get("properties", {}).items():
        if spec.get("type") == "boolean":
            yield from ((name, v) for v in (True, False))
        for value in spec.get("enum", []):
            yield name, value


def variants(game: AnySystem, data: dict[str, Any]) -> Iterator[tuple[str, Loaded]]:
    """A scenario, and it with each one switch of its attack or options turned (those the game accepts)."""
    yield "", from_dict(data, source="contract")
    for block, model in (("attack", game.attack_model), ("options", game.options_model)):
        for field, value in _switches(model):
            changed = copy.deepcopy(data)
            changed.setdefault(block, {})[field] = value
            try:
                yield f" {block}.{field}={value}", from_dict(changed, source="contract")
            except InputError:
                continue


def built_roles(game: AnySystem) -> list[tuple[str, str, Role]]:
    """(where, key, role) for every role the game's rules build over its bundled scenarios and fights."""
    found: list[tuple[str, str, Role]] = []
    for path in scenario_examples(game):
        for turned, loaded in variants(game, yaml.safe_load(path.read_text())):
            for target in loaded.scenario.targets:
                roles = loaded.system.roles(loaded.scenario, target)
                found += [(path.name + turned, k, r) for k, r in roles.items()]
    for path in fight_examples(game):
        fight = load_fight(path)
        size = fight.roster.size
        for c, combatant in enumerate(fight.combatants):
            for a in range(len(combatant.attacks)):
                for t in range(size):
                    if t != c:
                        found += [(f"{path.name} {c}/{a}/{t}", k, r) for k, r in fight.roles(c, a, t).items()]
    return found


@pytest.mark.parametrize("game_id", BUNDLED)
def test_every_role_of_a_bundled_game_is_labelled_in_its_rulebooks_words(game_id: str) -> None:
    game = registry.get(game_id)
    labels = game.role_labels
    assert labels, f"{game_id}: declares no role labels"
    repeated = {key: label for key, label in labels.items() if not label.strip() or _is_key(label, key)}
    assert not repeated, f"{game_id}: labels that are their keys: {repeated}"
    built = built_roles(game)
    assert built, f"{game_id}: no role built from its examples"
    wrong = [
        f"{where}: {key} -> {role.label!r} (declared {labels.get(key)!r})"
        for where, key, role in built
        if role.name != key or labels.get(key) != role.label
    ]
    assert not wrong, f"{game_id}: roles without their declared label:\n" + "\n".join(wrong[:10])
    unbuilt = set(labels) - {key for _, key, _ in built}
    assert not unbuilt, f"{game_id}: labels of roles its rules never build here: {sorted(unbuilt)}"


def test_a_role_whose_game_declares_no_label_is_named_by_its_key_in_words() -> None:
    """A third party's role without a label reads as its key in words; one with a label, as the label, in the
    errors about its faces too (the field path keeps the key)."""
    plain = DiceRole("damage_again", "2d6")
    assert plain.label == "damage again"
    named = DiceRole("to_hit", "2d6", label="Attack roll")
    assert named.label == "Attack roll" and named.name == "to_hit"
    with pytest.raises(FacesError, match=r"^Attack roll: face 7 is not on a d6") as err:
        named.read([7, 1])
    assert "to_hit" not in str(err.value)


class _Coin(Role):
    """A third party's role straight from `Role`, declaring no label: one d2, its face the column `total`."""

    scope = "target"
    columns = ("total",)
    notation = "d2"

    def __init__(self, name: str) -> None:
        self.name = name

    def support(self, depth: int) -> Any:
        raise NotImplementedError

    def sample(self, rng: Any, n: int) -> Any:
        raise NotImplementedError

    def draw(self, rng: Any) -> list[int]:
        return [1]

    def read(self, faces: Any) -> Any:
        raise NotImplementedError


class _Labelled(_Coin):
    label = "Coin toss"


def test_a_role_subclass_without_a_label_is_named_by_its_key_in_words() -> None:
    """A Role subclass that never sets `label` still has one (its key in words), so what lists or names roles
    reads it; a subclass's own label, or one given when the role is built, wins."""
    plain = _Coin("coin_flip")
    assert plain.label == "coin flip"
    assert listed({"coin_flip": plain}) == "coin_flip (coin flip)"
    assert _Labelled("coin_flip").label == "Coin toss"
    given = _Coin("coin_flip")
    given.label = "Heads or tails"
    assert given.label == "Heads or tails"
