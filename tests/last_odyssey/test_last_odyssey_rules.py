"""Last Odyssey: one test per clause of issue 6 and of the page (Attacking and Defending).

Defaults of `helpers.scenario`: the user has every accuracy 3 and every attack 2; a target has Evasion 2,
Resistance 2, both Defenses 0 and no Shell. Each docstring cites the clause it tests.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.last_odyssey.helpers import load, p, physical, rolled, row, rows_by_face, scenario, target_odds, trace
from tohit.core.errors import InputError
from tohit.systems.last_odyssey import SYSTEM
from tohit.systems.last_odyssey.tables import BONUS_TRACKER, move_tracker

# -- Abilities that always succeed -------------------------------------------------------------------------


def test_last_odyssey_buffs_and_debuffs_need_no_roll() -> None:
    """Page, introduction: buffs and debuffs succeed no matter what; no hit die is rolled."""
    for kind in ("buff", "debuff"):
        data = scenario({}, attack={"kind": kind, "type": "ally", "stat": "evasion"})
        result = rolled(data)
        assert result.target("T0").faces == {"hit": []}
        assert result.target("T0").row["result"] == "hit"
        assert result.target("T0").row["accuracy_value"] is None
        odds = target_odds(data)
        assert odds.probability("result", "hit") == 1
        assert odds.total == 1
        assert "succeeds no matter what" in " ".join(trace(data))


def test_last_odyssey_buff_refuses_forced_hit_die() -> None:
    """Page, introduction: a buff rolls no hit die, so forcing one is an error naming the dice field."""
    data = scenario({}, attack={"kind": "buff", "type": "ally", "stat": "evasion"}, die=5)
    with pytest.raises(InputError) as err:
        rolled(data)
    assert err.value.field == "dice.hit"


# -- Physical and magical attacks --------------------------------------------------------------------------


def test_last_odyssey_physical_attack_hits_on_7_or_below() -> None:
    """Physical Attacks: d10 - Physical Accuracy + Evasion; 7 or below hits, otherwise a miss."""
    rows = rows_by_face(scenario({"evasion": 4}, attacker={"physical_accuracy": 3}))
    for face, r in rows.items():
        assert r["accuracy_value"] == face - 3
        assert r["hit_value"] == face - 3 + 4
        assert r["result"] == ("hit" if face + 1 <= 7 else "miss")
        if r["result"] == "miss":
            assert r["damage"] == 0 and r["base_damage"] is None


def test_last_odyssey_physical_base_damage_is_attack_minus_defense_plus_die() -> None:
    """Physical Attacks: base damage = Physical Attack - Physical Defense + the hit die."""
    data = scenario({"physical_defense": 2, "shell": True}, attacker={"physical_attack": 5, "magical_attack": 40})
    for face, r in rows_by_face(data).items():
        if r["result"] == "hit":
            assert r["base_damage"] == 5 - 2 + face
            assert r["damage"] == 5 - 2 + face  # Shell active: a physical attack is not doubled


def test_last_odyssey_base_damage_is_at_least_1() -> None:
    """General Notes: the minimum base damage of an attack is 1."""
    data = scenario({"physical_defense": 9, "shell": True}, attacker={"physical_attack": 1}, die=2)
    assert row(data)["base_damage"] == 1
    assert any("at least 1" in line for line in trace(data))


def test_last_odyssey_magical_attack_uses_magical_stats() -> None:
    """Magical Attacks: d10 - Magical Accuracy + Evasion <= 7; base = Magical Attack - Magical Defense + die."""
    attacker = {"magical_accuracy": 5, "magical_attack": 6, "physical_accuracy": 0, "physical_attack": 0}
    target = {"evasion": 4, "magical_defense": 1, "physical_defense": 30, "shell": False}
    rows = rows_by_face(scenario(target, attacker=attacker, attack={"kind": "magical", "type": "ranged"}))
    for face, r in rows.items():
        assert r["hit_value"] == face - 5 + 4
        assert r["result"] == ("hit" if face - 1 <= 7 else "miss")
        if r["result"] == "hit":
            assert r["base_damage"] == 6 - 1 + face
            assert r["damage"] == 6 - 1 + face  # no Shell: a magical attack is not doubled


# -- Status-inflicting abilities ---------------------------------------------------------------------------


def _status(target: dict[str, object], **attack: object) -> dict[str, object]:
    return scenario(target, attacker={"status_accuracy": 4}, attack={"kind": "status", "type": "ranged", **attack})


def test_last_odyssey_status_lands_on_5_or_below() -> None:
    """Status-Inflicting Abilities: d10 - Status Accuracy + Resistance; 5 or below inflicts the status."""
    rows = rows_by_face(_status({"resistance": 3}, status="confused"))
    for face, r in rows.items():
        assert r["hit_value"] == face - 4 + 3
        landed = face - 1 <= 5
        assert r["status_applied"] is landed
        assert r["result"] == ("hit" if landed else "miss")
        assert r["damage"] == 0 and r["base_damage"] is None


def test_last_odyssey_status_defaults_to_the_element_status() -> None:
    """Statuses: the status a status-inflicting ability inflicts is determined by its element."""
    data = _status({"resistance": 0}, element="thunder")
    data["dice"] = {"hit": [1]}
    assert any("paralyzed inflicted" in line for line in trace(data))


@pytest.mark.parametrize(
    ("multiplier", "landing_faces"),
    [
        (0.25, set()),  # immune
        (0.5, {1, 2, 3, 4}),  # 3 or below
        (1, {1, 2, 3, 4, 5, 6}),  # 5 or below
        (2, {1, 2, 3, 4, 5, 6, 7, 8}),  # 7 or below
        (4, set(range(1, 11))),  # cannot be evaded
    ],
)
def test_last_odyssey_status_element_changes_the_threshold(multiplier: float, landing_faces: set[int]) -> None:
    """Issue 6 / Statuses: x0.25 immune, x0.5 3 or less, x1 5 or less, x2 7 or less, x4 cannot be evaded."""
    rows = rows_by_face(_status({"resistance": 3, "element_multiplier": multiplier}, status="burned"))
    assert {face for face, r in rows.items() if r["status_applied"]} == landing_faces


def test_last_odyssey_status_x4_lands_even_out_of_reach_and_x025_never() -> None:
    """Statuses: x4 "cannot evade" whatever the Resistance; x0.25 immune whatever the roll."""
    assert p(_status({"resistance": 60, "element_multiplier": 4}, status="burned"), "status_applied", True) == 1
    assert p(_status({"resistance": -60, "element_multiplier": 0.25}, status="burned"), "status_applied", True) == 0


def test_last_odyssey_status_threshold_from_the_element_table_and_shell_element() -> None:
    """Elemental Types / Shells: fire vs wind is x0.25 (immune); with a Shell the target counts as its
    element (fire vs a water Shell: x0.5, 3 or below)."""
    assert p(_status({"resistance": 0, "element": "wind"}, element="fire"), "status_applied", True) == 0
    shelled = _status({"resistance": 0, "element": "wind", "shell": 3, "shell_element": "water"}, element="fire")
    assert p(shelled, "status_applied", True) == Fraction(7, 10)  # x0.5: d - 4 + 0 <= 3, d <= 7
    broken = _status({"resistance": 0, "element": "wind", "shell": 0, "shell_element": "water"}, element="fire")
    assert p(broken, "status_applied", True) == 0  # Shellbroken: the target's own element again


# -- One roll for every target -----------------------------------------------------------------------------


def test_last_odyssey_one_roll_for_every_target() -> None:
    """Page, introduction: an ability with several targets rolls the hit die once."""
    data = scenario({"evasion": 0}, {"evasion": 5}, {"evasion": 9}, attack=physical(type="multi"))
    for seed in range(30):
        result = rolled(data, seed)
        faces = {t.name: tuple(t.faces["hit"]) for t in result.targets}
        assert len(set(faces.values())) == 1, faces
        shared = result.targets[0].row["accuracy_value"]
        assert all(t.row["accuracy_value"] == shared for t in result.targets)


def test_last_odyssey_each_target_is_compared_with_its_own_evasion_and_damage() -> None:
    """General Notes: add each enemy's Evasion to the one roll individually; each takes its own damage."""
    data = scenario(
        {"evasion": 6, "physical_defense": 1},
        {"evasion": 2, "physical_defense": 3},
        {"evasion": 0, "physical_defense": 0, "shell": True},
        attack=physical(type="multi"),
        die=5,
    )
    result = rolled(data)
    assert [t.row["result"] for t in result.targets] == ["miss", "hit", "hit"]
    assert [t.row["damage"] for t in result.targets] == [0, 8, 7]


