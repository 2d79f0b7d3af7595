"""The WSSWNN system through the command line: roll, odds, simulate, schema and modifiers."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app

WANDU = str(EXAMPLES / "wsswnn" / "wandu-jump-attack.yaml")
CHOM = str(EXAMPLES / "wsswnn" / "chom-jump-attack.yaml")


def _json(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_wsswnn_cli_roll_gives_the_pages_numbers_and_a_trace() -> None:
    """`tohit roll wandu-jump-attack.yaml --json`: hit, 11, -5 life, -3 guard, each step citing its clause."""
    data = _json("roll", WANDU)
    target = data["targets"][0]
    assert (target["result"], target["attack_roll"], target["lethal"], target["guard_damage"]) == ("hit", 11, 5, 3)
    assert all(step["clause"].startswith("wsswnn: ") for step in data["trace"])


def test_wsswnn_cli_odds_reports_falling_as_exact_fractions() -> None:
    """`tohit odds chom-jump-attack.yaml --json`: falling_lethal is reported with exact fractions."""
    target = _json("odds", CHOM)["targets"][0]
    falling = target["fields"]["falling_lethal"]
    assert falling["null"]["fraction"] == "3/4"
    assert sum(float(v["float"]) for v in falling.values()) == 1.0


def test_wsswnn_cli_simulate_both_samplers() -> None:
    """`tohit simulate --method table|direct` both run on a WSSWNN scenario."""
    for method in ("table", "direct"):
        target = _json("simulate", CHOM, "-n", "20000", "--seed", "5", "--method", method)["targets"][0]
        assert target["n"] == 20000
        assert set(target["result"]) <= {"hit", "block", "miss"}


def test_wsswnn_cli_schema_and_modifiers() -> None:
    """`tohit schema wsswnn` is a JSON Schema naming the page's terms; `tohit modifiers wsswnn` lists rows."""
    schema = CliRunner().invoke(app, ["schema", "wsswnn"])
    assert schema.exit_code == 0
    text = schema.stdout
    for term in ("attack_die", "maneuver_die", "heights", "spans", "toughness", "structure", "unflinching"):
        assert term in text
    rows = _json("modifiers", "wsswnn")
    assert {"ranged", "ranged_spans", "jump_height", "jump_bonus", "take_hold_struggle"} <= {r["id"] for r in rows}
