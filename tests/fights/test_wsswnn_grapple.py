"""WSSWNN fights: the rest of the grapple (braces page via the game's other pages: "While grappling you have brace
advantage on attacks against the foe, and the foe has brace disadvantage"; "Ranged attacks into the grapple that
roll an odd number hit the other grappler") and Mighty Blow's cost (heroes/callings/champion: "costs -1
stamina"), as fight state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import load
from tests.fights.test_wsswnn_braces import foe, stat, wrestler
from tests.fights.test_wsswnn_fight import changes, fight, hero, kinds
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight import policy
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.modes import Exact
from tohit.engine.fight.run import initial_state, narrate, simulate_fights

HOLD = {"attack": [6], "brace": [9]}  # Take Hold: 6 beats Guard 4; the Grapple brace 9 beats Stamina 2
BOW = {"name": "bow", "attack": {"kind": "ranged"}, "attacker": {"weapon": {"name": "bow"}}}


def attacks_of(log: Any, who: str) -> list[dict[str, Any]]:
    return [e for e in kinds(log, "attack") if e["attacker"] == who]


# -- brace disadvantage ------------------------------------------------------------------------------------


def test_wsswnn_fight_the_grappled_foe_attacks_with_brace_disadvantage() -> None:
    """braces: Grapple: "the foe has brace disadvantage": B's Attack 8, its Brace 1: keep the lower, a miss."""
    script = [HOLD, {"attack": [8], "disadvantage": [1]}]
    log = narrate(load(fight([wrestler("A")], [foe()], max_rounds=1)), seed=1, script=script)
    spear = attacks_of(log, "B")[0]
    assert spear["dice"]["disadvantage"] == [1] and spear["outcome"]["result"] == "miss"
    assert any("grappled by a foe" in s["text"] and "keep the lower, 1" in s["text"] for s in spear["trace"])
    assert any("the foe has brace disadvantage" in s["clause"] for s in spear["trace"])


def test_wsswnn_fight_brace_disadvantage_ends_with_the_grapple() -> None:
    """Not grappled (the grappler took lethal damage), the foe rolls its Attack die alone again."""
    script = [HOLD, {"attack": [8], "disadvantage": [6]}, {"attack": [1], "advantage": [1]}, {"attack": [8]}]
    log = narrate(load(fight([wrestler("A")], [foe()], max_rounds=2)), seed=1, script=script)
    first, second = attacks_of(log, "B")[:2]
    assert "disadvantage" in first["dice"] and changes(log, "grapple_ends")
    assert set(second["dice"]) == {"attack"}


def test_wsswnn_fight_a_foe_that_can_be_grappled_needs_a_brace_die_exit_2(tmp_path: Path) -> None:
    """Brace disadvantage rolls the Brace die: a combatant a foe can Grapple must have one (exit code 2)."""
    data = fight([wrestler("A")], [hero("B")])
    with pytest.raises(InputError) as err:
        load(data)
    assert str(err.value).startswith("fight.yaml: sides[1].combatants[0].attacker.brace_die: ")
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(app, ["fight", str(path)])
    assert result.exit_code == 2 and "attacker.brace_die" in " ".join(result.output.split())


# -- Mighty Blow's stamina -----------------------------------------------------------------------------------


def champion(name: str = "A", stamina: int = 1) -> dict[str, Any]:
    """A Mighty Blow with a club first, then a plain club; Stamina as given."""
    return hero(
        name,
        attacker={"brace_die": "d8", "weapon": {"name": "club", "blunted": True}},
        target={"stamina": stamina, "strength": 1},
        attacks=[{"name": "Mighty Blow", "attack": {"mighty_blow": True}}, {"name": "club"}],
    )


