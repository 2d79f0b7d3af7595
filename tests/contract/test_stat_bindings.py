"""Stat bindings (core/fight/bindings.py): a game declares once how each stat it keeps feeds a resolve, the
engine reads one view of them, and a wrong binding is refused when the rules are loaded (`rules_for`), in one
line naming the game, the stat and what is wrong, not found later as a wrong odd.

Each refusal is a broken copy of the toy game (tests/toy_game), registered as a third party registers it.
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from tests.contract.conftest import TOY, examples_root
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.core.fight.bindings import Bindings, StatBinding
from tohit.core.fight.contract import FightRules, rules_for
from tohit.core.fight.readings import StatReading, reading_of
from tohit.core.system import AnySystem
from tohit.engine import registry
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate


@pytest.fixture
def toy(toy_registered: None) -> AnySystem:
    """The toy game, registered by its entry point."""
    return registry.get(TOY)


def toy_rules(toy: AnySystem) -> type[FightRules]:
    """The toy game's own fight rules class."""
    return type(rules_for(toy))


def broken(toy: AnySystem, monkeypatch: pytest.MonkeyPatch, bindings: tuple[Any, ...] = (), **hints: Any) -> InputError:
    """The error `rules_for` raises for a copy of the toy's rules with these bindings (and other class
    attributes), installed as the toy's `RULES`."""
    base = toy_rules(toy)
    cls = type("BrokenToy", (base,), {"bindings": bindings, **hints})
    monkeypatch.setattr(sys.modules["tohit_toy.fight"], "RULES", cls())
    with pytest.raises(InputError) as err:
        rules_for(toy)
    assert err.value.field == "system"
    message = err.value.message
    assert "\n" not in message and f"game {TOY!r}" in message, message
    return err.value


