"""Kaiser Criticals in fights, clause by clause [Critical; Dice, Resistance Checks].

Dice are forced with a script: one mapping of role -> faces per attack (its `critical` faces are the
Critical level's 2d6), then, after an attack that causes a Critical, one mapping {"phr": [a, b]} for the
Physical Resistance check. A (Offensive Skill 10, long sword Base Damage 7) against B (Defensive Skill 8,
Absorption 2, no armour, 40 LP) unless a test says otherwise.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from benchmarks.fight_reference import kaiser_fight as reference_fight
from typer.testing import CliRunner

from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tohit.cli.app import app
from tohit.cli.fight import write_log
from tohit.core.errors import InputError
from tohit.core.fight import consequence
from tohit.core.fight.state import change as state_change
from tohit.core.fight.state import change_at as state_change_at
from tohit.engine.fight import policy
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes import Exact, TableSample
from tohit.engine.fight.modes import base as modes_base
from tohit.engine.fight.replay import replay
from tohit.engine.fight.run import FightLog, initial_state, narrate, simulate_fights
from tohit.systems.kaiser.consequences import critical_level
from tohit.systems.kaiser.fight import dof_table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "fights"
HIT_14 = {"offense": [5, 4], "defense": [3, 4]}  # 19 vs 15: DoS 4, 2 Units x 7 = 14
HIT_7 = {"offense": [3, 3], "defense": [3, 4]}  # 16 vs 15 (13 at -2): 1 Unit (3 DoS at -2) x 7
TIE = {"offense": [3, 4], "defense": [5, 4]}  # 17 vs 17
MISS_BY_6 = {"offense": [1, 2], "defense": [6, 5]}  # 13 vs 19: B's Counter bonus +3
Z = 4.0


def events(log: FightLog, kind: str) -> list[dict[str, Any]]:
    return [e for e in log.events if e["kind"] == kind]


def changes(event: dict[str, Any]) -> list[tuple[str | None, str, int, int]]:
    return [(c["who"], c["stat"], c["from"], c["to"]) for c in event["changes"]]


def said(event: dict[str, Any]) -> str:
    return " ".join(event["text"].split())


def combatant(name: str, **over: Any) -> dict[str, Any]:
    """The helpers' combatant, without their high `physical_resistance` unless one is given."""
    comb = kaiser_combatant(name, **over)
    if "physical_resistance" not in over:
        del comb["physical_resistance"]
    return comb


def crit_duel(b: dict[str, Any] | None = None, a: dict[str, Any] | None = None) -> dict[str, Any]:
    return kaiser_fight([combatant("A", **(a or {}))], [combatant("B", **(b or {}))])


#: A hits B twice in round 1 (40 -> 26 -> 12 LP); the second hit, 14 of B's 26 LP, is a Critical:
#: level 2d6 (4, 5) + 1 = 10 against PhR 2d6 (3, 3) + 1 = 7: 3 DoF.
ROUND_1 = [HIT_14, TIE, {**HIT_14, "critical": [4, 5]}, {"phr": [3, 3]}]


def test_kaiser_fight_a_hit_of_half_the_current_lp_causes_a_critical() -> None:
    """Critical: "a single wound that makes you lose half your remaining LP": judged at the LP the target
    has in the fight (14 of 40 is none; 14 of 26 is one)."""
    log = narrate(load(crit_duel({"physical_resistance": 1})), seed=1, script=[*ROUND_1, TIE])
    first = events(log, "critical")[0]
    hits = [e for e in events(log, "attack") if e["attacker"] == "A"]
    assert log.events.index(hits[1]) < log.events.index(first)
    assert hits[0]["outcome"]["critical"] is False and hits[1]["outcome"]["critical"] is True


def test_kaiser_fight_critical_dof_costs_1_ap_each_and_gives_minus_1_to_all_actions() -> None:
    """Critical, Effects of a Critical: an All Action Penalty equal to the DoF, and 1 AP lost per DoF."""
    log = narrate(load(crit_duel({"physical_resistance": 1})), seed=1, script=[*ROUND_1, TIE])
    crit = events(log, "critical")[0]
    assert changes(crit) == [
        ("B", "penalty", 0, 3),
        ("B", "fading", 0, 3),
        ("B", "def_mod", 0, -3),
        ("B", "ap", 1, 0),
    ]
    assert (
        "Critical level 2d6 (4, 5) + 1 = 10 vs PhR 2d6 (3, 3) + 1 = 7: 3 DoF: -3 to all actions" in said(crit)
        and "-3 AP (1 -> 0)" in said(crit)
        and "[kaiser: Critical (docs/kaiser.md#silent-critical)]" in said(crit)
    )