def test_last_odyssey_hit_die_cannot_differ_between_targets() -> None:
    """Page, introduction: one hit die for every target, so targets cannot be forced different faces (a
    face forced for a target must be forced, the same, for all of them)."""
    data = scenario({}, {}, attack=physical(type="multi"))
    data["targets"][1]["dice"] = {"hit": [3]}
    with pytest.raises(InputError) as err:
        rolled(data)
    assert err.value.field == "targets[1].dice.hit"
    data["targets"][0]["dice"] = {"hit": [4]}
    with pytest.raises(InputError) as err:
        rolled(data)
    assert err.value.field == "targets[1].dice.hit"
    data["targets"][0]["dice"] = {"hit": [3]}
    assert {tuple(t.faces["hit"]) for t in rolled(data).targets} == {(3,)}
    single = scenario({}, die=None)
    single["targets"][0]["dice"] = {"hit": [2]}
    assert rolled(single).targets[0].faces["hit"] == [2]


# -- Out of reach ------------------------------------------------------------------------------------------


def test_last_odyssey_out_of_reach_status_cannot_land() -> None:
    """General Notes: when Resistance is too great, a status ability cannot hit, not even on a 1."""
    data = _status({"resistance": 5}, status="confused", **{})
    data["attacker"]["status_accuracy"] = 0
    assert p(data, "status_applied", True) == 0
    assert row({**data, "dice": {"hit": [1]}})["result"] == "miss"