def test_wsswnn_fight_mighty_blow_costs_1_stamina() -> None:
    """champion: Mighty Blow "costs -1 stamina", paid when the blow is made (here a miss)."""
    log = narrate(load(fight([champion(stamina=2)], [foe()], max_rounds=1)), seed=1, script=[{"attack": [1]}])
    assert changes(log, "mighty_blow") == [("A", "stamina", 2, 1)]
    assert "[wsswnn: Mighty Blow" in kinds(log, "mighty_blow")[0]["text"]
    assert attacks_of(log, "A")[0]["attack"] == "Mighty Blow"


def test_wsswnn_fight_mighty_blow_is_not_usable_at_0_stamina() -> None:
    """With its last stamina spent, the champion uses its next attack (tohit's reading: no Mighty Blow at 0)."""
    log = narrate(load(fight([champion(stamina=1)], [foe()], max_rounds=2)), seed=1)
    assert [e["attack"] for e in attacks_of(log, "A")] == ["Mighty Blow", "club"]
    assert changes(log, "mighty_blow") == [("A", "stamina", 1, 0)]
    log = narrate(load(fight([champion(stamina=0)], [foe()], max_rounds=1)), seed=1)
    assert [e["attack"] for e in attacks_of(log, "A")] == ["club"] and not kinds(log, "mighty_blow")


def test_wsswnn_fight_mighty_blow_and_brace_disadvantage_exact_agrees_with_simulation() -> None:
    """--exact with Mighty Blow's stamina and a grapple's brace advantage and disadvantage in the chain's state,
    against Monte Carlo (both samplers)."""
    a = wrestler("A", attacker={"attack_die": "d10", "weapon": {"name": "spear"}}, target={"armor": 1, "life": 8})
    b = champion("B", stamina=2)
    b["target"]["life"] = 8
    loaded = load(fight([a], [b]))
    exact = exact_duel(loaded)
    p = float(exact.wins[0])
    assert 0.05 < p < 0.95 and sum(exact.wins) + exact.draw == 1
    n = 60_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=11, method=method)
        assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5, method


# -- ranged attacks into a grapple -----------------------------------------------------------------------------


def archer(name: str = "C") -> dict[str, Any]:
    return hero(name, attacker={"brace_die": "d6"}, target={"stamina": 2, "strength": 1}, attacks=[BOW])


def three(**over: Any) -> dict[str, Any]:
    """A wrestler and an archer (side 0) against B; file order with sides alternating: A, B, C."""
    return fight([wrestler("A"), archer("C")], [foe()], **over)


def test_wsswnn_fight_a_shot_into_the_grapple_that_rolls_odd_hits_the_other_grappler() -> None:
    """braces: Grapple: C shoots B, grappled by A; the Attack die rolls 7, odd: the shot is resolved against A
    (C's own ally) with the same roll: 7 - 2 = 5 beats A's Guard 4: -1 life to A; C is not credited with it."""
    script = [HOLD, {"attack": [1], "disadvantage": [1]}, {"attack": [7]}, {"attack": [2]}]
    log = narrate(load(three(max_rounds=1)), seed=1, script=script)
    into = kinds(log, "into_grapple")[0]["text"]
    assert "rolled 7, an odd number: it hits the other grappler, A, not B" in into
    assert "[wsswnn: Braces, Grapple (ranged attacks into the grapple" in into
    shots = attacks_of(log, "C")
    assert [s["target"] for s in shots] == ["B", "A"]
    assert shots[1]["outcome"]["attack_roll"] == 5  # the forced 2 of the second script entry is not read
    assert any("the roll already made, 7" in s["text"] for s in shots[1]["trace"])
    assert ("A", "life", 20, 19) in changes(log, "damage")
    assert not [c for c in changes(log, "damage") if c[:2] == ("B", "life")]
    assert stat(log, "C", "dealt") == -99  # no damage dealt to a foe


