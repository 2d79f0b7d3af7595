"""WSSWNN fights: braces' effects as fight state (braces page via the game's other pages: Grapple, Shove and their
defaults; Taking Actions, Take Hold and Breaking and Disarming Arms): Stamina paid to resist, who grapples whom,
shoves that break a hold, disarmed combatants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import load, merged
from tests.fights.test_wsswnn_fight import changes, fight, hero, kinds
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights

TAKE_HOLD = {"name": "Take Hold", "attack": {"kind": "take_hold"}}
SHOVE = {"name": "Shove", "attack": {"kind": "brace", "brace": "shove"}}
FIST = {"name": "fist", "attacker": {"weapon": None}}


def wrestler(name: str, **over: Any) -> dict[str, Any]:
    """Take Hold first, then a club; a d10 Brace die; Stamina 2, Strength 1."""
    base = hero(
        name,
        attacker={"brace_die": "d10", "weapon": {"name": "club", "blunted": True}},
        target={"stamina": 2, "strength": 1},
        attacks=[TAKE_HOLD, {"name": "club"}],
    )
    return merged(base, over)


def foe(name: str = "B", **over: Any) -> dict[str, Any]:
    return merged(hero(name, attacker={"brace_die": "d6"}, target={"stamina": 2, "strength": 1}), over)


def stat(log: Any, who: str, name: str) -> int:
    """A combatant's stat at the end of a narrated fight (from its last change, else None)."""
    found = [c["to"] for e in log.events for c in e.get("changes", []) if c["who"] == who and c["stat"] == name]
    return found[-1] if found else -99


def test_wsswnn_fight_grapple_success_costs_guard_and_the_foe_is_grappled() -> None:
    """braces: Grapple success = -1 guard to the foe and it is grappled (Take Hold's free brace)."""
    log = narrate(load(fight([wrestler("A")], [foe()])), seed=1, script=[{"attack": [6], "brace": [9]}])
    assert ("B", "guard", 4, 3) in changes(log, "damage")
    assert changes(log, "grapple")[0] == ("A", "grappling", 0, 2)  # B is combatant 1: grappling = 1 + 1
    assert "[wsswnn: Braces, Grapple and Shove" in kinds(log, "grapple")[0]["text"]


def test_wsswnn_fight_grappler_has_brace_advantage_on_attacks_against_the_foe() -> None:
    """braces: while grappling, brace advantage on attacks against the foe (the Brace die kept if higher)."""
    script = [{"attack": [6], "brace": [9]}, {"attack": [1]}, {"attack": [1], "advantage": [8]}]
    log = narrate(load(fight([wrestler("A")], [foe()])), seed=1, script=script)
    club = next(e for e in kinds(log, "attack") if e["attack"] == "club")
    assert club["dice"]["advantage"] == [8] and club["outcome"]["result"] == "hit"
    assert any("grappled foe" in s["text"] for s in club["trace"])


def test_wsswnn_fight_grapple_struggle_the_foe_pays_1_stamina_to_resist() -> None:
    """braces: Grapple struggle = the foe may pay -1 stamina to resist; `resists: false` lets it land."""
    script = [{"attack": [6], "brace": [2]}]  # brace 2 beats Strength 1, not Stamina 2: a struggle
    log = narrate(load(fight([wrestler("A")], [foe()], max_rounds=1)), seed=1, script=script)
    assert changes(log, "resist")[0] == ("B", "stamina", 2, 1)
    assert not kinds(log, "grapple")
    log = narrate(load(fight([wrestler("A")], [foe(resists=False)], max_rounds=1)), seed=1, script=script)
    assert not kinds(log, "resist") and changes(log, "grapple")[0] == ("A", "grappling", 0, 2)


def test_wsswnn_fight_a_struggle_against_a_foe_with_1_stamina_spends_its_last() -> None:
    """Stamina is fight state: the next brace is measured against what is left (here 1: a roll of 2 succeeds)."""
    script = [{"attack": [6], "brace": [2]}, {"attack": [1]}, {"attack": [6], "brace": [2]}]
    log = narrate(load(fight([wrestler("A")], [foe()])), seed=1, script=script)
    assert changes(log, "resist") == [("B", "stamina", 2, 1)]
    assert changes(log, "grapple")[0] == ("A", "grappling", 0, 2)  # 2 beats Stamina 1: success