def test_last_odyssey_out_of_reach_attack_still_hits_on_a_natural_1() -> None:
    """General Notes: a physical or magical attack out of reach still hits on a natural 1."""
    for kind in ("physical", "magical"):
        data = scenario(
            {"evasion": 10},
            attacker={"physical_accuracy": 0, "magical_accuracy": 0},
            attack={"kind": kind, "type": "ranged"},
        )
        assert p(data, "result", "hit") == Fraction(1, 10)
        one = row({**data, "dice": {"hit": [1]}})
        assert one["result"] == "hit" and one["hit_value"] == 11
        assert one["base_damage"] == 2 - 0 + 1
        assert any("natural 1 still hits" in line for line in trace({**data, "dice": {"hit": [1]}}))


# -- Final damage ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack_stat", "defense", "die", "multipliers", "nearest", "down"),
    [
        (2, 0, 3, [0.5], 3, 2),  # 2.5
        (2, 0, 1, [0.5], 2, 1),  # 1.5
        (1, 9, 2, [0.25], 0, 0),  # base 1 -> 0.25
        (1, 0, 1, [0.25], 1, 0),  # 0.5
        (2, 0, 1, [1.5], 5, 4),  # 4.5 (Strike's 1.5x)
        (7, 0, 3, [1.15], 12, 11),  # 11.5 exactly; 10 * 1.15 in floats is 11.499999999999998
        (2, 0, 4, ["3/2", 2], 18, 18),  # 18
        (5, 0, 2, [0.1], 1, 0),  # 0.7
    ],
)
def test_last_odyssey_final_damage_rounds_to_nearest_halves_up(
    attack_stat: int, defense: int, die: int, multipliers: list[object], nearest: int, down: int
) -> None:
    """General Notes + docs/last-odyssey.md#silent-damage: final = base x modifiers rounded to nearest, halves up,
    exactly; option rounding: down follows Elemental Types (2.5 -> 2)."""
    target = {"physical_defense": defense, "shell": True, "evasion": -20}
    data = scenario(target, attacker={"physical_attack": attack_stat}, attack=physical(multipliers=multipliers))
    data["dice"] = {"hit": [die]}
    assert row(data)["damage"] == nearest
    assert row({**data, "options": {"rounding": "down"}})["damage"] == down


def test_last_odyssey_final_damage_may_be_0() -> None:
    """General Notes: if the resulting damage would be 0, it is still 0 (the hit still lands)."""
    data = scenario(
        {"physical_defense": 9, "shell": True, "element_multiplier": 0.25}, attacker={"physical_attack": 1}, die=2
    )
    r = row(data)
    assert (r["result"], r["base_damage"], r["damage"]) == ("hit", 1, 0)


