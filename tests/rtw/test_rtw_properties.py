"""Property tests (docs/architecture.md, "Tests"): any generated Reclaim the Wild scenario gives a result or one clear
error, and every outcome of its exact table keeps the page's invariants."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.conftest import scenario
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine import joint
from tohit.systems.rtw.tables import DAMAGE_TYPES

types = st.sampled_from(DAMAGE_TYPES)
stat = st.integers(min_value=-1, max_value=20)
flag = st.booleans()

weapons = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"attack_power": st.integers(0, 20), "acc": st.integers(0, 6), "damage_type": types},
        optional={
            "crit_range": st.integers(0, 4),
            "burning": flag,
            "durability": st.integers(0, 5),
            "enchantments": st.fixed_dictionaries(
                {}, optional={"critical_hit": st.integers(0, 6), "perfectly_balanced": st.integers(0, 5)}
            ),
        },
    ),
)
attackers = st.fixed_dictionaries(
    {"accuracy": stat, "combat": st.integers(0, 8), "willpower": st.integers(0, 8), "weapon": weapons},
    optional={"distracted": flag, "blinded": flag, "dazzled": flag, "boss": flag},
)
attacks = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["basic", "spell", "technique"]),
        "range": st.sampled_from(["melee", "line", "sweep", "projectile", "blast", "targets"]),
    },
    optional={
        "against": st.sampled_from(["evasion", "concentration", "vitality"]),
        "area": flag,
        "damage": st.fixed_dictionaries(
            {
                "trait": st.sampled_from(["combat", "willpower", "none"]),
                "multiplier": st.integers(0, 4),
                "weapon": flag,
            }
        ),
        "damage_type": st.lists(types, min_size=1, max_size=2),
        "effect": st.fixed_dictionaries(
            {"name": st.just("Off-Balance"), "against": st.sampled_from(["concentration", "vitality"])}
        ),
        "cost": st.fixed_dictionaries({"magic": st.integers(0, 6), "stamina": st.integers(0, 6)}),
        "crit_range": st.integers(0, 2),
        "normally_able_to_miss": flag,
        "at_zero_health": st.sampled_from(["perish", "helpless"]),
        "mindless": flag,
    },
)
targets = st.fixed_dictionaries(
    {"evasion": stat},
    optional={
        "concentration": stat,
        "vitality": stat,
        "defense": st.integers(0, 12),
        "resistance": st.dictionaries(types, st.integers(0, 3), max_size=2),
        "vulnerable": st.lists(types, max_size=2),
        "immune": st.lists(types, max_size=1),
        "health": st.integers(0, 24),
        "hearts": st.integers(1, 6),
        "hero": flag,
        "off_balance": flag,
        "hard_to_hit": st.sampled_from(["none", "hard", "extreme"]),
        "prone": flag,
        "halted": flag,
        "helpless": flag,
        "frozen": flag,
        "invisible": flag,
        "distracting": flag,
        "reaction": st.sampled_from(["none", "deflect", "parry"]),
        "intercepting": flag,
        "interceptor_feat": flag,
    },
)


def build(attacker: dict[str, Any], attack: dict[str, Any], found: list[dict[str, Any]]) -> dict[str, Any]:
    named = [{"name": f"T{i}", **t} for i, t in enumerate(found)]
    return {
        "system": "rtw",
        "attacker": {k: v for k, v in attacker.items() if v is not None},
        "attack": attack,
        "targets": named,
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attackers, attacks, st.lists(targets, min_size=1, max_size=3))
def test_rtw_any_scenario_gives_odds_or_one_clear_error(
    attacker: dict[str, Any], attack: dict[str, Any], found: list[dict[str, Any]]
) -> None:
    """Loading never raises anything but an InputError naming a field; a loaded scenario's exact table keeps the
    invariants: a miss does nothing, a critical is a hit, a landed damaging hit deals at least 1 (4 if Vulnerable)
    unless immune, Peril is Health <= Hearts."""
    data = build(attacker, attack, found)
    try:
        loaded = scenario(data)
    except InputError as exc:
        event("refused")
        assert exc.field, str(exc)
        assert "\n" not in str(exc)
        return
    event("loaded")
    system = loaded.system
    for target in loaded.scenario.targets:
        table = joint.build(system, loaded.scenario, target)
        assert int(table.weights[table.finite].sum()) == table.total
        rows = table.outcome.rows(system.fields)
        kinds = set(data["attack"].get("damage_type") or [])
        for row in rows:
            if row["result"] == "miss":
                assert (row["damage"], row["critical"], row["durability_used"]) == (0, False, False)
                assert row["effect_landed"] in (None, False)
            if row["critical"]:
                assert row["result"] == "hit"
            landed = row["result"] == "hit" and not row["unharmed"]
            deals = loaded.scenario.attack.damage is not None
            immune = bool(set(target.immune) & kinds) or (not kinds and bool(target.immune))
            if landed and deals and not immune:
                floor = 4 if set(target.vulnerable) & kinds else 1
                assert row["damage"] >= floor
            if row["unharmed"]:
                assert (row["damage"], row["falls"]) == (0, None)
            if row["peril"] is not None:
                assert row["peril"] == (row["health_after"] <= target.hearts)


@settings(max_examples=25, deadline=None)
@given(attackers, attacks, st.lists(targets, min_size=1, max_size=2))
def test_rtw_cli_never_shows_a_traceback(
    attacker: dict[str, Any], attack: dict[str, Any], found: list[dict[str, Any]]
) -> None:
    """Bad input through the CLI: exit code 0 or 2, and never a traceback."""
    import json
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.json"
        path.write_text(json.dumps(build(attacker, attack, found)), encoding="utf-8")
        result = CliRunner().invoke(app, ["odds", str(path), "--json"])
        assert result.exit_code in (0, 2), result.output
        assert "Traceback" not in result.output
        if result.exit_code == 2:
            assert len(result.stderr.strip().splitlines()) == 1