def test_wsswnn_fight_grapple_ends_when_the_grappler_takes_lethal_damage() -> None:
    """braces: a grapple ends when the grappler takes any lethal damage."""
    script = [{"attack": [6], "brace": [9]}, {"attack": [6]}]  # B hits A: 6 - Guard 4 = 2 lethal
    log = narrate(load(fight([wrestler("A")], [foe()])), seed=1, script=script)
    assert changes(log, "grapple_ends")[0] == ("A", "grappling", 2, 0)
    # A block (guard damage only) does not end it.
    script = [{"attack": [6], "brace": [9]}, {"attack": [3]}]
    log = narrate(load(fight([wrestler("A")], [foe()], max_rounds=1)), seed=1, script=script)
    assert not kinds(log, "grapple_ends") and stat(log, "A", "grappling") == 2


def test_wsswnn_fight_shove_pushes_the_grappler_out_of_its_hold_and_costs_guard() -> None:
    """braces (defaults): Shove success = -1 guard and the foe is pushed out of your span or hold: a grapple
    ends when the grappler is Shoved."""
    b = foe(attacks=[SHOVE])
    log = narrate(load(fight([wrestler("A")], [b])), seed=1, script=[{"attack": [6], "brace": [9]}, {"brace": [6]}])
    assert ("A", "guard", 4, 3) in changes(log, "damage")
    assert changes(log, "shove")[0] == ("A", "grappling", 2, 0)
    assert "its grapple ends" in kinds(log, "shove")[0]["text"]


def test_wsswnn_fight_shove_struggle_the_foe_may_pay_stamina_to_resist() -> None:
    """Shove struggle (defaults): the foe pays 1 stamina to resist and keeps its grapple."""
    b = foe(attacks=[SHOVE])
    script = [{"attack": [6], "brace": [9]}, {"brace": [2]}]  # 2 beats A's Strength 1, not its Stamina 2
    log = narrate(load(fight([wrestler("A")], [b], max_rounds=1)), seed=1, script=script)
    assert changes(log, "resist")[0] == ("A", "stamina", 2, 1)
    assert not changes(log, "shove") and stat(log, "A", "grappling") == 2


def test_wsswnn_fight_grappling_leaves_no_free_hand_for_take_hold() -> None:
    """Take Hold requires one free hand: a grappler attacks with its next attack (tohit's reading)."""
    script = [{"attack": [6], "brace": [9]}, {"attack": [1]}, {"attack": [1], "advantage": [1]}]
    log = narrate(load(fight([wrestler("A")], [foe()])), seed=1, script=script)
    assert [e["attack"] for e in kinds(log, "attack") if e["attacker"] == "A"][:2] == ["Take Hold", "club"]


def test_wsswnn_fight_in_a_grapple_both_sides_are_limited_to_close_melee() -> None:
    """braces: grappler and grappled are limited to close melee: no ranged attack while grappled."""
    sling = {"name": "sling", "attack": {"kind": "ranged"}, "attacker": {"weapon": {"name": "sling"}}}
    b = foe(attacks=[sling, {"name": "spear"}])
    log = narrate(load(fight([wrestler("A")], [b])), seed=1, script=[{"attack": [6], "brace": [9]}, {"attack": [1]}])
    assert next(e["attack"] for e in kinds(log, "attack") if e["attacker"] == "B") == "spear"
    log = narrate(load(fight([wrestler("A")], [b])), seed=1, script=[{"attack": [1]}, {"attack": [1]}])
    assert next(e["attack"] for e in kinds(log, "attack") if e["attacker"] == "B") == "sling"


def axeman(name: str = "A") -> dict[str, Any]:
    return hero(
        name,
        attacker={"brace_die": "d8", "weapon": {"name": "axe", "guard_damage": 2, "on_block": "disarm"}},
        target={"stamina": 2, "strength": 1},
    )