def test_kaiser_fight_the_penalty_is_on_offensive_and_defensive_rolls() -> None:
    """-1 to all actions per DoF: B's Defensive Roll and its Offensive Roll take the penalty (round 2: -2)."""
    log = narrate(load(crit_duel({"physical_resistance": 1})), seed=1, script=[*ROUND_1, TIE, TIE])
    a2, b2 = events(log, "attack")[3:5]
    assert a2["attacker"] == "A" and "modifiers -2" in a2["trace"][1]["text"]
    assert b2["attacker"] == "B" and "factors -2" in b2["trace"][0]["text"]
    assert "All Action Penalty -2" in b2["text"]


def test_kaiser_fight_a_penalty_of_dof_5_or_less_fades_1_a_round() -> None:
    """Critical: DoF 5 or less: momentary shock; the penalty disappears at a rate of 1 per round."""
    log = narrate(load(crit_duel({"physical_resistance": 1})), seed=1, script=[*ROUND_1, *[TIE] * 8])
    fades = events(log, "penalty_fades")
    assert [changes(e) for e in fades[:3]] == [
        [("B", "fading", 3, 2), ("B", "penalty", 3, 2), ("B", "def_mod", -3, -2)],
        [("B", "fading", 2, 1), ("B", "penalty", 2, 1), ("B", "def_mod", -2, -1)],
        [("B", "fading", 1, 0), ("B", "penalty", 1, 0), ("B", "def_mod", -1, 0)],
    ]
    assert int(log.final.per["penalty"][0, 1]) == 0


def test_kaiser_fight_a_penalty_of_dof_6_or_more_lasts() -> None:
    """Critical: DoF 6+: broken bones; the penalty lasts until Regeneration (after the fight)."""
    script = [HIT_14, TIE, {**HIT_14, "critical": [6, 6]}, {"phr": [1, 2]}, *[TIE] * 8]
    log = narrate(load(crit_duel()), seed=1, script=script)
    crit = events(log, "critical")[0]  # level 12 + 1 = 13 vs 3 + PhR 3: 7 DoF
    assert ("B", "penalty", 0, 7) in changes(crit) and ("B", "fading", 0, 0) in changes(crit)
    assert "it lasts" in said(crit)
    assert not events(log, "penalty_fades")
    assert int(log.final.per["penalty"][0, 1]) == 7


def test_kaiser_fight_penalties_of_several_criticals_add_up() -> None:
    """Two Criticals: 3 DoF (fading) then 9 DoF (lasting): -2 left of the first, -11 in all, and only the
    first's part fades (B, at -11 to its Defensive Roll, then falls to a 9-Unit hit)."""
    script = [*ROUND_1, {**HIT_7, "critical": [6, 6]}, {"phr": [1, 1]}, TIE]
    log = narrate(load(crit_duel({"physical_resistance": 1})), seed=1, script=script)
    second = events(log, "critical")[1]  # round 2, B at 12 LP takes 7: level 12 + 0 vs 2 + 1: 9 DoF
    assert changes(second) == [
        ("B", "penalty", 2, 11),
        ("B", "fading", 2, 2),
        ("B", "def_mod", -2, -11),
        ("B", "ap", 5, 0),
    ]
    last = events(log, "attack")[-1]
    assert "modifiers -11" in last["trace"][1]["text"] and last["outcome"]["damage"] == 63


def test_kaiser_fight_critical_level_above_20_is_halved_and_dof_16_knocks_out() -> None:
    """Critical: level 2d6 + floor(damage / 10), 27 -> 23 (6/2 + 20); DoF above 16+: unconscious wherever
    hit. 3 Units x Base Damage 52 = 156 of B's 300 LP; PhR 2d6 (1, 1) + 3 = 5: 18 DoF."""
    a = {"attacker": {"offensive_skill": 10, "strength": 8, "weapon": {"damage": 50, "damage_type": "cut"}}}
    hit = {"offense": [6, 4], "defense": [3, 4], "critical": [6, 6]}  # 20 vs 15: DoS 5, 3 Units
    log = narrate(load(crit_duel({"target": {"lp": 300}}, a)), seed=1, script=[hit, {"phr": [1, 1]}])
    crit = events(log, "critical")[0]
    assert "2d6 (6, 6) + 15 = 27 -> 23 (above 20 halved)" in said(crit)
    assert ("B", "knocked_out", 0, 1) in changes(crit) and "unconscious (DoF 16+)" in said(crit)
    end = log.events[-1]
    assert end["winner"] == "side0" and int(log.final.per["lp"][0, 1]) == 144


