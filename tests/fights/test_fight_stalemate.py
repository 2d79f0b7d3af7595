"""`--exact` says a stalemate in words (issue 20, item 7): a duel nobody can ever win is a draw that never
ends; one only open-ended dice past the depth could end is said as such, not as huge expected rounds."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.engine.fight.caches import caches
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.load import fight_from_dict


def armoured(open_rolls: bool) -> dict[str, Any]:
    data = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    for side in data["sides"]:
        target = side["combatants"][0]["target"]
        target.update({"armor": {"cut": 99, "impact": 99, "thrust": 99}, "absorption": 99})
    data["options"] = {"open_rolls_and_fumbles": open_rolls}
    return copy.deepcopy(data)


def test_stalemate_nobody_can_ever_win_is_a_draw_in_words() -> None:
    result = exact_duel(fight_from_dict(armoured(False), source="x"))
    assert result.wins == [0, 0] and result.draw == 1 and result.stalemate == "never"
    assert "never ends, a draw" in (result.stalemate_text() or "")
    assert result.to_json()["stalemate"] == result.stalemate_text()


def test_stalemate_only_past_the_depth_says_so() -> None:
    result = exact_duel(fight_from_dict(armoured(True), source="x"))
    assert result.wins == [0, 0] and result.beyond == 1 and result.stalemate == "depth"
    assert "unless open-ended dice go past depth 8" in (result.stalemate_text() or "")


def test_stalemate_cli_prints_it(tmp_path: Path) -> None:
    path = tmp_path / "stuck.yaml"
    path.write_text(yaml.safe_dump(armoured(False)))
    text = CliRunner().invoke(app, ["fight", str(path), "--exact"]).output
    flat = " ".join(text.replace("│", " ").split())  # the panel wraps its lines
    assert "stalemate: neither" in flat and "never ends, a draw" in flat
    out = json.loads(CliRunner().invoke(app, ["fight", str(path), "--exact", "--json"]).output)
    assert out["stalemate"].startswith("stalemate")


def test_a_duel_someone_can_win_is_no_stalemate() -> None:
    data = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    result = exact_duel(fight_from_dict(data, source="x"))
    assert result.stalemate is None and result.to_json()["stalemate"] is None


def worn_guard(guard: int) -> dict[str, Any]:
    """The WSSWNN wrestler-and-axe duel where armour stops every blow while Guard wears down and regrows (skips):
    a fight nobody can ever win, whose chain is all the Guard values both can pass through."""
    data = yaml.safe_load((EXAMPLES / "fights" / "wsswnn-wrestler-and-axe.yaml").read_text())
    for side in data["sides"]:
        side["combatants"][0]["target"].update({"guard": guard, "armor": 99})
    return copy.deepcopy(data)


def test_a_never_ending_duel_with_guard_that_regrows_is_a_draw_in_words() -> None:
    """Issue 21, item 7: `--exact` first proves (without probabilities) that nobody can ever end the duel, and
    says so, with the same answer the full chain gives."""
    fight = fight_from_dict(worn_guard(6), source="x")
    result = exact_duel(fight)
    assert result.stalemate == "never" and result.draw == 1 and result.expected_rounds is None
    full = exact_duel(fight_from_dict(worn_guard(6), source="x"), prove=False)
    assert (full.wins, full.draw, full.never_ends, full.beyond) == (result.wins, result.draw, 1, 0)
    assert full.states == result.states


def test_the_issues_never_ending_duel_at_guard_and_armor_99_is_a_draw_from_few_tables() -> None:
    """Issue 21, item 7 (the never-ending variant ran past 60 s): guard and armour 99, a chain of 119,605 states
    nobody can ever leave, is a draw that never ends. Only Stand Fast reads the attacker's own Guard
    (its binding's `kinds`), so the strikes' outcome tables are keyed by the target's Guard alone: a few hundred
    tables, not one per pair of Guards (tens of thousands: what made it slow)."""
    fight = fight_from_dict(worn_guard(99), source="x")
    result = exact_duel(fight)
    assert result.stalemate == "never" and result.draw == 1 and result.states == 119_605
    assert len(caches(fight).tables) < 1_000, len(caches(fight).tables)