def test_stat_binding_of_a_stat_the_fight_does_not_keep_is_refused(
    toy: AnySystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    err = broken(toy, monkeypatch, (StatBinding("defense"),))
    assert "stat 'defense'" in err.message and "keeps no such stat" in err.message


def test_stat_binding_twice_to_one_block_is_refused(toy: AnySystem, monkeypatch: pytest.MonkeyPatch) -> None:
    err = broken(toy, monkeypatch, (StatBinding("hp", outcome=False), StatBinding("hp")))
    assert "stat 'hp'" in err.message and "bound twice to the target block" in err.message


def test_stat_binding_to_a_field_the_target_block_lacks_is_refused(
    toy: AnySystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    err = broken(toy, monkeypatch, (StatBinding("hp", field="hit_points"),))
    assert "stat 'hp'" in err.message and "'hit_points', which the target block does not have" in err.message


def test_stat_binding_to_a_field_the_attacker_block_lacks_is_refused(
    toy: AnySystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The toy's attacker has no `hp`: the attacker's own HP cannot feed it."""
    err = broken(toy, monkeypatch, (StatBinding("hp", feeds="attacker"),))
    assert "stat 'hp'" in err.message and "which the attacker block does not have" in err.message


def test_stat_binding_feeding_no_block_is_refused(toy: AnySystem, monkeypatch: pytest.MonkeyPatch) -> None:
    err = broken(toy, monkeypatch, (StatBinding("hp", feeds="defender"),))  # type: ignore[arg-type]
    assert "stat 'hp' feeds 'defender'" in err.message


def test_stat_binding_clipping_a_field_that_is_not_an_outcome_field_is_refused(
    toy: AnySystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    err = broken(toy, monkeypatch, (StatBinding("hp", outcome=False, clip="hp_left"),))
    assert "stat 'hp' clips 'hp_left', which is not one of the outcome fields" in err.message


def test_stat_binding_clip_on_a_scalar_stat_is_refused(toy: AnySystem, monkeypatch: pytest.MonkeyPatch) -> None:
    err = broken(toy, monkeypatch, (StatBinding("hp", scalar=True, clip="damage"),))
    assert "stat 'hp'" in err.message and "only a plain target stat caps one" in err.message


def test_stat_binding_one_outcome_field_clipped_at_two_stats_is_refused(
    toy: AnySystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    readings = {**toy_rules(toy).readings, "defence": StatReading("Defence")}
    bindings = (StatBinding("hp", outcome=False, clip="damage"), StatBinding("defence", clip="damage"))
    err = broken(toy, monkeypatch, bindings, readings=readings)
    assert "outcome field 'damage' is clipped at two stats ('hp', 'defence')" in err.message


def test_stat_binding_kinds_on_a_target_stat_is_refused(toy: AnySystem, monkeypatch: pytest.MonkeyPatch) -> None:
    err = broken(toy, monkeypatch, (StatBinding("hp", kinds=("attack",)),))
    assert "stat 'hp' names resolve kinds; only a plain attacker stat is read by kind" in err.message


def test_stat_binding_outcome_false_on_a_scalar_stat_is_refused(
    toy: AnySystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    err = broken(toy, monkeypatch, (StatBinding("hp", scalar=True, outcome=False),))
    assert "stat 'hp' is outcome=False; only a plain target stat may leave the tables" in err.message


def test_stat_binding_odds_on_a_plain_attacker_stat_is_refused(toy: AnySystem, monkeypatch: pytest.MonkeyPatch) -> None:
    readings = {**toy_rules(toy).readings, "attack_bonus": StatReading("Attack bonus")}
    err = broken(toy, monkeypatch, (StatBinding("attack_bonus", feeds="attacker", odds=True),), readings=readings)
    assert "stat 'attack_bonus' is odds=True; policy `best` reads no plain attacker stat" in err.message


def test_stat_binding_that_is_not_a_stat_binding_is_refused(toy: AnySystem, monkeypatch: pytest.MonkeyPatch) -> None:
    err = broken(toy, monkeypatch, ("hp",))
    assert "stat 'hp' is a str, not a StatBinding" in err.message


@pytest.mark.parametrize("hint", ["standing_stats", "condition_stats", "bookkeeping"])
def test_stat_binding_other_lists_naming_a_stat_the_fight_does_not_keep_are_refused(
    toy: AnySystem, monkeypatch: pytest.MonkeyPatch, hint: str
) -> None:
    err = broken(toy, monkeypatch, (), **{hint: ("hp", "wounds")})
    assert f"stat 'wounds' is named in `{hint}` but the fight keeps no such stat" in err.message


def test_stat_binding_error_is_one_cli_line_naming_the_game_and_the_stat(
    toy: AnySystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fight of a game whose bindings are wrong: exit 2, one `error:` line, no traceback."""
    broken(toy, monkeypatch, (StatBinding("wounds"),))
    duel = examples_root(toy) / "fights" / "duel.yaml"
    result = CliRunner().invoke(app, ["fight", str(duel), "--seed", "1"], prog_name="tohit")
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "game 'toy-d20': stat 'wounds'" in lines[0] and "Traceback" not in result.stderr


def test_stat_binding_checked_once_when_the_rules_are_loaded(toy: AnySystem, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rules_for` checks a game's declarations the first time it hands its rules out, not on every call."""
    rules = rules_for(toy)
    calls: list[str] = []
    monkeypatch.setattr(type(rules), "check_declarations", lambda self, system: calls.append(system.id))
    assert rules_for(toy) is rules and calls == []


def test_stat_binding_the_same_stat_may_feed_both_blocks(toy: AnySystem, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stat fed to the target block and to the attacker block (e.g. a guard that defends and braces) is two
    bindings, one a block; read by the kinds that name it."""
    base = toy_rules(toy)
    readings = {**base.readings, "attack_bonus": StatReading("Attack bonus")}
    bindings = (StatBinding("hp", outcome=False), StatBinding("attack_bonus", feeds="attacker", kinds=("brace",)))
    cls = type("TwoBlocks", (base,), {"bindings": bindings, "readings": readings})
    monkeypatch.setattr(sys.modules["tohit_toy.fight"], "RULES", cls())
    bound = rules_for(toy).bound
    assert bound.target == ("hp",) and bound.table == () and bound.attacker == ("attack_bonus",)
    assert bound.attacker_for("brace") == ("attack_bonus",) and bound.attacker_for("attack") == ()


class _Declared:
    """Every kind of binding once, in an order that interleaves the blocks."""

    bindings: ClassVar[tuple[StatBinding, ...]] = (
        StatBinding("guard", odds=True),
        StatBinding("life", outcome=False, clip="damage"),
        StatBinding("guard", feeds="attacker", kinds=("stand_fast",)),
        StatBinding("def_mod", field="modifiers", odds=True),
        StatBinding("shell", scalar=True, odds=True),
        StatBinding("statuses", feeds="attacker", scalar=True, odds=True),
        StatBinding("statuses", scalar=True),
        StatBinding("rank", feeds="attacker", field="level"),
    )


def test_stat_binding_view_keeps_the_declared_order_within_each_subset() -> None:
    """The view's subsets are what the engine keys situations by, each in declaration order (the same
    declarations give the same keys, so the same draws)."""
    bound = Bindings(_Declared.bindings)
    assert bound.target == ("guard", "life", "def_mod")
    assert bound.table == ("guard", "def_mod")
    assert bound.clip == {"damage": "life"}
    assert bound.scalar == ("shell", "statuses")
    assert bound.attacker == ("guard", "rank") and bound.attacker_scalar == ("statuses",)
    assert bound.odds == ("guard", "def_mod") and bound.odds_scalar == ("shell",)
    assert bound.odds_attacker_scalar == ("statuses",)
    assert bound.target_fields == {"def_mod": "modifiers"} and bound.attacker_fields == {"rank": "level"}
    assert bound.attacker_for("stand_fast") == ("guard", "rank") and bound.attacker_for("attack") == ("rank",)


def test_stat_binding_every_game_loads_its_bindings(game: AnySystem) -> None:
    """Every registered game's declarations pass the check, and every bound stat is one its fight keeps."""
    rules = rules_for(game)
    assert all(isinstance(b, StatBinding) for b in rules.bindings)
    assert all(reading_of(rules.readings, b.stat) is not None for b in rules.bindings)


def test_stat_binding_feeds_the_current_value_to_the_resolve(toy: AnySystem) -> None:
    """The toy binds its HP to the target block (outcome=False: fed for the trace): every attack's `hp_left`
    is the HP its target has left after it, read from the fight's state, not from the file (12 - 9 = 3, then
    3 less the next hit, ...), and exact tables are not keyed by it."""
    fight = load_fight(examples_root(toy) / "fights" / "duel.yaml")
    assert fight.rules.bound.target == ("hp",) and fight.rules.bound.table == ()
    events = narrate(fight, seed=5).events
    hp = {name: stats["hp"] for name, stats in events[0]["state"]["combatants"].items()}
    checked = 0
    for event in events:
        if event["kind"] == "attack" and event["outcome"]["result"] != "miss":
            target, damage = event["target"], event["outcome"]["damage"]
            assert event["outcome"]["hp_left"] == max(0, hp[target] - damage), event
            checked += 1
        for change in event["changes"]:
            if change["stat"] == "hp":
                hp[change["who"]] = change["to"]
    assert checked >= 3