def test_kaiser_fight_no_critical_is_rolled_on_a_hit_that_leaves_0_lp() -> None:
    """Choice: a hit that leaves its target at 0 LP (unconscious anyway) rolls no Critical: nothing is applied, and
    its trace prints no "Critical, level ..." line but says why (the outcome keeps the page's half-LP test)."""
    log = narrate(load(crit_duel({"target": {"lp": 10}})), seed=1, script=[HIT_14])
    attack = events(log, "attack")[0]
    assert attack["outcome"]["critical"] is True
    assert not events(log, "critical")
    assert "Critical, level" not in str(attack["trace"])
    assert "14 damage leaves 10 LP at 0: unconscious, no Critical is rolled" in str(attack["trace"])


def test_kaiser_fight_without_physical_resistance_resists_with_a_new_characters_phr_3_and_says_so() -> None:
    """Choice: a combatant without `physical_resistance` makes the PhR check with PhR 3 (Presence 3 of a new
    character + Constitution modifier +0 [Final Steps]), and the trace says so."""
    log = narrate(load(crit_duel()), seed=1, script=[HIT_14, TIE, {**HIT_14, "critical": [4, 5]}, {"phr": [2, 3]}])
    crit = events(log, "critical")[0]
    assert (
        "vs PhR 2d6 (2, 3) + 3 = 8 (B has no physical_resistance: PhR 3, a new character's;"
        " docs/kaiser.md#silent-phr-default): 2 DoF"
    ) in said(crit)


def test_kaiser_fight_a_passed_phr_check_has_no_further_effect() -> None:
    """Critical: a total higher than the Critical passes: no penalty and no AP lost (a tie: 0 DoF too)."""
    script = [HIT_14, TIE, {**HIT_14, "critical": [4, 5]}, {"phr": [5, 5]}]
    log = narrate(load(crit_duel({"physical_resistance": 0})), seed=1, script=script)
    crit = events(log, "critical")[0]  # 10 vs 10
    assert changes(crit) == [] and "no DoF, no further effect" in said(crit)


def test_kaiser_fight_a_counterattack_takes_the_penalty() -> None:
    """All actions: in round 2 B (at -2) defends 13 vs 17, Counter bonus +2, and counters at -2: factors +0."""
    script = [*ROUND_1, MISS_BY_6, {"offense": [2, 2], "defense": [3, 3]}]
    log = narrate(load(crit_duel({"physical_resistance": 1})), seed=1, script=script)
    struck = events(log, "counter")[1]
    assert struck["attacker"] == "B" and "factors +0" in struck["trace"][0]["text"]
    assert "Counter bonus +2, All Action Penalty -2" in struck["text"]


def test_kaiser_fight_phr_check_has_no_open_roll_or_fumble() -> None:
    """Dice: "A Resistance Check cannot have an Open Roll or a Fumble"; the Critical level's 2d6 neither
    (Critical). The chain's DoF table is the plain 2d6 x 2d6 count."""
    for base, phr in ((0, 0), (2, 3), (15, 1)):
        counts: dict[int, int] = {}
        for c1, c2, r1, r2 in product(range(1, 7), repeat=4):
            dof = max(0, int(critical_level(c1 + c2, 10 * base)) - (r1 + r2 + phr))
            counts[dof] = counts.get(dof, 0) + 1
        values, weights = dof_table(base, phr)
        assert dict(zip(values.tolist(), weights, strict=True)) == counts
    # A double 6 on the check asks for no open die: two faces are the whole roll.
    script = [HIT_14, TIE, {**HIT_14, "critical": [6, 6]}, {"phr": [6, 6]}]
    crit = events(narrate(load(crit_duel({"physical_resistance": 0})), seed=1, script=script), "critical")[0]
    assert "PhR 2d6 (6, 6) + 0 = 12: 1 DoF" in said(crit)


