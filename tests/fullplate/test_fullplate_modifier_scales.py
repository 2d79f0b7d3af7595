"""FullPlate, Attacking: Circumstantial Modifiers: which rows stack and which replace each other (issue 15, item 5;
docs/fullplate.md#silent-modifier-scales). Rows on one scale replace each other and the row worse for the attacker is
used; rows on different scales add; `modifier_stacking: all` adds every row."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.fullplate.helpers import exact, make, p, row, trace
from tohit.cli.app import app
from tohit.systems.fullplate.circumstances import BY_ID, TABLE

BOW = {"kind": "bow_like"}


def _rows(rows: list[str], weapon: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return make(weapon=weapon or {}, attack={"circumstances": rows}, dice={"to_hit": [10], "damage": [3]}, **extra)


def test_fullplate_cover_and_a_moonlit_night_add() -> None:
    """ "Some modifiers stack": a target behind 50% cover (-4) on a moonlit night (75% Visibility, -1): cover and
    light are separate scales, so they add: -5."""
    data = _rows(["target_cover_50", "visibility_75"], BOW)
    assert row(data)["effective_thac0"] == 14 + 4 + 1
    assert "replaced" not in trace(data)


def test_fullplate_off_hand_back_attack_adds() -> None:
    """ "Attacker is using Off-Hand -2" and "Back Attack +2, Flatfooted" are separate conditions: they add (0),
    and the back attack still makes the target Flatfooted."""
    data = make(
        attack={"off_hand": True, "circumstances": ["back_attack"]},
        target={"ac": 3, "dodge": 2},
        dice={"to_hit": [10], "damage": [3]},
    )
    out = row(data)
    assert out["effective_thac0"] == 14 + 2 - 2
    assert out["target_ac"] == 5
    assert "replaced" not in trace(data)


def test_fullplate_climbing_above_the_target_replaces_above() -> None:
    """ "an attacker who is climbing does not gain a +1 bonus To-Hit from being above their opponent": the
    climbing row (+0) replaces Above (+1), and the trace names the row replaced."""
    data = _rows(["attacker_above", "attacker_climbing_above"])
    assert row(data)["effective_thac0"] == 14
    text = trace(data)
    assert "attacker_above (+1, attack.circumstances[0]) is replaced by attacker_climbing_above (+0)" in text
    assert "one scale, relative_position" in text
    # The order the rows are named in does not matter.
    assert row(_rows(["attacker_climbing_above", "attacker_above"]))["effective_thac0"] == 14


def test_fullplate_visibility_25_replaces_visibility_50() -> None:
    """ "nor does an attacker in Visibility 25% suffer both the penalty for Visibility 25% and Visibility 50% at
    the same time": one scale (light), so 25% (-3) replaces 50% (-2)."""
    data = _rows(["visibility_50", "visibility_25"])
    assert row(data)["effective_thac0"] == 14 + 3
    assert "visibility_50 (-2, attack.circumstances[0]) is replaced by visibility_25 (-3)" in trace(data)


def test_fullplate_prone_crossbow_firing_down_is_plus_5() -> None:
    """ "a prone target attacking with a crossbow who is able to fire at a target below them has a +5 To-Hit
    bonus": attacker's stance and relative position are separate scales."""
    assert row(_rows(["attacker_prone_gun_like", "attacker_above"], {"kind": "gun_like"}))["effective_thac0"] == 9


def test_fullplate_every_replaced_row_is_named_in_the_trace() -> None:
    """The trace names every row that was replaced: three rows of light, two replaced by the worst, 0%."""
    data = _rows(["visibility_75", "visibility_0", "visibility_50", "target_cover_25"], BOW)
    text = trace(data)
    assert row(data)["effective_thac0"] == 14 + 4 + 2
    assert "visibility_75 (-1, attack.circumstances[0]) is replaced by visibility_0 (-4)" in text
    assert "visibility_50 (-2, attack.circumstances[2]) is replaced by visibility_0 (-4)" in text
    assert text.count("is replaced by") == 2


def test_fullplate_rows_replace_across_the_attack_and_the_target() -> None:
    """A target's own rows and the attack's are one list: the target's 50% cover replaces the attack's 25%."""
    data = make(
        weapon=BOW,
        attack={"circumstances": ["target_cover_25"]},
        target={"circumstances": ["target_cover_50"]},
        dice={"to_hit": [10]},
    )
    assert row(data)["effective_thac0"] == 14 + 4