def test_last_odyssey_multipliers_are_refused_when_too_fine_or_too_large() -> None:
    """Exactness guard: multipliers are exact fractions of bounded size."""
    for bad in ([-1], [101], ["1/1001"], [True], ["x2"]):
        with pytest.raises(InputError) as err:
            rolled(scenario({}, attack=physical(multipliers=bad)))
        assert err.value.field is not None and err.value.field.startswith("attack.multipliers")


# -- Shell -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "shell", "factor"),
    [("magical", True, 2), ("magical", False, 1), ("physical", True, 1), ("physical", False, 2), ("physical", 0, 2)],
)
def test_last_odyssey_shell_doubles_magical_on_shell_and_physical_without(
    kind: str, shell: object, factor: int
) -> None:
    """General Notes: magical vs an active Shell deals double; physical vs no Shell deals double (0 points:
    Shellbroken, no Shell active)."""
    data = scenario({"shell": shell, "evasion": -20}, attack={"kind": kind, "type": "ranged"}, die=4)
    r = row(data)
    assert r["base_damage"] == 2 - 0 + 4
    assert r["damage"] == factor * 6


def test_last_odyssey_cop_starts_with_a_full_shell() -> None:
    """Shells / the game's other pages (Cop: HP 10 / Shell 5): an enemy begins battle with its full Shell, so
    a physical attack is not doubled and the Shell absorbs the damage."""
    cop = {"hp": 10, "shell": 5, "physical_defense": 2, "evasion": 1, "magical_defense": 1, "resistance": 2}
    data = scenario(cop, attacker={"physical_accuracy": 4, "physical_attack": 2}, die=2)
    r = row(data)
    assert (r["result"], r["base_damage"], r["damage"]) == ("hit", 2, 2)
    assert (r["shell_absorbed"], r["overflow"], r["hp_lost"]) == (2, None, 0)  # the Shell holds


@pytest.mark.parametrize(
    ("attack_stat", "die", "absorbed", "broken", "overflow", "hp_lost", "downed"),
    [
        (2, 2, 4, False, None, 0, False),  # 4 < Shell 5: absorbed, no HP lost
        (2, 3, 5, True, 0, 0, False),  # exactly 5: Shellbroken, overflow 0
        (12, 2, 5, True, 9, 0, False),  # overflow 9 < 10 HP: no HP lost
        (12, 3, 5, True, 10, 10, True),  # overflow 10 = 10 HP: downed (docs/last-odyssey.md#silent-shell)
        (20, 3, 5, True, 18, 10, True),  # overflow 18 > 10 HP: downed
    ],
)
def test_last_odyssey_shell_absorbs_and_overflow_downs_only_when_at_least_hp(
    attack_stat: int,
    die: int,
    absorbed: int,
    broken: bool,
    overflow: int | None,
    hp_lost: int,
    downed: bool,
) -> None:
    """Shells + docs/last-odyssey.md#silent-shell: on the hit that breaks the Shell, overflow = final - absorbed; it
    takes the HP only if it is greater than or equal to the remaining HP (then downed), else no HP is lost."""
    data = scenario({"shell": 5, "hp": 10, "evasion": -20}, attacker={"physical_attack": attack_stat}, die=die)
    r = row(data)
    assert (r["shell_absorbed"], r["overflow"]) == (absorbed, overflow)
    assert (r["overflow"] is not None) is broken  # an overflow is reported on the hit that breaks the Shell
    assert (r["hp_lost"], r["downed"]) == (hp_lost, downed)


def test_last_odyssey_shell_without_points_leaves_hp_lost_unknown() -> None:
    """Shells: with `shell: true` the pool is not known, so the HP lost by a damaging hit is unknown."""
    data = scenario({"shell": True, "hp": 10, "evasion": 1})
    rows = rows_by_face(data)
    assert rows[1]["hp_lost"] is None and rows[1]["downed"] is None
    assert rows[10]["result"] == "miss" and rows[10]["hp_lost"] == 0 and rows[10]["downed"] is False