def test_kaiser_fight_draw_expands_rows_exactly_and_samples_the_same_table() -> None:
    """`draw`: the exact chain gets one row per value with weight / total; sampling follows it."""
    fight = load(crit_duel())
    tables = [(np.asarray([0, 1, 5]), (3, 2, 1)), (np.asarray([7]), (1,))]
    ctx = Exact(fight, initial_state(fight, 3))
    idx, values = ctx.draw(np.asarray([True, False, True]), np.asarray([0, 0, 1]), tables)
    assert idx.tolist() == [0, 0, 0, 1, 2] and values.tolist() == [0, 1, 5, 0, 7]
    assert ctx.weight is not None
    assert [Fraction(int(w), ctx.denominator) for w in ctx.weight] == [
        Fraction(1, 2),
        Fraction(1, 3),
        Fraction(1, 6),
        1,
        1,
    ]
    sample = TableSample(fight, initial_state(fight, 60_000), np.random.default_rng(5))
    _, drawn = sample.draw(np.ones(60_000, dtype=bool), np.zeros(60_000, dtype=np.int64), tables)
    assert abs(float((drawn == 0).mean()) - 0.5) < 0.01 and abs(float((drawn == 5).mean()) - 1 / 6) < 0.01


def critical_duel() -> Any:
    """A duel where Criticals are common: 14 LP each, Base Damage 7, PhR 1 and (not given) 3."""
    return load(
        kaiser_fight(
            [combatant("A", target={"lp": 14}, physical_resistance=1)],
            [combatant("B", target={"lp": 14})],
        )
    )


@pytest.fixture(scope="module")
def critical_exact() -> Any:
    """The duel's exact chain, its cap on seconds lifted (a cap on time may only refuse: under load it refused this
    chain once; `exact_uncapped` lifts it for a test, this fixture spans the module)."""
    return exact_duel(critical_duel(), seconds=math.inf)


@pytest.mark.parametrize("method", ["table", "direct"])
def test_kaiser_fight_criticals_exact_agrees_with_both_samplers(method: str, critical_exact: Any) -> None:
    """--exact (the PhR check as an exact DoF table in the chain) against 100,000 simulated fights, with
    penalties in play."""
    fight = critical_duel()
    n = 100_000
    sim = simulate_fights(fight, n, seed=31, method=method)  # type: ignore[arg-type]
    p = float(critical_exact.wins[0])
    assert abs(sim.wins(0) / n - p) < Z * (p * (1 - p) / n) ** 0.5
    assert critical_exact.expected_rounds is not None
    assert abs(float(sim.rounds.mean()) - float(critical_exact.expected_rounds)) < Z * float(sim.rounds.std()) / n**0.5


def test_kaiser_fight_criticals_exact_agrees_with_the_plain_python_reference(critical_exact: Any) -> None:
    """The independent plain-Python fight (benchmarks/fight_reference.py plays Criticals too)."""
    fight = critical_duel()
    rng = random.Random(5)
    n = 20_000
    wins = sum(1 for _ in range(n) if reference_fight(fight, rng)[0] == 0)
    p = float(critical_exact.wins[0])
    assert abs(wins / n - p) < Z * (p * (1 - p) / n) ** 0.5


def test_kaiser_fight_criticals_happen_in_the_critical_duel() -> None:
    """The duel above does play Criticals: a narrated fight of it shows penalties."""
    fight = critical_duel()
    seen = sum(1 for seed in range(30) for e in narrate(fight, seed=seed).events if e["kind"] == "critical")
    assert seen > 0


def test_kaiser_fight_replay_rebuilds_the_critical_state(tmp_path: Path) -> None:
    """Events only: `tohit replay` rebuilds penalties, fading and AP lost to a Critical."""
    log = narrate(load(crit_duel({"physical_resistance": 1})), seed=1, script=[*ROUND_1, TIE])
    path = tmp_path / "events.jsonl"
    write_log(log, path)
    rebuilt = replay(path)
    assert rebuilt.matches, rebuilt.mismatches


def test_kaiser_fight_example_troll_shows_a_critical_and_its_penalty_fading() -> None:
    """examples/fights/kaiser-troll.yaml at its own seed: a Critical with DoF, then the penalty fading."""
    log = narrate(load_fight(EXAMPLES / "kaiser-troll.yaml"))
    bitten = [e for e in events(log, "critical") if e["changes"]]
    assert (
        bitten
        and "vs PhR 2d6" in said(bitten[0])
        and "[kaiser: Critical (docs/kaiser.md#silent-critical)]" in said(bitten[0])
    )
    assert events(log, "penalty_fades")