def test_wsswnn_fight_axe_hook_disarms_and_a_disarmed_foe_skips_without_an_unarmed_attack() -> None:
    """Breaking and Disarming Arms; arms (Axe, Hook): a block triggers Brace vs Stamina; disarmed, the foe has no
    weapon attack and skips its action (+1 guard)."""
    script = [{"attack": [3], "brace": [5]}]  # 3 beats Agility 1, not Guard 4: a block; 5 beats Stamina 2
    log = narrate(load(fight([axeman()], [foe()], max_rounds=2)), seed=1, script=script)
    assert changes(log, "disarm")[0] == ("B", "disarmed", 0, 1)
    assert "[wsswnn: Breaking and Disarming Arms; docs/wsswnn.md#silent-disarmed]" in kinds(log, "disarm")[0]["text"]
    assert not [e for e in kinds(log, "attack") if e["attacker"] == "B"]
    assert changes(log, "skip")[0] == ("B", "guard", 2, 3)  # the block cost 2 guard; skipping gives 1 back


def test_wsswnn_fight_a_disarmed_foe_fights_on_with_an_unarmed_attack() -> None:
    b = foe(attacks=[{"name": "spear"}, FIST])
    log = narrate(load(fight([axeman()], [b], max_rounds=1)), seed=1, script=[{"attack": [3], "brace": [5]}])
    assert [e["attack"] for e in kinds(log, "attack") if e["attacker"] == "B"] == ["fist"]


@pytest.mark.usefixtures("exact_uncapped")  # a cap on seconds only refuses: lifted, the test is load-independent
def test_wsswnn_fight_braces_exact_agrees_with_simulation() -> None:
    """--exact with Stamina, grapples and disarms in the chain's state, against Monte Carlo (both samplers)."""
    a = wrestler("A", attacker={"attack_die": "d10", "weapon": {"name": "spear"}}, target={"armor": 2, "life": 10})
    b = axeman("B")
    b["target"]["life"] = 10
    loaded = load(fight([a], [b]))
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw == 1
    p = float(exact.wins[0])
    assert 0.05 < p < 0.95
    n = 60_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=7, method=method)
        assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5, method


def test_wsswnn_fight_braces_replay_rebuilds_the_state(tmp_path: Path) -> None:
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump({**fight([wrestler("A")], [axeman("B")]), "seed": 3}))
    log = tmp_path / "events.jsonl"
    assert CliRunner().invoke(app, ["fight", str(path), "--log", str(log)]).exit_code == 0
    events = [json.loads(line) for line in log.read_text().splitlines()]
    grapple = next(e for e in events if e["kind"] in ("grapple", "resist", "disarm"))
    result = CliRunner().invoke(app, ["replay", str(log), "--until", str(grapple["n"]), "--json"])
    out = json.loads(result.output)
    assert out["matches_recorded_end"] is True
    change = grapple["changes"][0]
    assert out["state"]["combatants"][change["who"]][change["stat"]] == change["to"]


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: fight([hero("A", target={"grappled": True})], [hero("B")]), "sides[0].combatants[0].target.grappled"),
        (
            lambda: fight(
                [
                    hero(
                        "A",
                        attacker={"brace_die": "d6"},
                        attacks=[{"name": "g", "attack": {"kind": "brace", "brace": "grapple"}}],
                    )
                ],
                [foe()],
            ),
            "sides[0].combatants[0].attacks[0].attack.brace",
        ),
        (
            lambda: fight(
                [hero("A", attacker={"brace_die": "d6", "weapon": {"name": "axe", "on_block": "break"}})], [foe()]
            ),
            "sides[0].combatants[0].attacks[0].attacker.weapon.on_block",
        ),
    ],
    ids=["grappled-in-the-file", "brace-action-grapple", "break"],
)
def test_wsswnn_fight_braces_the_fight_cannot_play_exit_2(make: Any, field: str, tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        load(make())
    assert str(err.value).startswith(f"fight.yaml: {field}: ")
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(make()))
    result = CliRunner().invoke(app, ["fight", str(path)])
    out = " ".join(result.output.split())
    assert result.exit_code == 2 and out.startswith("error: ") and f"{field}:" in out