# -- Elements ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("multiplier", "damage"), [(0.25, 2), (0.5, 4), (1, 7), (2, 14), (4, 28)])
def test_last_odyssey_element_multiplier_per_attack_and_target(multiplier: float, damage: int) -> None:
    """Issue 6 / Elemental Types: an element multiplier of 0.25, 0.5, 1, 2 or 4 scales the damage
    (base 7: 1.75 -> 2, 3.5 -> 4)."""
    data = scenario({"shell": True, "element_multiplier": multiplier, "evasion": -20}, die=5)
    assert row(data)["damage"] == damage


def test_last_odyssey_element_from_the_table_and_colorless_is_x1() -> None:
    """Elemental Types: the table (fire vs ice x4, fire vs water x0.5); colorless attack or target x1;
    a target with a Shell counts as the Shell's element."""
    base = {"shell": True, "evasion": -20}
    fire = physical(element="fire")
    assert row(scenario({**base, "element": "ice"}, attack=fire, die=5))["damage"] == 28
    assert row(scenario({**base, "element": "water"}, attack=fire, die=5))["damage"] == 4  # 3.5 -> 4
    assert row(scenario({**base, "element": "colorless"}, attack=fire, die=5))["damage"] == 7
    assert row(scenario({**base, "element": "ice"}, attack=physical(element="colorless"), die=5))["damage"] == 7
    assert row(scenario({**base, "element": "ice"}, die=5))["damage"] == 7  # attack element not given: x1
    shelled = {"shell": 50, "shell_element": "water", "element": "ice", "evasion": -20}
    assert row(scenario(shelled, attack=fire, die=5))["damage"] == 4


@pytest.mark.parametrize("bad", [3, 0, 1.5, 0.3, 8])
def test_last_odyssey_element_multiplier_other_values_refused(bad: float) -> None:
    """Issue 6: element multipliers other than 0.25, 0.5, 1, 2, 4 are refused, naming the field."""
    with pytest.raises(InputError) as err:
        rolled(scenario({"element_multiplier": bad}))
    assert err.value.field == "targets[0].element_multiplier"
    assert "0.25, 0.5, 1, 2 or 4" in err.value.message


def test_last_odyssey_element_multiplier_must_agree_with_the_table() -> None:
    """Elemental Types: a given multiplier that contradicts the table (or x1 for colorless) is refused."""
    with pytest.raises(InputError) as err:
        rolled(scenario({"element": "ice", "element_multiplier": 2}, attack=physical(element="fire")))
    assert err.value.field == "targets[0].element_multiplier"
    with pytest.raises(InputError) as err:
        rolled(scenario({"element_multiplier": 2}, attack=physical(element="colorless")))
    assert err.value.field == "targets[0].element_multiplier"


# -- Buffs, debuffs and statuses ---------------------------------------------------------------------------


def test_last_odyssey_bonus_tracker_steps_add_to_the_statistic() -> None:
    """Buffs and Debuffs: the tracker value (-7, -3, -1, 0, +1, +3, +7) is added to the statistic."""
    data = scenario(
        {"evasion": 4, "buffs": {"evasion": -1, "physical_defense": 3}, "shell": True, "physical_defense": 1},
        attacker={"buffs": {"physical_accuracy": 3, "physical_attack": 7}},
        die=6,
    )
    r = row(data)
    assert r["accuracy_value"] == 6 - (3 + 3)
    assert r["hit_value"] == 6 - 6 + (4 - 1)
    assert r["base_damage"] == (2 + 7) - (1 + 3) + 6
    for bad in (2, 4, -2, 8):
        with pytest.raises(InputError) as err:
            rolled(scenario({"buffs": {"evasion": bad}}))
        assert err.value.field == "targets[0].buffs.evasion"