def test_kaiser_fight_criticals_without_dof_change_nothing() -> None:
    """With PhR so high that no Critical a target lives through can beat it (level <= 12 + 3 < 2 + 13), the
    exact odds are those of a fight without Criticals' effects: the same as the old chain, 721 states."""
    data = yaml.safe_load((EXAMPLES / "kaiser-duel.yaml").read_text())
    for side in data["sides"]:
        side["combatants"][0]["physical_resistance"] = 13
    data["options"] = {**(data.get("options") or {}), "multiple_defense_penalty": False}  # as before it too
    result = exact_duel(load(data), seconds=math.inf)  # a cap on time may only refuse: lifted
    assert result.states == 721
    assert abs(float(result.wins[0]) - 0.7869444772953877) < 1e-12  # the chain before Criticals were played


@pytest.mark.parametrize("value", [-1, "tough"])
def test_kaiser_fight_bad_physical_resistance_is_one_line_naming_the_field(value: Any, tmp_path: Path) -> None:
    data = crit_duel({"physical_resistance": value})
    with pytest.raises(InputError) as err:
        load(data)
    assert str(err.value).startswith("fight.yaml: sides[1].combatants[0].physical_resistance: ")
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(app, ["fight", str(path)])
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    assert out.startswith("error: ") and out.count("error:") == 1 and "physical_resistance" in out


def test_kaiser_fight_best_reads_the_attackers_all_action_penalty() -> None:
    """Each DoF gives -1 to all actions [Critical]: policy `best` (and the preview) read the attacker's Offensive
    Roll at its All Action Penalty, as its turn resolves it: the mean damage of the same attack with its
    modifiers lowered by the penalty."""

    def best_mean(data: dict[str, Any], penalty: int) -> float:
        fight = load(data)
        state = initial_state(fight, 1)
        state.per["penalty"][0, 0] = penalty
        allowed = np.zeros((1, fight.max_attacks, 2), dtype=bool)
        allowed[0, 0, 1] = True
        ctx = Exact(fight, state)
        return float(policy._expected(ctx, np.zeros(1, np.int64), allowed, np.ones(1, dtype=bool))[0, 0, 1])

    data = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")])
    lowered = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")])
    lowered["sides"][0]["combatants"][0]["attacks"][0]["attack"]["modifiers"] = -3
    assert best_mean(data, 3) == best_mean(lowered, 0) < best_mean(data, 0)


@pytest.mark.parametrize("mode", ["exact", "table", "direct", "narrate"])
def test_kaiser_cells_a_change_is_written_through_are_its_rows_and_combatants(mode: str, monkeypatch: Any) -> None:
    """Every change Kaiser hands the cells it read (`Change.cells`) holds the cells of its own rows and combatants,
    in every mode: the exact chain's expansions (a Critical's PhR check) included, so none is written through cells
    made before its rows were re-indexed; a change of some of a step's positions (`change_at`, its rows and
    combatants taken when read) too."""
    checked: list[int] = []
    checked_at: list[int] = []

    def checking(stat: str, rows: Any, to: Any, who: Any = None, cells: Any = None) -> Any:
        made = state_change(stat, rows, to, who, cells)
        if cells is not None:
            assert made.who is not None
            assert np.array_equal(cells, made.rows * 2 + made.who), stat
            checked.append(made.rows.size)
        return made

    def checking_at(stat: str, positions: Any, rows: Any, to: Any, who: Any, cells: Any) -> Any:
        made = state_change_at(stat, positions, rows, to, who, cells)
        assert made.who is not None and made.size == made.rows.size == cells.size
        assert np.array_equal(cells, made.rows * 2 + made.who), stat
        checked_at.append(made.size)
        return made

    monkeypatch.setattr(modes_base, "change", checking)
    monkeypatch.setattr(consequence, "change", checking)
    monkeypatch.setattr(consequence, "change_at", checking_at)
    fight = load(
        kaiser_fight(
            [combatant("A", target={"lp": 9}, physical_resistance=1)],
            [combatant("B", target={"lp": 9})],
        )
    )
    if mode == "exact":
        exact_duel(fight, seconds=math.inf)
    elif mode == "narrate":
        for seed in range(8):
            narrate(fight, seed=seed)
    else:
        simulate_fights(fight, 2000, seed=3, method=mode)  # type: ignore[arg-type]
    assert len(checked) > 10 and sum(checked) > 20
    if mode != "narrate":  # a told fight is one row: an item holds it or holds none, never some of the positions
        assert checked_at and sum(checked_at) > 0