def test_fullplate_modifier_stacking_all_lets_the_dm_add_every_row() -> None:
    """ "A DM decides if multiple modifiers stack or not": modifier_stacking: all adds every row named."""
    data = _rows(["attacker_above", "attacker_climbing_above"], options={"modifier_stacking": "all"})
    assert row(data)["effective_thac0"] == 14 - 1
    data = _rows(["visibility_50", "visibility_25"], options={"modifier_stacking": "all"})
    assert row(data)["effective_thac0"] == 14 + 2 + 3
    assert "replaced" not in trace(data)


def test_fullplate_flatfooted_applies_once_however_many_rows_grant_it() -> None:
    """Back Attack and Sneak Attack are separate scales (+2 each) and both say Flatfooted: the target loses
    Dodge and shield AC once."""
    data = _rows(["back_attack", "sneak_attack", "target_unaware"], target={"ac": 2, "dodge": 1, "deflection": 2})
    out = row(data)
    assert (out["effective_thac0"], out["target_ac"]) == (14 - 5, 5)


def test_fullplate_the_worse_row_changes_the_exact_odds() -> None:
    """Exact odds follow the row used: Visibility 25% with 50% is the same attack as 25% alone."""
    both = exact(make(attack={"circumstances": ["visibility_50", "visibility_25"]}))
    alone = exact(make(attack={"circumstances": ["visibility_25"]}))
    assert p(both, "result", "hit") == p(alone, "result", "hit")


@pytest.mark.parametrize(
    ("scale", "ids"),
    [
        (
            "relative_position",
            {
                "attacker_above",
                "attacker_climbing_above",
                "attacker_same_level",
                "attacker_climbing_same_level",
                "attacker_below",
                "attacker_climbing_below",
            },
        ),
        ("light", {"visibility_100", "visibility_75", "visibility_50", "visibility_25", "visibility_0"}),
        ("cover", {"target_cover_25", "target_cover_50", "target_cover_75", "target_cover_90"}),
        ("concealment", {f"target_concealment_{n}" for n in (25, 50, 75, 90)}),
        ("darkness_distance", {"darkness_per_10_feet"}),
        ("range_band", {"range_short", "range_medium", "range_long", "range_extreme"}),
        ("helpless", {"target_helpless_melee", "target_helpless_ranged"}),
        ("back_attack", {"back_attack"}),
        ("off_hand", {"attacker_off_hand"}),
    ],
)
def test_fullplate_table_rows_sit_on_the_decisions_scales(scale: str, ids: set[str]) -> None:
    """Decisions 5: the scales are relative position (with its climbing rows), attacker's stance, target's
    stance, balance, underwater, light, concealment, cover, darkness distance, range band; each Condition row
    is a scale of its own."""
    assert {r.id for r in TABLE if r.scale == scale} == ids


def test_fullplate_stances_balance_and_underwater_are_one_scale_each() -> None:
    """Prone and kneeling rows of the attacker are the attacker's stance, of the target the target's stance."""
    stance = {r.scale for r in TABLE if r.id.startswith(("attacker_prone", "attacker_kneeling"))}
    target = {r.scale for r in TABLE if r.id.startswith(("target_prone", "target_kneeling"))}
    assert (stance, target) == ({"attacker_stance"}, {"target_stance"})
    assert {BY_ID[i].scale for i in ("attacker_off_balance", "target_off_balance_narrow")} == {"balance"}
    assert {r.scale for r in TABLE if r.group == "Underwater"} == {"underwater"}
    conditions = [r.scale for r in TABLE if r.group == "Condition" and r.id != "target_helpless_ranged"]
    assert len(conditions) == len(set(conditions))


def test_fullplate_modifiers_command_shows_each_rows_scale() -> None:
    """`tohit modifiers fullplate` shows each row's scale (JSON and the table)."""
    result = CliRunner().invoke(app, ["modifiers", "fullplate", "--json"])
    assert result.exit_code == 0
    listed = {r["id"]: r for r in json.loads(result.stdout)}
    assert listed["attacker_climbing_above"]["scale"] == "relative_position"
    assert listed["visibility_25"]["scale"] == "light"
    assert listed["target_cover_50"]["scale"] == "cover"
    assert all(r["scale"] for r in listed.values())
    table = CliRunner().invoke(app, ["modifiers", "fullplate"], env={"COLUMNS": "250"})
    assert table.exit_code == 0 and "scale" in table.stdout and "relative_position" in table.stdout
    # A system whose table has no scales keeps its columns.
    rtw = CliRunner().invoke(app, ["modifiers", "rtw", "--json"])
    assert "scale" not in json.loads(rtw.stdout)[0]