def test_last_odyssey_buffs_and_debuffs_cancel_step_for_step() -> None:
    """Buffs and Debuffs: each level moves one step along -7, -3, -1, 0, +1, +3, +7; one buff cancels
    one debuff; further buffs at +7 (debuffs at -7) do nothing."""
    assert [move_tracker(0, k) for k in (1, 2, 3, 4)] == [1, 3, 7, 7]
    assert [move_tracker(0, -k) for k in (1, 2, 3, 4)] == [-1, -3, -7, -7]
    assert move_tracker(1, -1) == 0 and move_tracker(-3, 2) == 0 and move_tracker(7, -6) == -7
    for start in BONUS_TRACKER:
        assert move_tracker(move_tracker(start, -1), 1) == start or start == -7
    debuff = scenario(
        {"buffs": {"physical_attack": 1}}, attack={"kind": "debuff", "type": "ranged", "stat": "physical_attack"}
    )
    assert row(debuff)["tracker"] == 0
    buff = scenario({"buffs": {"evasion": 7}}, attack={"kind": "buff", "type": "ally", "stat": "evasion"})
    assert row(buff)["tracker"] == 7
    two = scenario({"buffs": {"evasion": -3}}, attack={"kind": "buff", "type": "ally", "stat": "evasion", "levels": 2})
    assert row(two)["tracker"] == 0


def test_last_odyssey_burned_cannot_be_buffed() -> None:
    """Statuses (Burned): the character cannot be buffed; debuffs still apply."""
    burned = {"statuses": ["burned"], "buffs": {"evasion": 1}}
    assert row(scenario(burned, attack={"kind": "buff", "type": "ally", "stat": "evasion"}))["tracker"] == 1
    assert row(scenario(burned, attack={"kind": "debuff", "type": "ranged", "stat": "evasion"}))["tracker"] == 0