def test_wsswnn_fight_a_shot_into_the_grapple_that_rolls_even_hits_its_target() -> None:
    script = [HOLD, {"attack": [1], "disadvantage": [1]}, {"attack": [8]}]
    log = narrate(load(three(max_rounds=1)), seed=1, script=script)
    assert not kinds(log, "into_grapple")
    # 8 - 2 = 6 against B's Guard 3 (the Grapple cost it 1): -3 life.
    assert ("B", "life", 20, 17) in changes(log, "damage") and stat(log, "C", "dealt") == 3


def test_wsswnn_fight_a_shot_at_a_grappler_that_rolls_odd_hits_the_grappled_foe() -> None:
    """The other grappler of the grappler A is the foe it grapples, B (here C is B's ally shooting at A)."""
    b_side = [foe(), archer("C")]
    script = [HOLD, {"attack": [1], "disadvantage": [1]}, {"attack": [7]}, {"attack": [1]}]
    log = narrate(load(fight([wrestler("A")], b_side, max_rounds=1)), seed=1, script=script)
    shots = attacks_of(log, "C")
    assert [s["target"] for s in shots] == ["A", "B"] and kinds(log, "into_grapple")


def test_wsswnn_fight_shots_into_a_grapple_samplers_agree() -> None:
    """Three combatants (no exact chain: the grapple's two cannot shoot, so a duel never has the rule): the
    table and direct samplers agree, and some shots are diverted (the archer's foe B ends less hurt than when
    nobody grapples)."""
    loaded = load(three(max_rounds=20))
    n = 40_000
    sims = [simulate_fights(loaded, n, seed=5, method=m) for m in ("table", "direct")]
    p = sims[0].wins(0) / n
    assert 0.01 < p < 0.99
    assert abs(sims[1].wins(0) / n - p) < 5 * (2 * p * (1 - p) / n) ** 0.5


def test_wsswnn_fight_grapple_and_archer_example_replays(tmp_path: Path) -> None:
    """The bundled example (seed 2) plays every new rule; `tohit replay` rebuilds the state it logs."""
    example = Path(__file__).parents[2] / "examples" / "fights" / "wsswnn-grapple-and-archer.yaml"
    log = tmp_path / "events.jsonl"
    result = CliRunner().invoke(app, ["fight", str(example), "--log", str(log)])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "an odd number: it hits the other grappler" in text and "pays -1 stamina for a Mighty Blow" in text
    assert "grappled by a foe" in text
    replay = CliRunner().invoke(app, ["replay", str(log), "--json"])
    assert replay.exit_code == 0 and '"matches_recorded_end": true' in replay.output


def test_wsswnn_fight_best_and_the_preview_read_the_grapple() -> None:
    """The foe a combatant grapples is attacked with brace advantage, and a combatant grappled by a foe attacks
    with brace disadvantage [braces: Grapple]: policy `best` (and the preview) read the attack as the strike is
    resolved, so Oru's spear on Ket he grapples deals more, and Ket's club on Oru who grapples him less."""
    path = Path(__file__).resolve().parents[2] / "examples" / "fights" / "wsswnn-grapple-and-archer.yaml"
    loaded = load(yaml.safe_load(path.read_text()))
    oru, ket = loaded.roster.names.index("Oru"), loaded.roster.names.index("Ket")
    spear = next(a for a, e in enumerate(loaded.combatants[oru].attacks) if e.name == "spear")
    club = next(a for a, e in enumerate(loaded.combatants[ket].attacks) if e.name == "club")

    def mean(c: int, a: int, t: int, grappled: bool) -> float:
        state = initial_state(loaded, 1)
        state.per["grappling"][0, oru] = ket + 1 if grappled else 0
        allowed = np.zeros((1, loaded.max_attacks, loaded.roster.size), dtype=bool)
        allowed[0, a, t] = True
        ctx = Exact(loaded, state)
        return float(policy._expected(ctx, np.asarray([c]), allowed, np.ones(1, dtype=bool))[0, a, t])

    assert mean(oru, spear, ket, True) > mean(oru, spear, ket, False)
    assert mean(ket, club, oru, True) < mean(ket, club, oru, False)