def test_last_odyssey_blinded_halves_base_accuracies() -> None:
    """Statuses (Blinded) + issue 6: accuracies count as half their base value, rounded down, then the
    tracker (option blinded_halves: total halves the value with buffs instead)."""
    attacker = {
        "physical_accuracy": 5,
        "status_accuracy": 7,
        "statuses": ["blinded"],
        "buffs": {"physical_accuracy": 3},
    }
    data = scenario({}, attacker=attacker, die=6)
    assert row(data)["accuracy_value"] == 6 - (5 // 2 + 3)
    assert row({**data, "options": {"blinded_halves": "total"}})["accuracy_value"] == 6 - (5 + 3) // 2
    status = scenario({}, attacker=attacker, attack={"kind": "status", "type": "ranged", "status": "burned"}, die=6)
    assert row(status)["accuracy_value"] == 6 - 3
    assert any("Blinded" in line for line in trace(data))


def test_last_odyssey_petrified_halves_base_evasion_rounded_down() -> None:
    """Statuses (Petrified): base Evasion counts as half, rounded down, not including buffs."""
    data = scenario({"evasion": 5, "statuses": ["petrified"], "buffs": {"evasion": 1}}, die=6)
    assert row(data)["hit_value"] == (6 - 3) + (5 // 2 + 1)


def test_last_odyssey_paralyzed_makes_physical_attacks_miss() -> None:
    """Statuses (Paralyzed): the character's physical attacks automatically miss, even on a 1."""
    paralyzed = {"statuses": ["paralyzed"]}
    assert p(scenario({"lean_in": True}, attacker=paralyzed), "result", "hit") == 0
    magical = scenario({"evasion": 0}, attacker=paralyzed, attack={"kind": "magical", "type": "ranged"})
    assert p(magical, "result", "hit") == 1


def test_last_odyssey_silenced_makes_magical_attacks_miss() -> None:
    """Statuses (Silenced): the character's magical attacks automatically miss."""
    silenced = {"statuses": ["silenced"]}
    assert p(scenario({}, attacker=silenced, attack={"kind": "magical", "type": "ranged"}), "result", "hit") == 0
    assert p(scenario({"evasion": 0}, attacker=silenced), "result", "hit") == 1
    status = scenario(
        {"resistance": -10}, attacker=silenced, attack={"kind": "status", "type": "ranged", "status": "x"}
    )
    assert p(status, "status_applied", True) == 1


# -- Ability types -----------------------------------------------------------------------------------------


def test_last_odyssey_melee_needs_the_user_in_the_front_row() -> None:
    """Ability types (Melee) + Starting Battles: only usable from the front row."""
    with pytest.raises(InputError) as err:
        rolled(scenario({}, attacker={"row": "back"}, attack=physical(type="melee")))
    assert err.value.field == "attacker.row"
    assert row(scenario({}, attacker={"row": "back"}, attack=physical(type="ranged"), die=1))["result"] == "hit"


def test_last_odyssey_melee_targets_only_the_front_row() -> None:
    """Ability types (Melee): may only target characters in the front row, also as part of a Multi."""
    with pytest.raises(InputError) as err:
        rolled(scenario({}, {"row": "back"}, attack=physical(type=["multi", "melee"])))
    assert err.value.field == "targets[1].row"


@pytest.mark.parametrize("kind", ["passive", "reaction"])
def test_last_odyssey_passive_or_reaction_cannot_be_used_as_an_action(kind: str) -> None:
    """Ability types (Passive, Reaction): they cannot be used as an action."""
    with pytest.raises(InputError) as err:
        rolled(scenario({}, attack=physical(type=kind)))
    assert err.value.field == "attack.type"
    assert "cannot be used as an action" in err.value.message


def test_last_odyssey_unknown_ability_type_is_refused() -> None:
    """Ability types: only Self, Melee, Ranged, Ally, Special, Passive, Multi and Reaction exist."""
    with pytest.raises(InputError) as err:
        rolled(scenario({}, attack=physical(type="area")))
    assert err.value.field == "attack.type[0]"


def test_last_odyssey_only_multi_targets_several_characters() -> None:
    """Ability types (Multi): an ability that targets more than one character is a Multi ability."""
    data = scenario({}, {}, attack=physical(type="multi"))
    data["attack"]["type"] = "ranged"
    with pytest.raises(InputError) as err:
        rolled(data)
    assert err.value.field == "targets"


def test_last_odyssey_self_ability_targets_only_the_user() -> None:
    """Ability types (Self): this ability may only target the user."""
    focus = {"kind": "buff", "type": "self", "stat": "physical_attack"}
    assert row(scenario({"name": "User"}, attack=focus), "User")["tracker"] == 1
    with pytest.raises(InputError) as err:
        rolled(scenario({"name": "Someone"}, attack=focus))
    assert err.value.field == "targets[0].name"


def test_last_odyssey_special_ability_is_accepted() -> None:
    """Ability types (Special): contextual targets, nothing to check (e.g. the Spider Drone's Autocannon)."""
    assert row(scenario({"evasion": 0}, attack=physical(type="special"), die=3))["result"] == "hit"


# -- The other side; leaning in ----------------------------------------------------------------------------


def test_last_odyssey_ability_on_the_other_side_works_as_if_the_user_stood_there() -> None:
    """Page: an ability used on the opposite side works as though the user occupied that side: a Ranged
    attack on an ally hits and damages as on an enemy; an Ally buff on an enemy buffs it."""
    on_enemy = scenario({"evasion": 3}, die=6)
    on_ally = scenario({"evasion": 3, "side": "ally"}, die=6)
    assert row(on_enemy) == row(on_ally)
    assert any("other side" in line for line in trace(on_ally))
    buff = scenario({"side": "enemy"}, attack={"kind": "buff", "type": "ally", "stat": "evasion"})
    assert row(buff)["tracker"] == 1
    assert any("other side" in line for line in trace(buff))


def test_last_odyssey_target_may_lean_in_and_choose_to_be_hit() -> None:
    """Page (leaning in) + docs/last-odyssey.md#silent-leaning-in: the target may choose to be hit whatever the roll."""
    for face, r in rows_by_face(scenario({"evasion": 30, "lean_in": True})).items():
        assert r["result"] == "hit"
        assert r["base_damage"] == 2 + face  # the damage still uses the real die
    status = scenario({"resistance": 30, "lean_in": True}, attack={"kind": "status", "type": "ranged", "status": "x"})
    assert p(status, "status_applied", True) == 1


def test_last_odyssey_leaning_in_cannot_override_immunity() -> None:
    """Statuses (x0.25: immune) over leaning in: an immune target cannot receive the status."""
    data = scenario(
        {"lean_in": True, "element_multiplier": 0.25}, attack={"kind": "status", "type": "ranged", "status": "x"}
    )
    assert p(data, "status_applied", True) == 0


# -- Knock-out, HP and downed ------------------------------------------------------------------------------


def test_last_odyssey_knock_out_hits_with_the_real_roll_and_damages_as_a_1() -> None:
    """Page (knock out) + docs/last-odyssey.md#silent-knock-out: declared before the roll; the hit uses the real roll;
    the damage is computed as though the die showed 1."""
    data = scenario({"evasion": 2}, attack=physical(knock_out=True))
    rows = rows_by_face(data)
    assert rows[9]["result"] == "miss" and rows[10]["result"] == "miss"  # 9 - 3 + 2 = 8: the real roll misses
    for face in range(1, 9):
        assert rows[face]["result"] == "hit"
        assert rows[face]["base_damage"] == 2 - 0 + 1
        assert rows[face]["damage"] == 6


def test_last_odyssey_knock_out_downed_target_is_incapacitated_not_killed() -> None:
    """Page (knock out): a target downed by a knock-out is temporarily incapacitated instead of killed."""
    knocked = row(scenario({"hp": 3, "evasion": 0}, attack=physical(knock_out=True), die=5))
    assert (knocked["downed"], knocked["incapacitated"]) == (True, True)
    killed = row(scenario({"hp": 3, "evasion": 0}, die=5))
    assert (killed["downed"], killed["incapacitated"]) == (True, False)


def test_last_odyssey_only_player_characters_knock_out() -> None:
    """Page (knock out): a player character must declare the knock-out."""
    with pytest.raises(InputError) as err:
        rolled(scenario({}, attacker={"player_character": False}, attack=physical(knock_out=True)))
    assert err.value.field == "attack.knock_out"


def test_last_odyssey_hp_never_goes_below_0_and_at_0_the_target_is_downed() -> None:
    """Attributes and Statistics / Death and Injury: HP never below 0; at 0 HP the target is downed."""
    big = row(scenario({"hp": 5, "evasion": 0}, die=6))  # (2 + 6) x 2 = 16
    assert (big["damage"], big["hp_lost"], big["downed"]) == (16, 5, True)
    small = row(scenario({"hp": 17, "evasion": 0}, die=6))
    assert (small["hp_lost"], small["downed"]) == (16, False)
    exact = row(scenario({"hp": 16, "evasion": 0}, die=6))
    assert (exact["hp_lost"], exact["downed"]) == (16, True)
    assert any("HP never goes below 0, so 0" in line for line in trace(scenario({"hp": 5, "evasion": 0}, die=6)))


def test_last_odyssey_downed_target_cannot_be_targeted() -> None:
    """Death and Injury: a downed character (0 HP) cannot be targeted except by revives."""
    with pytest.raises(InputError) as err:
        rolled(scenario({"hp": 0}))
    assert err.value.field == "targets[0].hp"


def test_last_odyssey_hit_die_is_one_d10_shared_by_every_target() -> None:
    """docs/last-odyssey.md#silent-hit-die, docs/last-odyssey.md#silent-one-roll: the hit die is 1d10, one roll (scope
    "attack") for every target."""
    loaded = load(scenario({}))
    role = SYSTEM.roles(loaded.scenario, loaded.scenario.targets[0])["hit"]
    assert (role.scope, role.notation) == ("attack", "d10")
    support = role.support(0)
    assert list(support.columns["total"]) == list(range(1, 11))
    assert [int(w) for w in support.weights] == [1] * 10


def test_last_odyssey_modifier_table_lists_the_rules() -> None:
    """`tohit modifiers last-odyssey`: thresholds, Shell, element multipliers, tracker steps, statuses."""
    rows = {row.id: row for row in SYSTEM.modifiers()}
    assert {"hit", "natural_1", "status", "shell_magical", "no_shell_physical", "knock_out"} <= set(rows)
    assert [rows[f"tracker_{s:+d}"].modifier for s in BONUS_TRACKER] == ["-7", "-3", "-1", "+0", "+1", "+3", "+7"]
    assert "immune" in rows["element_x0.25"].description and "3 or below" in rows["element_x0.5"].description
    assert {"blinded", "petrified", "paralyzed", "silenced"} <= set(rows)


def test_last_odyssey_ranged_and_ally_abilities_reach_any_row() -> None:
    """Ability types (Ranged, Ally): they may target any character on the battlefield, front or back row,
    from either row."""
    ranged = scenario({"row": "back", "evasion": 0}, attacker={"row": "back"}, attack=physical(type="ranged"), die=3)
    assert row(ranged)["result"] == "hit"
    ally = scenario({"row": "back", "side": "ally"}, attack={"kind": "buff", "type": "ally", "stat": "resistance"})
    assert row(ally)["tracker"] == 1
